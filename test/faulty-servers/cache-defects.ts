import { createHash } from 'node:crypto';
import type { Defect, ServerFetch } from './defect.js';
import { afterMock, operationOf, respond } from './http.js';
import { writeContentAnyway } from './method-defects.js';

/**
 * Defects in what HTTP defines for every resource, caching and
 * revalidation: each is caught by a rule of http-cache-rules.ts or
 * revalidation-rules.ts.
 */

const isRead = (request: Request): boolean => request.method === 'GET' && (operationOf(request) === 'listPets' || operationOf(request) === 'getPet');
const tagOf = (body: string): string => `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`;

/** listPets and getPet answers with an ETag made by `tag` from the body; a GET whose If-None-Match names it is answered 304 when `matches` says so. */
const tagged =
  (tag: (body: string) => string, notModified: (request: Request, response: Response, etag: string) => boolean) =>
  (fetch: ServerFetch): ServerFetch =>
  async (request, env) => {
    const response = await fetch(request, env);
    if (!isRead(request)) return response;
    const body = await response.text();
    const etag = tag(body);
    if (notModified(request, response, etag)) return new Response(null, { status: 304, headers: { etag } });
    return respond(response, body, response.status === 200 ? { headers: { etag } } : {});
  };

/** A cache in front that keeps every 200 to a read for a minute, keyed on the URL alone, as a CDN does with `Cache-Control: max-age=60`. */
const urlKeyedCache = (): ((fetch: ServerFetch) => ServerFetch) => {
  const kept = new Map<string, { body: string; type: string }>();
  return (fetch) => async (request, env) => {
    const hit = isRead(request) ? kept.get(request.url) : undefined;
    if (hit) return new Response(hit.body, { status: 200, headers: { 'content-type': hit.type, age: '1' } });
    const response = await fetch(request, env);
    if (!isRead(request) || response.status !== 200) return response;
    const body = await response.text();
    kept.set(request.url, { body, type: response.headers.get('content-type') ?? 'application/json' });
    setTimeout(() => kept.delete(request.url), 60_000).unref();
    return respond(response, body, { headers: { 'cache-control': 'max-age=60' } });
  };
};

export const cacheDefects: Defect[] = [
  {
    name: 'getPet answered Cache-Control: public, max-age=60, without Vary: Authorization',
    breaks: 'RFC 9111 §3.5 and Authentication: an answer to a request with the key is not made storable by a shared cache unless Vary names Authorization (a CDN gives it to requests without the key).',
    wrap: afterMock(
      (operation) => operation === 'getPet',
      async (response) => respond(response, await response.text(), { headers: { 'cache-control': 'public, max-age=60' } }),
    ),
    caughtBy: ['cache-shared-get-pet'],
  },
  {
    name: 'a cache in front gives a keyed answer to a request without the key',
    breaks: 'Authentication: the requirement applies to every operation; when the key is missing or invalid, the service answers 401 with an Error body.',
    wrap: urlKeyedCache(),
    caughtBy: ['cache-keyless-list-pets', 'cache-keyless-get-pet'],
  },
  {
    name: 'a constant ETag: a list revalidated after a create answers 304',
    breaks: 'RFC 9110 §15.4.5 and Endpoints > List animals: 304 says the client holds the current list; after a create that adds to it, it does not.',
    wrap: tagged(
      () => '"catalogue"',
      (request, response, etag) => response.status === 200 && request.headers.get('if-none-match') === etag,
    ),
    caughtBy: ['revalidate-list-after-create'],
  },
  {
    name: '304 to a request with If-None-Match and no key',
    breaks: 'RFC 9110 §13.2.1 and Authentication: without the key the answer is 401, whatever precondition the request carries.',
    wrap: tagged(tagOf, (request) => request.headers.get('if-none-match') !== null),
    caughtBy: ['revalidate-credentials-list-pets', 'revalidate-credentials-get-pet'],
  },
  {
    name: 'a 304 with the content of the 200',
    breaks: 'RFC 9110 §15.4.5: a 304 response is terminated by the end of the header section; it cannot contain content.',
    wrap: (fetch) => {
      const withTags = tagged(tagOf, () => false)(fetch);
      return async (request, env) => {
        const response = await withTags(request, env);
        const etag = response.headers.get('etag');
        // Answered as the 200 it is, but with the status line of a 304: node would send no content after one.
        if (isRead(request) && response.status === 200 && etag !== null && request.headers.get('if-none-match') === etag) writeContentAnyway(env.outgoing, 304);
        return response;
      };
    },
    caughtBy: ['revalidate-credentials-list-pets', 'revalidate-credentials-get-pet'],
  },
];
