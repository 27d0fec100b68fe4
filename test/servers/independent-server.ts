/**
 * An Animal Store server written as a staging team elsewhere would write one:
 * from docs/animal-store-interface.md and openapi/animal-store.yaml alone,
 * with node:http and nothing of this project's code. It is here to try the
 * contract harness and its learned profiles on a server that did not come
 * from the mock.
 *
 * Where the interface is silent, this server chose (and why a team might):
 *
 * - missing key: 401 `auth_required`; a key that is not the right one
 *   (another scheme, another token): 401 `auth_invalid`. Two codes, so a
 *   client can tell "you forgot the header" from "your key is wrong".
 *   An empty `Authorization` value counts as missing; two Authorization
 *   headers are refused as `auth_invalid`, whatever they hold. The scheme is
 *   matched without regard to case (RFC 9110 §11.1).
 * - 401s carry no `WWW-Authenticate`. A slip many real services make (RFC
 *   9110 §15.5.2 requires the challenge); kept on purpose, so the tooling has
 *   a target that does it.
 * - Authentication comes first on every path under /v1, known or not, so an
 *   anonymous caller learns nothing about which paths exist. Paths outside
 *   /v1 get 404 `not_found`; other methods on a known path 405
 *   `method_not_allowed` with `Allow`. HEAD is served as GET without a body.
 * - an unknown query parameter: ignored (tolerant reader); a repeated one:
 *   the first counts, as URLSearchParams.get reads it.
 * - listPets order: descending by id, newest first: what a catalogue's
 *   front page usually shows.
 * - `limit` that is not a plain decimal integer (`abc`, `1.5`, `+5`, empty),
 *   or below 1: 400 `bad_limit`. Above 100: clamped to 100 (200 with at most
 *   100), the way many list endpoints cap a page instead of failing it.
 * - `status` that is not a PetStatus (any case other than the enum's, empty
 *   included): 200 `[]`, read as a filter that matches nothing.
 * - createPet without `status`: stored and answered as `available`; a new
 *   animal in a store is for sale.
 * - 201 sends no `Location`: the body already carries the id.
 * - name: empty → 400 `name_empty` (whitespace only is not empty: names are
 *   stored as sent, never trimmed); longer than 64 code points (not UTF-16
 *   units, so an emoji counts once) → 400 `name_too_long`, the column
 *   width; a C0 control character or DEL (U+0000–U+001F, U+007F) → 400
 *   `name_invalid`, C1 is accepted; a name some animal already has (exact,
 *   case-sensitive) → 400 `name_taken`, names are how staff call animals.
 *   A lone surrogate (from a `\uD800` escape) is not text: 400 `field_invalid`.
 * - body above 16384 bytes → 413 `body_too_large`: a NewPet is tiny. A
 *   declared Content-Length past it is answered before the body is read
 *   (and `Expect: 100-continue` gets the 413 instead of a 100); a chunked
 *   body is read until it passes the limit. Either way the 413 says
 *   `Connection: close`, and the close lingers: the server half-closes and
 *   keeps discarding what arrives for a while, so no reset can overtake the
 *   answer before the client has read it.
 * - a chunked body (no Content-Length): accepted within the same limit.
 * - createPet's checks, first failing one answers: 413 size, then empty body
 *   → 400 `body_required`; Content-Type other than application/json
 *   (parameters allowed, any case; none at all included) → 400
 *   `unsupported_media_type` (400, not 415: the document lists only 400 for
 *   a bad request); not UTF-8, not JSON, a byte order mark, or nesting deeper
 *   than 512 → 400 `json_invalid`; JSON that is not an object → 400
 *   `body_not_object`; `name` or `categoryId` absent → 400 `field_missing`;
 *   a value of the wrong type or out of range (name not a string,
 *   categoryId not an integer or past int64, status null or not a
 *   PetStatus) → 400 `field_invalid`, one code for every field; then the
 *   name rules above. An integer is one by value, as in JSON Schema: 2.0 is
 *   2. Negative and zero categoryIds are accepted (int64 allows them).
 *   Members NewPet does not name (`id` included) are ignored: the schema does
 *   not forbid additional properties, so refusing them would refuse a body
 *   the document allows.
 * - getPet: unknown id → 404 `pet_missing`. A petId that is not an integer
 *   (`abc`, `1.5`, `+7`, `0x7`, ` 7`, empty) → 404 `pet_id_invalid`: the
 *   document lists no 400 for getPet, so a 400 would break it, but the code
 *   still tells the class of mistake. An integer past int64
 *   (`9223372036854775808`) → 404 `pet_missing`: it is an integer, just one
 *   no animal can have. Leading zeros (`007`) read as 7; the segment is
 *   percent-decoded first (`%37` is 7).
 * - deprecation of getPet, on 200 answers only (an error is not the
 *   resource): `Deprecation: @1767225600` (RFC 9745, 2026-01-01T00:00:00Z)
 *   and `Sunset: Thu, 05 Dec 2030 00:00:00 GMT` (RFC 8594); no
 *   `Link: rel="successor-version"`, the replacement being a filter, not a
 *   version.
 * - responses are `Content-Type: application/json` without a charset
 *   (RFC 8259 §11 defines none). One catalogue for every caller; ids are
 *   int64 throughout (BigInt), never rounded through a double.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { StartedServer } from '../support/drift-run.js';
import { INT64_MAX, INT64_MIN } from './independent-json.js';
import { declaredTooLarge, PET_STATUSES, readBody, readNewPet, type PetStatus, type Refusal } from './independent-new-pet.js';

interface Pet {
  id: bigint;
  name: string;
  categoryId: bigint;
  status: PetStatus;
}

const DEPRECATION = '@1767225600';
const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';
const LINGER_MS = 3_000;

const NAMES = [
  'Biscuit', 'Luna', 'Pepper', 'Milo', 'Bella', 'Charlie', 'Daisy', 'Max', 'Coco', 'Rocky',
  'Nala', 'Oscar', 'Rosie', 'Teddy', 'Willow', 'Ziggy', 'Hazel', 'Finn', 'Olive', 'Jasper',
  'Maple', 'Toby', 'Ruby', 'Loki', 'Pip', 'Juniper', 'Gus', 'Mochi', 'Clover', 'Bruno',
  'Poppy', 'Ollie', 'Ginger', 'Remy', 'Sage', 'Bandit', 'Nutmeg', 'Otis', 'Pumpkin', 'Scout',
  'Tilly', 'Waffles', 'Yuki', 'Zelda', 'Indigo', 'Kiwi', 'Marble', 'Noodle',
];

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 40 animals with ids 1..40 and distinct names, all drawn from the seed. */
function catalogue(seed: number): Pet[] {
  const next = random(seed);
  const names = [...NAMES];
  for (let i = names.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [names[i], names[j]] = [names[j]!, names[i]!];
  }
  return names.slice(0, 40).map((name, i) => ({
    id: BigInt(i + 1),
    name,
    categoryId: BigInt(1 + Math.floor(next() * 6)),
    status: PET_STATUSES[Math.floor(next() * PET_STATUSES.length)]!,
  }));
}

