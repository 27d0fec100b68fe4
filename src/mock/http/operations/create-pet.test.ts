import { gzipSync } from 'node:zlib';
import { connect } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { scenarioFolder, scenarioWith } from '../../../../test/support/scenario-folder.js';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';

const pets = [
  { id: 1, name: 'Milo', categoryId: 3, status: 'available' as const },
  { id: 7, name: 'Bruno', categoryId: 2, status: 'sold' as const },
];
const JSON_HEADERS = { 'content-type': 'application/json' };

describe('createPet (POST /v1/pets)', () => {
  const mock = useMock({ pets });
  const post = (body: RequestInit["body"], headers: Record<string, string> = JSON_HEADERS, extra: RequestInit = {}) =>
    mock.authed('/pets', { method: 'POST', headers, body, ...extra });

  it('answers 201 with the stored Pet and an id assigned after the largest one', async () => {
    const res = await post(JSON.stringify({ name: 'Biscuit', categoryId: 2, status: 'pending' }));
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toEqual({ id: 8, name: 'Biscuit', categoryId: 2, status: 'pending' });
  });

  it('makes the new animal visible at once in getPet and in listPets under its status', async () => {
    const created = await post(JSON.stringify({ name: 'Luna', categoryId: 4, status: 'sold' }));
    const fetched = await mock.authed(`/pets/${created.json.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.json).toEqual(created.json);
    const listed = await mock.authed('/pets?status=sold&limit=100');
    expect(listed.json).toContainEqual(created.json);
    const all = await mock.authed('/pets?limit=100');
    expect(all.json.at(-1)).toEqual(created.json);
  });

  it('never uses an id sent by the client', async () => {
    const res = await post(JSON.stringify({ id: 1, name: 'Copycat', categoryId: 2 }));
    expect(res.status).toBe(201);
    expect(res.json.id).not.toBe(1);
    expect((await mock.authed('/pets/1')).json.name).toBe('Milo');
  });

  it('neither stores nor echoes unknown fields', async () => {
    const res = await post(JSON.stringify({ name: 'Pip', categoryId: 5, color: 'brown', tags: ['x'], __proto__: { admin: true } }));
    expect(res.status).toBe(201);
    expect(Object.keys(res.json).sort()).toEqual(['categoryId', 'id', 'name']);
    expect(Object.keys((await mock.authed(`/pets/${res.json.id}`)).json).sort()).toEqual(['categoryId', 'id', 'name']);
  });

  it('leaves status absent when it is not sent (the interface shows no default)', async () => {
    const res = await post(JSON.stringify({ name: 'Nameless', categoryId: 1 }));
    expect(res.status).toBe(201);
    expect(res.json).not.toHaveProperty('status');
  });

  it('accepts a body that starts with a UTF-8 byte order mark (RFC 8259 §8.1)', async () => {
    const res = await post(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"name":"Bom","categoryId":1}')]));
    expect(res.status).toBe(201);
    expect(res.json.name).toBe('Bom');
  });

  it('keeps non-ASCII names exactly', async () => {
    const res = await post(JSON.stringify({ name: 'Łatka 🐾 ñ', categoryId: 1 }));
    expect(res.status).toBe(201);
    expect((await mock.authed(`/pets/${res.json.id}`)).json.name).toBe('Łatka 🐾 ñ');
  });

  it('accepts a charset parameter and any case in the content type', async () => {
    const res = await post(JSON.stringify({ name: 'Case', categoryId: 1 }), { 'content-type': 'Application/JSON; charset=utf-8' });
    expect(res.status).toBe(201);
  });

  it('gives unique, increasing ids under 50 concurrent requests, and loses none', async () => {
    const before = (await mock.health()).pets;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => post(JSON.stringify({ name: `Concurrent ${i}`, categoryId: 1, status: 'available' }))),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    const ids = results.map((r) => r.json.id as number).sort((a, b) => a - b);
    expect(new Set(ids).size).toBe(50);
    expect(ids.at(-1)! - ids[0]!).toBe(49);
    expect((await mock.health()).pets).toBe(before + 50);
    const listed = (await mock.authed('/pets?limit=100')).json.map((p: { id: number }) => p.id);
    for (const id of ids) expect(listed).toContain(id);
  });

  // Invalid bodies tried: missing fields, wrong JSON types, null values,
  // out-of-range and fractional numbers, unknown or wrongly cased status, and
  // bodies that are not an object at all.
  it.each([
    ['an empty object', '{}', ['name is required', 'categoryId is required']],
    ['no categoryId', '{"name":"Rex"}', ['categoryId is required']],
    ['no name', '{"categoryId":1}', ['name is required']],
    ['a numeric name', '{"name":123,"categoryId":1}', ['name must be a string']],
    ['a null name', '{"name":null,"categoryId":1}', ['name must be a string']],
    ['an array name', '{"name":["Rex"],"categoryId":1}', ['name must be a string']],
    ['a string categoryId', '{"name":"Rex","categoryId":"1"}', ['categoryId must be an integer']],
    ['a fractional categoryId', '{"name":"Rex","categoryId":1.5}', ['categoryId must be an integer']],
    ['a boolean categoryId', '{"name":"Rex","categoryId":true}', ['categoryId must be an integer']],
    ['a categoryId beyond int64', '{"name":"Rex","categoryId":1e19}', ['categoryId must be an integer from -9223372036854775808 to 9223372036854775807']],
    ['a categoryId of 2^63', '{"name":"Rex","categoryId":9223372036854775808}', ['categoryId must be an integer from -9223372036854775808 to 9223372036854775807']],
    ['a categoryId below -2^63', '{"name":"Rex","categoryId":-9223372036854775809}', ['categoryId must be an integer from -9223372036854775808 to 9223372036854775807']],
    // Its double is the integer 4503599627370498: read as JavaScript does, it would pass as one.
    ['a fraction whose double is an integer', '{"name":"Rex","categoryId":4503599627370497.5}', ['categoryId must be an integer']],
    ['an unknown status', '{"name":"Rex","categoryId":1,"status":"gone"}', ['status must be one of available, pending, sold']],
    ['a wrongly cased status', '{"name":"Rex","categoryId":1,"status":"Available"}', ['status must be one of available, pending, sold']],
    ['a null status', '{"name":"Rex","categoryId":1,"status":null}', ['status must be a string']],
    ['null', 'null', ['body must be a JSON object']],
    ['an array', '[{"name":"Rex","categoryId":1}]', ['body must be a JSON object']],
    ['a string', '"Rex"', ['body must be a JSON object']],
    ['a number', '42', ['body must be a JSON object']],
  ])('answers 400 invalid_body for %s', async (_, body, messages) => {
    const before = (await mock.health()).pets;
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toMatchObject({ code: 'invalid_body', status: 400 });
    for (const message of messages) expect(res.json.message).toContain(message);
    expect((await mock.health()).pets).toBe(before);
  });

  it('names each problem once, with every problem of the body', async () => {
    const res = await post('{"name":7,"categoryId":1.5,"status":"Lost"}');
    expect(res.json.message).toBe('name must be a string; categoryId must be an integer; status must be one of available, pending, sold');
  });

  it.each([
    ['malformed JSON', '{"name":"Rex",', JSON_HEADERS, 'malformed_json', 'not valid JSON'],
    // Bytes 0xFF 0xFE are never UTF-8: stored leniently they would become U+FFFD.
    ['invalid UTF-8', new Uint8Array([...new TextEncoder().encode('{"name":"bad'), 0xff, 0xfe, ...new TextEncoder().encode('","categoryId":1}')]), JSON_HEADERS, 'malformed_json', 'not valid UTF-8'],
    ['trailing garbage', '{"name":"Rex","categoryId":1} x', JSON_HEADERS, 'malformed_json', 'not valid JSON'],
    // Valid JSON, read no deeper than 512 levels: 400,000 took a tree of megabytes, and with an exponent a 400 saying the stack overflowed.
    ['an extra member 400,000 levels deep', `{"name":"Rex","categoryId":1,"extra":${'['.repeat(400_000)}${']'.repeat(400_000)}}`, JSON_HEADERS, 'malformed_json', 'is not read: it nests arrays and objects more than 512 levels deep'],
    ['an extra member 10,000 levels deep, and an exponent', `{"name":"Rex","categoryId":1e0,"extra":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, JSON_HEADERS, 'malformed_json', 'more than 512 levels deep'],
    ['an empty body', '', JSON_HEADERS, 'missing_body', 'request body is required'],
    ['no body at all', undefined, JSON_HEADERS, 'missing_body', 'request body is required'],
    ['text/plain', '{"name":"Rex","categoryId":1}', { 'content-type': 'text/plain' }, 'unsupported_content_type', 'Content-Type must be application/json, got "text/plain"'],
    ['a gzip-encoded body', gzipSync('{"name":"Rex","categoryId":1}'), { ...JSON_HEADERS, 'content-encoding': 'gzip' }, 'unsupported_content_encoding', 'Content-Encoding "gzip" is not supported'],
    ['a form', 'name=Rex&categoryId=1', { 'content-type': 'application/x-www-form-urlencoded' }, 'unsupported_content_type', 'Content-Type must be application/json'],
    // A byte body, since fetch labels a string body text/plain by itself.
    ['no content type', new TextEncoder().encode('{"name":"Rex","categoryId":1}'), {}, 'unsupported_content_type', 'got none'],
  ])('answers 400 for %s', async (_, body, headers, code, message) => {
    const init: RequestInit = {};
    const res = await post(body as RequestInit["body"], headers as Record<string, string>, init);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code, status: 400 });
    expect(res.json.message).toContain(message);
  });

  it('reads an extra member 500 levels deep, brackets in strings not counted', async () => {
    const res = await post(`{"name":"Rex ${'['.repeat(600)}","categoryId":1e0,"extra":${'['.repeat(500)}${']'.repeat(500)}}`);
    expect([res.status, res.json.categoryId]).toEqual([201, 1]);
  });

  it('answers 413 to a body over 1 MiB, with or without Content-Length', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024), categoryId: 1 });
    const sized = await post(big);
    expect(sized.status).toBe(413);
    expect(sized.json).toMatchObject({ code: 'payload_too_large', status: 413 });
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(64 * 1024)));
        controller.close();
      },
    });
    const streamed = await post(chunks, JSON_HEADERS, { duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(streamed.json).toMatchObject({ code: 'payload_too_large', status: 413 });
  });

  it('stores a body sent in chunks, with no Content-Length, under the limit', async () => {
    const parts = ['{"name":"Chun', 'ked","categoryId":4,', '"status":"pending"}'];
    const chunks = new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
        controller.close();
      },
    });
    const res = await post(chunks, JSON_HEADERS, { duplex: 'half' } as RequestInit);
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: 'Chunked', categoryId: 4, status: 'pending' });
    expect((await mock.authed(`/pets/${res.json.id}`)).json).toEqual(res.json);
  });

  // A client that goes away mid-body is no fault of the mock's: no error line, no 500, and the
  // journal shows nginx's 499 ("client closed request").
  it('logs a client that closes the connection mid-body as info, and journals it as 499', async () => {
    const { port } = new URL(mock.url);
    const before = mock.logs.length;
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(`POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":"Cut`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await vi.waitFor(() => expect(mock.logs.slice(before).some((line) => String(line.msg).includes('closed the connection before the request was read'))).toBe(true));
    const lines = mock.logs.slice(before);
    expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
    expect(lines.find((line) => line.method === 'POST')).toMatchObject({ status: 499 });
    const journal = (await mock.admin('/journal')).json.entries as Array<{ method: string; status: number }>;
    expect(journal.at(-1)).toMatchObject({ method: 'POST', path: '/v1/pets', status: 499 });
  });

  it('accepts a body just under 1 MiB', async () => {
    const name = 'y'.repeat(1024 * 1024 - 40);
    // In a session of its own: an empty catalogue holds it (1 MiB of added JSON by default), one others have added to may not.
    const res = await post(JSON.stringify({ name, categoryId: 1 }), { ...JSON_HEADERS, 'x-mock-session': 'just-under-1-mib' });
    expect(res.status).toBe(201);
    expect(res.json.name).toHaveLength(name.length);
  });

  it('survives deeply nested and very wide JSON', async () => {
    // Read no deeper than 512 levels (the cases above): refused, not a crash.
    const deep = `{"name":"Deep","categoryId":1,"x":${'['.repeat(400_000)}${']'.repeat(400_000)}}`;
    expect((await post(deep)).status).toBe(400);
    const deepName = `{"name":${'['.repeat(400_000)}${']'.repeat(400_000)},"categoryId":1}`;
    expect((await post(deepName)).status).toBe(400);
    const wide = JSON.stringify(Object.fromEntries([['name', 'Wide'], ['categoryId', 1], ...Array.from({ length: 40_000 }, (_, i) => [`k${i}`, i])]));
    const res = await post(wide);
    expect(res.status).toBe(201);
    expect(Object.keys(res.json)).toHaveLength(3);
    // Still serving.
    expect((await mock.authed('/pets?limit=1')).status).toBe(200);
  });
});

