import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_BIN } from '../support/contract-cli.js';
import { useContractRun } from '../support/contract-run-fixture.js';
import { childEnv } from '../support/processes.js';
import { parseResponses, type ParsedResponse } from '../support/raw-http.js';
import { rawRequest } from '../support/raw-request.js';
import { startReferenceServer, type ReferenceServer } from './reference-server.js';

/**
 * The reference server's `every-point` variant (reference-server.ts's
 * header comment): each of its choices over real HTTP, the default
 * unchanged at each, and the built harness passing the variant.
 */
const KEY = 'every-point-key';
const AUTH = { authorization: `Bearer ${KEY}` };
const JSON_BODY = { ...AUTH, 'content-type': 'application/json' };
const SEEDS = [1, 2, 3, 4, 5];
const { processes, dir } = useContractRun('reference-every-point');

let variant: ReferenceServer;
let plain: ReferenceServer;
beforeAll(async () => {
  [variant, plain] = await Promise.all([startReferenceServer({ apiKey: KEY, variant: 'every-point' }), startReferenceServer({ apiKey: KEY })]);
});
afterAll(async () => {
  await Promise.all([variant.close(), plain.close()]);
});

const get = (server: ReferenceServer, path: string, headers: Record<string, string> = AUTH) => rawRequest(`${server.url}${path}`, headers);
const create = (server: ReferenceServer, body: unknown, path = '/pets') => rawRequest(`${server.url}${path}`, JSON_BODY, 'POST', typeof body === 'string' ? body : JSON.stringify(body));
const errorBody = (code: string, status: number) => ({ code, message: expect.any(String), status });
const port = (server: ReferenceServer) => Number(new URL(server.url).port);

/** How many animals the server lists (every one: none of these tests adds 100). */
async function count(server: ReferenceServer): Promise<number> {
  return ((await get(server, '/pets?limit=100')).json as unknown[]).length;
}

/**
 * A connection of its own: `send` writes bytes, `responses(n)` resolves once
 * n whole responses have arrived (or the server closed), parsed.
 */
function connection(server: ReferenceServer) {
  const socket = connect(port(server), '127.0.0.1');
  let received = Buffer.alloc(0);
  let closed = false;
  const waiting: Array<() => void> = [];
  const wake = () => waiting.splice(0).forEach((w) => w());
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    wake();
  });
  socket.on('close', () => {
    closed = true;
    wake();
  });
  socket.on('error', () => undefined);
  const whole = (n: number): ParsedResponse[] | undefined => {
    try {
      const parsed = parseResponses(received);
      return parsed.length >= n ? parsed : undefined;
    } catch {
      return undefined; // a response not all in yet
    }
  };
  return {
    send: (text: string) => socket.write(text),
    responses: (n: number) =>
      new Promise<{ parsed: ParsedResponse[]; closed: boolean }>((resolve) => {
        const check = () => {
          const parsed = whole(n);
          if (parsed || closed) resolve({ parsed: parsed ?? [], closed });
          else waiting.push(check);
        };
        check();
      }),
    close: () => socket.destroy(),
  };
}

