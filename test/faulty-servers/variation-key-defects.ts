import type { HttpBindings } from '@hono/node-server';
import type { Defect, ServerFetch } from './defect.js';
import { errorResponse, hasKey, operationOf, withKey } from './http.js';

/**
 * Servers that let a request in without the key, or with a wrong one, only
 * when it is written another way a client may write it: a key check that
 * reads the request in one spelling while the router reads it in another.
 * Every request as the harness always writes it, with or without the key,
 * gets the mock's own answer, so only a variation sent without the key
 * shows them (src/contract-tests/rules/variation-key.ts).
 */

export const AUTH = 'Authentication: the requirement applies to every operation; when the key is missing or invalid, the service answers 401 with an Error body.';
const EVERY = ['vary-list-pets', 'vary-create-pet', 'vary-get-pet'];

/** The raw request as it came over the wire: its target before any parsing, its field lines as sent. */
export type Wire = HttpBindings['incoming'];

/** Answers as if the request carried the key when `test` holds for it as it came over the wire. */
export const letsInWhen =
  (test: (request: Request, wire: Wire) => boolean) =>
  (fetch: ServerFetch): ServerFetch =>
  async (request, env) =>
    test(request, env.incoming) ? fetch(await withKey(request), env) : fetch(request, env);

const authorization = (request: Request) => request.headers.get('authorization') ?? '';

export const variationKeyDefects: Defect[] = [
  {
    // A check that compares the scheme with "Bearer " exactly and hands every other spelling to a gateway that is not there.
    name: 'a wrong key let in when the scheme is written bearer or BEARER',
    breaks: AUTH,
    wrap: letsInWhen((request) => /^bearer /i.test(authorization(request)) && !authorization(request).startsWith('Bearer ')),
    caughtBy: EVERY,
  },
  {
    // The key checked in the step that reads a body of known length; a chunked body streams past it.
    name: 'createPet without the key accepted when its body is chunked',
    breaks: AUTH,
    wrap: letsInWhen((request, wire) => operationOf(request) === 'createPet' && /chunked/i.test(String(wire.headers['transfer-encoding'] ?? ''))),
    caughtBy: ['vary-create-pet'],
  },
  {
    // The 401 decided after the store was written, for the spelling only the streaming path reads.
    name: 'createPet without the key answered 401 but stored when its body is chunked',
    breaks: `${AUTH} A refused create stores nothing.`,
    wrap: (fetch) => async (request, env) => {
      if (hasKey(request) || operationOf(request) !== 'createPet' || !/chunked/i.test(String(env.incoming.headers['transfer-encoding'] ?? ''))) return fetch(request, env);
      await fetch(await withKey(request), env);
      return errorResponse(401, 'unauthorized', 'Missing or invalid API key');
    },
    caughtBy: ['vary-create-pet'],
  },
  {
    // A cache-busted request taken for a health check.
    name: 'a request with a cache-busting query parameter (_=) let in without the key',
    breaks: AUTH,
    wrap: letsInWhen((request) => new URL(request.url).searchParams.has('_')),
    caughtBy: EVERY,
  },
];
