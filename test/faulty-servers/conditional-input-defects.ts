import type { Defect, ServerFetch } from './defect.js';
import { errorResponse, hasKey, operationOf, respond, rewriteRequest } from './http.js';

/**
 * createPet bodies the fixed rules never send (a null status, a boolean or
 * past-int64 categoryId, a wrongly cased status, a JSON null, a nested
 * object, a name of 10,000 characters) taken, coerced or crashed on. The
 * key is checked first (`hasKey`), so 401 still wins as in the mock.
 */

const STATUSES = ['available', 'pending', 'sold'];
const BAD_REQUEST = 'Endpoints > Add an animal: 400, Error, when the body is missing required fields or contains invalid values (NewPet: name string, categoryId integer int64, status PetStatus).';
const NO_5XX = 'Errors: the error statuses are 400 (createPet), 401 and 404 (getPet): the interface lists no 5xx.';
const REJECTS = ['create-generated-rejects'];

/** What to do with a createPet body: send another text to the mock, or answer at once. */
type BodyChange = (body: unknown, text: string) => string | Response | undefined;
const NOT_JSON = Symbol('not JSON');

/** Applies `change` to createPet requests with the key, before the mock reads the body. */
export const onCreateBody =
  (change: BodyChange) =>
  (fetch: ServerFetch): ServerFetch =>
  async (request, env) => {
    if (operationOf(request) !== 'createPet' || !hasKey(request)) return fetch(request, env);
    const text = await request.text();
    let body: unknown = NOT_JSON;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: the mock refuses it as before.
    }
    const changed = change(body, text);
    if (changed instanceof Response) return changed;
    return fetch(await rewriteRequest(request, { body: changed ?? text }), env);
  };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A change of one field of an object body, when `when` holds for its value. */
const coerce = (field: string, when: (value: unknown) => boolean, to: (value: unknown) => unknown): BodyChange => (body) =>
  isObject(body) && field in body && when(body[field]) ? JSON.stringify({ ...body, [field]: to(body[field]) }) : undefined;

const crash = (why: string) => errorResponse(500, 'internal_error', why);
/** Whether the body's categoryId literal is past int64, read from the text (JSON.parse rounds 2^63 − 1 and 2^63 alike). */
const categoryPastInt64 = (text: string) => {
  const literal = /"categoryId"\s*:\s*(-?\d+)(?![\d.eE])/.exec(text)?.[1];
  return literal !== undefined && (BigInt(literal) > 2n ** 63n - 1n || BigInt(literal) < -(2n ** 63n));
};

export const conditionalInputDefects: Defect[] = [
  {
    name: 'status null accepted (taken as left out)',
    breaks: BAD_REQUEST,
    wrap: onCreateBody((body) => (isObject(body) && body.status === null ? JSON.stringify({ ...body, status: undefined }) : undefined)),
    caughtBy: REJECTS,
  },
  {
    name: 'a boolean categoryId accepted (true as 1, false as 0)',
    breaks: BAD_REQUEST,
    wrap: onCreateBody(coerce('categoryId', (v) => typeof v === 'boolean', Number)),
    caughtBy: REJECTS,
  },
  {
    name: 'a wrongly cased status accepted ("Available" lowered)',
    breaks: BAD_REQUEST,
    wrap: onCreateBody(coerce('status', (v) => typeof v === 'string' && !STATUSES.includes(v) && STATUSES.includes(v.toLowerCase()), (v) => String(v).toLowerCase())),
    caughtBy: REJECTS,
  },
  {
    name: 'a padded status accepted (trimmed)',
    breaks: BAD_REQUEST,
    wrap: onCreateBody(coerce('status', (v) => typeof v === 'string' && !STATUSES.includes(v) && STATUSES.includes(v.trim()), (v) => String(v).trim())),
    caughtBy: REJECTS,
  },
  {
    name: 'an array name accepted (joined)',
    breaks: BAD_REQUEST,
    wrap: onCreateBody(coerce('name', Array.isArray, (v) => (v as unknown[]).join(' '))),
    caughtBy: REJECTS,
  },
  {
    name: 'a categoryId past int64 accepted (stored as ±(2^53 − 1))',
    breaks: BAD_REQUEST,
    wrap: onCreateBody((body, text) => (isObject(body) && categoryPastInt64(text) ? JSON.stringify({ ...body, categoryId: Math.sign(body.categoryId as number) * Number.MAX_SAFE_INTEGER }) : undefined)),
    caughtBy: REJECTS,
  },
  {
    name: 'a JSON null body answered 201 (a default animal created)',
    breaks: BAD_REQUEST,
    wrap: onCreateBody((body) => (body === null ? JSON.stringify({ name: 'unnamed', categoryId: 0 }) : undefined)),
    caughtBy: REJECTS,
  },
  {
    name: 'a NewPet sent as text/plain accepted',
    breaks: 'What the service does: requests use the media type application/json (Endpoints > Add an animal: request body application/json; otherwise 400).',
    wrap: (fetch) => async (request, env) => {
      if (operationOf(request) !== 'createPet' || !/^text\/plain\b/i.test(request.headers.get('content-type') ?? '')) return fetch(request, env);
      const headers = new Headers(request.headers);
      headers.set('content-type', 'application/json');
      return fetch(await rewriteRequest(request, { headers }), env);
    },
    caughtBy: REJECTS,
  },
  {
    name: 'createPet answers 500 for a name longer than 1000 characters',
    breaks: `${NO_5XX} (Limits: name length limits are not shown; a valid NewPet gets 201, or at most a clear 400.)`,
    wrap: onCreateBody((body) => (isObject(body) && typeof body.name === 'string' && body.name.length > 1000 ? crash('value too long for type character varying(1000)') : undefined)),
    caughtBy: ['create-generated-round-trip'],
  },
  {
    name: 'createPet answers 500 for a field that is a JSON object',
    breaks: `${BAD_REQUEST} ${NO_5XX}`,
    wrap: onCreateBody((body) => (isObject(body) && Object.values(body).some(isObject) ? crash('Cannot convert object to primitive value') : undefined)),
    caughtBy: REJECTS,
  },
  {
    name: 'createPet answers 500 for a categoryId past int64',
    breaks: `${BAD_REQUEST} ${NO_5XX}`,
    wrap: onCreateBody((body, text) => (isObject(body) && categoryPastInt64(text) ? crash('numeric value out of range for bigint') : undefined)),
    caughtBy: REJECTS,
  },
  {
    name: 'the 400 for an empty createPet body sent as application/problem+json',
    breaks: 'What the service does: responses use the media type application/json (Errors: every error response has the Error body).',
    // The body parser's own error path, not the validation the fixed rules reach.
    wrap: (fetch) => async (request, env) => {
      const response = await fetch(request, env);
      if (operationOf(request) !== 'createPet' || response.status !== 400) return response;
      const text = await response.text();
      const problem = (JSON.parse(text) as { code?: unknown }).code === 'missing_body';
      return respond(response, text, problem ? { headers: { 'content-type': 'application/problem+json' } } : {});
    },
    caughtBy: REJECTS,
  },
];