// The interface says nothing of Location; the mock sends it where getPet serves the new animal (docs/reference.md, "Where the interface is silent").
describe('createPet\'s Location', () => {
  const folder = scenarioFolder();
  folder.write(
    'locations.yaml',
    scenarioWith('locations', [
      { id: 'stubbed', match: { operation: 'createPet', body: { name: { equals: 'Stubbed' } } }, response: { status: 201, body: { id: 900, name: 'Stubbed', categoryId: 1 } } },
      { id: 'own', match: { operation: 'createPet', body: { name: { equals: 'Own' } } }, response: { status: 201, body: { id: 901, name: 'Own', categoryId: 1 }, headers: { Location: '/elsewhere/901' } } },
      { id: 'passed', match: { operation: 'createPet', body: { name: { equals: 'Passed' } } }, fault: { latency: { fixedMs: 1 }, then: 'pass' } },
    ]),
  );
  const mock = useMock({ pets, scenario: 'locations', scenariosDir: folder.dir });
  const create = (name: string) => mock.authed('/pets', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ name, categoryId: 1 }) });

  it('is the base path, the collection and the new id, and getPet serves the animal there', async () => {
    const res = await create('Located');
    expect(res.status).toBe(201);
    const location = res.headers.get('location');
    expect(location).toBe(`/v1/pets/${res.json.id}`);
    const fetched = await fetch(new URL(location!, mock.url), { headers: { authorization: `Bearer ${TEST_KEY}` } });
    expect(fetched.status).toBe(200);
    expect(await fetched.json()).toEqual(res.json);
  });

  it('is sent when a stub lets the normal answer through (the animal is stored)', async () => {
    const res = await create('Passed');
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/v1/pets/${res.json.id}`);
  });

  it('is not added to a generated 201 (Prefer: dynamic=true stores nothing)', async () => {
    const res = await mock.authed('/pets', { method: 'POST', headers: { ...JSON_HEADERS, prefer: 'dynamic=true' }, body: JSON.stringify({ name: 'Dynamic', categoryId: 1 }) });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBeNull();
  });

  it('is not added to a stub\'s own 201 (nothing is stored), which sends only the headers it names', async () => {
    const stubbed = await create('Stubbed');
    expect(stubbed.json.id).toBe(900);
    expect(stubbed.headers.get('location')).toBeNull();
    expect((await create('Own')).headers.get('location')).toBe('/elsewhere/901');
  });
});
