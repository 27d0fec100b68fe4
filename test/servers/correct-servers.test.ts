import pLimit from 'p-limit';
import { describe, it } from 'vitest';
import { createResponseValidator } from '../../src/document/response-validator.js';
import { startReferenceServer } from './reference-server.js';
import { startApiServer, mockData, type AppFetch } from '../support/contract-cli.js';
import { fieldsOf, NAME_LIMIT, refusesLongNames } from './declared-limit-servers.js';
import { referenceCatalogue } from './reference-catalogue.js';
import { isExactInteger } from '../../src/shared/exact-json/int64.js';
import { parseExactJson } from '../../src/shared/exact-json/parse-exact-json.js';
import { stringifyExactJson } from '../../src/shared/exact-json/stringify-exact-json.js';
import { runSuite, type SuiteReport } from '../../src/contract-tests/run-suite.js';

/**
 * The other side of the faulty servers: correct implementations, the mock,
 * an independent one written from the interface alone, and the mock with
 * other choices where the interface is silent, must pass every rule on any
 * seed. Twenty seeds, each run against a fresh server of each.
 */
const KEY = 'correct-servers-key';
const SEEDS = Array.from({ length: 20 }, (_, i) => 1000 + i * 7919);
const validator = createResponseValidator();
const limit = pLimit(4);

/**
 * The mock with other defensible choices, each where the interface is
 * silent: Pet fields in another order, a petId read leniently (" 5", "+5"),
 * a name refused once it is taken or when it has control characters (400),
 * `available` for an animal created without a status, no `Location`
 * with createPet's 201 (the interface does not mention it; the mock sends one),
 * a query parameter the document does not name refused with 400 (the
 * interface does not say what one gets), and a body sent chunked refused
 * with 411 (RFC 9112 §6.3 lets a server ask for Content-Length).
 */
const otherChoices = (fetch: AppFetch): AppFetch => {
  const names = new Set<string>();
  return async (request) => {
    const url = new URL(request.url);
    // After the key check, as the mock's own refusals: 401 wins.
    if (new RegExp(`^bearer +${KEY}$`, 'i').test(request.headers.get('authorization') ?? '')) {
      const documented = url.pathname === '/v1/pets' && request.method === 'GET' ? ['limit', 'status'] : [];
      const unknown = [...url.searchParams.keys()].find((name) => !documented.includes(name));
      if (unknown !== undefined) return Response.json({ code: 'unknown_parameter', message: `unknown query parameter ${unknown}`, status: 400 }, { status: 400 });
      if (/chunked/i.test(request.headers.get('transfer-encoding') ?? '')) return Response.json({ code: 'length_required', message: 'send Content-Length', status: 411 }, { status: 411 });
    }
    const lenient = /^\/v1\/pets\/(?:%20|\+)*(\d+)$/.exec(url.pathname);
    if (request.method === 'GET' && lenient) url.pathname = `/v1/pets/${lenient[1]}`;
    let body = request.method === 'POST' ? await request.text() : undefined;
    if (body !== undefined && request.headers.get('authorization') === `Bearer ${KEY}`) {
      const pet = fieldsOf(body);
      if (typeof pet?.name === 'string' && (names.has(pet.name) || /[\u0000-\u001f]/.test(pet.name))) {
        return Response.json({ code: 'name_refused', message: 'that name is taken or has control characters', status: 400 }, { status: 400 });
      }
      if (pet && typeof pet.name === 'string' && isExactInteger(pet.categoryId) && !('status' in pet)) body = stringifyExactJson({ ...pet, status: 'available' });
    }
    const response = await fetch(new Request(url, { method: request.method, headers: request.headers, body }));
    if (response.status >= 300 || !/json/.test(response.headers.get('content-type') ?? '')) return response;
    const json = parseExactJson(await response.text()).value;
    if (request.method === 'POST' && response.status === 201) names.add((json as { name: string }).name);
    const reversed = (pet: unknown) => Object.fromEntries(Object.entries(pet as object).reverse());
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('location');
    headers.set('content-type', 'application/json');
    return new Response(stringifyExactJson(Array.isArray(json) ? json.map(reversed) : reversed(json)), { status: response.status, headers });
  };
};

/**
 * Valid int64 categoryIds past 2^53, JavaScript's exact integers: a catalogue
 * holding them must pass (list-items-are-pets, list-status-* judge them).
 */
const BIG_CATEGORIES = [2n ** 62n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 53n + 1n];
const withBigCategories = <P extends { categoryId: number | bigint }>(pets: readonly P[]): P[] => pets.map((pet, i) => (i % 3 === 0 ? { ...pet, categoryId: BIG_CATEGORIES[(i / 3) % BIG_CATEGORIES.length] as bigint } : pet));

const servers = {
  mock: async () => startApiServer({ apiKey: KEY }),
  reference: async () => startReferenceServer({ apiKey: KEY }),
  'mock holding int64 categoryIds past 2^53': async () => startApiServer({ apiKey: KEY, pets: withBigCategories(mockData().pets) }),
  'reference holding int64 categoryIds past 2^53': async () => startReferenceServer({ apiKey: KEY, pets: withBigCategories(referenceCatalogue()) }),
  'mock with other choices': async () => startApiServer({ apiKey: KEY, wrap: otherChoices }),
  // A documented limit where the interface is silent, declared as a CI owner would (--allow-refusal name.maxLength=100).
  'mock with a declared name limit of 100': async () => startApiServer({ apiKey: KEY, wrap: refusesLongNames(KEY) }),
};

/** What each server's owner declares it refuses. */
const DECLARED: Partial<Record<keyof typeof servers, { nameMaxLength: number; categoryKnown: false }>> = {
  'mock with a declared name limit of 100': { nameMaxLength: NAME_LIMIT, categoryKnown: false },
};

async function runOn(kind: keyof typeof servers, seed: number): Promise<SuiteReport> {
  const server = await servers[kind]();
  try {
    const declared = DECLARED[kind];
    const run = await runSuite({ baseUrl: server.url, apiKey: KEY, seed, validator: await validator, ...(declared ? { allowRefusal: declared } : {}) });
    if (!run.ok) throw new Error(`${kind}, seed ${seed}: ${run.error.message}`);
    return run.report;
  } finally {
    await server.close();
  }
}

/** Each failed rule with its first finding, so a failure says what and where. */
const failures = (report: SuiteReport) =>
  report.results.filter((r) => r.status === 'failed').map((r) => `${r.id}: ${r.findings.find((f) => f.level === 'error')?.message} ${r.findings[0]?.reproduce?.curl ?? ''}`);

describe.each(Object.keys(servers) as Array<keyof typeof servers>)('the %s', (kind) => {
  it(`passes every rule on ${SEEDS.length} seeds`, { timeout: 240_000 }, async ({ expect }) => {
    const reports = await Promise.all(SEEDS.map((seed) => limit(() => runOn(kind, seed))));
    for (const report of reports) {
      expect(failures(report), `seed ${report.seed}`).toEqual([]);
      expect(report.seed).toBe(SEEDS[reports.indexOf(report)]);
      // The generated rules did send cases: a search that sends nothing cannot fail.
      const generated = report.results.filter((r) => r.cases !== undefined);
      expect(generated.length).toBeGreaterThanOrEqual(9);
      for (const r of generated) expect(r.cases, r.id).toBeGreaterThan(0);
    }
  });
});

