import { isIPv6, isLoopbackAddress } from '../../../../shared/ip-address.js';

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
  return isLoopbackAddress(name);
}

/** A `--host` value as a URL's hostname shows it (lower case, IPv6 in brackets, numeric IPv4 forms spelt out), or undefined when it is none. */
export function urlHostname(host: string): string | undefined {
  try {
    return new URL(`http://${isIPv6(host) ? `[${host}]` : host}`).hostname;
  } catch {
    return undefined;
  }
}
