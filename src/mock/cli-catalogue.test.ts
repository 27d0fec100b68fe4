import { describe, expect, it, vi } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { packageRoot } from '../shared/package-root.js';
import { DEFAULT_API_KEY } from '../shared/default-api-key.js';
import { expectErrorBody, parseResponses, rawExchange, type ParsedResponse } from '../../test/support/raw-http.js';
import { fixture, getJson, runToExit, startMock, statusWith, tmpDir, useBuiltCli } from '../../test/support/built-cli.js';

/** The built CLI's catalogue, scenarios, fixtures and contract document. */
useBuiltCli();

describe('the catalogue', () => {
  it('--seed gives the same catalogue for the same seed and another for another seed', async () => {
    const [first, second, other] = await Promise.all([startMock(['--seed', '7']), startMock(['--seed', '7']), startMock(['--seed', '8'])]);
    expect(first.banner).toContain('Catalogue: 30 pets from faker, seed 7');
    const [a, b, c] = await Promise.all([first, second, other].map((mock) => getJson(`${mock.url}/pets?limit=100`, DEFAULT_API_KEY)));
    expect(a?.status).toBe(200);
    expect(a?.body).toHaveLength(30);
    expect(b?.body).toEqual(a?.body);
    expect(c?.body).toHaveLength(30);
    expect(c?.body).not.toEqual(a?.body);
  });

  it('--fixtures serves exactly the pets of a JSON file', async () => {
    const pets = [
      { id: 1, name: 'Milo', categoryId: 3, status: 'available' },
      { id: 2, name: 'Bruno', categoryId: 2 },
      { id: 5, name: 'Luna', categoryId: 1, status: 'sold' },
    ];
    const file = fixture('three.json', JSON.stringify(pets));
    const mock = await startMock(['--fixtures', file]);
    expect(mock.banner).toContain(`Catalogue: 3 pets from ${file}`);
    expect((await getJson(`${mock.url}/pets?limit=100`, DEFAULT_API_KEY)).body).toEqual(pets);
    expect((await getJson(`${mock.url}/pets?status=sold`, DEFAULT_API_KEY)).body).toEqual([pets[2]]);
  });

  it('--fixtures serves a YAML file too', async () => {
    const file = fixture('two.yaml', '- id: 1\n  name: Milo\n  categoryId: 3\n  status: pending\n- id: 2\n  name: Bruno\n  categoryId: 2\n');
    const mock = await startMock(['--fixtures', file]);
    expect((await getJson(`${mock.url}/pets?limit=100`, DEFAULT_API_KEY)).body).toEqual([
      { id: 1, name: 'Milo', categoryId: 3, status: 'pending' },
      { id: 2, name: 'Bruno', categoryId: 2 },
    ]);
  });

  it('--fixtures wins over --seed', async () => {
    const file = fixture('one.json', JSON.stringify([{ id: 1, name: 'Solo', categoryId: 1 }]));
    const mock = await startMock(['--seed', '7', '--fixtures', file]);
    expect((await getJson(`${mock.url}/pets?limit=100`, DEFAULT_API_KEY)).body).toEqual([{ id: 1, name: 'Solo', categoryId: 1 }]);
  });
});

