import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import type { AppFetch } from '../support/contract-cli.js';

/**
 * The mock with other choices HTTP leaves to a server, each a correct one:
 * how its reads may be cached, and the validators it revalidates them
 * with. The mock itself sends no Cache-Control and no validator; the
 * reference server no CORS at all. Each wraps the mock's answers to
 * listPets and getPet (the key is checked first, by the mock).
 */

const isRead = (request: Request): boolean => (request.method === 'GET' || request.method === 'HEAD') && /\/v1\/pets(\/[^/]+)?$/.test(new URL(request.url).pathname);

/** The answer with these fields added (or replaced), its body as it was. */
function withFields(response: Response, fields: Record<string, string>, body: ReadableStream<Uint8Array> | string | null = response.body): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(fields)) headers.set(name, value);
  return new Response(body, { status: response.status, headers });
}

/** Every read answered with this Cache-Control (and Vary, when given). */
const cached =
  (cacheControl: string, vary?: string) =>
  (fetch: AppFetch): AppFetch =>
  async (request) => {
    const response = await fetch(request);
    if (!isRead(request)) return response;
    return withFields(response, { 'cache-control': cacheControl, ...(vary ? { vary } : {}) });
  };

const digest = (body: string): string => createHash('sha256').update(body).digest('base64url').slice(0, 22);

/** RFC 9110 §13.1.2: If-None-Match compares weakly, `*` matches any current representation. */
const noneMatch = (field: string, etag: string): boolean =>
  field.trim() === '*' || field.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag.replace(/^W\//, ''));

/** ETags made from the body (strong, or weak with W/), and a 304 when the client holds the current one: only to a 200, so 401s and 404s are as they were. */
const entityTags =
  (weak: boolean) =>
  (fetch: AppFetch): AppFetch =>
  async (request) => {
    const response = await fetch(request);
    if (!isRead(request) || request.method !== 'GET' || response.status !== 200) return response;
    const body = await response.text();
    const etag = `${weak ? 'W/' : ''}"${digest(body)}"`;
    const held = request.headers.get('if-none-match');
    if (held !== null && noneMatch(held, etag)) return new Response(null, { status: 304, headers: { etag } });
    return withFields(response, { etag }, body);
  };

/**
 * Last-Modified only: the time this URL's answer was first seen as it is. An
 * HTTP date counts whole seconds, so where two answers of one URL fell in the
 * same second the date cannot tell them apart, and a revalidation is
 * answered 200 (RFC 9110 §8.8.2.2, §13.1.3).
 */
const lastModified = (): ((fetch: AppFetch) => AppFetch) => {
  const seen = new Map<string, Map<string, number>>();
  return (fetch) => async (request) => {
    const response = await fetch(request);
    if (!isRead(request) || request.method !== 'GET' || response.status !== 200) return response;
    const body = await response.text();
    const versions = seen.get(request.url) ?? new Map<string, number>();
    seen.set(request.url, versions);
    const second = versions.get(digest(body)) ?? Math.floor(Date.now() / 1000);
    versions.set(digest(body), second);
    const date = new Date(second * 1000).toUTCString();
    const since = Date.parse(request.headers.get('if-modified-since') ?? '') / 1000;
    const alone = [...versions.values()].filter((other) => other === second).length === 1;
    if (alone && second <= since) return new Response(null, { status: 304, headers: { 'last-modified': date } });
    return withFields(response, { 'last-modified': date }, body);
  };
};

/**
 * JSON answers in gzip when the request accepts it, as nginx's `gzip on`
 * sends them, a strong validator weakened (another representation, RFC
 * 9110 §8.8.3); HEAD with the fields its GET would have, Content-Encoding
 * among them, and no content (§9.3.2).
 */
const gzipped = () => (fetch: AppFetch): AppFetch => async (request) => {
  const response = await fetch(request);
  if (response.status === 304 || response.headers.has('content-encoding') || !/json/i.test(response.headers.get('content-type') ?? '')) return response;
  // Every answer that could have been coded says so, coded or not (nginx's gzip_vary).
  const headers = new Headers(response.headers);
  headers.append('vary', 'Accept-Encoding');
  const codings = (request.headers.get('accept-encoding') ?? '').split(',').map((c) => c.trim().toLowerCase());
  const accepts = codings.some((c) => (c === 'gzip' || c.startsWith('gzip;')) && !/;\s*q=0(\.0*)?$/.test(c));
  if (!accepts) return new Response(response.body, { status: response.status, headers });
  headers.set('content-encoding', 'gzip');
  headers.delete('content-length');
  const etag = headers.get('etag');
  if (etag && !etag.startsWith('W/')) headers.set('etag', `W/${etag}`);
  if (request.method === 'HEAD') return new Response(null, { status: response.status, headers });
  return new Response(gzipSync(new Uint8Array(await response.arrayBuffer())), { status: response.status, headers });
};

/** Each correct choice, by what it is. */
export const HTTP_CHOICES: Record<string, () => (fetch: AppFetch) => AppFetch> = {
  'Cache-Control: no-store': () => cached('no-store'),
  'Cache-Control: private, max-age=60': () => cached('private, max-age=60'),
  'Cache-Control: public, max-age=60 with Vary: Authorization': () => cached('public, max-age=60', 'Authorization'),
  'strong ETags with 304s': () => entityTags(false),
  'weak ETags with 304s': () => entityTags(true),
  'Last-Modified only, with 304s': lastModified,
  'gzip when accepted, HEAD with the Content-Encoding of its GET': gzipped,
};
