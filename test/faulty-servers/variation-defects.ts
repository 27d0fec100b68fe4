import { gzipSync } from 'node:zlib';
import type { Defect, ServerFetch } from './defect.js';
import { errorResponse, hasKey, operationOf, respond } from './http.js';

/**
 * Servers right for every request written as the harness always writes it,
 * wrong for the same request written another way a client may write it
 * (src/contract-tests/generate/variations.ts): a negotiation field absent or
 * in another form, field names in another case or order, the scheme's
 * spelling, a chunked body, JSON members reordered, spaced or escaped, an
 * undocumented query parameter. Only requests with the key are affected, so
 * 401 still wins as in the mock.
 */

const LIST = ['vary-list-pets'];
const CREATE = ['vary-create-pet'];
const EVERY = ['vary-list-pets', 'vary-create-pet', 'vary-get-pet'];

const MEDIA = 'What the service does: requests and responses use the media type application/json (a client accepting it in any form of Accept gets it: RFC 9110 §12.5.1).';
const SUCCESS = 'Endpoints: listPets 200 Pets, createPet 201 Pet, getPet 200 Pet: nothing the interface states depends on a field it does not name.';
const AUTH = 'Authentication: Scheme: HTTP bearer, Authorization: Bearer <API_KEY> (field names and the scheme are case-insensitive: RFC 9110 §5.1, §11.1).';
const BODY = 'Endpoints > Add an animal: request body application/json, shape NewPet; 201 Pet (any JSON text of the same value: RFC 8259).';

/** The raw field lines of the request (names as sent, in order) from the node request under it. */
type Raw = readonly string[];
const field = (raw: Raw, name: string): string | undefined => {
  for (let i = 0; i + 1 < raw.length; i += 2) if ((raw[i] as string).toLowerCase() === name) return raw[i + 1];
  return undefined;
};

/** Answers `refusal` instead of the mock when the request has the key and `test` holds. */
const refuseWhen =
  (test: (request: Request, raw: Raw) => boolean, refusal: () => Response) =>
  (fetch: ServerFetch): ServerFetch =>
  (request, env) =>
    hasKey(request) && test(request, env.incoming.rawHeaders) ? refusal() : fetch(request, env);

/** Rewrites the mock's answer to a request with the key when `test` holds for the request. */
const answerWhen =
  (test: (request: Request, raw: Raw) => boolean, change: (response: Response) => Response | Promise<Response>) =>
  (fetch: ServerFetch): ServerFetch =>
  async (request, env) => {
    const applies = hasKey(request) && test(request, env.incoming.rawHeaders);
    const response = await fetch(request, env);
    return applies ? change(response) : response;
  };

const notAcceptable = () => errorResponse(406, 'not_acceptable', 'only application/json is served');
const crash = () => errorResponse(500, 'internal_error', 'unexpected input');
const unauthorized = () => errorResponse(401, 'unauthorized', 'Missing or invalid API key');

/** The answer gzipped, labelled with `label` as its Content-Encoding. */
const gzipped = (label: string) => async (response: Response) => {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.set('content-encoding', label);
  return new Response(gzipSync(Buffer.from(await response.arrayBuffer())), { status: response.status, headers });
};

/** createPet's body text, read before the mock (the mock then gets a copy). */
const onCreateText =
  (test: (text: string) => Response | undefined, changeText?: (text: string) => string) =>
  (fetch: ServerFetch): ServerFetch =>
  async (request, env) => {
    if (operationOf(request) !== 'createPet' || !hasKey(request)) return fetch(request, env);
    const text = await request.text();
    const refusal = test(text);
    if (refusal) return refusal;
    return fetch(new Request(request.url, { method: request.method, headers: request.headers, body: changeText ? changeText(text) : text }), env);
  };

const badBody = (message: string) => errorResponse(400, 'invalid_body', message);
/** JSON text with its string literals taken out, so what remains is tokens and whitespace. */
const withoutStrings = (text: string) => text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
/** Whether the body is a JSON object with a name: the order is only looked at in a NewPet. */
const hasName = (text: string): boolean => {
  try {
    return typeof (JSON.parse(text) as { name?: unknown } | null)?.name === 'string';
  } catch {
    return false;
  }
};
const queryNames = (request: Request) => [...new URL(request.url).searchParams.keys()];
const DOCUMENTED = new Set(['limit', 'status']);

