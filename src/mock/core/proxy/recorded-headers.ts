/**
 * The answer's fields a recorded stub keeps: those that say what the
 * answer means to a client (when to retry, how to authenticate, what is
 * allowed, where to go, what is deprecated). Every other field is left
 * out: Date, ETag, Set-Cookie, trace and request ids, Server, which differ
 * between two recordings of the same traffic or carry a session.
 */
const KEPT = ['retry-after', 'www-authenticate', 'allow', 'location', 'deprecation', 'sunset', 'link'] as const;

/** An HTTP-date in Retry-After (RFC 9110 §10.2.3) is a moment of the recording: only its delay in seconds is kept. */
const SECONDS = /^\d+$/;

export function recordedResponseHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT) {
    const value = headers[name];
    if (value === undefined || (name === 'retry-after' && !SECONDS.test(value))) continue;
    kept[name] = value;
  }
  return kept;
}