const chunkedHead = `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
const json = (response: ParsedResponse) => JSON.parse(response.body.toString('utf8')) as unknown;

describe('1. Location', () => {
  it('the variant answers createPet 201 without Location; the default with it', async () => {
    const made = await create(variant, { name: 'Nowhere 1', categoryId: 1 });
    expect(made.status).toBe(201);
    expect(made.headers.location).toBeUndefined();
    const shown = await create(plain, { name: 'Nowhere 1', categoryId: 1 });
    expect(shown.status).toBe(201);
    expect(shown.headers.location).toBe(`/v1/pets/${shown.json.id}`);
  });
});

describe('2. a query parameter the document does not name', () => {
  it.each([
    ['listPets', 'GET', '/pets?limit=5&sort=name'],
    ['listPets, a name without a value', 'GET', '/pets?verbose'],
    ['listPets, an empty name', 'GET', '/pets?=1'],
    ['getPet', 'GET', '/pets/7?limit=5'],
    ['createPet', 'POST', '/pets?dryRun=true'],
  ])('%s: the variant refuses it with 400 unknown_parameter; the default ignores it', async (_, method, path) => {
    const before = await count(variant);
    const body = method === 'POST' ? JSON.stringify({ name: `Parameter ${path}`, categoryId: 2 }) : undefined;
    const refused = await rawRequest(`${variant.url}${path}`, JSON_BODY, method, body);
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual(errorBody('unknown_parameter', 400));
    expect(await count(variant)).toBe(before);
    const ignored = await rawRequest(`${plain.url}${path}`, JSON_BODY, method, body);
    expect(ignored.status).toBe(method === 'POST' ? 201 : 200);
  });

  it('the variant answers the named ones (percent-encoded names too), and 401 before the refusal', async () => {
    expect((await get(variant, '/pets?limit=5&status=sold')).status).toBe(200);
    expect((await get(variant, '/pets?%6Cimit=3')).json).toHaveLength(3);
    const unauthenticated = await get(variant, '/pets?sort=name', {});
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.json).toEqual(errorBody('unauthenticated', 401));
  });

  it('getPet signals its deprecation on a 200 alone, without a Link', async () => {
    const refused = await get(variant, '/pets/7?x=1');
    expect([refused.status, refused.headers.deprecation]).toEqual([400, undefined]);
    const found = await get(variant, '/pets/7');
    expect([found.status, found.headers.deprecation, found.headers.sunset, found.headers.link]).toEqual([200, '@1795305600', 'Thu, 05 Dec 2030 00:00:00 GMT', undefined]);
  });
});

describe('3. the petId', () => {
  it.each(['+7', '%207', '%20%20%207', '%2B7', '%20+7', '%37'])('the variant reads %s as 7', async (segment) => {
    const res = await get(variant, `/pets/${segment}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ id: 7, name: 'Tiger 7', categoryId: 5, status: 'sold' });
  });

  it.each(['07', '007', '%30%307', `${'0'.repeat(20)}7`, '+07', '%2007', '++7', '+-7', '%20-7', '-07', '-0', '-', '+', '%20', '7%20', '7+', '+%207', '7.0', 'abc'])(
    'the variant refuses %s with 400 bad_pet_id',
    async (segment) => {
      const res = await get(variant, `/pets/${segment}`);
      expect(res.status).toBe(400);
      expect(res.json).toEqual(errorBody('bad_pet_id', 400));
      expect(res.headers.deprecation).toBeUndefined();
    },
  );

  it('the variant keeps int64 and negative ids as the default does', async () => {
    for (const [segment, status] of [['0', 404], ['+0', 404], ['-7', 404], ['9223372036854775807', 404], ['+9223372036854775807', 404], ['-9223372036854775808', 404], ['9223372036854775808', 400], ['%20+9223372036854775808', 400]] as const) {
      expect((await get(variant, `/pets/${segment}`)).status, segment).toBe(status);
    }
  });

  it('the default refuses a sign and spaces, and reads leading zeros', async () => {
    for (const segment of ['+7', '%207']) expect((await get(plain, `/pets/${segment}`)).json).toEqual(errorBody('bad_pet_id', 400));
    for (const segment of ['07', '%30%307', `${'0'.repeat(20)}7`]) expect((await get(plain, `/pets/${segment}`)).json).toMatchObject({ id: 7 });
  });
});

