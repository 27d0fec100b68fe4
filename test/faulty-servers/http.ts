import { parseExactJson } from '../../src/shared/exact-json/parse-exact-json.js';
import { stringifyExactJson } from '../../src/shared/exact-json/stringify-exact-json.js';
import type { OperationId } from '../../src/verdict/exchange.js';
import { FAULTY_SERVER_KEY, type ServerFetch } from './defect.js';

/** Helpers the defects are written with: which operation a request is for, and rewrites of requests, responses and stores. */

/** The documented operation a request goes to, by method and the end of its path, decoded as a router decodes it (`/v1/%70ets` is `/v1/pets`). */
export function operationOf(request: Request): OperationId | undefined {
  const pathname = decodedPath(request);
  if (/\/pets\/?$/.test(pathname)) return request.method === 'GET' ? 'listPets' : request.method === 'POST' ? 'createPet' : undefined;
  if (/\/pets\/[^/]+$/.test(pathname)) return request.method === 'GET' ? 'getPet' : undefined;
  return undefined;
}

/** Whether the request carries the accepted credentials, as the mock reads them (the scheme in any case). */
export const hasKey = (request: Request): boolean => new RegExp(`^bearer +${FAULTY_SERVER_KEY} *$`, 'i').test(request.headers.get('authorization') ?? '');

function decodedPath(request: Request): string {
  const { pathname } = new URL(request.url);
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

export interface RequestChanges {
  url?: string;
  headers?: Headers;
  body?: string;
}

/** A copy of the request with some parts changed (the body is read, so the original cannot be used again). */
export async function rewriteRequest(request: Request, changes: RequestChanges): Promise<Request> {
  const body = changes.body ?? (request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text());
  return new Request(changes.url ?? request.url, { method: request.method, headers: changes.headers ?? new Headers(request.headers), body });
}

/** A request with the accepted key, whatever it carried. */
export function withKey(request: Request, body?: string): Promise<Request> {
  const headers = new Headers(request.headers);
  headers.set('authorization', `Bearer ${FAULTY_SERVER_KEY}`);
  return rewriteRequest(request, body === undefined ? { headers } : { headers, body });
}

/** Rewrites the request before the mock sees it. */
export const beforeMock =
  (change: (request: Request) => Request | Promise<Request>) =>
  (fetch: ServerFetch): ServerFetch =>
  async (request, env) =>
    fetch(await change(request), env);

/** Rewrites the mock's response when `when` holds for the request (its operation) and the response. */
export const afterMock =
  (when: (operation: OperationId | undefined, response: Response) => boolean, change: (response: Response) => Response | Promise<Response>) =>
  (fetch: ServerFetch): ServerFetch =>
  async (request, env) => {
    const operation = operationOf(request);
    const response = await fetch(request, env);
    return when(operation, response) ? change(response) : response;
  };

/** A response like `response` (status and headers unless changed) with another body; the length is recomputed. */
export function respond(response: Response, body: string, changes: { status?: number; headers?: Record<string, string> } = {}): Response {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  for (const [name, value] of Object.entries(changes.headers ?? {})) headers.set(name, value);
  return new Response(body, { status: changes.status ?? response.status, headers });
}

/** Rewrites a JSON response's body, read and written exactly (an int64 past 2^53 keeps its digits): only `change` breaks anything. */
export const mapJson =
  (change: (json: unknown) => unknown) =>
  async (response: Response): Promise<Response> =>
    respond(response, stringifyExactJson(change(parseExactJson(await response.text()).value)) ?? '');

/** Applies `change` to every Pet in a body: the body itself or the items of an array. */
export const mapPets =
  (change: (pet: Record<string, unknown>) => unknown) =>
  (json: unknown): unknown =>
    Array.isArray(json) ? json.map((pet) => change({ ...(pet as Record<string, unknown>) })) : change({ ...(json as Record<string, unknown>) });

/** Changes a response's status, keeping its body and headers. */
export const withStatus = (status: number) => async (response: Response) => respond(response, await response.text(), { status });

/** An Error body response like the mock's. */
export const errorResponse = (status: number, code: string, message: string): Response =>
  new Response(JSON.stringify({ code, message, status }), { status, headers: { 'content-type': 'application/json' } });

