import { afterEach, describe, expect, it } from 'vitest';
import { checkExchange } from '../../src/verdict/exchange-checks.js';
import { checkStatement } from '../../src/verdict/exchange-check-ids.js';
import { loadContract } from '../../src/document/load-contract.js';
import { createResponseValidator } from '../../src/document/response-validator.js';
import { loadFixtureCatalogue } from '../../src/mock/core/fixtures/load-catalogue.js';
import { adminDocumentChecker } from '../support/admin-document.js';
import { startMock, useBuiltCli, type RunningMock } from '../support/built-cli.js';
import { FAULTY_SERVER_KEY, type Defect } from '../faulty-servers/defect.js';
import { DEFECTS } from '../faulty-servers/all-defects.js';
import { startFaultyServer } from '../faulty-servers/faulty-server.js';
import { startReferenceServer } from '../servers/reference-server.js';
import { sha, startEdgeUpstream } from './edge-upstream.js';
import { rawRequest } from './raw-get.js';

/**
 * Proxy mode's checks, over real HTTP: a faulty target's answer shows up in
 * the journal and in `GET /__mock/violations` under the id and statement
 * the harness's own checks give the same answer; a correct target shows
 * none; the upstream key is in nothing the mock keeps or prints; and the
 * scenario's stubs and `Prefer` still answer before the target.
 */
useBuiltCli();
const contract = loadContract();
const catalogue = loadFixtureCatalogue(contract);
if (!catalogue.ok) throw new Error(catalogue.error);
const validator = createResponseValidator();
const admin = adminDocumentChecker();
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

const defect = (name: string): Defect => DEFECTS.find((d) => d.name === name) ?? (() => { throw new Error(`no defect ${name}`); })();
const originOf = (mock: RunningMock): string => new URL(mock.url).origin;
async function adminGet(mock: RunningMock, path: string): Promise<any> {
  const response = await fetch(`${originOf(mock)}/__mock${path}`);
  const body = (await response.json()) as unknown;
  expect(admin('GET', `/__mock${path}`, response.status, body)).toBeUndefined();
  return body;
}

/** The check ids the harness's own checks give one answer of the target, asked directly. */
async function harnessChecks(url: string): Promise<string[]> {
  const answer = await rawRequest(url, { headers: { authorization: `Bearer ${FAULTY_SERVER_KEY}` } });
  const body = answer.body.toString();
  const headers: Record<string, string> = {};
  for (let i = 0; i < answer.rawHeaders.length; i += 2) headers[(answer.rawHeaders[i] as string).toLowerCase()] = answer.rawHeaders[i + 1] as string;
  const v = await validator;
  const operation = v.operationFor('GET', new URL(url).pathname.slice(contract.basePath.length));
  const findings = checkExchange(v, operation, { operation: undefined, request: { method: 'GET', url, headers: {} }, response: { status: answer.status, headers, body, json: JSON.parse(body) }, ms: 0 });
  return [...new Set(findings.map((finding) => finding.check as string))];
}

describe('a faulty target', () => {
  it.each([
    ['limit off by one (limit + 1 animals)', '/pets?limit=5', 'invariant-page-size'],
    ['Pets items lack name', '/pets?limit=3', 'exchange-response-schema'],
  ] as const)('%s: the answer goes through untouched, and its violation is listed by the harness\'s check id', async (name, path, rule) => {
    const server = await startFaultyServer(defect(name), { contract, pets: catalogue.value.pets });
    closing.push(() => server.close());
    const mock = await startMock(['--proxy', server.url]);
    const direct = await rawRequest(`${server.url}${path}`, { headers: { authorization: `Bearer ${FAULTY_SERVER_KEY}` } });
    const proxied = await rawRequest(`${mock.url}${path}`, { headers: { authorization: `Bearer ${FAULTY_SERVER_KEY}` } });
    expect(sha(proxied.body)).toBe(sha(direct.body));
    expect(await harnessChecks(`${server.url}${path}`)).toEqual([rule]);

    const entry = (await adminGet(mock, '/journal')).entries.at(-1);
    expect(entry.upstream).toBe('answered');
    expect(entry.violations.length).toBeGreaterThan(0);
    for (const violation of entry.violations) expect(violation).toMatchObject({ rule, statement: checkStatement(rule) });
    const listed = await adminGet(mock, '/violations');
    expect(listed).toMatchObject({ proxy: true, target: server.url, violations: [{ statement: checkStatement(rule), rules: [rule], count: 1, last: { status: 200 } }] });
    expect(listed.violations[0].last.curl).toContain(`${mock.url}${path}`);
    expect(listed.violations[0].last.curl).toContain('Bearer <API key>');
    expect(listed.violations[0].last.curl).not.toContain(FAULTY_SERVER_KEY);
  });
});

