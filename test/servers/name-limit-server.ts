import type { AppFetch } from '../support/contract-cli.js';

/** The documented limit of the server below: names of at most this many code points. */
export const NAME_LIMIT = 100;

/**
 * A correct server with a documented limit where the interface is silent:
 * the mock, but a createPet whose name is longer than 100 code points (as
 * JSON Schema counts a string's length) gets a clear 400 Error. With the
 * key only, as the mock's own validation: a 401 stays a 401.
 */
export const refusesLongNames =
  (apiKey: string) =>
  (fetch: AppFetch): AppFetch =>
  async (request) => {
    if (request.method !== 'POST' || request.headers.get('authorization') !== `Bearer ${apiKey}`) return fetch(request);
    const text = await request.text();
    let name: unknown;
    try {
      name = (JSON.parse(text) as { name?: unknown } | null)?.name;
    } catch {
      // Not JSON: the mock refuses it as it would.
    }
    if (typeof name === 'string' && [...name].length > NAME_LIMIT) {
      return Response.json({ code: 'name_too_long', message: `name must be at most ${NAME_LIMIT} characters`, status: 400 }, { status: 400 });
    }
    return fetch(new Request(request.url, { method: 'POST', headers: request.headers, body: text }));
  };