describe('4. a createPet body sent chunked', () => {
  it('the variant answers 411 length_required before the body is sent, then discards it and keeps the connection', async () => {
    const before = await count(variant);
    const socket = connection(variant);
    try {
      socket.send(`${chunkedHead}${chunk('{"name":"Chu')}`);
      const first = await socket.responses(1);
      expect(first.parsed.map((r) => r.status)).toEqual([411]);
      expect(json(first.parsed[0] as ParsedResponse)).toEqual(errorBody('length_required', 411));
      expect(first.parsed[0]?.headers['content-type']).toBe('application/json; charset=utf-8');
      socket.send(`${chunk('nky","categoryId":1}')}0\r\n\r\nGET /v1/pets/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\n\r\n`);
      const both = await socket.responses(2);
      expect(both.parsed.map((r) => r.status)).toEqual([411, 200]);
    } finally {
      socket.close();
    }
    expect(await count(variant)).toBe(before);
    // Nothing was stored: the name is still free.
    expect((await create(variant, { name: 'Chunky', categoryId: 1 })).status).toBe(201);
  });

  it('the variant answers 401 first, and 400 to an unknown parameter first', async () => {
    for (const [head, status, code] of [
      [chunkedHead.replace(`Authorization: Bearer ${KEY}\r\n`, ''), 401, 'unauthenticated'],
      [chunkedHead.replace('/v1/pets', '/v1/pets?x=1'), 400, 'unknown_parameter'],
    ] as const) {
      const socket = connection(variant);
      try {
        socket.send(`${head}${chunk('{"name":"Chunky 2","categoryId":1}')}0\r\n\r\n`);
        const [answer] = (await socket.responses(1)).parsed;
        expect(answer?.status).toBe(status);
        expect(json(answer as ParsedResponse)).toEqual(errorBody(code, status));
      } finally {
        socket.close();
      }
    }
  });

  it('the default reads the chunked body and stores the animal', async () => {
    const socket = connection(plain);
    try {
      socket.send(`${chunkedHead}${chunk('{"name":"Chu')}${chunk('nky","categoryId":1}')}0\r\n\r\n`);
      const [answer] = (await socket.responses(1)).parsed;
      expect(answer?.status).toBe(201);
      expect(json(answer as ParsedResponse)).toMatchObject({ name: 'Chunky', categoryId: 1 });
    } finally {
      socket.close();
    }
  });
});

describe('5. a name taken', () => {
  it('the variant refuses a name of its starting catalogue or of an animal added, storing nothing; the default stores it', async () => {
    const before = await count(variant);
    const taken = await create(variant, { name: 'Luna 2', categoryId: 3 });
    expect(taken.status).toBe(400);
    expect(taken.json).toEqual(errorBody('name_taken', 400));
    expect((await create(variant, { name: 'Taken Twice', categoryId: 3 })).status).toBe(201);
    expect((await create(variant, { name: 'Taken Twice', categoryId: 4, status: 'sold' })).json).toEqual(errorBody('name_taken', 400));
    // Exactly the name: another case or a space more is another name.
    expect((await create(variant, { name: 'taken twice', categoryId: 3 })).status).toBe(201);
    expect(await count(variant)).toBe(before + 2);
    expect((await create(plain, { name: 'Luna 2', categoryId: 3 })).status).toBe(201);
  });

  it('is the last check: any other refusal of the body comes first', async () => {
    for (const [body, code] of [
      [{ name: 'Luna 2' }, 'missing_category_id'],
      [{ name: 'Luna 2', categoryId: 1.5 }, 'bad_category_id'],
      [{ name: 'Luna 2', categoryId: 1, status: 'lost' }, 'bad_status'],
    ] as const) {
      expect((await create(variant, body)).json).toEqual(errorBody(code, 400));
    }
  });
});

