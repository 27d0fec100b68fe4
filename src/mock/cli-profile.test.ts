import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_API_KEY } from '../shared/default-api-key.js';
import { bearer, fixture, runToExit, startMock, useBuiltCli, type RunningMock } from '../../test/support/built-cli.js';
import { defaultProfilePath, profileSchemaPath } from '../shared/profile/profile-paths.js';
import { parseYaml } from '../shared/parse-yaml.js';

/**
 * `--profile` as users run it (the built bin, real HTTP): the mock answers
 * as the profile says at every point it covers, health and the banner name
 * it, a wrong file stops the start with the reason, and an edit is applied
 * without a restart, or refused with the last good profile kept.
 */
useBuiltCli();

const OTHER = `# the reference server's choices, where the interface is silent
version: 1
name: newest-first
choices:
  missing-key: { status: 401, code: no_key }
  wrong-key: { status: 401, code: bad_key }
  order: descending
  default-status: available
  name-length: { max: 1000, refused: { status: 400, code: name_too_long } }
  location: not-sent
  missing-body: { status: 400, code: empty_body }
  malformed-json: { status: 400, code: bad_json }
  body-not-object: { status: 400, code: bad_body }
  media-type: { status: 415, code: unsupported_media_type }
  content-coding: { status: 415, code: unsupported_coding }
  missing-field: { status: 400, code: field_missing }
  invalid-value: { status: 400, code: bad_value }
  unknown-id: { status: 404, code: no_such_pet }
  pet-id: { status: 400, code: bad_pet_id }
  unknown-query-parameter: { status: 400, code: unknown_parameter }
  unknown-path: { status: 404, code: no_such_route }
  accept-without-json: { status: 406, code: not_json }
  limit: { refused: { status: 400, code: bad_limit }, above-maximum: clamped }
  status: { status: 400, code: bad_status }
`;

/** A createPet sent chunked, without Content-Length (fetch cannot: undici refuses a Transfer-Encoding field). */
function chunkedPost(url: string, body: string): Promise<{ status: number; code: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/pets`, { method: 'POST', headers: { authorization: `Bearer ${DEFAULT_API_KEY}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, code: (JSON.parse(text) as { code?: unknown }).code }));
    });
    req.on('error', reject);
    req.write(body.slice(0, 5));
    req.end(body.slice(5));
  });
}

async function call(mock: RunningMock, path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; json: any }> {
  const response = await fetch(`${mock.url}${path}`, { ...init, headers: { authorization: `Bearer ${DEFAULT_API_KEY}`, ...(init.headers as Record<string, string>) } });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined };
}

const post = (mock: RunningMock, body: string, type = 'application/json') => call(mock, '/pets', { method: 'POST', body, headers: { 'content-type': type } });
const health = async (mock: RunningMock) => (await (await fetch(`${new URL(mock.url).origin}/__mock/health`)).json()) as { profile: { name: string; file: string } };
const answer = (r: { status: number; json: any }) => `${r.status} ${r.json?.code ?? ''}`.trim();