describe('scenarios', () => {
  it('starts in the default scenario and the default profile, and says so on lines of their own between Catalogue and the pages', async () => {
    const mock = await startMock();
    const lines = mock.banner.trimEnd().split('\n');
    expect(lines[0]).toBe(`Animal Store mock listening on ${mock.url}`);
    const labels = lines.slice(1).map((line) => /^  (\w+):/.exec(line)?.[1]);
    expect(labels.slice(labels.indexOf('Catalogue'))).toEqual(['Catalogue', 'Validators', 'Scenario', 'Profile', 'Console', 'Docs', 'Try']);
    expect(lines.find((line) => line.startsWith('  Scenario:'))).toMatch(/^  Scenario:  default \(scenarios[/\\]default\.yaml\): The realistic catalogue/);
    expect(lines.find((line) => line.startsWith('  Profile:'))).toMatch(/^  Profile: +default \(profiles[/\\]default\.yaml\)/);
    expect(lines.at(-1)).toMatch(/^  Try: {7}curl /);
  });

  it('--scenario flaky: every third request gets 503 with Retry-After', async () => {
    const mock = await startMock(['--scenario', 'flaky']);
    expect(mock.banner).toMatch(/Scenario: {2}flaky \(scenarios[/\\]flaky\.yaml\): Every third request gets 503/);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push(await statusWith(mock, DEFAULT_API_KEY));
    expect(statuses).toEqual([200, 200, 503, 200, 200, 503]);
  });

  it('--log-format json names the scenario in the start-up line', async () => {
    const mock = await startMock(['--log-format', 'json', '--scenario', 'sold-out']);
    const started = JSON.parse(mock.stdout().split('\n')[0] as string) as Record<string, unknown>;
    expect(started).toMatchObject({ scenario: 'sold-out', scenarioDescription: expect.stringContaining('every one sold') });
    expect(started.scenarioFile).toMatch(/scenarios[/\\]sold-out\.yaml$/);
    expect(started.catalogue).toMatch(/^30 pets from faker, seed 1, status mix sold 1 \(loaded in \d+ ms\)$/);
  });

  it('serves the scenario\'s catalogue: large-catalogue has 10,000 animals', async () => {
    const mock = await startMock(['--scenario', 'large-catalogue']);
    expect(mock.banner).toContain('Catalogue: 10000 pets from faker, seed 1');
    expect((await getJson(`${mock.url}/pets/10000`, DEFAULT_API_KEY)).status).toBe(200);
  });

  it('starts with a 250,000-animal fixture, says how long loading took, and pages a rare status from its start', { timeout: 60_000 }, async () => {
    // Spreading a catalogue this size into one call overflowed the call stack.
    const pets = Array.from({ length: 250_000 }, (_, i) => ({ id: i + 1, name: `Pet ${i + 1}`, categoryId: (i % 6) + 1, status: (i + 1) % 50_000 === 0 ? 'sold' : 'available' }));
    const file = fixture('quarter-million.json', JSON.stringify(pets));
    const mock = await startMock(['--fixtures', file]);
    expect(mock.banner).toMatch(new RegExp(`Catalogue: 250000 pets from ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(loaded in \\d+ ms\\)`));
    const sold = await getJson(`${mock.url}/pets?status=sold&limit=100`, DEFAULT_API_KEY);
    expect(sold.body.map((pet: { id: number }) => pet.id)).toEqual([50_000, 100_000, 150_000, 200_000, 250_000]);
    expect((await getJson(`${mock.url}/pets/249999`, DEFAULT_API_KEY)).body).toEqual({ id: 249_999, name: 'Pet 249999', categoryId: (249_998 % 6) + 1, status: 'available' });
  });

  it('--fixtures and --seed replace the scenario\'s catalogue; its stubs still answer', async () => {
    const file = fixture('two-for-scenario.json', JSON.stringify([{ id: 1, name: 'Solo', categoryId: 1 }, { id: 2, name: 'Duo', categoryId: 2 }]));
    const withFixture = await startMock(['--scenario', 'not-found', '--fixtures', file]);
    expect(withFixture.banner).toContain(`Catalogue: 2 pets from ${file}`);
    expect((await getJson(`${withFixture.url}/pets`, DEFAULT_API_KEY)).body).toHaveLength(2);
    expect((await getJson(`${withFixture.url}/pets/1`, DEFAULT_API_KEY)).status).toBe(404);
    const withSeed = await startMock(['--scenario', 'large-catalogue', '--seed', '7']);
    expect(withSeed.banner).toContain('Catalogue: 30 pets from faker, seed 7');
  });

  it('--scenarios DIR reads scenarios from another folder', async () => {
    const dir = join(tmpDir(), 'own-scenarios');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'teapot-free.yaml'), [
      'name: teapot-free',
      'description: getPet 42 is gone',
      'catalogue: { fixture: fixtures/pets.json }',
      'stubs:',
      '  - match: { operation: getPet }',
      '    response: { status: 404, body: { code: pet_not_found, message: gone, status: 404 } }',
      '',
    ].join('\n'));
    const mock = await startMock(['--scenarios', dir, '--scenario', 'teapot-free']);
    expect(mock.banner).toContain(`Scenario:  teapot-free (${join(dir, 'teapot-free.yaml')}): getPet 42 is gone`);
    expect((await getJson(`${mock.url}/pets/1`, DEFAULT_API_KEY)).body).toEqual({ code: 'pet_not_found', message: 'gone', status: 404 });
  });

  it('reloads the active scenario file when it is edited, and not with --no-watch', async () => {
    const dir = join(tmpDir(), 'watched-scenarios');
    mkdirSync(dir, { recursive: true });
    const scenario = (status: number) => [
      'name: watched',
      'description: getPet answers from the file',
      'catalogue: { fixture: fixtures/pets.json }',
      'stubs:',
      '  - match: { operation: getPet }',
      `    response: { status: ${status}, body: ${status === 404 ? '{ code: pet_not_found, message: gone, status: 404 }' : '{ id: 7, name: Edited, categoryId: 1 }'} }`,
      '',
    ].join('\n');
    writeFileSync(join(dir, 'watched.yaml'), scenario(404));
    const watching = await startMock(['--scenarios', dir, '--scenario', 'watched']);
    const still = await startMock(['--scenarios', dir, '--scenario', 'watched', '--no-watch']);
    expect((await getJson(`${watching.url}/pets/1`, DEFAULT_API_KEY)).status).toBe(404);
    writeFileSync(join(dir, 'watched.yaml'), scenario(200));
    await vi.waitFor(async () => expect((await getJson(`${watching.url}/pets/1`, DEFAULT_API_KEY)).body.name).toBe('Edited'), { timeout: 10_000, interval: 50 });
    expect((await getJson(`${still.url}/pets/1`, DEFAULT_API_KEY)).status).toBe(404);
    const health = await (await fetch(`${watching.url.replace(/\/v1$/, '')}/__mock/health`)).json();
    expect(health).toMatchObject({ status: 'ok', store: 'memory', session: null, scenario: 'watched', pets: 30 });
  });

  it('--journal-size, --max-sessions and --session-per-key shape the admin API\'s journal and sessions', async () => {
    const mock = await startMock(['--journal-size', '2', '--max-sessions', '3', '--session-idle', '60', '--session-per-key']);
    const origin = mock.url.replace(/\/v1$/, '');
    for (let i = 0; i < 3; i++) expect(await statusWith(mock, DEFAULT_API_KEY)).toBe(200);
    const health = (await (await fetch(`${origin}/__mock/health`, { headers: { authorization: `Bearer ${DEFAULT_API_KEY}` } })).json()) as { session: string };
    expect(health.session).toMatch(/^key-[0-9a-f]{16}$/);
    // A key's session is read with that key (with its id alone: 403).
    const keyed = { authorization: `Bearer ${DEFAULT_API_KEY}` };
    expect((await fetch(`${origin}/__mock/journal`, { headers: { 'x-mock-session': health.session } })).status).toBe(403);
    const journal = (await (await fetch(`${origin}/__mock/journal`, { headers: keyed })).json()) as { capacity: number; entries: unknown[] };
    expect(journal.capacity).toBe(2);
    expect(journal.entries).toHaveLength(2);
    const statuses: number[] = [];
    for (const id of ['s1', 's2', 's3']) statuses.push((await fetch(`${mock.url}/pets`, { headers: { ...keyed, 'x-mock-session': id } })).status);
    // The key's session, s1 and s2 fill the table; all were used in the last minute, so s3 is refused rather than one of them ended.
    expect(statuses).toEqual([200, 200, 503]);
    const sessions = (await (await fetch(`${origin}/__mock/sessions`, { headers: keyed })).json()) as { maxSessions: number; idleSeconds: number; sessions: Array<{ id: string }> };
    expect(sessions).toMatchObject({ maxSessions: 3, idleSeconds: 60 });
    expect(sessions.sessions.map((s) => s.id)).toEqual([health.session, 's1', 's2']);
  });

  it('--max-pets and --max-catalogue-bytes bound what each session adds: 507 catalogue_full naming the flag', async () => {
    const create = async (base: string, name: string, session?: string) =>
      fetch(`${base}/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEFAULT_API_KEY}`, 'content-type': 'application/json', ...(session ? { 'x-mock-session': session } : {}) },
        body: JSON.stringify({ name, categoryId: 1 }),
      });
    const byCount = await startMock(['--max-pets', '2']);
    for (const expected of [201, 201, 507]) expect((await create(byCount.url, 'Rex')).status).toBe(expected);
    const refused = await create(byCount.url, 'Rex');
    expect(await refused.json()).toMatchObject({ code: 'catalogue_full', status: 507, message: expect.stringContaining('--max-pets') });
    expect((await create(byCount.url, 'Rex', 'other')).status).toBe(201);
    // 200 bytes hold two animals named with 50 characters (about 90 bytes of JSON each), not three.
    const byBytes = await startMock(['--max-catalogue-bytes', '200']);
    for (const expected of [201, 201, 507]) expect((await create(byBytes.url, 'n'.repeat(50))).status).toBe(expected);
    const full = (await (await create(byBytes.url, 'n'.repeat(50))).json()) as { message: string };
    expect(full.message).toContain('--max-catalogue-bytes');
  });

  it('--max-connections bounds the connections with a request in progress: a request on one more gets 503 with an Error body', async () => {
    const mock = await startMock(['--max-connections', '1']);
    const { port } = new URL(mock.url);
    const held = connect(Number(port), '127.0.0.1');
    held.on('error', () => undefined);
    // In progress: createPet's head sent, its body not all there.
    held.write(`POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${DEFAULT_API_KEY}\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{`);
    // The server counts it once it has read the head: ask until it has (a few tries at most).
    let response: ParsedResponse | undefined;
    for (let tries = 0; tries < 50 && response?.status !== 503; tries += 1) {
      [response] = parseResponses((await rawExchange(Number(port), 'GET /__mock/health HTTP/1.1\r\nHost: localhost\r\n\r\n')).bytes);
    }
    expect(response?.status).toBe(503);
    expectErrorBody(response!, 'too_many_connections');
    expect(JSON.parse(String(response?.body)).message).toContain('--max-connections');
    held.destroy();
  });

  it('an unknown scenario stops start-up with exit code 2, naming the known ones', async () => {
    const result = await runToExit(['--port', '0', '--scenario', 'nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/animal-store-mock: unknown scenario "nope" in scenarios \(known: after-sunset, auth-rejected, default, /);
  });

  it('an invalid scenario file stops start-up with exit code 2, naming the file, the JSON path and the reason', async () => {
    const dir = join(tmpDir(), 'bad-scenarios');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'lost.yaml');
    writeFileSync(file, [
      'name: lost',
      'description: a getPet stub whose Pet breaks the document',
      'catalogue: { fixture: fixtures/pets.json }',
      'stubs:',
      '  - match: { operation: getPet }',
      '    response: { status: 200, body: { id: 1, name: Rex, categoryId: 2, status: lost } }',
      '',
    ].join('\n'));
    const result = await runToExit(['--port', '0', '--scenarios', dir, '--scenario', 'lost']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`animal-store-mock: invalid scenario ${file}: $.stubs[0].response.body.status must be one of available, pending, sold\n`);
  });

  it('a scenario whose fixture cannot be read stops start-up with exit code 2', async () => {
    const dir = join(tmpDir(), 'no-fixture');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'ghost.yaml');
    writeFileSync(file, 'name: ghost\ndescription: x\ncatalogue: { fixture: fixtures/ghost.json }\nstubs: []\n');
    const result = await runToExit(['--port', '0', '--scenarios', dir, '--scenario', 'ghost']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`animal-store-mock: invalid scenario ${file}: $.catalogue.fixture is not a usable catalogue: `);
  });

  it('a scenarios folder that does not exist stops start-up with exit code 2', async () => {
    const result = await runToExit(['--port', '0', '--scenarios', join(tmpDir(), 'nowhere')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`animal-store-mock: cannot read the scenarios folder ${join(tmpDir(), 'nowhere')}: ENOENT`);
  });
});

