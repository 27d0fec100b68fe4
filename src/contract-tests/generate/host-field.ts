/**
 * The Host field of a request written another way (generate/variations.ts,
 * dimensions `host` and `otherHost`), written from the base URL's
 * authority: the variation names the form, the HTTP client the value, so a
 * replayed case sends the same form to any target.
 */
export type HostForm = 'in upper case' | 'with the default port written' | 'with a trailing dot' | 'localhost' | 'LOCALHOST.' | '[::1]';

/** An IP literal: no case to change, and no DNS name to end with a dot (RFC 3986 §3.2.2). */
const IP_LITERAL = /^(\[.*\]|\d+\.\d+\.\d+\.\d+)$/;

/** The Host value of `form` for a request to `url` (RFC 9110 §7.2: uri-host and the port when not the default). */
export function hostField(form: HostForm, url: URL): string {
  // WHATWG's URL has the host in lower case and the default port left out already.
  const port = url.port === '' ? '' : `:${url.port}`;
  switch (form) {
    // RFC 3986 §6.2.2.1: the host is case-insensitive.
    case 'in upper case':
      return url.host.toUpperCase();
    // RFC 3986 §6.2.3, RFC 9110 §4.2.3: the default port written out is the same authority; a port of its own has no other spelling.
    case 'with the default port written':
      return port === '' ? `${url.hostname}:${url.protocol === 'https:' ? 443 : 80}` : url.host;
    // DNS's absolute name (RFC 3986 §3.2.2); an IP literal has none.
    case 'with a trailing dot':
      return IP_LITERAL.test(url.hostname) ? url.host : `${url.hostname}.${port}`;
    // What a browser or curl at http://localhost:PORT/ writes.
    case 'localhost':
      return `localhost${port}`;
    // Written by hand: another case, DNS's absolute name, no port.
    case 'LOCALHOST.':
      return 'LOCALHOST.';
    case '[::1]':
      return `[::1]${port}`;
  }
}