describe('6. a control character in the name', () => {
  it.each([
    ['NUL', '\u0000'],
    ['a tab', '\t'],
    ['a line feed', '\n'],
    ['US', '\u001f'],
    ['DEL', '\u007f'],
    ['NEL (C1)', '\u0085'],
    ['APC (C1)', '\u009f'],
  ])('the variant refuses %s with 400 name_control_character; the default keeps it', async (_, character) => {
    const name = `Ctrl ${JSON.stringify(character)} ${character}end`;
    const before = await count(variant);
    const refused = await create(variant, { name, categoryId: 1 });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual(errorBody('name_control_character', 400));
    expect(await count(variant)).toBe(before);
    const kept = await create(plain, { name, categoryId: 1 });
    expect(kept.status).toBe(201);
    expect(kept.json.name).toBe(name);
  });

  it('the variant accepts characters that are not Cc (format, separators, a lone surrogate)', async () => {
    expect((await create(variant, '{"name":"Zero\\u200bwidth \\u2028 \\ud800 nbsp\\u00a0","categoryId":1}')).status).toBe(201);
  });

  it('comes after missing_name, bad_name and empty_name, before name_too_long and name_taken', async () => {
    for (const [body, code] of [
      [{ categoryId: 1 }, 'missing_name'],
      [{ name: 5, categoryId: 1 }, 'bad_name'],
      [{ name: '', categoryId: 1 }, 'empty_name'],
      [{ name: `\u0000${'x'.repeat(1000)}`, categoryId: 1 }, 'name_control_character'],
      [{ name: `\u0001` }, 'name_control_character'],
      [{ name: 'x'.repeat(1001), categoryId: 1 }, 'name_too_long'],
    ] as const) {
      expect((await create(variant, body)).json, JSON.stringify(body).slice(0, 40)).toEqual(errorBody(code, 400));
    }
  });
});

describe('7. a member NewPet does not name', () => {
  it.each([
    ['a string', '"nickname":"Rex"'],
    ['a client id', '"id":9876543210'],
    ['null', '"note":null'],
    ['__proto__', '"__proto__":{"status":"sold"}'],
  ])('the variant refuses %s with 400 unknown_member, storing nothing; the default ignores it', async (_, member) => {
    const body = (name: string) => `{"name":${JSON.stringify(name)},"categoryId":1,${member}}`;
    const before = await count(variant);
    const refused = await create(variant, body(`Member ${member}`));
    expect(refused.json).toEqual(errorBody('unknown_member', 400));
    expect(await count(variant)).toBe(before);
    const ignored = await create(plain, body(`Member ${member}`));
    expect(ignored.status).toBe(201);
    expect(Object.keys(ignored.json as object).sort()).toEqual(['categoryId', 'id', 'name', 'status']);
  });

  it('comes after the checks of name, categoryId and status', async () => {
    for (const [body, code] of [
      [{ categoryId: 1, nickname: 'Rex' }, 'missing_name'],
      [{ name: 'x'.repeat(1001), categoryId: 1, nickname: 'Rex' }, 'name_too_long'],
      [{ name: 'Member order', categoryId: 1.5, nickname: 'Rex' }, 'bad_category_id'],
      [{ name: 'Member order', categoryId: 1, status: 'lost', nickname: 'Rex' }, 'bad_status'],
    ] as const) {
      expect((await create(variant, body)).json, JSON.stringify(body).slice(0, 40)).toEqual(errorBody(code, 400));
    }
  });
});

describe('8. the 401: its code and challenge', () => {
  it.each([
    ['a missing key', {}, 'unauthenticated'],
    ['an empty Authorization header', { authorization: '' }, 'unauthenticated'],
    ['a wrong key', { authorization: 'Bearer not-the-key' }, 'invalid_credentials'],
  ])('for %s the variant answers its code and sends Bearer scope="pets"; the default Bearer', async (_, headers, code) => {
    for (const path of ['/pets', '/pets/7', '/nowhere']) {
      const refused = await get(variant, path, headers);
      expect(refused.status).toBe(401);
      expect(refused.json).toEqual(errorBody(code, 401));
      expect(refused.headers['www-authenticate']).toBe('Bearer scope="pets"');
      expect((await get(plain, path, headers)).headers['www-authenticate']).toBe('Bearer');
    }
  });
});