export const variationDefects: Defect[] = [
  {
    name: 'a request without Accept refused with 406',
    breaks: MEDIA,
    wrap: refuseWhen((request) => !request.headers.has('accept'), notAcceptable),
    caughtBy: EVERY,
  },
  {
    name: 'an Accept with q-values crashes the server (500)',
    breaks: MEDIA,
    wrap: refuseWhen((request) => /;\s*q\s*=/i.test(request.headers.get('accept') ?? ''), crash),
    caughtBy: EVERY,
  },
  {
    name: 'a wildcard Accept (*/* or application/*) refused with 406',
    breaks: MEDIA,
    wrap: refuseWhen((request) => /^\s*(\*\/\*|application\/\*)\s*$/i.test(request.headers.get('accept') ?? ''), notAcceptable),
    caughtBy: EVERY,
  },
  {
    name: 'Accept matched case-sensitively (Application/JSON refused with 406)',
    breaks: MEDIA,
    wrap: refuseWhen((request) => {
      const accept = request.headers.get('accept');
      return accept !== null && !accept.includes('application/json') && !accept.includes('*/*');
    }, notAcceptable),
    caughtBy: EVERY,
  },
  {
    name: 'an Accept-Language of several languages refused with 400',
    breaks: SUCCESS,
    wrap: refuseWhen((request) => (request.headers.get('accept-language') ?? '').includes(','), () => errorResponse(400, 'invalid_header', 'one language only')),
    caughtBy: EVERY,
  },
  {
    name: 'listPets empty for a language other than English',
    breaks: 'Endpoints > List animals: 200 Pets, min(limit, animals that exist); Accept-Language is a preference (RFC 9110 §12.5.4) and the interface has no languages.',
    wrap: answerWhen(
      (request, raw) => operationOf(request) === 'listPets' && !/^\s*(\*|en\b)/i.test(field(raw, 'accept-language') ?? '*'),
      async (response) => (response.status === 200 ? respond(response, '[]') : response),
    ),
    caughtBy: LIST,
  },
  {
    name: 'every answer gzipped, whatever Accept-Encoding allows',
    breaks: 'Responses are application/json in a content coding the client accepts (RFC 9110 §12.5.3: Accept-Encoding identity allows none).',
    wrap: answerWhen(() => true, gzipped('gzip')),
    caughtBy: EVERY,
  },
  {
    name: 'gzip labelled br when br is preferred',
    breaks: 'Responses are application/json; the Content-Encoding names the coding the body is in (RFC 9110 §8.4).',
    wrap: answerWhen((request) => /\bbr\b/.test(request.headers.get('accept-encoding') ?? ''), gzipped('br')),
    caughtBy: EVERY,
  },
  {
    name: 'an Accept-Encoding without gzip refused with 406',
    breaks: SUCCESS,
    wrap: refuseWhen((request) => request.headers.has('accept-encoding') && !/gzip|\*/.test(request.headers.get('accept-encoding') ?? ''), notAcceptable),
    caughtBy: EVERY,
  },
  {
    name: 'createPet refuses a NewPet whose first member is not name (400)',
    breaks: BODY,
    wrap: onCreateText((text) => (hasName(text) && !/^\s*\{\s*"name"\s*:/.test(text) ? badBody('name must come first') : undefined)),
    caughtBy: CREATE,
  },
  {
    name: 'createPet refuses whitespace between JSON tokens (400)',
    breaks: BODY,
    wrap: onCreateText((text) => (/\s/.test(withoutStrings(text)) ? badBody('malformed JSON') : undefined)),
    caughtBy: CREATE,
  },
  {
    name: 'createPet reads \\u escapes past ASCII as "?"',
    breaks: BODY,
    wrap: onCreateText(() => undefined, (text) => text.replace(/\\u([0-9a-fA-F]{4})/g, (escape, hex: string) => (parseInt(hex, 16) > 0x7f ? '?' : escape))),
    caughtBy: CREATE,
  },
  {
    name: 'an undocumented query parameter crashes the server (500)',
    breaks: 'Errors: the error statuses are 400 (createPet), 401 and 404 (getPet): the interface lists no 5xx.',
    wrap: refuseWhen((request) => queryNames(request).some((name) => operationOf(request) !== 'listPets' || !DOCUMENTED.has(name)), crash),
    caughtBy: EVERY,
  },
  {
    name: 'an undocumented query parameter empties the listPets page',
    breaks: 'Endpoints > List animals: 200 Pets, min(limit, animals that exist); an undocumented parameter may be refused, not change the page.',
    wrap: answerWhen((request) => operationOf(request) === 'listPets' && queryNames(request).some((name) => !DOCUMENTED.has(name)), async (response) => (response.status === 200 ? respond(response, '[]') : response)),
    caughtBy: LIST,
  },
  {
    name: 'Authorization read only under its lower-case name (401 otherwise)',
    breaks: AUTH,
    wrap: refuseWhen((_, raw) => !raw.some((name, i) => i % 2 === 0 && name === 'authorization'), unauthorized),
    caughtBy: EVERY,
  },
  {
    name: 'the scheme accepted only as "Bearer" (401 to bearer, BEARER)',
    breaks: AUTH,
    wrap: refuseWhen((_, raw) => !(field(raw, 'authorization') ?? '').startsWith('Bearer '), unauthorized),
    caughtBy: EVERY,
  },
  {
    name: 'the token read after exactly one space (401 to "Bearer  <key>")',
    breaks: AUTH,
    wrap: refuseWhen((_, raw) => /^\S+ {2,}/.test(field(raw, 'authorization') ?? ''), unauthorized),
    caughtBy: EVERY,
  },
  {
    name: 'fields after Authorization not read (406 when Accept comes after it)',
    breaks: MEDIA,
    wrap: refuseWhen((_, raw) => {
      const names = raw.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
      return names.includes('accept') && names.indexOf('authorization') < names.indexOf('accept');
    }, notAcceptable),
    caughtBy: EVERY,
  },
  {
    name: 'a chunked createPet body read as empty (400)',
    breaks: 'Endpoints > Add an animal: 201 Pet for a valid NewPet; a body sent chunked is the same body (RFC 9112 §6.1), and only 411 may ask for its length (§6.3).',
    wrap: refuseWhen((request, raw) => operationOf(request) === 'createPet' && /chunked/i.test(field(raw, 'transfer-encoding') ?? ''), () => errorResponse(400, 'missing_body', 'the request has no body')),
    caughtBy: CREATE,
  },
  {
    name: 'a request without User-Agent refused with 403',
    breaks: SUCCESS,
    wrap: refuseWhen((_, raw) => field(raw, 'user-agent') === undefined, () => errorResponse(403, 'forbidden', 'clients must identify themselves')),
    caughtBy: EVERY,
  },
  {
    name: 'Cache-Control: no-cache crashes the server (500)',
    breaks: SUCCESS,
    wrap: refuseWhen((request) => /no-cache/i.test(request.headers.get('cache-control') ?? ''), crash),
    caughtBy: EVERY,
  },
];
