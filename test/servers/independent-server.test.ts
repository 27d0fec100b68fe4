/**
 * The independent Animal Store server (independent-server.ts), over real HTTP
 * on a real port: what the interface says, and each choice it made where the
 * interface is silent. Raw sockets where fetch would tidy the request up
 * (two Authorization headers, no Content-Type, a declared length never sent).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedServer } from '../support/drift-run.js';
import { startIndependentServer } from './independent-server.js';

const KEY = 'independent-test-key';
const AUTH = { authorization: `Bearer ${KEY}` };
let server: StartedServer;
let base: URL;

beforeAll(async () => {
  server = await startIndependentServer({ apiKey: KEY, seed: 7 });
  base = new URL(server.url);
});
afterAll(() => server.close());

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

const get = (path: string, headers: Record<string, string> = AUTH) => fetch(`${server.url}${path}`, { headers });
const post = (body: string, headers: Record<string, string> = { ...AUTH, 'content-type': 'application/json' }) =>
  fetch(`${server.url}/pets`, { method: 'POST', headers, body });
const newPet = (fields: Record<string, unknown>) => post(JSON.stringify(fields));
let unique = 0;
const freshName = (): string => `indep-test ${++unique}`;

async function expectError(response: Response, status: number, code: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toEqual({ code, message: expect.any(String), status });
}

interface RawResponse {
  status: number;
  headers: Map<string, string>;
  body: string;
  /** Everything before the final answer's status line (a `100 Continue`, say). */
  before: string;
}

/**
 * Writes `head` and `body` as they are on one connection, and reads the
 * answer until the server closes it; `readAfterMs` leaves the answer unread
 * that long, as a client busy sending would.
 */
function raw(head: string, body: Buffer | string = '', readAfterMs = 0): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(base.port), base.hostname);
    if (readAfterMs > 0) {
      socket.pause();
      setTimeout(() => socket.resume(), readAfterMs);
    }
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const final = text.lastIndexOf('HTTP/1.1 '); // the bodies here are JSON Errors and Pets: never a status line
      const [headText = '', ...rest] = text.slice(final).split('\r\n\r\n');
      const [statusLine = '', ...lines] = headText.split('\r\n');
      const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n'), before: text.slice(0, final) });
      socket.end();
    });
    socket.write(head.replace(/\n/g, '\r\n') + '\r\n');
    socket.write(body);
  });
}

const postHead = (extra: string): string => `POST /v1/pets HTTP/1.1\nHost: x\nAuthorization: Bearer ${KEY}\nConnection: close\n${extra}`;

