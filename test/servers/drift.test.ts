import pLimit from 'p-limit';
import { describe, it } from 'vitest';
import type { DriftReport } from '../../src/verdict/drift-report.js';
import { questionOf } from '../../src/contract-tests/silent-log.js';
import { startApiServer, type AppFetch, type ApiServer } from '../support/contract-cli.js';
import { OTHER_CHOICES, otherChoices } from './other-choices.js';
import { driftBetween } from '../support/drift-run.js';

/**
 * The drift report over real HTTP: the mock against itself drifts nowhere;
 * against the mock with other choices it names those choices and nothing
 * else; a target that answers one point differently on repeat is reported
 * as inconsistent there, not as drift.
 */
const KEY = 'drift-servers-key';
const OTHER_KEY = 'drift-servers-other-key';
const limit = pLimit(3);

const drift = (a: () => Promise<ApiServer>, b: () => Promise<ApiServer>, seed: number, keys = { a: KEY, b: KEY }, failures: 'none' | 'allowed' = 'none'): Promise<DriftReport> =>
  driftBetween(a, b, { seed, keys, failures });

const mock = (key = KEY) => () => startApiServer({ apiKey: key });
const withOtherChoices = () => startApiServer({ apiKey: KEY, wrap: otherChoices(KEY) });

describe('the drift report, over real HTTP', () => {
  // Ten seeds: every run sends each form of every variation in its fixed cases, so more seeds only draw more random ones,
  // and a run now sends about 2,000 requests to each side (twenty took most of the time limit on a busy machine).
  it('finds no drift between the mock and itself on 10 seeds, each target with its own key', { timeout: 240_000 }, async ({ expect }) => {
    const seeds = Array.from({ length: 10 }, (_, i) => 3000 + i * 7919);
    const reports = await Promise.all(seeds.map((seed) => limit(() => drift(mock(), mock(OTHER_KEY), seed, { a: KEY, b: OTHER_KEY }))));
    for (const [i, report] of reports.entries()) {
      expect(report.groups, `seed ${seeds[i]}`).toEqual([]);
      expect(report.inconsistent, `seed ${seeds[i]}`).toEqual([]);
      expect(report.notCompared, `seed ${seeds[i]}`).toEqual([]);
      // The comparison did compare: every rule's requests, pairwise.
      expect(report.compared).toBeGreaterThan(500);
    }
  });

  it('names exactly the other choices of the mock with other choices (member order is not one)', { timeout: 240_000 }, async ({ expect }) => {
    const seeds = [11, 4242, 90001, 123456, 777];
    const reports = await Promise.all(seeds.map((seed) => limit(() => drift(mock(), withOtherChoices, seed))));
    const named = new Set<string>();
    for (const [i, report] of reports.entries()) {
      expect(report.inconsistent, `seed ${seeds[i]}`).toEqual([]);
      for (const group of report.groups) {
        const choice = OTHER_CHOICES.find((c) => c.matches(group));
        expect(choice, `seed ${seeds[i]}: ${group.cause}: A ${group.a}, B ${group.b}`).toBeDefined();
        named.add(choice?.choice as string);
        // Both sides' curl lines, the key redacted.
        expect(group.example.a + group.example.b).not.toContain(KEY);
      }
    }
    for (const choice of ['no Location', 'available by default', 'lenient petId', 'unknown query parameters refused', 'names refused']) expect([...named]).toContain(choice);
  });

  it('reports a contract failure on the compared target as such, not as drift', { timeout: 120_000 }, async ({ expect }) => {
    const report = await drift(mock(), () => startApiServer({ apiKey: KEY, wrap: withoutCategory }), 21, { a: KEY, b: KEY }, 'allowed');
    expect(report.failedOnB.map((f) => f.id)).toContain('create-returns-pet');
    expect(report.notCompared).toContainEqual({ id: 'create-returns-pet', reason: 'failed on B: a contract failure, reported as such' });
    expect(report.groups.filter((g) => g.cause.startsWith('createPet') || g.cause.startsWith('getPet')).map((g) => `${g.cause}: A ${g.a}, B ${g.b}`)).toEqual([]);
  });

  it('reports a target that answers one point differently on repeat as inconsistent there, not as drift', { timeout: 120_000 }, async ({ expect }) => {
    for (const seed of [5, 6, 7]) {
      const report = await drift(mock(), () => startApiServer({ apiKey: KEY, wrap: flapping }), seed);
      const petId = questionOf('pet-id');
      expect(report.inconsistent.map((i) => `${i.side} ${i.cause}`), `seed ${seed}`).toContain(`b ${petId}`);
      expect(report.inconsistent.find((i) => i.cause === petId)?.answers.length).toBeGreaterThan(1);
      expect(report.groups, `seed ${seed}`).toEqual([]);
    }
  });
});

/** The mock, but createPet's 201 leaves out `categoryId`, which a Pet must have: a contract failure. */
function withoutCategory(fetch: AppFetch): AppFetch {
  return async (request) => {
    const response = await fetch(request);
    if (request.method !== 'POST' || response.status !== 201) return response;
    const { categoryId: _dropped, ...pet } = (await response.json()) as Record<string, unknown>;
    return Response.json(pet, { status: 201, headers: { location: response.headers.get('location') ?? '' } });
  };
}

/**
 * The mock, but a `petId` that is not an integer gets 404 and 400 in turn
 * (each allowed where the interface is silent): no choice at all. After
 * the key check, as the mock's own refusals.
 */
function flapping(fetch: AppFetch): AppFetch {
  let asked = 0;
  return async (request) => {
    const response = await fetch(request);
    const petId = /^\/v1\/pets\/([^/]+)$/.exec(new URL(request.url).pathname)?.[1];
    if (request.method !== 'GET' || petId === undefined || /^-?\d+$/.test(petId) || ![400, 404].includes(response.status) || asked++ % 2 === 0) return response;
    return response.status === 404
      ? Response.json({ code: 'invalid_pet_id', message: 'petId must be an integer', status: 400 }, { status: 400 })
      : Response.json({ code: 'pet_not_found', message: 'no such animal', status: 404 }, { status: 404 });
  };
}
