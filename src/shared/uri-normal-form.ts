/**
 * Unreserved characters (RFC 3986 §2.3): "URIs that differ in the
 * replacement of an unreserved character with its corresponding
 * percent-encoded US-ASCII octet are equivalent".
 */
export const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * A path with each percent-encoded unreserved character read as itself
 * (RFC 3986 §6.2.2.2), the other encodings left as they are, so a path
 * parameter is still decoded once: `/v1/%70ets/%33%30` is `/v1/pets/30`.
 */
export function decodeUnreserved(path: string): string {
  return path.replace(/%([0-9a-fA-F]{2})/g, (encoded, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(c) ? c : encoded;
  });
}

/**
 * The path of a URL, or of a path (`/./%70ets?x`, read below any base), as
 * RFC 3986 §6.2.2 names the resource: dot segments removed (§5.2.4),
 * unreserved characters decoded: `/pets`.
 */
export function normalPath(target: string): string {
  // `./` first: a path that starts `//` would otherwise be read as a host.
  return decodeUnreserved(new URL(target.startsWith('/') ? `.${target}` : target, 'http://base/').pathname);
}

