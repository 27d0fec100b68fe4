import { isIPv4, isIPv6 } from '../../../shared/ip-address.js';

/**
 * The client a journal stream is counted against, from the connection's
 * remote address: what one host cannot cheaply change.
 * - An IPv4-mapped IPv6 address (`::ffff:192.0.2.7`, how a server bound to
 *   `::` sees IPv4 clients) is that IPv4 address, so a host is one client
 *   whichever way the mock was bound.
 * - Any other IPv6 address counts by its /64: a host picks any address of
 *   its network's /64 for itself (RFC 4941's temporary addresses, RFC 8981),
 *   so one address per stream would cost it nothing.
 * - An IPv4 address is itself. The loopback's addresses (127.0.0.0/8) stay
 *   apart: a process on the mock's own machine can already stop or starve
 *   the mock, so the limit does not guard against it.
 */
export function streamClient(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (!isIPv6(address) || address === '::1') return address;
  const full = expandIPv6(address);
  return full === undefined ? address : `${full.slice(0, 4).join(':')}::/64`;
}

/**
 * The eight 16-bit groups of an IPv6 address, in lower-case hex without
 * leading zeros: the WHATWG URL parser writes it in RFC 5952's form (an
 * embedded IPv4 part in hex), and only its `::` is left to expand. A zone
 * (`%eth0`) is dropped; undefined if the parser refuses the address.
 */
function expandIPv6(address: string): string[] | undefined {
  let canonical: string;
  try {
    canonical = new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const [head = '', tail = ''] = canonical.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  return canonical.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
}
