import type { Defect } from './defect.js';
import { afterMock, mapJson, operationOf, respond } from './http.js';

const isError = (_: string | undefined, response: Response) => response.status >= 400;
const AUTH_RULES = ['auth-missing-key-list-pets', 'auth-wrong-key-create-pet', 'auth-non-bearer-get-pet'];

/** How long the slow getPet takes: far beyond the 300 ms its run allows. */
const SLOW_MS = 5_000;

export const errorDefects: Defect[] = [
  {
    name: 'Error body of the wrong shape {"error": "..."}',
    breaks: 'Errors: every error response has the Error body: code (string), message (string), status (integer).',
    wrap: afterMock(isError, mapJson((error) => ({ error: (error as { message: string }).message }))),
    caughtBy: [...AUTH_RULES, 'create-rejects-missing-name', 'get-unknown-id'],
  },
  {
    name: 'Error body status always 400, whatever the HTTP status',
    breaks: 'Errors: Error status (integer) is equal to the HTTP status code.',
    wrap: afterMock(isError, mapJson((error) => ({ ...(error as object), status: 400 }))),
    caughtBy: [...AUTH_RULES, 'get-unknown-id'],
  },
  {
    name: 'Error body code is a number',
    breaks: 'Errors: Error code is a string (machine-readable error code).',
    wrap: afterMock(isError, mapJson((error) => ({ ...(error as object), code: (error as { status: number }).status }))),
    caughtBy: [...AUTH_RULES, 'create-rejects-missing-name', 'get-unknown-id'],
  },
  {
    name: '401 with an empty body',
    breaks: 'Authentication: when the key is missing or invalid, the service answers 401 with an Error body.',
    wrap: afterMock((_, response) => response.status === 401, (response) => respond(response, '')),
    caughtBy: AUTH_RULES,
  },
  {
    name: 'Error bodies sent as text/plain',
    breaks: 'What the service does: requests and responses use the media type application/json.',
    wrap: afterMock(isError, async (response) => respond(response, await response.text(), { headers: { 'content-type': 'text/plain; charset=utf-8' } })),
    caughtBy: [...AUTH_RULES, 'create-rejects-missing-name', 'get-unknown-id'],
  },
  {
    name: 'connection reset on getPet',
    breaks: 'Endpoints > Get an animal: the service answers 200, 401 or 404 (an HTTP response).',
    wrap: (fetch) => (request, env) => {
      if (operationOf(request) !== 'getPet') return fetch(request, env);
      // RST, not FIN: the client sees ECONNRESET. The answer never comes.
      env.incoming.socket.resetAndDestroy();
      return new Promise<Response>(() => {});
    },
    caughtBy: ['get-known-id', 'get-unknown-id', 'auth-missing-key-get-pet'],
  },
  {
    name: 'getPet answers after the harness timeout (300 ms)',
    breaks: 'Endpoints > Get an animal: the service answers 200, 401 or 404 (within the client\'s time limit).',
    timeoutMs: 300,
    wrap: (fetch) => (request, env) => {
      if (operationOf(request) !== 'getPet') return fetch(request, env);
      return new Promise<Response>((resolve) => {
        const timer = setTimeout(() => resolve(fetch(request, env)), SLOW_MS);
        // The client gives up first; then nothing is left to answer.
        env.outgoing.once('close', () => clearTimeout(timer));
      });
    },
    caughtBy: ['get-known-id', 'get-unknown-id', 'auth-missing-key-get-pet'],
  },
];
