import type { ServerResponse } from 'node:http';
import type { Defect, ServerFetch } from './defect.js';
import { errorResponse, hasKey, mapJson, rewriteRequest } from './http.js';

/**
 * Defects in what HTTP defines for every resource, the methods: another
 * method than the document's, HEAD. Each is caught by a rule of
 * http-method-rules.ts or http-head-rules.ts.
 */

/** node's server writes no content after the header block of an answer to HEAD or of a 304; this one does, as a faulty server on a raw socket would. */
export function writeContentAnyway(outgoing: ServerResponse, status?: number): void {
  const writeHead = outgoing.writeHead.bind(outgoing) as (...args: unknown[]) => ServerResponse;
  outgoing.writeHead = ((code: number, ...rest: unknown[]) => {
    const written = writeHead(status ?? code, ...rest);
    (outgoing as unknown as { _hasBody: boolean })._hasBody = true;
    return written;
  }) as ServerResponse['writeHead'];
}

/** The same request as a GET: what HEAD must answer as, content aside. */
const asGet = (request: Request): Promise<Request> => rewriteRequest(new Request(request.url, { method: 'GET', headers: request.headers }), {});

/** Changes the mock's 405s, given the method refused. */
const refusedMethod =
  (change: (response: Response, method: string) => Response) =>
  (fetch: ServerFetch): ServerFetch =>
  async (request, env) => {
    const response = await fetch(request, env);
    return response.status === 405 ? change(response, request.method) : response;
  };

/** Ids at or below it are gone: set by the PUT that replaced the catalogue. */
const replacingPut = (): ((fetch: ServerFetch) => ServerFetch) => {
  let highest = 0n;
  let goneUpTo = -1n;
  const seen = (json: unknown) => {
    for (const pet of [json].flat()) if (pet && typeof pet === 'object' && 'id' in pet) highest = BigInt(String(pet.id)) > highest ? BigInt(String(pet.id)) : highest;
    return json;
  };
  const kept = (json: unknown): unknown => (Array.isArray(json) ? json.filter((pet: { id?: unknown }) => BigInt(String(pet?.id)) > goneUpTo) : json);
  return (fetch) => async (request, env) => {
    const { pathname } = new URL(request.url);
    if (request.method === 'PUT' && /\/pets$/.test(pathname) && hasKey(request)) {
      goneUpTo = highest;
      return new Response(await request.text(), { status: 200, headers: { 'content-type': 'application/json' } });
    }
    const id = /\/pets\/(\d+)$/.exec(pathname)?.[1];
    if ((request.method === 'GET' || request.method === 'HEAD') && id !== undefined && BigInt(id) <= goneUpTo) return errorResponse(404, 'not_found', 'no such animal');
    const response = await fetch(request, env);
    if (request.method !== 'GET' || response.status >= 300 || !/json/.test(response.headers.get('content-type') ?? '')) return response;
    const read = await mapJson(seen)(response);
    return /\/pets$/.test(pathname) ? mapJson(kept)(read) : read;
  };
};

export const methodDefects: Defect[] = [
  {
    name: 'PUT /pets answers 200 and replaces the catalogue with its body',
    breaks: 'RFC 9110 §15.5.6 and Endpoints > Other operations: a method the document does not list changes nothing (405 with Allow); createPet only adds.',
    wrap: replacingPut(),
    caughtBy: ['method-others-list-pets'],
  },
  {
    name: '405 without an Allow field',
    breaks: 'RFC 9110 §15.5.6: the origin server MUST generate an Allow header field in a 405 response.',
    wrap: refusedMethod((response) => {
      const headers = new Headers(response.headers);
      headers.delete('allow');
      return new Response(response.body, { status: 405, headers });
    }),
    caughtBy: ['method-others-list-pets', 'method-others-get-pet'],
  },
  {
    name: 'a 405 whose Allow lists the method it refused',
    breaks: "RFC 9110 §15.5.6: Allow lists the target resource's currently supported methods.",
    wrap: refusedMethod((response, method) => {
      const headers = new Headers(response.headers);
      headers.set('allow', `${headers.get('allow')}, ${method}`);
      return new Response(response.body, { status: 405, headers });
    }),
    caughtBy: ['method-others-list-pets', 'method-others-get-pet'],
  },
  {
    name: 'HEAD answered with the content GET has',
    breaks: 'RFC 9110 §9.3.2: the server MUST NOT send content in the response to HEAD.',
    wrap: (fetch) => async (request, env) => {
      if (request.method !== 'HEAD') return fetch(request, env);
      writeContentAnyway(env.outgoing);
      return fetch(await asGet(request), env);
    },
    caughtBy: ['method-head-list-pets', 'method-head-get-pet'],
  },
  {
    name: 'the connection closed after an answer to HEAD, without Connection: close',
    breaks: 'RFC 9110 §9.3.2, RFC 9112 §9.3: HEAD is answered as GET is, on a connection that stays open unless the answer says it closes.',
    wrap: (fetch) => (request, env) => {
      if (request.method === 'HEAD') env.outgoing.once('finish', () => env.incoming.socket.destroy());
      return fetch(request, env);
    },
    caughtBy: ['method-head-list-pets', 'method-head-get-pet'],
  },
];
