/**
 * A second, independent server of the Animal Store API, for tests: written
 * from docs/animal-store-interface.md alone, on bare node:http,
 * sharing no code with the mock (nothing from src/mock or src/contract). A
 * harness that passes it and the mock alike does not encode the mock's own
 * choices.
 *
 * Where the interface is silent it deliberately chooses otherwise than the
 * mock wherever that is reasonable. Every such choice:
 *
 * Routing and errors
 * - Base path `/v1`; served: GET /v1/pets, POST /v1/pets, GET /v1/pets/{petId}.
 *   HEAD is answered as GET, without content; another method on those paths
 *   (OPTIONS included: no CORS at all) is 405 `method_not_allowed` with
 *   `Allow: GET, HEAD, POST` or `GET, HEAD` (the mock: OPTIONS is served, and
 *   named in Allow). Anything else (`/v1/pets/` with a trailing slash,
 *   `/v1/store/orders`) is 404 `no_such_route` (the mock: 501 for the orders area). The request target is not
 *   normalised (no dot segments); an absolute-form target is read for its path.
 * - Every answer is `Content-Type: application/json; charset=utf-8` (the mock:
 *   no charset) with a JSON body; every error is {code, message, status}, with
 *   this server's own codes (below). A handler exception is 500 `internal`.
 *   Malformed HTTP gets a JSON 400 (431 for headers too large), then the
 *   connection closes.
 *
 * Authentication (checked first, for every request, known route or not)
 * - Exactly one Authorization header (counted in rawHeaders), value
 *   `Bearer <key>`: scheme in any case, one or more spaces, then exactly the
 *   key. Anything else, the key in the query string included, is 401
 *   `unauthenticated` (the mock: `unauthorized`) with `WWW-Authenticate: Bearer`
 *   (the mock adds a realm).
 *
 * listPets
 * - Newest first: id descending (the mock: ascending).
 * - `limit` must be a plain decimal integer (digits, optional `-`; leading
 *   zeros allowed); below 1 → 400 `bad_limit`; above 100 → clamped to 100 and
 *   answered 200 (the mock: 400). `limit` given twice → 400 `bad_limit`
 *   (the every-point variant: its last value).
 * - `status` must be exactly available|pending|sold → else 400 `bad_status`;
 *   given twice → 400 `bad_status` (the every-point variant: its last value). Other query parameters are ignored (on
 *   every operation).
 * - No pagination beyond `limit`; no paging headers.
 *
 * createPet
 * - An empty body → 400 `empty_body`, whatever the Content-Type (there is
 *   nothing to have a type).
 * - A non-empty body needs exactly one Content-Type, `application/json` in any
 *   case, parameters allowed but a charset other than utf-8 refused; else 415
 *   `unsupported_media_type` (the mock: 400). A Content-Encoding other than
 *   `identity` → 415 `unsupported_content_encoding`.
 * - Bodies over 64 KiB → 413 `body_too_large` (the mock: 1 MiB). Past 8 MiB
 *   the body is no longer read and the connection closes after the answer.
 * - UTF-8 only, no byte-order mark (→ 400 `bad_encoding` / `bad_json`);
 *   one JSON object (null, arrays, primitives → 400 `bad_body`); duplicate
 *   member names: the last wins.
 * - `name`: a string of 1 to 1000 code points: empty → 400 `empty_name`
 *   (the mock accepts it), longer → 400 `name_too_long` (the mock accepts any
 *   length). Kept exactly as sent, lone surrogates included.
 * - `categoryId`: a JSON number that is an integer (1.0 is, 1.5 is not) within
 *   int64, kept exactly (lossless-json); beyond → 400
 *   `category_id_out_of_range`, other types → 400 `bad_category_id`.
 * - `status`: absent → the animal is `available` (the mock leaves it absent);
 *   otherwise exactly one of the three values (null too is refused).
 * - Unknown fields and a client-sent `id` are ignored.
 * - 201 with the Pet and `Location: /v1/pets/{id}`; ids continue from the
 *   largest id of the catalogue (from 1 when it is empty or all ids are ≤ 0).
 *
 * getPet
 * - `petId` must be a plain decimal integer (optional `-`, percent-decoding
 *   first) within the int64 range, else 400 `bad_pet_id` (the mock: 404).
 *   Unknown → 404 `no_such_pet` (the mock: `pet_not_found`).
 * - Every answer of the route, errors and 401 included, carries
 *   `Deprecation: @1795305600`, `Sunset: Thu, 05 Dec 2030 00:00:00 GMT` and
 *   `Link: </v1/pets>; rel="successor-version"`.
 *
 * The `every-point` variant (option `variant`)
 * Another set of choices, each also where the interface is silent: it
 * differs from the mock (profiles/default.yaml) also where the default
 * agrees with it (Location, unknown query parameters), and makes choices
 * the mock makes nowhere (chunked bodies, control characters, taken names,
 * members NewPet does not name, a member named twice, a petId with a sign or spaces). Everything above holds, except:
 * - getPet signals its deprecation on a 200 alone, without a `Link` (the
 *   mock: on every answer, with one).
 * - A key that is there but not accepted gets 401 `invalid_credentials`; an
 *   empty `Authorization` header is as none (`unauthenticated`), where the
 *   mock reads it as a wrong key.
 * - The 401 challenge is `WWW-Authenticate: Bearer scope="pets"`, one value
 *   for a missing key and a wrong one (RFC 6750 §3 allows a challenge with a
 *   scope and no realm; the mock: `Bearer realm="animal-store"`).
 * - A query parameter the document does not name → 400 `unknown_parameter`,
 *   after the key check (a 401 still wins), before any other check of the
 *   operation: listPets names `limit` and `status` (and the filters that are
 *   on), createPet and getPet none (the mock: ignored).
 * - An `Accept` that does not accept application/json (`application/xml`;
 *   `application/json;q=0` beside any type) → 406 `not_acceptable`, after the
 *   key check and the query, before the body (the mock: JSON all the same).
 * - createPet's 201 carries no `Location` (the interface does not mention
 *   one; the mock sends it).
 * - A createPet body sent with `Transfer-Encoding: chunked` → 411
 *   `length_required`, after the key check and the query, before the body is
 *   read (RFC 9112 §6.3 lets a server ask for a Content-Length); the body is
 *   then read and discarded, and the connection kept (past 8 MiB it closes).
 * - The name checks, in order: `missing_name`, `bad_name`, `empty_name`,
 *   then a control character (Unicode Cc: C0, DEL, C1) → 400
 *   `name_control_character`, then `name_too_long`; once every other check
 *   of the body passes, a name an animal of the server already has (of the
 *   starting catalogue or added) → 400 `name_taken`, nothing stored (the
 *   mock accepts both).
 * - A NewPet member other than `name`, `categoryId` and `status` (a client
 *   `id` too) → 400 `unknown_member`, once those three are read (the mock
 *   ignores it).
 * - A member named twice with two values (at any depth) → 400
 *   `duplicate_member`, once the body is well-formed JSON, before any field
 *   is read (the mock reads the last).
 * - `petId` (percent-decoded) may have leading spaces and one `+` (`%20%207`,
 *   `+7` are 7) but no leading zero (`07`, `%30%307` → 400 `bad_pet_id`, a
 *   lone `0` is the number 0); a negative one is plain `-` then digits
 *   without a leading zero (`-0` is refused).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isAuthorized } from './reference-auth.js';
import { present, referenceCatalogue, type ReferencePet } from './reference-catalogue.js';
import { getPet } from './reference-get-pet.js';
import { BODY_LIMIT, error, isJsonContentType, refuseMalformed, normalizedPath, serve, splitTarget, type Answer, type Body } from './reference-http.js';
import { readNewPet } from './reference-new-pet.js';
import { acceptsJson, isChunked, unknownParameter, VARIANTS, type ReferenceVariant, type VariantChoices } from './reference-variant.js';

export type { ReferenceVariant } from './reference-variant.js';

export interface ReferenceServer {
  /** The base URL, ending in /v1, e.g. http://127.0.0.1:PORT/v1. */
  url: string;
  close(): Promise<void>;
}

