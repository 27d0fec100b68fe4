import type { IncomingMessage } from 'node:http';

/**
 * RFC 9112 §3.2.2: a server MUST accept the absolute-form, and a scheme is
 * case-insensitive (RFC 3986 §3.1): `GET HTTP://host/v1/pets` is `http://`.
 * The adaptor reads a target as absolute only when its scheme is written in
 * lower case, and refuses the rest, so the scheme is written so first.
 */
export function lowerCaseScheme(req: IncomingMessage): void {
  const url = req.url ?? '';
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1];
  if (scheme !== undefined && scheme !== scheme.toLowerCase()) req.url = scheme.toLowerCase() + url.slice(scheme.length);
}