describe('the reference server as the target', () => {
  it('answers come back byte for byte and break nothing, non-ASCII and 10,000-character names included', async () => {
    const server = await startReferenceServer({ apiKey: 'reference-key' });
    closing.push(() => server.close());
    const mock = await startMock(['--proxy', server.url]);
    const auth = { authorization: 'Bearer reference-key', 'content-type': 'application/json' };
    for (const name of ['Zoë 🐕 «Ünïcødé»', 'n'.repeat(10_000)]) {
      const created = await rawRequest(`${mock.url}/pets`, { method: 'POST', headers: auth, body: JSON.stringify({ name, categoryId: 1 }) });
      const id = (JSON.parse(created.body.toString()) as { id?: number }).id;
      if (created.status !== 201) continue;
      const direct = await rawRequest(`${server.url}/pets/${id}`, { headers: auth });
      const proxied = await rawRequest(`${mock.url}/pets/${id}`, { headers: auth });
      expect(sha(proxied.body)).toBe(sha(direct.body));
    }
    for (const path of ['/pets', '/pets?limit=100&status=sold', '/pets/1', '/pets/999999', '/pets?limit=0']) await rawRequest(`${mock.url}${path}`, { headers: auth });
    await rawRequest(`${mock.url}/pets`, { headers: {} });
    expect((await adminGet(mock, '/violations')).violations).toEqual([]);
  });
});

describe('--upstream-key', () => {
  it('replaces the client\'s key toward the target, and is in no journal, log or violation', async () => {
    const upstream = await startEdgeUpstream();
    closing.push(() => upstream.close());
    const secret = 'staging-secret-key-0123456789';
    const mock = await startMock(['--proxy', upstream.url, '--upstream-key', secret, '--api-key', 'mock-own-key', '--log-format', 'json']);
    expect((await rawRequest(`${mock.url}/pets/echo`, { headers: {} })).status).toBe(401);
    expect((await rawRequest(`${mock.url}/pets/echo`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401);
    expect(upstream.seen).toEqual([]);
    const echoed = await rawRequest(`${mock.url}/pets/echo?api_key=x`, { headers: { authorization: 'Bearer mock-own-key', 'x-api-key': secret } });
    const raw = (JSON.parse(echoed.body.toString()) as { rawHeaders: string[] }).rawHeaders;
    expect(raw.filter((_, i) => i % 2 === 0 && /^authorization$/i.test(raw[i] as string)).length).toBe(1);
    expect(raw[raw.findIndex((name) => /^authorization$/i.test(name)) + 1]).toBe(`Bearer ${secret}`);
    // The echo is no Pet: getPet's answer breaks the schema, so a violation with its curl line is kept.
    const violations = await adminGet(mock, '/violations');
    expect(violations.violations.length).toBeGreaterThan(0);
    const kept = JSON.stringify([await adminGet(mock, '/journal'), await adminGet(mock, '/journal/anonymous'), violations]) + mock.stdout() + mock.stderr();
    expect(kept).toContain('/pets/echo');
    expect(kept).not.toContain(secret);
    expect(kept).not.toContain(Buffer.from(`Bearer ${secret}`).toString('base64').slice(4, 24));
  });
});

describe('faults over real data', () => {
  it('the scenario\'s stubs and Prefer answer first; the rest goes to the target', async () => {
    const upstream = await startEdgeUpstream();
    closing.push(() => upstream.close());
    const mock = await startMock(['--proxy', upstream.url, '--scenario', 'flaky']);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await rawRequest(`${mock.url}/pets/many`, { headers: { authorization: 'Bearer any-client-key' } })).status);
    expect(statuses).toEqual([200, 200, 503]);
    expect(upstream.seen).toEqual(['GET /v1/pets/many', 'GET /v1/pets/many']);
    const preferred = await rawRequest(`${mock.url}/pets/many`, { headers: { authorization: 'Bearer any-client-key', prefer: 'code=404' } });
    expect(preferred.status).toBe(404);
    expect(upstream.seen.length).toBe(2);
    const entries = (await adminGet(mock, '/journal')).entries;
    expect(entries.map((entry: { upstream?: string; stub: string | null }) => entry.upstream ?? entry.stub)).toEqual(['answered', 'answered', expect.any(String), null]);
  });
});
