import { describe, expect, it } from 'vitest';
import { useMock } from '../../../../test/support/use-mock.js';

const JSON_HEADERS = { 'content-type': 'application/json' };
const pets = [{ id: 1, name: 'Milo', categoryId: 3, status: 'available' as const }];

type Mock = ReturnType<typeof useMock>;
const create = (mock: Mock, name: string, headers: Record<string, string> = {}) =>
  mock.authed('/pets', { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify({ name, categoryId: 1 }) });
const warnings = (mock: Mock) => mock.logs.filter((line) => line.level === 40 && String(line.msg).startsWith('catalogue full'));

describe('each session may add --max-pets animals (here 3)', () => {
  const mock = useMock({ pets, catalogueLimits: { maxPets: 3, maxBytes: 1024 * 1024 } });
  const alice = { 'x-mock-session': 'alice' };

  it('answers 507 catalogue_full past the bound, naming the flag and the reset; stores nothing more', async () => {
    for (let i = 0; i < 3; i++) expect((await create(mock, `A${i}`, alice)).status).toBe(201);
    const refused = await create(mock, 'A3', alice);
    expect(refused.status).toBe(507);
    expect(refused.json).toMatchObject({ code: 'catalogue_full', status: 507 });
    expect(refused.json.message).toContain('--max-pets');
    expect(refused.json.message).toContain('POST /__mock/reset');
    const listed = await mock.authed('/pets?limit=100', { headers: alice });
    expect(listed.json.map((pet: { name: string }) => pet.name)).toEqual(['Milo', 'A0', 'A1', 'A2']);
  });

  it('leaves other sessions and the shared default their own room', async () => {
    expect((await create(mock, 'B0', { 'x-mock-session': 'bob' })).status).toBe(201);
    expect((await create(mock, 'Shared')).status).toBe(201);
    expect((await create(mock, 'A4', alice)).status).toBe(507);
  });

  it('counts what Prefer: scenario= adds in the same session: more scenarios do not give more room', async () => {
    const carol = { 'x-mock-session': 'carol' };
    for (let i = 0; i < 2; i++) expect((await create(mock, `C${i}`, carol)).status).toBe(201);
    expect((await create(mock, 'C2', { ...carol, prefer: 'scenario=empty-catalogue' })).status).toBe(201);
    const refused = await create(mock, 'C3', { ...carol, prefer: 'scenario=empty-catalogue' });
    expect(refused.status).toBe(507);
    expect((await create(mock, 'C4', carol)).status).toBe(507);
  });

  it('logs one warning per session the first time it fills, not one per refused request', async () => {
    expect((await create(mock, 'A5', alice)).status).toBe(507);
    const lines = warnings(mock);
    expect(lines.filter((line) => line.session === 'alice')).toHaveLength(1);
    expect(lines.filter((line) => line.session === 'carol')).toHaveLength(1);
    expect(lines.find((line) => line.session === 'alice')?.msg).toContain('--max-pets');
  });

  it('a reset frees the session\'s additions: it may add 3 again', async () => {
    expect((await mock.admin('/reset', { method: 'POST', headers: alice })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await create(mock, `again${i}`, alice)).status).toBe(201);
    expect((await create(mock, 'again3', alice)).status).toBe(507);
  });

  it('so does activating a scenario again', async () => {
    const activated = await mock.admin('/scenarios/active', { method: 'PUT', headers: { ...JSON_HEADERS, ...alice }, body: JSON.stringify({ name: 'default' }) });
    expect(activated.status).toBe(200);
    expect((await create(mock, 'fresh', alice)).status).toBe(201);
  });
});

describe('each session may add --max-catalogue-bytes of JSON (here 3,000)', () => {
  const mock = useMock({ pets, catalogueLimits: { maxPets: 1000, maxBytes: 3000 } });

  it('big names hit the byte bound long before the animal bound, and the message names --max-catalogue-bytes', async () => {
    // Each stored animal is {"id":N,"name":"<1,000 characters>","categoryId":1}: a little over 1,000 bytes.
    for (let i = 0; i < 2; i++) expect((await create(mock, `${i}`.padEnd(1000, 'n'))).status).toBe(201);
    const refused = await create(mock, '2'.padEnd(1000, 'n'));
    expect(refused.status).toBe(507);
    expect(refused.json).toMatchObject({ code: 'catalogue_full', status: 507 });
    expect(refused.json.message).toContain('--max-catalogue-bytes');
    // A small one still fits in what is left: the bound is on bytes, judged per animal.
    expect((await create(mock, 'Tiny')).status).toBe(201);
  });

  it('counts bytes as UTF-8: 400 three-byte characters take 1,200 bytes', async () => {
    const session = { 'x-mock-session': 'utf8' };
    expect((await create(mock, '€'.repeat(400), session)).status).toBe(201);
    expect((await create(mock, '€'.repeat(400), session)).status).toBe(201);
    expect((await create(mock, '€'.repeat(400), session)).status).toBe(507);
  });

  it('one warning for the shared default, whatever the refusals', async () => {
    expect((await create(mock, '3'.padEnd(1000, 'n'))).status).toBe(507);
    expect(warnings(mock).filter((line) => line.session === null)).toHaveLength(1);
  });
});
