import type { Defect, ServerFetch } from './defect.js';
import { errorResponse, hasKey, operationOf, withKey } from './http.js';
import { AUTH } from './variation-key-defects.js';

/**
 * Servers that read one spelling of createPet's JSON body (RFC 8259)
 * otherwise than the plain one: for each production a NewPet uses (a
 * number, a string's characters, whitespace), one answers it otherwise,
 * refuses it, or lets it in without the key. Where the interface is silent
 * (an integer written `1.0`), only letting it in without the key, or
 * storing another number, is a fault: refusing it is a correct server's
 * choice (test/servers/variation-choices.ts).
 */

const CREATE = ['vary-create-pet'];
const SAME_VALUE = 'Endpoints > Add an animal: 201 Pet, the animal added as sent; the same JSON value in any of its spellings is the same NewPet (RFC 8259 §2, §4, §7).';
const AS_SENT = 'Endpoints > Add an animal: 201 Pet, the animal added as sent (categoryId: integer, int64).';

/** An integer written with a fraction or an exponent (`1.0`, `1e0`, `10E-1`), outside string literals. */
const SPELLED_INTEGER = /[:[,]\s*-?\d+(\.\d+)?[eE][-+]?\d+|[:[,]\s*-?\d+\.\d+/;
const withoutStrings = (text: string) => text.replace(/"(?:[^"\\]|\\.)*"/g, '""');

/** createPet's body text, read before the mock: `change` answers instead, or gives the text the mock gets. */
const onCreateBody =
  (change: (text: string, request: Request) => Response | string | Promise<Response | string>) =>
  (fetch: ServerFetch): ServerFetch =>
  async (request, env) => {
    if (operationOf(request) !== 'createPet') return fetch(request, env);
    const text = await request.text();
    const changed = await change(text, request);
    if (changed instanceof Response) return changed;
    return fetch(new Request(request.url, { method: 'POST', headers: request.headers, body: changed }), env);
  };

export const variationJsonDefects: Defect[] = [
  {
    // A validator that checks the key only on the path it knows, and takes a number with a fraction for "not a NewPet, let the next handler see it".
    name: 'createPet without the key accepted when categoryId is written 1.0 or 1e0',
    breaks: AUTH,
    wrap: (fetch) => async (request, env) => {
      if (operationOf(request) !== 'createPet' || hasKey(request)) return fetch(request, env);
      const text = await request.clone().text();
      return SPELLED_INTEGER.test(withoutStrings(text)) ? fetch(await withKey(request, text), env) : fetch(request, env);
    },
    caughtBy: CREATE,
  },
  {
    // A hand-written number reader that skips the '.' and reads on: 1.0 is 10.
    name: 'createPet stores categoryId 1.0 as 10 (the dot dropped)',
    breaks: AS_SENT,
    wrap: onCreateBody((text) => text.replace(/("categoryId"\s*:\s*-?\d+)\.(\d+)/, '$1$2')),
    caughtBy: CREATE,
  },
  {
    name: 'createPet answers 500 to an integer with an exponent (1e0)',
    breaks: 'Errors: the error statuses are 400 (createPet), 401 and 404 (getPet): the interface lists no 5xx.',
    wrap: onCreateBody((text, request) => (hasKey(request) && /\d[eE]/.test(withoutStrings(text)) ? errorResponse(500, 'internal_error', 'cannot read number') : text)),
    caughtBy: CREATE,
  },
  {
    // A tokenizer that knows only the space as whitespace.
    name: 'createPet refuses a tab, CR or LF between JSON tokens (400)',
    breaks: SAME_VALUE,
    wrap: onCreateBody((text, request) => (hasKey(request) && /[\t\r\n]/.test(withoutStrings(text)) ? errorResponse(400, 'invalid_body', 'malformed JSON') : text)),
    caughtBy: CREATE,
  },
  {
    // A reader that decodes \u escapes only past ASCII, keeping "\u0041" as the six characters.
    name: 'createPet keeps a \\u escape of an ASCII character as written (\\u0041 stored as the text \\u0041)',
    breaks: SAME_VALUE,
    wrap: onCreateBody((text) => text.replace(/\\u00([0-7][0-9a-fA-F])/g, (escape, hex: string) => (parseInt(hex, 16) >= 0x20 ? `\\\\u00${hex}` : escape))),
    caughtBy: CREATE,
  },
  {
    // A decoder that does not pair surrogates: each half becomes U+FFFD.
    name: 'createPet reads an escaped surrogate pair as two replacement characters',
    breaks: SAME_VALUE,
    wrap: onCreateBody((text) => text.replace(/\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}/g, '\\ufffd\\ufffd')),
    caughtBy: CREATE,
  },
];
