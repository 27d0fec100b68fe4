import type { AppFetch } from '../support/contract-cli.js';
import type { DriftReport } from '../../src/verdict/drift-report.js';
import { questionOf } from '../../src/contract-tests/silent-log.js';
import { fieldsOf } from './declared-limit-servers.js';
import { isExactInteger } from '../../src/shared/exact-json/int64.js';
import { parseExactJson } from '../../src/shared/exact-json/parse-exact-json.js';
import { stringifyExactJson } from '../../src/shared/exact-json/stringify-exact-json.js';

/**
 * The mock with other defensible choices, each where the interface is
 * silent: Pet fields in another order, a petId read leniently (" 5", "+5", once decoded),
 * a name refused once it is taken or when it has control characters (400),
 * `available` for an animal created without a status, no `Location`
 * with createPet's 201 (the interface does not mention it; the mock sends one),
 * a query parameter the document does not name refused with 400 (the
 * interface does not say what one gets), and a body sent chunked refused
 * with 411 (RFC 9112 §6.3 lets a server ask for Content-Length).
 */
export const otherChoices = (key: string) => (fetch: AppFetch): AppFetch => {
  const names = new Set<string>();
  return async (request) => {
    const url = new URL(request.url);
    // After the key check, as the mock's own refusals: 401 wins.
    const authorized = new RegExp(`^bearer +${key}$`, 'i').test(request.headers.get('authorization') ?? '');
    // Refused on the operations' routes only: another path (`/v1/pets/`) is the router's 404, as the mock's.
    const routed = /^\/v1\/pets(\/[^/]+)?$/.test(safeDecode(url.pathname));
    if (authorized && routed) {
      const documented = safeDecode(url.pathname) === '/v1/pets' && request.method === 'GET' ? ['limit', 'status'] : [];
      const unknown = [...url.searchParams.keys()].find((name) => !documented.includes(name));
      if (unknown !== undefined) return Response.json({ code: 'unknown_parameter', message: `unknown query parameter ${unknown}`, status: 400 }, { status: 400, headers: await routeHeaders(fetch, request) });
      if (/chunked/i.test(request.headers.get('transfer-encoding') ?? '')) return Response.json({ code: 'length_required', message: 'send Content-Length', status: 411 }, { status: 411 });
    }
    // Read once decoded, as most servers read a path parameter (`%2B5` is `+5`): spaces, then one plus sign, then the digits.
    const segment = /^\/v1\/pets\/([^/]+)$/.exec(url.pathname)?.[1];
    const lenient = segment === undefined ? null : /^ *\+?(\d+)$/.exec(safeDecode(segment));
    if (request.method === 'GET' && lenient) url.pathname = `/v1/pets/${lenient[1]}`;
    let body = request.method === 'POST' ? await request.text() : undefined;
    if (body !== undefined && authorized && routed) {
      const pet = fieldsOf(body);
      if (typeof pet?.name === 'string' && (names.has(pet.name) || /[\u0000-\u001f]/.test(pet.name))) {
        return Response.json({ code: 'name_refused', message: 'that name is taken or has control characters', status: 400 }, { status: 400 });
      }
      if (pet && typeof pet.name === 'string' && isExactInteger(pet.categoryId) && !('status' in pet)) body = stringifyExactJson({ ...pet, status: 'available' });
    }
    const response = await fetch(new Request(url, { method: request.method, headers: request.headers, body }));
    // An answer to HEAD has no content to reorder: it is the mock's, with GET's fields.
    if (request.method === 'HEAD' || response.status >= 300 || !/json/.test(response.headers.get('content-type') ?? '')) return response;
    const json = parseExactJson(await response.text()).value;
    if (request.method === 'POST' && response.status === 201) names.add((json as { name: string }).name);
    const reversed = (pet: unknown) => Object.fromEntries(Object.entries(pet as object).reverse());
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('location');
    headers.set('content-type', 'application/json');
    return new Response(stringifyExactJson(Array.isArray(json) ? json.map(reversed) : reversed(json)), { status: response.status, headers });
  };
};

/** A path segment percent-decoded, or as it is when it does not decode (`%ZZ`). */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The headers every answer of a GET's route carries (getPet's deprecation), from the mock's answer to it: a GET changes nothing. */
async function routeHeaders(fetch: AppFetch, request: Request): Promise<Record<string, string>> {
  if (request.method !== 'GET') return {};
  const answered = await fetch(request);
  return Object.fromEntries(['deprecation', 'sunset', 'link'].flatMap((name) => (answered.headers.has(name) ? [[name, answered.headers.get(name) as string]] : [])));
}

/** Every choice the mock with other choices makes otherwise, as the drift report may name it. */
export const OTHER_CHOICES: Array<{ choice: string; matches: (g: DriftReport['groups'][number]) => boolean }> = [
  { choice: 'no Location', matches: (g) => (g.cause === questionOf('location') || g.cause === 'createPet 201: header Location') && g.b.includes('not sent') === g.cause.includes('whether') && /absent|not sent/.test(g.b) },
  { choice: 'available by default', matches: (g) => g.cause === questionOf('default-status') && g.a === 'left out' && g.b === 'status "available"' },
  { choice: 'lenient petId', matches: (g) => (g.cause === questionOf('pet-id') || g.cause === 'getPet: status') && /^4\d\d/.test(g.a) && g.b.startsWith('200') },
  { choice: 'unknown query parameters refused', matches: (g) => (g.cause === questionOf('unknown-query-parameter') || g.cause.endsWith(': status')) && g.b === '400 unknown_parameter' },
  { choice: 'names refused', matches: (g) => ['createPet: status', questionOf('valid-refused'), questionOf('taken-name'), questionOf('control-characters')].includes(g.cause) && g.b.includes('name_refused') },
  { choice: 'chunked bodies refused', matches: (g) => (g.cause === 'createPet: status' || g.cause === questionOf('chunked-body')) && g.b === '411 length_required' },
];

