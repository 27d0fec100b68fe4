import type { AppFetch } from '../support/contract-cli.js';

/**
 * The mock with other defensible choices where the interface is silent on
 * whether two spellings are one request (docs/harness-rules.md, "Requests
 * written another way"). Each must pass every rule: the harness may not
 * hold a server to the mock's choice there, only to answering alike with
 * and without the key.
 */

/** `/v1/pets/` (another path than `/v1/pets`, RFC 3986 §6.2.3) redirected to it with 301, before any key check, as many frameworks do. */
export const redirectsEmptyLastSegment = (fetch: AppFetch): AppFetch => (request) => {
  const path = withoutEmptyLastSegment(request);
  if (path === undefined) return fetch(request);
  // Responses use application/json (What the service does), a redirect's too.
  return Response.json({ code: 'moved_permanently', message: `see ${path}`, status: 301 }, { status: 301, headers: { location: path + new URL(request.url).search } });
};

/** `/v1/pets/` answered as `/v1/pets`, the key checked the same (a router that ignores a trailing slash). */
export const ignoresEmptyLastSegment = (fetch: AppFetch): AppFetch => async (request) => {
  const path = withoutEmptyLastSegment(request);
  if (path === undefined) return fetch(request);
  const url = new URL(request.url);
  url.pathname = path;
  return fetch(new Request(url, { method: request.method, headers: request.headers, body: request.method === 'POST' ? await request.text() : undefined }));
};

/** The path of `/v1/pets/` read as a router reads it (percent-decoded), without its empty last segment; undefined for any other path. */
function withoutEmptyLastSegment(request: Request): string | undefined {
  const path = decodeURIComponent(new URL(request.url).pathname);
  return /\/pets\/$/.test(path) ? path.slice(0, -1) : undefined;
}
