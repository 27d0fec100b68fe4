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
 *   Anything else (another method on those paths, `/v1/pets/` with a trailing
 *   slash, `/v1/store/orders`, HEAD, OPTIONS) is 404 `no_such_route` (the mock:
 *   405 with Allow, 501 for the orders area). The request target is not
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
 *   answered 200 (the mock: 400). `limit` given twice → 400 `bad_limit`.
 * - `status` must be exactly available|pending|sold → else 400 `bad_status`;
 *   given twice → 400 `bad_status`. Other query parameters are ignored.
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
 */
import { stringify } from 'lossless-json';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { isAuthorized, onlyHeader } from './reference-auth.js';
import { referenceCatalogue, type ReferencePet } from './reference-catalogue.js';
import { readNewPet } from './reference-new-pet.js';

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
}

const BASE = '/v1';
const JSON_TYPE = 'application/json; charset=utf-8';
const BODY_LIMIT = 64 * 1024;
const DRAIN_LIMIT = 8 * 1024 * 1024;
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
const STATUSES: ReadonlySet<string> = new Set(['available', 'pending', 'sold']);
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const DEPRECATION_HEADERS = {
  deprecation: '@1795305600',
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: `<${BASE}/pets>; rel="successor-version"`,
};

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

interface Body {
  bytes: Buffer;
  size: number;
  /** False when reading stopped past DRAIN_LIMIT. */
  complete: boolean;
}

type Route = { operation: 'listPets' | 'createPet'; query: URLSearchParams } | { operation: 'getPet'; petId: string } | { operation: 'none' };