// Written by hand: JSON.stringify cannot write a BigInt, and a double would round ids past 2^53.
const petJson = (pet: Pet): string =>
  `{"id":${pet.id},"name":${JSON.stringify(pet.name)},"categoryId":${pet.categoryId},"status":"${pet.status}"}`;

/** One request: `closeAfter` once the body will not be read, so the connection cannot be misread after the answer. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  closeAfter: boolean;
}

function send(ex: Exchange, status: number, body: string, headers: Record<string, string> = {}): void {
  ex.res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    ...(ex.closeAfter ? { Connection: 'close' } : {}),
    ...headers,
  });
  ex.res.end(body);
}

const sendError = (ex: Exchange, { status, code, message }: Refusal, headers?: Record<string, string>): void =>
  send(ex, status, JSON.stringify({ code, message, status }), headers);

/**
 * Node's own close after a `Connection: close` answer ends the socket and
 * destroys it as soon as the answer is written; unread request bytes then
 * make the kernel send a reset, which can reach the client before it has
 * read the answer. This close half-closes instead and goes on reading (the
 * HTTP parser discards the rest of the body) until the client closes too,
 * or LINGER_MS have passed.
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    // Destroyed once both sides are done: the client's end read, the answer flushed.
    const whenDone = (): void => {
      if (socket.readableEnded && socket.writableFinished) socket.destroy();
    };
    socket.on('end', whenDone);
    socket.on('finish', whenDone);
    whenDone();
  };
}

/**
 * `headers.authorization` would hide a second Authorization header (Node keeps
 * the first), and `Bearer KEY` then `Bearer OTHER` would pass. The field is
 * not a list (RFC 9110 §11.6.2), so two of them are no valid credentials.
 */
function authRefusal(headers: string[] | undefined, apiKey: string): Refusal | undefined {
  const header = headers?.length === 1 ? headers[0]! : headers?.join(', ');
  if (header === undefined || header.trim() === '') return { status: 401, code: 'auth_required', message: 'An API key is required: Authorization: Bearer <API_KEY>.' };
  const match = /^bearer +(\S+) *$/i.exec(header);
  if (match?.[1] === apiKey) return undefined;
  return { status: 401, code: 'auth_invalid', message: 'The API key is not valid.' };
}

function listPets(ex: Exchange, pets: Pet[], query: URLSearchParams): void {
  const limitText = query.get('limit');
  let limit = 20;
  if (limitText !== null) {
    if (!/^[0-9]+$/.test(limitText) || BigInt(limitText) < 1n) {
      return sendError(ex, { status: 400, code: 'bad_limit', message: 'limit must be an integer from 1 to 100.' });
    }
    limit = BigInt(limitText) > 100n ? 100 : Number(limitText);
  }
  const status = query.get('status');
  const page = pets
    .filter((pet) => status === null || pet.status === status)
    .sort((a, b) => (a.id > b.id ? -1 : a.id < b.id ? 1 : 0))
    .slice(0, limit);
  send(ex, 200, `[${page.map(petJson).join(',')}]`);
}