describe('listPets', () => {
  it('pages newest first, 20 by default, Pets as JSON; a known status filters, an unknown one matches nothing', async () => {
    const response = await get('/pets');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const page = (await response.json()) as Pet[];
    expect(page).toHaveLength(20);
    const ids = page.map((pet) => pet.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    for (const pet of page) expect(Object.keys(pet).sort()).toEqual(['categoryId', 'id', 'name', 'status']);

    const sold = (await (await get('/pets?status=sold&limit=100')).json()) as Pet[];
    expect(sold.length).toBeGreaterThan(0);
    expect(sold.every((pet) => pet.status === 'sold')).toBe(true);
    for (const status of ['lost', 'AVAILABLE', '']) {
      const answer = await get(`/pets?status=${status}`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual([]);
    }
    // An unknown parameter is ignored: the same page as without it.
    expect(await (await get('/pets?colour=blue&limit=5')).json()).toEqual(await (await get('/pets?limit=5')).json());
  });

  it('refuses a limit below 1 or not an integer with 400 bad_limit, and clamps one above 100', async () => {
    for (const limit of ['0', '-1', 'abc', '1.5', '+5', '', '1e1']) await expectError(await get(`/pets?limit=${encodeURIComponent(limit)}`), 400, 'bad_limit');
    expect(await (await get('/pets?limit=1')).json()).toHaveLength(1);
    expect(await (await get('/pets?limit=007')).json()).toHaveLength(7);
    // More than 100 animals, so a clamp is told from the default page and from "all of them".
    await Promise.all(Array.from({ length: 70 }, () => newPet({ name: freshName(), categoryId: 1 })));
    for (const limit of ['101', '1000', '99999999999999999999999']) {
      const answer = await get(`/pets?limit=${limit}`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toHaveLength(100);
    }
  });
});

describe('authentication', () => {
  it('answers 401 auth_required without a key, auth_invalid with a wrong one, and sends no WWW-Authenticate', async () => {
    for (const path of ['/pets', '/pets/1', '/pets?limit=abc', '/pets/999999', '/store/orders']) {
      const missing = await get(path, {});
      await expectError(missing, 401, 'auth_required');
      expect(missing.headers.get('www-authenticate')).toBeNull();
      const wrong = await get(path, { authorization: 'Bearer not-the-key' });
      await expectError(wrong, 401, 'auth_invalid');
      expect(wrong.headers.get('www-authenticate')).toBeNull();
    }
    await expectError(await post('{}', { 'content-type': 'application/json' }), 401, 'auth_required');
    await expectError(await get('/pets', { authorization: '' }), 401, 'auth_required');
    await expectError(await get('/pets', { authorization: `Basic ${KEY}` }), 401, 'auth_invalid');
    await expectError(await get('/pets', { authorization: `Bearer ${KEY}x` }), 401, 'auth_invalid');
    expect((await get('/pets', { authorization: `bearer ${KEY}` })).status).toBe(200);
  });

  it('refuses two Authorization headers, even when the first holds the key', async () => {
    const answer = await raw(`GET /v1/pets HTTP/1.1\nHost: x\nAuthorization: Bearer ${KEY}\nAuthorization: Bearer other\nConnection: close\n`);
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'auth_invalid', status: 401 });
  });
});

describe('createPet', () => {
  it('answers 201 with the Pet, stores `available` when no status is sent, sends no Location, ignores other members', async () => {
    const name = freshName();
    const created = await newPet({ name, categoryId: 3, id: 5, nickname: 'Rex' });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBeNull();
    const pet = (await created.json()) as Pet;
    expect(pet).toEqual({ id: expect.any(Number), name, categoryId: 3, status: 'available' });
    expect(pet.id).not.toBe(5);
    expect(await (await get(`/pets/${pet.id}`)).json()).toEqual(pet);
    expect(((await (await get('/pets?limit=1')).json()) as Pet[])[0]).toEqual(pet);
    // An integer by value, as JSON Schema counts it; media type parameters and case do not matter.
    const two = await post(`{"name":"${freshName()}","categoryId":2.0,"status":"sold"}`, { ...AUTH, 'content-type': 'Application/JSON; charset=utf-8' });
    expect(two.status).toBe(201);
    expect(await two.json()).toMatchObject({ categoryId: 2, status: 'sold' });
  });

  it('keeps int64 digits exactly, past 2^53, in the 201, getPet and the listing', async () => {
    for (const categoryId of ['9007199254740993', '9223372036854775807', '-9223372036854775808']) {
      const created = await post(`{"name":"${freshName()}","categoryId":${categoryId}}`);
      expect(created.status).toBe(201);
      const text = await created.text();
      expect(text).toContain(`"categoryId":${categoryId},`);
      const id = /"id":(\d+)/.exec(text)![1];
      expect(await (await get(`/pets/${id}`)).text()).toBe(text);
      expect(await (await get('/pets?limit=1')).text()).toBe(`[${text}]`);
    }
  });

  it('refuses bodies it cannot read: body_required, unsupported_media_type, json_invalid, body_not_object', async () => {
    await expectError(await post(''), 400, 'body_required');
    await expectError(await post('{"name":"a","categoryId":1}', { ...AUTH, 'content-type': 'text/plain' }), 400, 'unsupported_media_type');
    await expectError(await post('{"name":"a","categoryId":1}', { ...AUTH, 'content-type': 'application/merge-patch+json' }), 400, 'unsupported_media_type');
    const noType = await raw(postHead('Content-Length: 27\n'), '{"name":"a","categoryId":1}');
    expect(noType.status).toBe(400);
    expect(JSON.parse(noType.body)).toMatchObject({ code: 'unsupported_media_type', status: 400 });
    for (const body of ['{"name":"a"', '\uFEFF{"name":"a","categoryId":1}', "{'name':'a'}", '{"name":"a","categoryId":01}', '{} {}']) {
      await expectError(await post(body), 400, 'json_invalid');
    }
    // 512 levels of nesting are read, 513 are not.
    expect((await post(`{"name":"${freshName()}","categoryId":1,"x":${'['.repeat(511)}${']'.repeat(511)}}`)).status).toBe(201);
    await expectError(await post(`{"name":"a","categoryId":1,"x":${'['.repeat(512)}${']'.repeat(512)}}`), 400, 'json_invalid');
    for (const body of ['null', '[]', '"Rex"', '1', 'true']) await expectError(await post(body), 400, 'body_not_object');
  });

  it('refuses a missing field with field_missing and a wrong value with field_invalid', async () => {
    await expectError(await newPet({ categoryId: 1 }), 400, 'field_missing');
    await expectError(await newPet({ name: freshName() }), 400, 'field_missing');
    await expectError(await newPet({}), 400, 'field_missing');
    const wrong: Record<string, unknown>[] = [
      { name: 1, categoryId: 1 },
      { name: null, categoryId: 1 },
      { name: freshName(), categoryId: '2' },
      { name: freshName(), categoryId: 1.5 },
      { name: freshName(), categoryId: null },
      { name: freshName(), categoryId: 1, status: 'lost' },
      { name: freshName(), categoryId: 1, status: 'Sold' },
      { name: freshName(), categoryId: 1, status: null },
    ];
    for (const fields of wrong) await expectError(await newPet(fields), 400, 'field_invalid');
    await expectError(await post(`{"name":"${freshName()}","categoryId":9223372036854775808}`), 400, 'field_invalid');
    await expectError(await post('{"name":"a\\ud800b","categoryId":1}'), 400, 'field_invalid');
  });

  it('refuses names: empty, longer than 64 code points, with a C0 control or DEL, or already taken', async () => {
    await expectError(await newPet({ name: '', categoryId: 1 }), 400, 'name_empty');
    // Code points, not UTF-16 units: 64 dogs are 128 units and still fit.
    expect((await newPet({ name: '🐕'.repeat(64), categoryId: 1 })).status).toBe(201);
    await expectError(await newPet({ name: 'é'.repeat(65), categoryId: 1 }), 400, 'name_too_long');
    for (const control of ['\u0000', '\u0007', '\u001f', '\u007f']) await expectError(await newPet({ name: `Rex${control}`, categoryId: 1 }), 400, 'name_invalid');
    expect((await newPet({ name: `${freshName()}\u0085`, categoryId: 1 })).status).toBe(201);
    expect((await newPet({ name: '   ', categoryId: 1 })).status).toBe(201);
    const name = freshName();
    expect((await newPet({ name, categoryId: 1 })).status).toBe(201);
    await expectError(await newPet({ name, categoryId: 2 }), 400, 'name_taken');
    expect((await newPet({ name: name.toUpperCase(), categoryId: 2 })).status).toBe(201);
  });
});

describe('createPet body size', () => {
  const bodyOf = (bytes: number): string => {
    const json = `{"name":"${freshName()}","categoryId":1}`;
    return json.slice(0, -1) + ' '.repeat(bytes - json.length) + '}';
  };

  it('accepts 16384 bytes, refuses 16385 with 413 body_too_large and Connection: close', async () => {
    expect((await post(bodyOf(16_384))).status).toBe(201);
    const refused = await post(bodyOf(16_385));
    await expectError(refused, 413, 'body_too_large');
    expect(refused.headers.get('connection')).toBe('close');
  });

  it('answers a declared length past the limit before the body is sent, and without a 100 Continue', async () => {
    const declared = await raw(postHead('Content-Type: application/json\nContent-Length: 10000000\n'));
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toEqual({ code: 'body_too_large', message: expect.any(String), status: 413 });
    const expecting = await raw(postHead('Content-Type: application/json\nContent-Length: 10000000\nExpect: 100-continue\n'));
    expect(expecting.status).toBe(413);
    expect(expecting.before).toBe('');
  });

  it('gets the 413 to a client that sends all of a large body and reads late, with no reset', async () => {
    // Closed at once, the server would leave megabytes unread and the kernel would reset the
    // connection: this client, reading 300 ms late, would then get EPIPE instead of the 413.
    const answer = await raw(postHead('Content-Type: application/json\nContent-Length: 16000000\n'), Buffer.alloc(16_000_000, 0x20), 300);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'body_too_large' });
  });

  it('accepts a chunked body within the limit, and answers 413 to one that passes it', async () => {
    const json = `{"name":"${freshName()}","categoryId":4}`;
    const chunked = (text: string): string => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
    const small = await raw(postHead('Content-Type: application/json\nTransfer-Encoding: chunked\n'), chunked(json.slice(0, 10)) + chunked(json.slice(10)) + '0\r\n\r\n');
    expect(small.status).toBe(201);
    expect(JSON.parse(small.body)).toMatchObject({ categoryId: 4, status: 'available' });
    const large = await raw(postHead('Content-Type: application/json\nTransfer-Encoding: chunked\n'), chunked(' '.repeat(60_000)).repeat(10) + '0\r\n\r\n');
    expect(large.status).toBe(413);
    expect(large.headers.get('connection')).toBe('close');
    expect(JSON.parse(large.body)).toMatchObject({ code: 'body_too_large', status: 413 });
  });
});

