import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { checkStatement } from '../../src/verdict/exchange-check-ids.js';
import { loadContract } from '../../src/document/load-contract.js';
import { loadFixtureCatalogue } from '../../src/mock/core/fixtures/load-catalogue.js';
import { DEFECTS } from '../faulty-servers/all-defects.js';
import { FAULTY_SERVER_KEY } from '../faulty-servers/defect.js';
import { startFaultyServer } from '../faulty-servers/faulty-server.js';
import { startMock, stop, tmpDir, useBuiltCli } from '../support/built-cli.js';
import { rawRequest } from './raw-get.js';
import { adminDocumentChecker } from '../support/admin-document.js';

/**
 * `--proxy-report FILE`: when the mock stops, the violations it saw are
 * written with the harness's own reporters, one failed rule per operation
 * and statement, with the count and the last request (key redacted).
 */
useBuiltCli();
const contract = loadContract();
const catalogue = loadFixtureCatalogue(contract);
if (!catalogue.ok) throw new Error(catalogue.error);
const { pets } = catalogue.value;
const admin = adminDocumentChecker();
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

async function reportOf(file: string): Promise<string> {
  const defect = DEFECTS.find((d) => d.name === 'Pets items lack name');
  const server = await startFaultyServer(defect, { contract, pets });
  closing.push(() => server.close());
  const mock = await startMock(['--proxy', server.url, '--proxy-report', file]);
  for (const path of ['/pets?limit=3', '/pets?limit=4', '/pets/1']) await rawRequest(`${mock.url}${path}`, { headers: { authorization: `Bearer ${FAULTY_SERVER_KEY}` } });
  expect((await stop(mock)).code).toBe(0);
  expect(mock.stdout()).toContain(`proxy report written to ${file} (1 causes)`);
  return readFileSync(file, 'utf8');
}

describe('--proxy-report FILE', () => {
  it('JSON: one failed rule for listPets\' broken names, counted, with the last request and no key', async () => {
    const report = JSON.parse(await reportOf(join(tmpDir(), 'report.json'))) as { ok: boolean; results: Array<Record<string, any>> };
    expect(report.ok).toBe(false);
    expect(report.results).toHaveLength(1);
    const [result] = report.results as [Record<string, any>];
    expect(result).toMatchObject({ id: 'exchange-response-schema', operation: 'listPets', status: 'failed' });
    expect(result.title).toContain('2 exchanges');
    expect(result.findings[0].expected).toBe(checkStatement('exchange-response-schema'));
    expect(result.findings[0].message).toContain('/v1/pets?limit=4');
    expect(JSON.stringify(report)).not.toContain(FAULTY_SERVER_KEY);
  });

  it('says it is proxy traffic, not a contract run: the exchanges that broke a statement, and no seed, cases, coverage or silent points', async () => {
    const report = JSON.parse(await reportOf(join(tmpDir(), 'kind.json'))) as Record<string, unknown>;
    expect(report).toMatchObject({ kind: 'proxy-traffic', violations: 2, ok: false });
    for (const harnessOnly of ['seed', 'examples', 'declared', 'coverage', 'silent', 'wrongTarget']) expect(report, harnessOnly).not.toHaveProperty(harnessOnly);
  });

  it('JUnit XML: a failed test case under listPets', async () => {
    const xml = new XMLParser({ ignoreAttributes: false }).parse(await reportOf(join(tmpDir(), 'report.xml'))) as Record<string, any>;
    const suites = [xml.testsuites.testsuite].flat() as Array<Record<string, any>>;
    const listPets = suites.find((suite) => suite['@_name'] === 'listPets') as Record<string, any>;
    expect(listPets['@_failures']).toBe('1');
    expect([listPets.testcase].flat()[0].failure).toBeDefined();
    expect(xml.testsuites['@_name']).toContain('proxy checks');
    expect(listPets.properties.property).toMatchObject({ '@_name': 'violations', '@_value': '2' });
  });

  it('HTML: the page names the check and the statement', async () => {
    const html = await reportOf(join(tmpDir(), 'report.html'));
    expect(html).toContain('exchange-response-schema');
    expect(html).not.toContain(FAULTY_SERVER_KEY);
    expect(html).toContain('<title>Proxy checks failed: ');
    expect(html).toContain('2 exchanges broke a statement, from 1 cause');
    for (const harnessOnly of ['id="seed"', 'id="examples"', 'id="coverage"', 'data-count="coverage"']) expect(html).not.toContain(harnessOnly);
  });

  it('on demand: GET /__mock/violations/report gives the same report while the mock runs, in each format', async () => {
    const defect = DEFECTS.find((d) => d.name === 'Pets items lack name');
    const server = await startFaultyServer(defect, { contract, pets });
    closing.push(() => server.close());
    const mock = await startMock(['--proxy', server.url]);
    const origin = new URL(mock.url).origin;
    const empty = (await (await fetch(`${origin}/__mock/violations/report`)).json()) as { ok: boolean; results: unknown[] };
    expect(empty).toMatchObject({ ok: true, results: [] });
    await rawRequest(`${mock.url}/pets?limit=3`, { headers: { authorization: `Bearer ${FAULTY_SERVER_KEY}` } });
    const response = await fetch(`${origin}/__mock/violations/report?format=json`);
    const body = (await response.json()) as { results: Array<{ id: string; operation: string }> };
    expect(admin('GET', '/__mock/violations/report', response.status, body)).toBeUndefined();
    expect(body.results.map((r) => [r.id, r.operation])).toEqual([['exchange-response-schema', 'listPets']]);
    const junit = await fetch(`${origin}/__mock/violations/report?format=junit`);
    expect(junit.headers.get('content-type')).toContain('application/xml');
    expect(await junit.text()).toContain('classname="animal-store.listPets" name="exchange-response-schema');
    const html = await fetch(`${origin}/__mock/violations/report?format=html`);
    expect(html.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await html.text()).toContain('exchange-response-schema');
    const wrong = await fetch(`${origin}/__mock/violations/report?format=pdf`);
    const refusal = (await wrong.json()) as Record<string, unknown>;
    expect(admin('GET', '/__mock/violations/report', wrong.status, refusal)).toBeUndefined();
    expect(refusal).toMatchObject({ code: 'invalid_parameter', status: 400 });
  });

  it('without --proxy, asking for the report is a 404 that says why', async () => {
    const mock = await startMock([]);
    const response = await fetch(`${new URL(mock.url).origin}/__mock/violations/report`);
    const body = (await response.json()) as Record<string, unknown>;
    expect(admin('GET', '/__mock/violations/report', response.status, body)).toBeUndefined();
    expect(body).toMatchObject({ code: 'route_not_found', status: 404 });
    expect(body.message).toContain('--proxy');
  });
});
