import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../document/load-contract.js';
import { runSuite } from '../../../contract-tests/run-suite.js';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';
import { defaultScenariosDir, listScenarios } from './find-scenario.js';
import { scenariosInFolder } from './scenarios-in-folder.js';
import { loadScenario } from './load-scenario.js';
import { buildScenarioCatalogue } from './scenario-catalogue.js';

/** The scenarios in scenarios/, each started as `--scenario NAME` would, over real HTTP. */
type Pet = { id: number; name: string; categoryId: number; status?: string };
const newPet = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('every shipped scenario file', () => {
  it('loads, with its catalogue', async () => {
    const contract = loadContract();
    const listed = listScenarios(defaultScenariosDir());
    if (!listed.ok) throw new Error(listed.error);
    expect(listed.value.size).toBe(12);
    for (const name of listed.value.keys()) {
      const scenario = loadScenario(contract, defaultScenariosDir(), name);
      if (!scenario.ok) throw new Error(scenario.error);
      expect(scenario.value.name).toBe(name);
      const catalogue = await buildScenarioCatalogue(scenariosInFolder(contract, defaultScenariosDir()), scenario.value);
      if (!catalogue.ok) throw new Error(catalogue.error);
    }
  });
});

describe('default: the realistic catalogue, no stubs', () => {
  const mock = useMock({ scenario: 'default' });

  it('serves fixtures/pets.json from the stateful mock', async () => {
    expect((await mock.health()).calls).toEqual([]);
    expect((await mock.health()).pets).toBe(30);
    const page = await mock.authed('/pets');
    expect(page.json.map((p: Pet) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect((await mock.authed('/pets/1')).json).toEqual({ id: 1, name: 'Milo', categoryId: 3, status: 'available' });
  });

  it('passes the contract-test harness, every rule', async () => {
    const run = await runSuite({ baseUrl: mock.url, apiKey: TEST_KEY });
    if (!run.ok) throw new Error(run.error.message);
    const failed = run.report.results.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed).toEqual([]);
    expect(run.report.ok).toBe(true);
    expect(run.report.summary.passed).toBeGreaterThan(40);
  });
});

describe('empty-catalogue', () => {
  const mock = useMock({ scenario: 'empty-catalogue' });

  it('lists nothing, finds nothing, until an animal is created', async () => {
    for (const query of ['', '?status=available', '?status=pending', '?status=sold', '?limit=100']) {
      expect((await mock.authed(`/pets${query}`)).json).toEqual([]);
    }
    expect((await mock.authed('/pets/1')).status).toBe(404);
    const created = await mock.authed('/pets', newPet({ name: 'First', categoryId: 1, status: 'available' }));
    expect(created.status).toBe(201);
    expect(created.json.id).toBe(1);
    expect((await mock.authed('/pets')).json).toEqual([created.json]);
    expect((await mock.authed('/pets/1')).json).toEqual(created.json);
  });
});

describe('sold-out', () => {
  const mock = useMock({ scenario: 'sold-out' });

  it('has 30 animals, every one sold', async () => {
    const all = (await mock.authed('/pets?limit=100')).json as Pet[];
    expect(all).toHaveLength(30);
    expect(new Set(all.map((p) => p.status))).toEqual(new Set(['sold']));
    expect((await mock.authed('/pets?status=sold&limit=100')).json).toHaveLength(30);
    expect((await mock.authed('/pets?status=available')).json).toEqual([]);
    expect((await mock.authed('/pets?status=pending')).json).toEqual([]);
  });
});

describe('large-catalogue', () => {
  const mock = useMock({ scenario: 'large-catalogue' });

  it('has 10,000 animals', async () => {
    expect((await mock.health()).pets).toBe(10_000);
    expect((await mock.authed('/pets/10000')).json.id).toBe(10_000);
    expect((await mock.authed('/pets/10001')).status).toBe(404);
  });

  it('still honours limit: 20 by default, 100 at most, 101 refused', async () => {
    expect((await mock.authed('/pets')).json).toHaveLength(20);
    const hundred = (await mock.authed('/pets?limit=100')).json as Pet[];
    expect(hundred.map((p) => p.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect((await mock.authed('/pets?limit=101')).status).toBe(400);
  });

  it('still honours status, with every status present', async () => {
    for (const status of ['available', 'pending', 'sold']) {
      const page = (await mock.authed(`/pets?status=${status}&limit=100`)).json as Pet[];
      expect(page).toHaveLength(100);
      expect(page.every((p) => p.status === status)).toBe(true);
      expect(page.map((p) => p.id)).toEqual([...page.map((p) => p.id)].sort((a, b) => a - b));
    }
  });
});

describe('auth-rejected', () => {
  const mock = useMock({ scenario: 'auth-rejected' });

  it('answers 401 to the accepted key on every operation, with the RFC 6750 challenge', async () => {
    const before = (await mock.health()).pets;
    for (const [path, init] of [['/pets', {}], ['/pets?status=sold', {}], ['/pets/1', {}], ['/pets', newPet({ name: 'Rex', categoryId: 1 })]] as const) {
      const res = await mock.authed(path, init);
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ code: 'unauthorized', message: expect.stringContaining('revoked'), status: 401 });
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="animal-store", error="invalid_token", error_description="The API key was revoked"');
    }
    expect((await mock.health()).pets).toBe(before);
  });

  it('and to a wrong or missing key too (the mock\'s own 401)', async () => {
    expect((await mock.request('/pets', { headers: { authorization: 'Bearer other' } })).status).toBe(401);
    expect((await mock.request('/pets')).status).toBe(401);
  });
});

describe('not-found', () => {
  const mock = useMock({ scenario: 'not-found' });

  it('answers getPet 404 for every id, even ids that listPets shows', async () => {
    const ids = ((await mock.authed('/pets?limit=5')).json as Pet[]).map((p) => p.id);
    expect(ids).toHaveLength(5);
    for (const id of [...ids, 30, 999, 'abc']) {
      const res = await mock.authed(`/pets/${id}`);
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ code: 'pet_not_found', status: 404 });
    }
  });
});

