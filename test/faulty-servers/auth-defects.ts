import { FAULTY_SERVER_KEY, type Defect, type ServerFetch } from './defect.js';
import { randomUUID } from 'node:crypto';
import { beforeMock, errorResponse, hasKey, operationOf, rewriteRequest, withKey } from './http.js';

/** Lets a request through with the accepted key when its Authorization header matches `test`. */
const acceptWhen = (test: (authorization: string | null, request: Request) => boolean) =>
  beforeMock((request) => (test(request.headers.get('authorization'), request) ? withKey(request) : request));

/**
 * Answers what the mock would answer with a key when that is `status`, and
 * the mock's 401 otherwise: the check that should come after auth, before it.
 */
const beforeAuth = (status: number): ((fetch: ServerFetch) => ServerFetch) => (fetch) => async (request, env) => {
  const body = request.method === 'GET' ? undefined : await request.text();
  const again = () => (body === undefined ? request : rewriteRequest(request, { body }));
  const answer = await fetch(await again(), env);
  if (answer.status !== 401) return answer;
  const withTheKey = await fetch(await withKey(request, body), env);
  if (withTheKey.status === status) return withTheKey;
  await withTheKey.body?.cancel();
  return answer;
};

export const authDefects: Defect[] = [
  {
    name: 'any bearer token accepted',
    breaks: 'Authentication: when the key is missing or invalid, the service answers 401 with an Error body.',
    wrap: acceptWhen((authorization) => /^bearer +\S+/i.test(authorization ?? '')),
    caughtBy: ['auth-wrong-key-list-pets', 'auth-wrong-key-create-pet', 'auth-wrong-key-get-pet'],
  },
  {
    name: 'missing key accepted',
    breaks: 'Authentication: the requirement applies to every operation; when the key is missing, the service answers 401.',
    wrap: acceptWhen((authorization) => authorization === null),
    caughtBy: ['auth-missing-key-list-pets', 'auth-missing-key-create-pet', 'auth-missing-key-get-pet'],
  },
  {
    name: 'Basic credentials accepted',
    breaks: 'Authentication: scheme HTTP bearer; the key is sent as Authorization: Bearer <API_KEY>; otherwise 401.',
    wrap: acceptWhen((authorization) => /^basic /i.test(authorization ?? '')),
    caughtBy: ['auth-non-bearer-list-pets', 'auth-non-bearer-create-pet', 'auth-non-bearer-get-pet'],
  },
  {
    name: 'scheme not checked: the key under any scheme passes',
    breaks: 'Authentication: scheme HTTP bearer; the key is sent as Authorization: Bearer <API_KEY>; otherwise 401.',
    wrap: acceptWhen((authorization) => new RegExp(`^\\S+ +${FAULTY_SERVER_KEY}$`).test(authorization ?? '')),
    caughtBy: ['auth-non-bearer-list-pets', 'auth-non-bearer-get-pet'],
  },
  {
    name: 'getPet does not check the key',
    breaks: 'Authentication: the requirement applies to every operation described (getPet included).',
    wrap: acceptWhen((_, request) => operationOf(request) === 'getPet'),
    caughtBy: ['auth-missing-key-get-pet', 'auth-wrong-key-get-pet', 'auth-non-bearer-get-pet'],
  },
  {
    name: 'validation before auth: 400 for limit=0 without a key',
    breaks: 'Authentication: when the key is missing or invalid, the service answers 401 (whatever else is wrong with the request).',
    wrap: beforeAuth(400),
    caughtBy: ['auth-before-validation-list-pets'],
  },
  {
    name: '404 before auth on getPet',
    breaks: 'Authentication: when the key is missing or invalid, the service answers 401 (even for an animal that does not exist).',
    wrap: beforeAuth(404),
    caughtBy: ['auth-before-not-found-get-pet'],
  },
  {
    name: '403 instead of 401 for a wrong key',
    breaks: 'Authentication: when the key is missing or invalid, the service answers 401 with an Error body.',
    wrap: (fetch) => async (request, env) => {
      const presented = /^bearer +\S+/i.test(request.headers.get('authorization') ?? '');
      const response = await fetch(request, env);
      if (!presented || response.status !== 401) return response;
      await response.body?.cancel();
      return errorResponse(403, 'forbidden', 'this key may not do that');
    },
    caughtBy: ['auth-wrong-key-list-pets', 'auth-wrong-key-create-pet', 'auth-wrong-key-get-pet'],
  },
  {
    // A session opened once the key was shown, kept in a cookie, then taken for the key: the browser sends it back unasked.
    name: 'a session cookie set for the key taken for the key',
    breaks: 'Authentication: the requirement applies to every operation; when the key is missing or invalid, the service answers 401 with an Error body.',
    wrap: (fetch) => {
      const sessions = new Set<string>();
      return async (request, env) => {
        const sid = /(?:^|;\s*)sid=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
        if (!hasKey(request)) return fetch(sid !== undefined && sessions.has(sid) ? await withKey(request) : request, env);
        const answer = await fetch(request, env);
        const issued = randomUUID();
        sessions.add(issued);
        const headers = new Headers(answer.headers);
        headers.append('set-cookie', `sid=${issued}; Path=/; HttpOnly; Expires=Wed, 21 Oct 2026 07:28:00 GMT`);
        headers.append('set-cookie', 'theme=dark; Path=/');
        return new Response(answer.body, { status: answer.status, headers });
      };
    },
    caughtBy: ['auth-cookie-per-request'],
  },
];