function getPet(ex: Exchange, pets: Pet[], segment: string): void {
  let text: string;
  try {
    text = decodeURIComponent(segment);
  } catch {
    text = segment; // malformed percent-encoding: not an integer either
  }
  if (!/^-?[0-9]+$/.test(text)) {
    return sendError(ex, { status: 404, code: 'pet_id_invalid', message: `${JSON.stringify(text)} is not an animal id (an integer).` });
  }
  const id = BigInt(text);
  const pet = id < INT64_MIN || id > INT64_MAX ? undefined : pets.find((p) => p.id === id);
  if (pet === undefined) return sendError(ex, { status: 404, code: 'pet_missing', message: `No animal has the id ${text}.` });
  send(ex, 200, petJson(pet), { Deprecation: DEPRECATION, Sunset: SUNSET });
}

async function createPet(ex: Exchange, pets: Pet[], expectsContinue: boolean): Promise<void> {
  const declared = declaredTooLarge(ex.req);
  if (declared !== undefined) {
    ex.closeAfter = true;
    return sendError(ex, declared);
  }
  if (expectsContinue) {
    ex.res.writeContinue();
    ex.closeAfter = false; // the body is read from here on
  }
  const body = await readBody(ex.req);
  if (!Buffer.isBuffer(body)) {
    ex.closeAfter = true;
    return sendError(ex, body);
  }
  const pet = readNewPet(body, ex.req.headers['content-type'], (name) => pets.some((p) => p.name === name));
  if ('code' in pet) return sendError(ex, pet);
  const id = pets.reduce((max, p) => (p.id > max ? p.id : max), 0n) + 1n;
  const created: Pet = { id, ...pet };
  pets.push(created);
  send(ex, 201, petJson(created));
}

async function handle(ex: Exchange, apiKey: string, pets: Pet[], expectsContinue: boolean): Promise<void> {
  const raw = ex.req.url ?? '/';
  const q = raw.indexOf('?');
  // The path as RFC 3986 §6.2.2 normalizes it: dot segments removed (WHATWG URL does it), unreserved characters decoded (§2.3).
  const path = new URL(q === -1 ? raw : raw.slice(0, q), 'http://localhost').pathname.replace(/%(2[dDeE]|3\d|[46][1-9a-fA-F]|[57][0-9aA]|5[fF]|7[eE])/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const query = new URLSearchParams(q === -1 ? '' : raw.slice(q + 1));
  const notFound: Refusal = { status: 404, code: 'not_found', message: `Nothing is served at ${path}.` };
  const method = ex.req.method ?? 'GET';
  const reading = method === 'GET' || method === 'HEAD';

  if (path !== '/v1' && !path.startsWith('/v1/')) return sendError(ex, notFound);
  const auth = authRefusal(ex.req.headersDistinct.authorization, apiKey);
  if (auth !== undefined) return sendError(ex, auth);
  if (path === '/v1/pets') {
    if (reading) return listPets(ex, pets, query);
    if (method === 'POST') return createPet(ex, pets, expectsContinue);
    return sendError(ex, { status: 405, code: 'method_not_allowed', message: `${method} is not served at ${path}.` }, { Allow: 'GET, HEAD, POST' });
  }
  const segment = path.startsWith('/v1/pets/') ? path.slice('/v1/pets/'.length) : undefined;
  if (segment === undefined || segment.includes('/')) return sendError(ex, notFound);
  if (reading) return getPet(ex, pets, segment);
  return sendError(ex, { status: 405, code: 'method_not_allowed', message: `${method} is not served at ${path}.` }, { Allow: 'GET, HEAD' });
}

export async function startIndependentServer(options: { apiKey: string; seed?: number }): Promise<StartedServer> {
  const pets = catalogue(options.seed ?? 1);
  const serve = (expectsContinue: boolean) => (req: IncomingMessage, res: ServerResponse) => {
    // A request that waits for 100-continue and is answered without it may never send its body: close after.
    const ex: Exchange = { req, res, closeAfter: expectsContinue };
    handle(ex, options.apiKey, pets, expectsContinue).catch(() => {
      // The client went away mid-body (readBody's only rejection): nobody to answer.
      if (!res.headersSent) res.destroy();
    });
  };
  const server = createServer(serve(false));
  server.on('checkContinue', serve(true));
  server.on('connection', lingerOnClose);
  // What node's parser refuses (a method outside its list, `FROB`) gets an Error body too: node's own 400 has none.
  const refused = JSON.stringify({ code: 'bad_request', message: 'The request is not HTTP this server reads.', status: 400 });
  server.on('clientError', (_, socket) => (socket.writable ? socket.end(`HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${refused.length}\r\nconnection: close\r\n\r\n${refused}`) : socket.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