/** Starts the reference server on 127.0.0.1, on a free port. */
export async function startReferenceServer(options: ReferenceServerOptions): Promise<ReferenceServer> {
  const { apiKey } = options;
  const pets = new Map<number, ReferencePet>();
  for (const pet of options.pets ?? referenceCatalogue()) pets.set(pet.id, { ...pet });
  let nextId = Math.max(0, ...pets.keys()) + 1;

  const createPet = (req: IncomingMessage, body: Body): Answer => {
    if (body.size === 0) return error(400, 'empty_body', 'The request body is empty; send a NewPet JSON object.');
    if (!isJsonContentType(req.rawHeaders)) return error(415, 'unsupported_media_type', 'Send the body as Content-Type: application/json (UTF-8).');
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') return error(415, 'unsupported_content_encoding', 'Content-Encoding is not supported; send the body unencoded.');
    if (body.size > BODY_LIMIT) return error(413, 'body_too_large', `The request body is larger than ${BODY_LIMIT} bytes.`);
    const reading = readNewPet(body.bytes);
    if (!reading.ok) return error(400, reading.code, reading.message);
    // Synchronous from here on: concurrent creates get distinct ids.
    const pet: ReferencePet = { id: nextId++, ...reading.pet };
    pets.set(pet.id, pet);
    return { status: 201, body: present(pet), headers: { location: `${BASE}/pets/${pet.id}` } };
  };

  const answer = (req: IncomingMessage, body: Body): Answer => {
    const route = routeOf(req);
    const extra = route.operation === 'getPet' ? DEPRECATION_HEADERS : undefined;
    const answered = ((): Answer => {
      if (!isAuthorized(req.rawHeaders, apiKey)) {
        return error(401, 'unauthenticated', 'Send the API key as Authorization: Bearer <API_KEY>.', { 'www-authenticate': 'Bearer' });
      }
      switch (route.operation) {
        case 'listPets':
          return listPets(pets, route.query, { byCategory: options.categoryFilter === true, byName: options.nameFilter === true });
        case 'createPet':
          return createPet(req, body);
        case 'getPet':
          return getPet(pets, route.petId);
        default:
          return error(404, 'no_such_route', `Nothing is served at ${req.method} ${(req.url ?? '').slice(0, 200)}.`);
      }
    })();
    return extra ? { ...answered, headers: { ...extra, ...answered.headers } } : answered;
  };

  const server = createServer((req, res) => {
    void serve(req, res, answer);
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

async function serve(req: IncomingMessage, res: ServerResponse, answer: (req: IncomingMessage, body: Body) => Answer): Promise<void> {
  try {
    const body = await readBody(req);
    if (body === undefined) return; // the client went away
    let reply: Answer;
    try {
      reply = answer(req, body);
    } catch {
      reply = error(500, 'internal', 'The reference server failed to answer.');
    }
    send(res, reply, !body.complete);
  } catch {
    if (!res.headersSent) send(res, error(500, 'internal', 'The reference server failed to answer.'), true);
    else res.destroy();
  }
}

function send(res: ServerResponse, { status, body, headers }: Answer, close: boolean): void {
  const text = stringify(body) ?? '';
  res.writeHead(status, {
    ...headers,
    'content-type': JSON_TYPE,
    'content-length': String(Buffer.byteLength(text)),
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(text);
}

/** The whole body, keeping at most BODY_LIMIT + 1 bytes; undefined when the request broke off. */
function readBody(req: IncomingMessage): Promise<Body | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (body: Body | undefined) => {
      if (done) return;
      done = true;
      resolve(body);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      if (size <= BODY_LIMIT) chunks.push(chunk);
      size += chunk.length;
      if (size > DRAIN_LIMIT) {
        req.pause();
        finish({ bytes: Buffer.concat(chunks), size, complete: false });
      }
    });
    req.on('end', () => finish({ bytes: Buffer.concat(chunks), size, complete: true }));
    req.on('error', () => finish(undefined));
    req.on('close', () => finish(undefined));
  });
}

function routeOf(req: IncomingMessage): Route {
  const target = splitTarget(req.url ?? '');
  if (target === undefined) return { operation: 'none' };
  const { path, query } = target;
  if (path === `${BASE}/pets`) {
    if (req.method === 'GET') return { operation: 'listPets', query: new URLSearchParams(query) };
    if (req.method === 'POST') return { operation: 'createPet', query: new URLSearchParams(query) };
    return { operation: 'none' };
  }
  const prefix = `${BASE}/pets/`;
  if (req.method === 'GET' && path.startsWith(prefix)) {
    const petId = path.slice(prefix.length);
    if (petId !== '' && !petId.includes('/')) return { operation: 'getPet', petId };
  }
  return { operation: 'none' };
}

/** The path and query of a request target: origin-form as is, absolute-form through URL; others (`*`, authority-form) none. */
function splitTarget(url: string): { path: string; query: string } | undefined {
  let target = url;
  if (!target.startsWith('/')) {
    if (!/^https?:\/\//i.test(target)) return undefined;
    try {
      const parsed = new URL(target);
      target = parsed.pathname + parsed.search;
    } catch {
      return undefined;
    }
  }
  const hash = target.indexOf('#');
  if (hash !== -1) target = target.slice(0, hash);
  const mark = target.indexOf('?');
  return mark === -1 ? { path: target, query: '' } : { path: target.slice(0, mark), query: target.slice(mark + 1) };
}

function listPets(pets: Map<number, ReferencePet>, query: URLSearchParams, { byCategory, byName }: { byCategory: boolean; byName: boolean }): Answer {
  const limits = query.getAll('limit');
  if (limits.length > 1) return error(400, 'bad_limit', 'limit is given more than once.');
  let limit = DEFAULT_LIMIT;
  if (limits.length === 1) {
    const raw = limits[0] as string;
    if (!/^-?[0-9]+$/.test(raw)) return error(400, 'bad_limit', 'limit must be a decimal integer.');
    const value = Number(raw);
    if (value < 1) return error(400, 'bad_limit', 'limit must be at least 1.');
    limit = Math.min(value, MAX_LIMIT);
  }
  const statuses = query.getAll('status');
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

function getPet(pets: Map<number, ReferencePet>, rawId: string): Answer {
  let text: string;
  try {
    text = decodeURIComponent(rawId);
  } catch {
    return error(400, 'bad_pet_id', 'petId must be a decimal integer.');
  }
  if (!/^-?[0-9]+$/.test(text)) return error(400, 'bad_pet_id', 'petId must be a decimal integer.');
  const id = BigInt(text);
  if (id < INT64_MIN || id > INT64_MAX) return error(400, 'bad_pet_id', 'petId must be within the int64 range.');
  const pet = id >= BigInt(Number.MIN_SAFE_INTEGER) && id <= BigInt(Number.MAX_SAFE_INTEGER) ? pets.get(Number(id)) : undefined;
  if (pet === undefined) return error(404, 'no_such_pet', `No animal has the id ${id}.`);
  return { status: 200, body: present(pet) };
}

/** Exactly one Content-Type, `application/json` (any case), whose charset, if any, is utf-8. */
function isJsonContentType(rawHeaders: readonly string[]): boolean {
  const value = onlyHeader(rawHeaders, 'content-type');
  if (value === undefined) return false;
  const [type = '', ...parameters] = value.split(';');
  if (type.trim().toLowerCase() !== 'application/json') return false;
  for (const parameter of parameters) {
    if (parameter.trim() === '') continue;
    const eq = parameter.indexOf('=');
    if (eq <= 0) return false;
    const name = parameter.slice(0, eq).trim().toLowerCase();
    let content = parameter.slice(eq + 1).trim();
    if (content.length >= 2 && content.startsWith('"') && content.endsWith('"')) content = content.slice(1, -1);
    if (name === 'charset' && content.toLowerCase() !== 'utf-8') return false;
  }
  return true;
}

/** A Pet as answered: fields in the interface's order, no status when it has none. */
function present(pet: ReferencePet): ReferencePet {
  const shown: ReferencePet = { id: pet.id, name: pet.name, categoryId: pet.categoryId };
  if (pet.status !== undefined) shown.status = pet.status;
  return shown;
}

function error(status: number, code: string, message: string, headers?: Record<string, string>): Answer {
  return { status, body: { code, message, status }, ...(headers ? { headers } : {}) };
}

/** node's own answer to malformed HTTP has a text body; this one is JSON too. */
function refuseMalformed(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'headers_too_large', 'The request headers are too large.']
      : [400, 'Bad Request', 'bad_request', 'The request is not well-formed HTTP.'];
  const text = JSON.stringify({ code, message, status });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
}