describe('flaky', () => {
  const mock = useMock({ scenario: 'flaky' });

  it('answers every third request, whatever the operation, 503 with Retry-After: 1', async () => {
    const requests: Array<[string, RequestInit?]> = [['/pets'], ['/pets/1'], ['/pets', newPet({ name: 'Rex', categoryId: 1 })]];
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      const [path, init] = requests[i % 3] as [string, RequestInit?];
      const res = await mock.authed(path, init);
      statuses.push(res.status);
      if (res.status === 503) {
        expect(res.headers.get('retry-after')).toBe('1');
        expect(res.json).toMatchObject({ code: 'service_unavailable', status: 503 });
      }
    }
    expect(statuses).toEqual([200, 200, 503, 200, 200, 503, 200, 200, 503]);
  });
});

describe('slow', () => {
  const mock = useMock({ scenario: 'slow' });

  it('answers normally after about 800 ms (at least 750)', async () => {
    for (const path of ['/pets?limit=2', '/pets/1']) {
      const started = performance.now();
      const res = await mock.authed(path);
      expect(performance.now() - started).toBeGreaterThanOrEqual(745);
      expect(res.status).toBe(200);
    }
  });
});

describe('rate-limited', () => {
  const mock = useMock({ scenario: 'rate-limited' });

  it('answers every request 429 with Retry-After: 30 and an Error body', async () => {
    for (const [path, init] of [['/pets', {}], ['/pets/1', {}], ['/pets', newPet({ name: 'Rex', categoryId: 1 })]] as const) {
      const res = await mock.authed(path, init);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('30');
      expect(res.json).toEqual({ code: 'too_many_requests', message: expect.stringContaining('Too many requests. Retry after 30 seconds.'), status: 429 });
    }
  });
});

describe('server-error', () => {
  const mock = useMock({ scenario: 'server-error' });

  it('answers every operation 500 with an Error body, and stores nothing', async () => {
    const before = (await mock.health()).pets;
    for (const [path, init] of [['/pets', {}], ['/pets?status=sold', {}], ['/pets/1', {}], ['/pets/999', {}], ['/pets', newPet({ name: 'Rex', categoryId: 1 })]] as const) {
      const res = await mock.authed(path, init);
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('retry-after')).toBeNull();
      expect(res.json).toEqual({ code: 'internal_error', message: expect.stringContaining('server-error'), status: 500 });
    }
    expect((await mock.health()).pets).toBe(before);
  });

  it('still asks for a key first', async () => {
    expect((await mock.request('/pets')).status).toBe(401);
  });
});

describe('validation-errors', () => {
  const mock = useMock({ scenario: 'validation-errors' });

  it.each([
    [{ name: 'Biscuit', categoryId: 2, status: 'available' }, 'categoryId does not name a known category'],
    [{ categoryId: 2 }, 'name is required'],
    [{ name: 'Biscuit' }, 'categoryId is required'],
    [{ name: 'B'.repeat(51), categoryId: 2 }, 'name must be at most 50 characters'],
    [{ name: 'B'.repeat(50), categoryId: 2 }, 'categoryId does not name a known category'],
  ])('refuses %j with 400: %s', async (body, message) => {
    const before = (await mock.health()).pets;
    const res = await mock.authed('/pets', newPet(body));
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ code: 'invalid_body', message, status: 400 });
    expect((await mock.health()).pets).toBe(before);
  });

  it('leaves the other operations alone', async () => {
    expect((await mock.authed('/pets')).status).toBe(200);
    expect((await mock.authed('/pets/1')).status).toBe(200);
  });
});

describe('after-sunset', () => {
  const mock = useMock({ scenario: 'after-sunset' });

  it('answers getPet 404 with an Error naming the replacement, which works', async () => {
    const res = await mock.authed('/pets/1');
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('operation_removed');
    expect(res.json.message).toContain('removed on 5 December 2030');
    expect(res.json.message).toMatch(/GET \/v1\/pets\?status=/);
    expect(res.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(res.headers.get('link')).toBe('</v1/pets>; rel="successor-version"');
    const replacement = await mock.authed('/pets?status=available');
    expect(replacement.status).toBe(200);
    expect(replacement.json.length).toBeGreaterThan(0);
  });
});