describe('the mock with a profile', () => {
  it('answers as the profile says at each point it covers, and names it in health and the banner', { timeout: 30_000 }, async () => {
    const file = fixture('newest-first.yaml', OTHER);
    const mock = await startMock(['--profile', file]);
    expect(mock.banner).toMatch(/Profile: +newest-first \(.*newest-first\.yaml\)/);
    expect((await health(mock)).profile).toEqual({ name: 'newest-first', file });

    const created = await post(mock, JSON.stringify({ name: 'Rex', categoryId: 1 }));
    expect(created.status).toBe(201);
    expect(created.json.status).toBe('available');
    expect(created.headers.get('location')).toBeNull();
    const ids = (await call(mock, '/pets?limit=100')).json.map((pet: { id: number }) => pet.id);
    expect(ids[0]).toBe(created.json.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect((await call(mock, '/pets?limit=500')).json).toHaveLength(ids.length);
    // A made-up page (Prefer: dynamic=true) comes in the profile's order too.
    const made = (await call(mock, '/pets?limit=5', { headers: { prefer: 'dynamic=true' } })).json.map((pet: { id: number }) => pet.id);
    expect(made).toHaveLength(5);
    expect(made).toEqual([...made].sort((a: number, b: number) => b - a));
    expect(answer(await call(mock, '/pets?limit=0'))).toBe('400 bad_limit');
    expect(answer(await call(mock, '/pets?limit=abc'))).toBe('400 bad_limit');
    expect(answer(await call(mock, '/pets?status=AVAILABLE'))).toBe('400 bad_status');
    expect(answer(await call(mock, '/pets?sort=name'))).toBe('400 unknown_parameter');
    expect(answer(await call(mock, `/pets/${created.json.id}?x=1`))).toBe('400 unknown_parameter');
    expect(answer(await call(mock, '/pets/abc'))).toBe('400 bad_pet_id');
    // An int64 that names no animal is not a malformed id: an unknown id, as one the mock could have assigned.
    expect(answer(await call(mock, '/pets/9007199254740993'))).toBe('404 no_such_pet');
    expect(answer(await call(mock, '/pets/9007199254740991'))).toBe('404 no_such_pet');
    // The 401s: without the header, and with one that carries no accepted key (another key, another scheme).
    const refused = await fetch(`${mock.url}/pets`);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="animal-store"');
    expect(answer({ status: refused.status, json: await refused.json() })).toBe('401 no_key');
    expect(answer(await call(mock, '/pets', { headers: { authorization: 'Bearer not-the-key' } }))).toBe('401 bad_key');
    expect(answer(await call(mock, '/pets', { headers: { authorization: `Basic ${DEFAULT_API_KEY}` } }))).toBe('401 bad_key');
    // Several problems: the first field's, in the order name, categoryId, status, its absence before a wrong value.
    expect(answer(await post(mock, JSON.stringify({ categoryId: 1 })))).toBe('400 field_missing');
    expect(answer(await post(mock, '{}'))).toBe('400 field_missing');
    expect(answer(await post(mock, JSON.stringify({ categoryId: 'one' })))).toBe('400 field_missing');
    expect(answer(await post(mock, JSON.stringify({ name: 'Rex', categoryId: 'one' })))).toBe('400 bad_value');
    expect(answer(await post(mock, JSON.stringify({ name: 'Rex', categoryId: 1, status: 'AVAILABLE' })))).toBe('400 bad_value');
    expect(answer(await post(mock, ''))).toBe('400 empty_body');
    expect(answer(await post(mock, '{"name":'))).toBe('400 bad_json');
    expect(answer(await post(mock, ' [{"name":"Rex","categoryId":1}]'))).toBe('400 bad_body');
    expect(answer(await post(mock, '{"name":"Rex","categoryId":1}', 'text/plain'))).toBe('415 unsupported_media_type');
    const coded = (coding: string) => call(mock, '/pets', { method: 'POST', body: '{"name":"Rex","categoryId":1}', headers: { 'content-type': 'application/json', 'content-encoding': coding } });
    expect(answer(await coded('x-unknown'))).toBe('415 unsupported_coding');
    expect(answer(await coded('gzip'))).toBe('415 unsupported_coding');
    expect((await coded('identity')).status).toBe(201);
    expect(answer(await post(mock, JSON.stringify({ name: 'x'.repeat(1001), categoryId: 1 })))).toBe('400 name_too_long');
    expect((await post(mock, JSON.stringify({ name: 'x'.repeat(1000), categoryId: 1 }))).status).toBe(201);
    // Counted in characters (code points): 1,000 emoji are 2,000 UTF-16 code units, and accepted.
    expect((await post(mock, JSON.stringify({ name: '\u{1F415}'.repeat(1000), categoryId: 1 }))).status).toBe(201);
    expect(answer(await post(mock, JSON.stringify({ name: '\u{1F415}'.repeat(1001), categoryId: 1 })))).toBe('400 name_too_long');
    expect(answer(await post(mock, JSON.stringify({ name: 'Rex', categoryId: 'one' })))).toBe('400 bad_value');
    // An explicit status is kept.
    expect((await post(mock, JSON.stringify({ name: 'Sue', categoryId: 1, status: 'sold' }))).json.status).toBe('sold');
    // A path under the base that no operation has, with any method; the key is checked first. The store orders
    // area, another method on a documented path and a path outside the base keep the mock's own answers.
    expect(answer(await call(mock, '/pet'))).toBe('404 no_such_route');
    expect(answer(await call(mock, '/pets/1/owner', { method: 'POST', body: '{}' }))).toBe('404 no_such_route');
    expect(answer({ status: (await fetch(`${mock.url}/pet`)).status, json: await (await fetch(`${mock.url}/pet`)).json() })).toBe('401 no_key');
    expect(answer(await call(mock, '/store/orders'))).toBe('501 not_implemented');
    expect(answer(await call(mock, '/pets/1', { method: 'DELETE' }))).toBe('405 method_not_allowed');
    const outside = await fetch(`${new URL(mock.url).origin}/elsewhere`);
    expect(answer({ status: outside.status, json: await outside.json() })).toBe('404 route_not_found');
    // An Accept without application/json, on every operation, after the key check; one that accepts it in any form is served.
    const xml = { accept: 'application/xml' };
    expect(answer(await call(mock, '/pets', { headers: xml }))).toBe('406 not_json');
    expect(answer(await call(mock, `/pets/${created.json.id}`, { headers: { accept: 'application/json;q=0, */*' } }))).toBe('406 not_json');
    expect(answer(await call(mock, '/pets', { method: 'POST', body: JSON.stringify({ name: 'Xml', categoryId: 1 }), headers: { ...xml, 'content-type': 'application/json' } }))).toBe('406 not_json');
    expect(answer(await call(mock, '/pets', { headers: { ...xml, authorization: 'Bearer not-the-key' } }))).toBe('401 bad_key');
    for (const accept of ['text/html, */*;q=0.1', 'Application/*', '']) expect((await call(mock, '/pets', { headers: { accept } })).status).toBe(200);
  });

  it('answers by the finer choices: an Error per field, the challenge, members NewPet does not name, names, chunked bodies, the body limit, the readings of a petId', { timeout: 30_000 }, async () => {
    const file = fixture(
      'finer.yaml',
      `version: 1
name: finer
choices:
  challenge: 'Bearer scope="pets", error="invalid_token"'
  missing-field: { status: 400, code: missing, fields: { categoryId: { status: 400, code: missing_category_id } } }
  invalid-value: { status: 400, code: bad, fields: { status: { status: 400, code: bad_status } }, past-int64: { status: 400, code: out_of_range } }
  empty-name: { status: 400, code: empty_name }
  control-characters: { status: 400, code: control_character }
  chunked-body: { status: 411, code: length_required }
  taken-name: { status: 400, code: name_taken }
  extra-member: { status: 400, code: unknown_member }
  body-size: { max: 10000, refused: { status: 413, code: body_too_large } }
  pet-id: { status: 400, code: bad_pet_id, reads: [plus-sign, leading-space, hexadecimal] }
`,
    );
    const mock = await startMock(['--profile', file]);
    const refused = await fetch(`${mock.url}/pets`);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer scope="pets", error="invalid_token"');
    expect(answer(await post(mock, JSON.stringify({ categoryId: 1 })))).toBe('400 missing');
    expect(answer(await post(mock, JSON.stringify({ name: 'Rex' })))).toBe('400 missing_category_id');
    expect(answer(await post(mock, JSON.stringify({ name: 7, categoryId: 1 })))).toBe('400 bad');
    expect(answer(await post(mock, JSON.stringify({ name: 'Rex', categoryId: 1.5 })))).toBe('400 bad');
    expect(answer(await post(mock, '{"name":"Rex","categoryId":9223372036854775808}'))).toBe('400 out_of_range');
    expect(answer(await post(mock, '{"name":"Rex","categoryId":-9223372036854775809}'))).toBe('400 out_of_range');
    expect(answer(await post(mock, JSON.stringify({ name: 'Rex', categoryId: 1, status: 'lost' })))).toBe('400 bad_status');
    expect(answer(await post(mock, JSON.stringify({ name: '', categoryId: 1 })))).toBe('400 empty_name');
    // A member NewPet does not name, a client's id and `__proto__` among them: after the schema's refusals, before the name's; nothing stored.
    for (const body of ['{"name":"Rex","categoryId":1,"nickname":"R"}', '{"name":"Rex","categoryId":1,"id":7}', '{"name":"Rex","categoryId":1,"__proto__":{"status":"sold"}}', '{"name":"","categoryId":1,"note":null}']) {
      expect(answer(await post(mock, body)), body).toBe('400 unknown_member');
    }
    expect((await post(mock, '{"name":"Rex","categoryId":1,"tags":["small"]}')).json.message).toBe('"tags" is not a member of NewPet: send only name, categoryId and status');
    expect(answer(await post(mock, '{"categoryId":1,"nickname":"R"}'))).toBe('400 missing');
    expect(answer(await post(mock, JSON.stringify({ name: 'Rex\u0007', categoryId: 1 })))).toBe('400 control_character');
    expect(answer(await post(mock, JSON.stringify({ name: 'Rex\u0085', categoryId: 1 })))).toBe('400 control_character');
    // The body limit counts bytes as sent: whitespace too.
    const sized = (bytes: number) => `{"name":"Rex","categoryId":1${' '.repeat(bytes - 29)}}`;
    expect(Buffer.byteLength(sized(10000))).toBe(10000);
    expect((await post(mock, sized(10000))).status).toBe(201);
    expect(answer(await post(mock, sized(10001)))).toBe('413 body_too_large');
    // Past the most the mock reads (1 MiB), the profile's answer too.
    expect(answer(await post(mock, sized(2 * 1024 * 1024)))).toBe('413 body_too_large');
    const chunked = await chunkedPost(mock.url, JSON.stringify({ name: 'Rex', categoryId: 1 }));
    expect(chunked).toEqual({ status: 411, code: 'length_required' });
    // A name taken: by an animal added (the 201 of the body-size check above is named Rex) or of the start catalogue; exactly, case and all.
    expect(answer(await post(mock, JSON.stringify({ name: 'Rex', categoryId: 2 })))).toBe('400 name_taken');
    const first = (await call(mock, '/pets?limit=1')).json[0] as { name: string };
    expect(answer(await post(mock, JSON.stringify({ name: first.name, categoryId: 2 })))).toBe('400 name_taken');
    expect((await post(mock, JSON.stringify({ name: 'REX', categoryId: 2 }))).status).toBe(201);
    const reset = await fetch(`${new URL(mock.url).origin}/__mock/reset`, { method: 'POST', headers: { authorization: `Bearer ${DEFAULT_API_KEY}` } });
    expect(reset.status).toBeLessThan(300);
    const rex = await post(mock, JSON.stringify({ name: 'Rex', categoryId: 1 }));
    expect(rex.status).toBe(201);
    const id = rex.json.id as number;
    for (const form of [`+${id}`, `%20${id}`, `%20%20+${id}`, `0x${id.toString(16)}`]) expect((await call(mock, `/pets/${form}`)).json?.id, form).toBe(id);
    for (const form of [`0${id}`, `${id}.0`, `${id}e0`, `${id}%20`, `++${id}`, `${id}abc`]) expect(answer(await call(mock, `/pets/${form}`)), form).toBe('400 bad_pet_id');
  });

  it('reads a body under any content coding as it is when the profile ignores the coding: JSON stored, bytes that are not JSON refused as such', async () => {
    const file = fixture('coding-ignored.yaml', 'version: 1\nname: coding-ignored\nchoices:\n  content-coding: ignored\n  malformed-json: { status: 400, code: bad_json }\n');
    const mock = await startMock(['--profile', file]);
    const coded = (body: string | Uint8Array) => call(mock, '/pets', { method: 'POST', body, headers: { 'content-type': 'application/json', 'content-encoding': 'x-unknown' } });
    const created = await coded(JSON.stringify({ name: 'Coded', categoryId: 2 }));
    expect(created.status).toBe(201);
    expect((await call(mock, `/pets/${created.json.id}`)).json.name).toBe('Coded');
    // The mock decompresses nothing: gzip's bytes read as they are are not JSON.
    expect(answer(await coded(new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0x00])))).toBe('400 bad_json');
  });

  it('reads a member named twice as the profile says: the first, the last (its own), or a refusal with the profile\'s Error', async () => {
    const twice = '{"name":"First","categoryId":1,"categoryId":"two","status":"sold","name":"Last","categoryId":3}';
    const own = await startMock([]);
    expect((await post(own, twice)).json).toMatchObject({ name: 'Last', categoryId: 3 });
    const first = await startMock(['--profile', fixture('first-wins.yaml', 'version: 1\nname: first-wins\nchoices:\n  duplicate-member: first-wins\n')]);
    const created = await post(first, twice);
    expect([created.status, created.json.name, created.json.categoryId]).toEqual([201, 'First', 1]);
    expect((await call(first, `/pets/${created.json.id}`)).json.name).toBe('First');
    // The first value is judged as if given alone.
    expect(answer(await post(first, '{"name":"A","categoryId":"x","categoryId":1}'))).toBe('400 invalid_body');
    const refused = await startMock(['--profile', fixture('refused.yaml', 'version: 1\nname: refused\nchoices:\n  duplicate-member: { status: 400, code: duplicate_key }\n  malformed-json: { status: 400, code: bad_json }\n')]);
    const before = (await call(refused, '/pets?limit=100')).json.length;
    expect(answer(await post(refused, twice))).toBe('400 duplicate_key');
    // A nested object's members count too, alike values included; a malformed text is malformed.
    expect(answer(await post(refused, '{"name":"A","categoryId":1,"extra":{"a":1,"a":1}}'))).toBe('400 duplicate_key');
    expect(answer(await post(refused, '{"name":"A","name":"B"'))).toBe('400 bad_json');
    // The same name in two objects is no repeat.
    expect((await post(refused, '{"name":"A","categoryId":1,"owner":{"name":"B"}}')).status).toBe(201);
    expect((await call(refused, '/pets?limit=100')).json.length).toBe(before + 1);
  });

  it('ignores a refused limit or status when the profile says so: the page as without it', async () => {
    const file = fixture('ignoring.yaml', 'version: 1\nname: ignoring\nchoices:\n  limit: { refused: ignored, above-maximum: refused }\n  status: ignored\n');
    const mock = await startMock(['--profile', file]);
    const all = (await call(mock, '/pets?limit=100')).json as Array<{ id: number; status?: string }>;
    const plain = (await call(mock, '/pets')).json as Array<{ id: number }>;
    expect(plain).toHaveLength(20);
    for (const query of ['limit=0', 'limit=abc', 'limit=-1', 'limit=101', 'limit=1&limit=2', 'limit=1.5']) {
      const page = await call(mock, `/pets?${query}`);
      expect(page.status, query).toBe(200);
      expect(page.json.map((pet: { id: number }) => pet.id), query).toEqual(plain.map((pet) => pet.id));
    }
    // An unknown status is as no status: every status, the default page.
    expect((await call(mock, '/pets?status=AVAILABLE&limit=100')).json).toEqual(all);
    // A documented one still filters.
    const sold = (await call(mock, '/pets?status=sold&limit=100')).json as Array<{ status: string }>;
    expect(sold.length).toBeGreaterThan(0);
    expect(sold.every((pet) => pet.status === 'sold')).toBe(true);
  });

  it('reads a parameter given twice as its first or its last value when the profile says so, then judges that value as if given once', async () => {
    for (const [choice, picked] of [['first', 0], ['last', 1]] as const) {
      const file = fixture(`repeated-${choice}.yaml`, `version: 1\nname: repeated-${choice}\nchoices:\n  repeated-parameter: ${choice}\n  status: empty\n`);
      const mock = await startMock(['--profile', file]);
      const page = await call(mock, '/pets?limit=1&limit=3');
      expect([choice, page.status, page.json.length]).toEqual([choice, 200, [1, 3][picked]]);
      const statuses = (await call(mock, '/pets?status=sold&status=pending&limit=100')).json as Array<{ status: string }>;
      expect(statuses.length).toBeGreaterThan(0);
      expect(new Set(statuses.map((pet) => pet.status))).toEqual(new Set([['sold', 'pending'][picked]]));
      // The value read is refused as if given alone: a limit by the mock's own Error, a status by the profile's empty page.
      expect(answer(await call(mock, `/pets?${['limit=0&limit=5', 'limit=5&limit=0'][picked]}`))).toBe('400 invalid_parameter');
      expect((await call(mock, `/pets?${['status=lost&status=sold', 'status=sold&status=lost'][picked]}`)).json).toEqual([]);
      expect((await call(mock, `/pets?${['limit=5&limit=0', 'limit=0&limit=5'][picked]}`)).json).toHaveLength(5);
    }
  });

  it('answers a refused status with an empty page when the profile says empty: a filter no animal matches', async () => {
    const file = fixture('empty-status.yaml', 'version: 1\nname: empty-status\nchoices:\n  status: empty\n  limit: { refused: { status: 400, code: bad_limit }, above-maximum: refused }\n');
    const mock = await startMock(['--profile', file]);
    for (const query of ['status=AVAILABLE', 'status=', 'status=adopted&limit=5', 'status=%E2%9C%93']) {
      const page = await call(mock, `/pets?${query}`);
      expect([query, page.status, page.json]).toEqual([query, 200, []]);
    }
    // A documented status still filters, and a refused limit keeps the mock's own answer.
    const sold = (await call(mock, '/pets?status=sold&limit=100')).json as Array<{ status: string }>;
    expect(sold.length).toBeGreaterThan(0);
    expect(sold.every((pet) => pet.status === 'sold')).toBe(true);
    expect(answer(await call(mock, '/pets?status=adopted&limit=0'))).toBe('400 bad_limit');
  });

  it('answers an integer past int64 as the profile\'s pet-id says, apart from other refused petIds', async () => {
    const file = fixture('past-int64.yaml', 'version: 1\nname: past-int64\nchoices:\n  pet-id: { status: 400, code: bad_pet_id, past-int64: { status: 404, code: pet_missing } }\n');
    const mock = await startMock(['--profile', file]);
    const answers = await Promise.all(['abc', '1.5', '9223372036854775808', '-9223372036854775809', '99999999999999999999999999999', '9223372036854775807'].map(async (id) => `${id}: ${answer(await call(mock, `/pets/${id}`))}`));
    expect(answers).toEqual([
      'abc: 400 bad_pet_id',
      '1.5: 400 bad_pet_id',
      '9223372036854775808: 404 pet_missing',
      '-9223372036854775809: 404 pet_missing',
      '99999999999999999999999999999: 404 pet_missing',
      // The largest int64 is an id, which no animal has.
      '9223372036854775807: 404 pet_not_found',
    ]);
  });

  it('signals getPet\'s deprecation where the profile says: on 2xx answers alone, without a Link; or not at all', async () => {
    const signals = async (mock: RunningMock, path: string, key = true) => {
      const got = await fetch(`${mock.url}${path}`, key ? bearer('animal-store-dev-key') : {});
      return [got.status, ...['deprecation', 'sunset', 'link'].map((name) => got.headers.get(name) !== null)];
    };
    const success = await startMock(['--profile', fixture('success.yaml', 'version: 1\nname: success\nchoices:\n  deprecation: {answers: success, link: not-sent}\n')]);
    expect([await signals(success, '/pets/1'), await signals(success, '/pets/999999'), await signals(success, '/pets/1', false)]).toEqual([
      [200, true, true, false],
      [404, false, false, false],
      [401, false, false, false],
    ]);
    const none = await startMock(['--profile', fixture('none.yaml', 'version: 1\nname: none\nchoices:\n  deprecation: {answers: none, link: not-sent}\n')]);
    expect(await signals(none, '/pets/1')).toEqual([200, false, false, false]);
    // The mock's own: every answer, with the Link.
    const own = await startMock([]);
    expect([await signals(own, '/pets/1'), await signals(own, '/pets/999999', false)]).toEqual([
      [200, true, true, true],
      [401, true, true, true],
    ]);
  });

  it('reads MOCK_PROFILE; a point left out keeps the mock\'s choice', async () => {
    const file = fixture('partial.yaml', 'version: 1\nname: partial\nchoices:\n  location: not-sent\n');
    const mock = await startMock([], { MOCK_PROFILE: file });
    expect((await health(mock)).profile.name).toBe('partial');
    const created = await post(mock, JSON.stringify({ name: 'Rex', categoryId: 1 }));
    expect(created.headers.get('location')).toBeNull();
    expect(created.json).not.toHaveProperty('status');
    expect(answer(await call(mock, '/pets/abc'))).toBe('404 pet_not_found');
    // What the profile does not cover keeps the mock's answer: a field of the wrong type.
    expect(answer(await post(mock, JSON.stringify({ name: 'Rex', categoryId: 'one' })))).toBe('400 invalid_body');
    expect(answer(await post(mock, JSON.stringify({ categoryId: 1 })))).toBe('400 invalid_body');
  });

  it('without --profile answers by the shipped default, which holds every choice the schema names', async () => {
    const mock = await startMock();
    expect((await health(mock)).profile).toMatchObject({ name: 'default' });
    const schema = JSON.parse(readFileSync(profileSchemaPath(), 'utf8')) as { properties: { choices: { properties: object }; notes: { properties: object } } };
    const shipped = parseYaml(readFileSync(defaultProfilePath(), 'utf8')) as { choices: object };
    expect(Object.keys(shipped.choices).sort()).toEqual(Object.keys(schema.properties.choices.properties).sort());
    // The harness may write a note for any point it did not learn.
    expect(Object.keys(schema.properties.notes.properties).sort()).toEqual(Object.keys(schema.properties.choices.properties).sort());
    const created = await post(mock, JSON.stringify({ name: 'Rex', categoryId: 1 }));
    expect(created.headers.get('location')).toBe(`/v1/pets/${created.json.id}`);
  });
});