describe('an invalid fixture stops start-up with exit code 2, naming the file, the JSON path and the reason', () => {
  it.each([
    [
      'a status outside the enum',
      'status.json',
      JSON.stringify([
        { id: 1, name: 'Milo', categoryId: 3, status: 'available' },
        { id: 2, name: 'Bruno', categoryId: 2, status: 'lost' },
      ]),
      '$[1].status must be one of available, pending, sold',
    ],
    ['an object instead of an array', 'object.json', JSON.stringify({ id: 1, name: 'Milo', categoryId: 3 }), '$ must be an array'],
    ['a missing categoryId', 'no-category.json', JSON.stringify([{ id: 1, name: 'Milo' }]), '$[0].categoryId is required'],
    [
      'duplicate ids',
      'duplicates.json',
      JSON.stringify([
        { id: 1, name: 'Milo', categoryId: 3 },
        { id: 1, name: 'Bruno', categoryId: 2 },
      ]),
      '$[1].id 1 is used twice',
    ],
    ['a status outside the enum, in YAML', 'status.yaml', '- id: 1\n  name: Milo\n  categoryId: 3\n  status: lost\n', '$[0].status must be one of available, pending, sold'],
  ])('%s', async (_, name, text, reason) => {
    const file = fixture(name, text);
    const result = await runToExit(['--port', '0', '--fixtures', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`invalid fixture ${file}: ${reason}`);
  });

  it('a file that is neither JSON nor YAML', async () => {
    const file = fixture('broken.json', '[{"id": 1, "name": "Milo",');
    const result = await runToExit(['--port', '0', '--fixtures', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`invalid fixture ${file}: cannot be read as JSON or YAML`);
  });

  it('a file that does not exist', async () => {
    const file = join(tmpDir(), 'no-such-file.json');
    const result = await runToExit(['--port', '0', '--fixtures', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`invalid fixture ${file}: cannot be read`);
  });
});

describe('a broken --contract document', () => {
  it('stops start-up with exit code 2 when a schema cannot be compiled (an unknown type)', async () => {
    // In a schema of the components, which the mock compiles (a response header's schema, such as Location's, it does not).
    const document = readFileSync(join(packageRoot(), 'openapi', 'animal-store.yaml'), 'utf8').replace(/(\ncomponents:[\s\S]*?)type: string/, '$1type: strin');
    const result = await runToExit(['--port', '0', '--contract', fixture('bad-type.yaml', document)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('type must be JSONType or JSONType[]: strin');
  });
});
