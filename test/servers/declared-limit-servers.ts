import { parseExactJson } from '../../src/shared/exact-json/parse-exact-json.js';
import type { AppFetch } from '../support/contract-cli.js';

/** A createPet body's fields, or undefined when it is not a JSON object. */
export const fieldsOf = (text: string): Record<string, unknown> | undefined => {
  try {
    // Exactly: an int64 past 2^53 passes through a test server unrounded.
    const { value } = parseExactJson(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

const keyed = (authorization: string | null, apiKey: string): boolean => {
  const match = /^\s*(\S+) +(\S+)\s*$/.exec(authorization ?? '');
  return match?.[1]?.toLowerCase() === 'bearer' && match[2] === apiKey;
};

/**
 * The mock, but a createPet with the key whose body `refuses` gets a 400
 * Error with `code` and `message`; other requests (and a body that is not
 * JSON) are the mock's.
 */
export const refusingCreates =
  (apiKey: string, refuses: (pet: Record<string, unknown>) => { code: string; message: string } | undefined) =>
  (fetch: AppFetch): AppFetch =>
  async (request) => {
    // The key in any spelling RFC 9110 §11.1 and §11.4 allow (the scheme's case, spaces), as the mock reads it.
    if (request.method !== 'POST' || !keyed(request.headers.get('authorization'), apiKey)) return fetch(request);
    const text = await request.text();
    const pet = fieldsOf(text);
    const refusal = pet && refuses(pet);
    if (refusal) return Response.json({ ...refusal, status: 400 }, { status: 400 });
    return fetch(new Request(request.url, { method: 'POST', headers: request.headers, body: text }));
  };

/** The documented limit of the server below: names of at most this many code points. */
export const NAME_LIMIT = 100;

/**
 * A correct server with a documented limit where the interface is silent:
 * the mock, but a createPet whose name is longer than 100 code points (as
 * JSON Schema counts a string's length) gets a clear 400 Error. With the
 * key only, as the mock's own validation: a 401 stays a 401.
 */
export const refusesLongNames = (apiKey: string) =>
  refusingCreates(apiKey, ({ name }) => (typeof name === 'string' && [...name].length > NAME_LIMIT ? { code: 'name_too_long', message: `name must be at most ${NAME_LIMIT} characters` } : undefined));