describe('a wrong profile stops the start with the file, the path and the reason', () => {
  it.each([
    ['a wrong type', OTHER.replace('order: descending', 'order: 3'), /newest-first\.yaml: \$\.choices\.order must be one of ascending, descending/],
    ['an unknown key', `${OTHER}  colour: blue\n`, /\$\.choices\.colour is not allowed here \(allowed: [^)]*\border, /],
    ['an unknown version', OTHER.replace('version: 1', 'version: 2'), /\$\.version is 2: this mock reads profiles of version 1/],
    ['a status the contract does not allow there', OTHER.replace('pet-id: { status: 400', 'pet-id: { status: 500'), /\$\.choices\['pet-id'\]\.status must be one of 400, 404/],
    ['a name limit of no character', OTHER.replace('max: 1000', 'max: 0'), /\$\.choices\['name-length'\]/],
    ['a code no client could read', OTHER.replace('code: bad_json', 'code: "bad json"'), /\$\.choices\['malformed-json'\]\.code must match/],
    ['a challenge of another scheme', `${OTHER}  challenge: Basic realm="x"\n`, /\$\.choices\.challenge must match/],
    ['a challenge that would split the header', `${OTHER}  challenge: "Bearer realm=\\"x\\"\\r\\nSet-Cookie: a=b"\n`, /\$\.choices\.challenge must match/],
    ['a body limit under 8 KiB', `${OTHER}  body-size: { max: 8191, refused: { status: 413, code: too_large } }\n`, /\$\.choices\['body-size'\]\.max must be >= 8192/],
    ['a petId reading no server has', OTHER.replace('pet-id: { status: 400, code: bad_pet_id }', 'pet-id: { status: 400, code: bad_pet_id, reads: [octal] }'), /\$\.choices\['pet-id'\]\.reads\[0\] must be one of leading-zeros/],
    ['YAML that does not parse', 'version: 1\nchoices: [\n', /cannot be read as YAML or JSON/],
  ])('%s', async (_what, text, message) => {
    const result = await runToExit(['--port', '0', '--profile', fixture('newest-first.yaml', text)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^animal-store-mock: invalid profile /);
    expect(result.stderr).toMatch(message);
  });

  it('a file that is not there', async () => {
    const result = await runToExit(['--port', '0', '--profile', '/nonexistent/staging.yaml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/invalid profile \/nonexistent\/staging\.yaml: cannot be read: ENOENT/);
  });
});

describe('hot reload of the profile', () => {
  const poll = { timeout: 10_000, interval: 50 };

  it('applies an edit at the next request; refuses a wrong one, logs why and keeps answering by the last good one', { timeout: 30_000 }, async () => {
    const file = fixture('live.yaml', 'version: 1\nname: live\nchoices: { pet-id: { status: 400, code: first } }\n');
    const mock = await startMock(['--profile', file]);
    expect(answer(await call(mock, '/pets/abc'))).toBe('400 first');
    fixture('live.yaml', 'version: 1\nname: live-2\nchoices: { pet-id: { status: 400, code: second } }\n');
    await vi.waitFor(async () => expect(answer(await call(mock, '/pets/abc'))).toBe('400 second'), poll);
    expect((await health(mock)).profile.name).toBe('live-2');
    expect(mock.stdout()).toMatch(/profile live-2 reloaded from .*live\.yaml/);

    fixture('live.yaml', 'version: 1\nname: live-3\nchoices: { pet-id: { status: 418, code: third } }\n');
    await vi.waitFor(() => expect(mock.stdout()).toMatch(/invalid profile .*live\.yaml: \$\.choices\['pet-id'\]\.status must be one of 400, 404 \(edit refused; still answering by profile live-2\)/), poll);
    expect(answer(await call(mock, '/pets/abc'))).toBe('400 second');
    expect((await health(mock)).profile.name).toBe('live-2');
  });
});