describe('9. an Accept without application/json', () => {
  it.each([['listPets', 'GET', '/pets'], ['getPet', 'GET', '/pets/7'], ['createPet', 'POST', '/pets']])('%s: the variant refuses application/xml with 406 not_acceptable, storing nothing; the default answers in JSON', async (_, method, path) => {
    const before = await count(variant);
    const body = method === 'POST' ? JSON.stringify({ name: `Accept ${path}`, categoryId: 2 }) : undefined;
    const refused = await rawRequest(`${variant.url}${path}`, { ...JSON_BODY, accept: 'application/xml' }, method, body);
    expect([refused.status, refused.json]).toEqual([406, errorBody('not_acceptable', 406)]);
    expect(await count(variant)).toBe(before);
    expect((await rawRequest(`${plain.url}${path}`, { ...JSON_BODY, accept: 'application/xml' }, method, body)).status).toBe(method === 'POST' ? 201 : 200);
  });

  it('the variant serves an Accept that takes JSON in any form, refuses JSON at weight 0, and answers 401 first', async () => {
    for (const accept of ['application/json', 'Application/*', 'text/html, */*;q=0.1', '']) expect((await get(variant, '/pets', { ...AUTH, accept })).status).toBe(200);
    expect((await get(variant, '/pets', { ...AUTH, accept: 'application/json;q=0, */*' })).status).toBe(406);
    expect((await get(variant, '/pets', { accept: 'application/xml' })).status).toBe(401);
  });
});

describe('10. a listPets parameter given twice', () => {
  it('the variant reads the last value, judged as if given alone; the default refuses it', async () => {
    expect(((await get(variant, '/pets?limit=1&limit=3')).json as unknown[]).length).toBe(3);
    const sold = (await get(variant, '/pets?status=pending&status=sold&limit=100')).json as Array<{ status: string }>;
    expect(sold.length).toBeGreaterThan(0);
    expect(sold.every((pet) => pet.status === 'sold')).toBe(true);
    expect((await get(variant, '/pets?limit=5&limit=0')).json).toEqual(errorBody('bad_limit', 400));
    expect((await get(variant, '/pets?status=sold&status=lost')).json).toEqual(errorBody('bad_status', 400));
    expect((await get(plain, '/pets?limit=1&limit=3')).json).toEqual(errorBody('bad_limit', 400));
    expect((await get(plain, '/pets?status=sold&status=sold')).json).toEqual(errorBody('bad_status', 400));
  });
});

describe('11. a member named twice', () => {
  it('the variant refuses a body that names a member twice with two values, at any depth, storing nothing; the default reads the last', async () => {
    const before = await count(variant);
    for (const body of ['{"name":"Twice a","categoryId":1,"name":"Twice b"}', '{"name":"Twice c","categoryId":1,"owner":{"id":1,"id":2}}']) {
      expect((await create(variant, body)).json, body).toEqual(errorBody('duplicate_member', 400));
    }
    expect(await count(variant)).toBe(before);
    // Before any field is read: the refusal is the member's, not the missing categoryId's.
    expect((await create(variant, '{"name":"Twice d","name":"Twice e"}')).json).toEqual(errorBody('duplicate_member', 400));
    expect((await create(variant, '{"name":"Twice f","name":"Twice g"')).json).toEqual(errorBody('bad_json', 400));
    const read = await create(plain, '{"name":"Twice h","categoryId":1,"name":"Twice i"}');
    expect([read.status, (read.json as { name: string }).name]).toEqual([201, 'Twice i']);
  });
});

describe('the built contract harness against the variant', () => {
  for (const seed of SEEDS) {
    it(`passes every rule on seed ${seed}`, { timeout: 240_000 }, async () => {
      const server = await startReferenceServer({ apiKey: KEY, variant: 'every-point' });
      try {
        const run = await processes.node([CONTRACT_BIN, '--base-url', server.url, '--api-key', KEY, '--seed', String(seed)], { env: childEnv(), cwd: dir() });
        expect(run.code, `${run.stdout.slice(-4000)}\n${run.stderr.slice(-2000)}`).toBe(0);
      } finally {
        await server.close();
      }
    });
  }
});