export interface ReferenceServerOptions {
  /** The one accepted API key. */
  apiKey: string;
  /** The catalogue; default 40 deterministic animals (see referenceCatalogue). */
  pets?: ReferencePet[];
  /**
   * listPets also filters by `categoryId`, as a document with that parameter
   * would have it: a plain decimal integer (else 400 `bad_category_id`), only
   * the animals of that category. Off by default: the shipped document has no such parameter.
   */
  categoryFilter?: boolean;
  /** listPets also filters by `name`: only the animals of exactly that name. Off by default, as above. */
  nameFilter?: boolean;
  /** `every-point`: differ from the mock at every point (the header comment lists how); default `default`. */
  variant?: ReferenceVariant;
}

const BASE = '/v1';
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
const STATUSES: ReadonlySet<string> = new Set(['available', 'pending', 'sold']);
const DEPRECATION_HEADERS = {
  deprecation: '@1795305600',
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: `<${BASE}/pets>; rel="successor-version"`,
};

type Route =
  | { operation: 'listPets' | 'createPet'; query: URLSearchParams }
  | { operation: 'getPet'; petId: string; query: URLSearchParams }
  | { operation: 'none' }
  | { operation: 'refused'; allow: string };

/** Starts the reference server on 127.0.0.1, on a free port. */
export async function startReferenceServer(options: ReferenceServerOptions): Promise<ReferenceServer> {
  const { apiKey } = options;
  const choices = VARIANTS[options.variant ?? 'default'];
  const filters: ListFilters = { byCategory: options.categoryFilter === true, byName: options.nameFilter === true };
  const pets = new Map<number, ReferencePet>();
  for (const pet of options.pets ?? referenceCatalogue()) pets.set(pet.id, { ...pet });
  const names = new Set([...pets.values()].map((pet) => pet.name));
  let nextId = Math.max(0, ...pets.keys()) + 1;

  const createPet = (req: IncomingMessage, body: Body): Answer => {
    if (body.size === 0) return error(400, 'empty_body', 'The request body is empty; send a NewPet JSON object.');
    if (!isJsonContentType(req.rawHeaders)) return error(415, 'unsupported_media_type', 'Send the body as Content-Type: application/json (UTF-8).');
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') return error(415, 'unsupported_content_encoding', 'Content-Encoding is not supported; send the body unencoded.');
    if (body.size > BODY_LIMIT) return error(413, 'body_too_large', `The request body is larger than ${BODY_LIMIT} bytes.`);
    const reading = readNewPet(body.bytes, { controlCharacters: choices.controlCharacters, extraMembers: choices.extraMembers, duplicateMembers: choices.duplicateMembers });
    if (!reading.ok) return error(400, reading.code, reading.message);
    // Synchronous from here on: concurrent creates get distinct ids, and two of one name cannot both pass.
    if (choices.takenNames === 'refused' && names.has(reading.pet.name)) return error(400, 'name_taken', 'An animal of this name exists already; choose another name.');
    const pet: ReferencePet = { id: nextId++, ...reading.pet };
    pets.set(pet.id, pet);
    names.add(pet.name);
    return { status: 201, body: present(pet), ...(choices.location ? { headers: { location: `${BASE}/pets/${pet.id}` } } : {}) };
  };

  /** 400 to a query parameter the operation does not name, when the variant refuses those. */
  const refusedParameter = (route: Exclude<Route, { operation: 'none' | 'refused' }>): Answer | undefined => {
    if (choices.unknownParameters === 'ignored') return undefined;
    const unknown = unknownParameter(route.query, route.operation === 'listPets' ? listParameters(filters) : []);
    return unknown === undefined ? undefined : error(400, 'unknown_parameter', `${route.operation} has no query parameter ${JSON.stringify(unknown.slice(0, 100))}.`);
  };

  /** 406 to an Accept without application/json, when the variant refuses those. */
  const refusedAccept = (req: IncomingMessage): Answer | undefined =>
    choices.accept === 'ignored' || acceptsJson(req.headers.accept) ? undefined : error(406, 'not_acceptable', 'Every answer here is application/json: accept it.');

  const answer = (req: IncomingMessage, body: Body): Answer => {
    const route = routeOf(req);
    const extra = route.operation === 'getPet' ? DEPRECATION_HEADERS : undefined;
    const signalled = (answered: Answer): Answer => {
      if (!extra) return answered;
      if (choices.deprecation === 'every-answer') return { ...answered, headers: { ...extra, ...answered.headers } };
      if (answered.status !== 200) return answered;
      const { link: _, ...withoutLink } = extra;
      return { ...answered, headers: { ...withoutLink, ...answered.headers } };
    };
    const answered = ((): Answer => {
      if (!isAuthorized(req.rawHeaders, apiKey)) {
        // An empty header carries no key, as none does.
        const code = (req.headers.authorization ?? '').trim() === '' ? 'unauthenticated' : choices.wrongKeyCode;
        return error(401, code, 'Send the API key as Authorization: Bearer <API_KEY>.', { 'www-authenticate': choices.challenge });
      }
      if (route.operation === 'none') return error(404, 'no_such_route', `Nothing is served at ${req.method} ${(req.url ?? '').slice(0, 200)}.`);
      if (route.operation === 'refused') return error(405, 'method_not_allowed', `${req.method} is not served here; the methods are ${route.allow}.`, { allow: route.allow });
      const refused = refusedParameter(route) ?? refusedAccept(req);
      if (refused) return refused;
      switch (route.operation) {
        case 'listPets':
          return listPets(pets, route.query, filters, choices.repeatedParameters);
        case 'createPet':
          return createPet(req, body);
        case 'getPet':
          return getPet(pets, route.petId, choices.petId);
      }
    })();
    return signalled(answered);
  };

  /** 411 to a chunked createPet body, when the variant refuses those: decided from the head, after the key and the query. */
  const beforeBody = (req: IncomingMessage): Answer | undefined => {
    if (choices.chunkedBodies === 'read' || !isChunked(req)) return undefined;
    const route = routeOf(req);
    if (route.operation !== 'createPet' || !isAuthorized(req.rawHeaders, apiKey) || refusedParameter(route) || refusedAccept(req)) return undefined;
    return error(411, 'length_required', 'Send the body with a Content-Length, not chunked.');
  };

  const server = createServer((req, res) => {
    void serve(req, res, { beforeBody, answer });
  });
  server.on('clientError', refuseMalformed);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${BASE}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function routeOf(req: IncomingMessage): Route {
  const target = splitTarget(req.url ?? '');
  if (target === undefined) return { operation: 'none' };
  const path = normalizedPath(target.path);
  const query = new URLSearchParams(target.query);
  // HEAD is answered as GET (node's ServerResponse sends no content to it); every other method a 405 naming the path's.
  const reading = req.method === 'GET' || req.method === 'HEAD';
  if (path === `${BASE}/pets`) {
    if (reading) return { operation: 'listPets', query };
    if (req.method === 'POST') return { operation: 'createPet', query };
    return { operation: 'refused', allow: 'GET, HEAD, POST' };
  }
  const prefix = `${BASE}/pets/`;
  const petId = path.startsWith(prefix) ? path.slice(prefix.length) : '';
  if (petId === '' || petId.includes('/')) return { operation: 'none' };
  return reading ? { operation: 'getPet', petId, query } : { operation: 'refused', allow: 'GET, HEAD' };
}

interface ListFilters {
  /** Also filter by `categoryId` (a plain decimal integer). */
  byCategory: boolean;
  /** Also filter by exactly that `name`. */
  byName: boolean;
}

/** The query parameters listPets reads: the document's two, and the filters that are on (a filter added is named here, or the every-point variant refuses it). */
function listParameters({ byCategory, byName }: ListFilters): string[] {
  return ['limit', 'status', ...(byCategory ? ['categoryId'] : []), ...(byName ? ['name'] : [])];
}

function listPets(pets: Map<number, ReferencePet>, query: URLSearchParams, { byCategory, byName }: ListFilters, repeated: VariantChoices['repeatedParameters']): Answer {
  // Given more than once: refused, or (the every-point variant) the last value, judged as if given alone.
  const given = (name: string) => (repeated === 'last' ? query.getAll(name).slice(-1) : query.getAll(name));
  const limits = given('limit');
  if (limits.length > 1) return error(400, 'bad_limit', 'limit is given more than once.');
  let limit = DEFAULT_LIMIT;
  if (limits.length === 1) {
    const raw = limits[0] as string;
    if (!/^-?[0-9]+$/.test(raw)) return error(400, 'bad_limit', 'limit must be a decimal integer.');
    const value = Number(raw);
    if (value < 1) return error(400, 'bad_limit', 'limit must be at least 1.');
    limit = Math.min(value, MAX_LIMIT);
  }
  const statuses = given('status');
  if (statuses.length > 1) return error(400, 'bad_status', 'status is given more than once.');
  const status = statuses[0];
  if (status !== undefined && !STATUSES.has(status)) return error(400, 'bad_status', 'status must be one of available, pending, sold.');
  const categories = byCategory ? query.getAll('categoryId') : [];
  if (categories.length > 1 || (categories.length === 1 && !/^-?[0-9]+$/.test(categories[0] as string))) return error(400, 'bad_category_id', 'categoryId must be one decimal integer.');
  const category = categories.length === 1 ? BigInt(categories[0] as string) : undefined;
  const names = byName ? query.getAll('name') : [];
  if (names.length > 1) return error(400, 'bad_name', 'name is given more than once.');
  const name = names[0];

  const found: ReferencePet[] = [];
  for (const pet of [...pets.values()].sort((a, b) => b.id - a.id)) {
    if (found.length >= limit) break;
    if ((status === undefined || pet.status === status) && (category === undefined || BigInt(pet.categoryId) === category) && (name === undefined || pet.name === name)) found.push(pet);
  }
  return { status: 200, body: found.map(present) };
}
