import { noneMatchFails } from '../core/files/none-match.js';
import type { StaticFile } from '../core/files/static-file.js';
import type { Exchange } from './exchange.js';
import { respond } from './respond.js';

/**
 * A file from memory (the console's, the API reference's), with its ETag:
 * 304 Not Modified, no body, when the request's `If-None-Match` names it
 * (RFC 9110 §13.1.2; only for GET and HEAD, the methods these paths
 * serve), else 200 and the file. The 304 carries the headers the 200
 * would (§15.4.5 asks for Cache-Control, ETag and Vary at least), so the
 * cached copy keeps its rules.
 */
export function sendFile(x: Exchange, file: StaticFile, headers: Readonly<Record<string, string>>): Response {
  const kept = { ...headers, etag: file.etag };
  const method = x.c.req.method;
  if ((method === 'GET' || method === 'HEAD') && noneMatchFails(x.c.req.header('if-none-match'), file.etag)) return respond(x, 304, null, kept);
  return respond(x, 200, file.body as string | Uint8Array<ArrayBuffer>, { 'content-type': file.type, ...kept });
}
