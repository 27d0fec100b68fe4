/**
 * The headers of a page the mock serves to a browser (the console, the
 * API reference), with its own Content-Security-Policy: no MIME sniffing,
 * no Referer sent from the page, and
 * `no-cache`: revalidated on every load (RFC 9111 §5.2.2.4), so a mock
 * upgraded under an open tab serves its new page, at the cost of a 304
 * when nothing changed (send-file.ts).
 */
export const pageHeaders = (csp: string): Readonly<Record<string, string>> =>
  Object.freeze({
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-cache',
  });