describe('getPet', () => {
  it('answers 200 with the Pet and the deprecation signals: Deprecation (RFC 9745), Sunset (RFC 8594), no Link', async () => {
    const [first] = (await (await get('/pets?limit=1')).json()) as Pet[];
    const answer = await get(`/pets/${first!.id}`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual(first);
    expect(answer.headers.get('deprecation')).toBe('@1767225600');
    expect(answer.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(answer.headers.get('link')).toBeNull();
    // Leading zeros and percent-encoded digits are the same id.
    const seven = await (await get('/pets/7')).json();
    expect(await (await get('/pets/007')).json()).toEqual(seven);
    expect(await (await get('/pets/%37')).json()).toEqual(seven);
  });

  it('answers 404 pet_missing for an unknown or past-int64 id, 404 pet_id_invalid for a non-integer, without deprecation headers', async () => {
    for (const id of ['999999', '-1', '9223372036854775807', '9223372036854775808', '-9223372036854775809']) {
      const answer = await get(`/pets/${id}`);
      await expectError(answer, 404, 'pet_missing');
      expect(answer.headers.get('deprecation')).toBeNull();
      expect(answer.headers.get('sunset')).toBeNull();
    }
    for (const id of ['abc', '1.5', '7.0', '7e0', '+7', '0x7', '%207', '7abc', '%zz', '']) {
      await expectError(await get(`/pets/${id}`), 404, 'pet_id_invalid');
    }
    const anonymous = await get('/pets/1', {});
    expect(anonymous.headers.get('deprecation')).toBeNull();
  });
});

describe('the rest of the server', () => {
  it('draws the same catalogue from the same seed, and another from another seed', async () => {
    const list = async (seed: number): Promise<unknown> => {
      const other = await startIndependentServer({ apiKey: 'k', seed });
      try {
        return await (await fetch(`${other.url}/pets?limit=100`, { headers: { authorization: 'Bearer k' } })).json();
      } finally {
        await other.close();
      }
    };
    const one = (await list(1)) as Pet[];
    expect(one).toHaveLength(40);
    expect(new Set(one.map((pet) => pet.name)).size).toBe(40);
    expect(await list(1)).toEqual(one);
    expect(await list(2)).not.toEqual(one);
  });

  it('answers other methods with 405 and Allow, and paths outside /v1 with 404 not_found', async () => {
    const deleted = await fetch(`${server.url}/pets`, { method: 'DELETE', headers: AUTH });
    await expectError(deleted, 405, 'method_not_allowed');
    expect(deleted.headers.get('allow')).toBe('GET, HEAD, POST');
    await expectError(await fetch(`${server.url}/pets/1`, { method: 'PUT', headers: AUTH }), 405, 'method_not_allowed');
    await expectError(await fetch(`${base.origin}/pets`, { headers: AUTH }), 404, 'not_found');
    await expectError(await get('/store/orders'), 404, 'not_found');
  });
});
