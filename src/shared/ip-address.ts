/**
 * IP address text, read without `node:net` so the engine runs anywhere:
 * IPv4 as node's `isIPv4` takes it (four decimal parts, no leading zero),
 * IPv6 as the WHATWG URL parser does (a zone, `%eth0`, allowed and left
 * out), which also writes it in RFC 5952's canonical form.
 */
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

export const isIPv4 = (text: string): boolean => IPV4.test(text);

/** An IPv6 address in canonical form (`::1`), or undefined when `text` is none. */
export function canonicalIPv6(text: string): string | undefined {
  const address = text.replace(/%[^%]*$/, '');
  if (!address.includes(':') || /[[\]/?#@]/.test(address)) return undefined;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

export const isIPv6 = (text: string): boolean => canonicalIPv6(text) !== undefined;

// ::ffff:127.x.y.z, as the URL parser writes it: the IPv4-mapped form of a loopback address.
const MAPPED_LOOPBACK = /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/;

/** Whether an address is a loopback one: 127.0.0.0/8 and ::1 (RFC 1122 §3.2.1.3, RFC 4291 §2.5.3), the IPv4 ones in their IPv4-mapped form too. */
export function isLoopbackAddress(text: string): boolean {
  if (isIPv4(text)) return text.startsWith('127.');
  const canonical = canonicalIPv6(text);
  return canonical === '::1' || (canonical !== undefined && MAPPED_LOOPBACK.test(canonical));
}
