import { BlockList, isIP, isIPv6 } from 'node:net';

// 127.0.0.0/8 and ::1 (RFC 1122 §3.2.1.3, RFC 4291 §2.5.3); BlockList also
// matches their IPv4-mapped forms (::ffff:127.0.0.1).
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Whether a host name or address names this machine's loopback: an address
 * in 127.0.0.0/8 or ::1, `localhost`, or a name under `.localhost`, which
 * RFC 6761 §6.3 reserves for loopback and browsers resolve without asking
 * DNS, so no one can point such a name elsewhere. Takes a `--host` value or
 * a URL's hostname (IPv6 in brackets or not; a trailing dot allowed).
 */
export function isLoopback(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const family = isIP(name);
  return family !== 0 && LOOPBACK.check(name, family === 6 ? 'ipv6' : 'ipv4');
}

/** A `--host` value as a URL's hostname shows it (lower case, IPv6 in brackets, numeric IPv4 forms spelt out), or undefined when it is none. */
export function urlHostname(host: string): string | undefined {
  try {
    return new URL(`http://${isIPv6(host) ? `[${host}]` : host}`).hostname;
  } catch {
    return undefined;
  }
}
