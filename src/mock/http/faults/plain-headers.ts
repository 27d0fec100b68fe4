/** An answer's headers to send again with another body: its length is the new body's. */
export function plainHeaders(response: Response): Record<string, string> {
  const headers = Object.fromEntries(response.headers);
  delete headers['content-length'];
  return headers;
}
