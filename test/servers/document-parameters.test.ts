import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { parseYaml } from '../../src/shared/parse-yaml.js';
import { defaultDocumentPath } from '../../src/shared/package-root.js';
import type { OpenApiDocument, OpenApiParameter } from '../../src/document/openapi-types.js';
import { createResponseValidator } from '../../src/document/response-validator.js';
import { runSuite } from '../../src/contract-tests/run-suite.js';
import { type SuiteReport } from '../../src/verdict/report.js';
import { CONTRACT_BIN, startApiServer, type AppFetch } from '../support/contract-cli.js';
import { useContractRun } from '../support/contract-run-fixture.js';
import { childEnv } from '../support/processes.js';
import { startReferenceServer } from './reference-server.js';

/**
 * The harness judges listPets from the document's query parameters, not
 * from names it knows: a document with one more parameter, over real HTTP.
 * A parameter named after a Pet field (`categoryId`) is a filter: a server
 * that applies it passes, one that ignores it fails list-generated-pages.
 * One that is not a Pet field (`sort`) cannot be judged: the run says so
 * and still passes a correct server.
 */
const KEY = 'document-parameters-key';
const run = useContractRun('document-parameters');

/** The shipped document with one more listPets query parameter, written to the test's folder (as JSON, which YAML reads). */
function documentWith(parameter: OpenApiParameter): string {
  const document = parseYaml(readFileSync(defaultDocumentPath(), 'utf8')) as OpenApiDocument;
  const listPets = document.paths['/pets']?.get;
  if (!listPets?.parameters) throw new Error('the shipped document has no listPets parameters');
  listPets.parameters.push(parameter);
  const file = join(run.dir(), `with-${parameter.name}.json`);
  writeFileSync(file, JSON.stringify(document));
  return file;
}

const categoryId: OpenApiParameter = { name: 'categoryId', in: 'query', required: false, schema: { type: 'integer', format: 'int64' } };
const sort: OpenApiParameter = { name: 'sort', in: 'query', required: false, schema: { type: 'string', enum: ['newest', 'oldest'] } };

async function runOn(server: { url: string; close(): Promise<void> }, documentPath: string, seed: number): Promise<SuiteReport> {
  try {
    const suite = await runSuite({ baseUrl: server.url, apiKey: KEY, seed, documentPath, validator: await createResponseValidator(documentPath) });
    if (!suite.ok) throw new Error(suite.error.message);
    return suite.report;
  } finally {
    await server.close();
  }
}

const failed = (report: SuiteReport) => report.results.filter((r) => r.status === 'failed').map((r) => r.id);

describe('a documented filter the harness did not know by name (categoryId)', () => {
  it('passes a server that applies it, on several seeds, its pages checked item by item', { timeout: 120_000 }, async ({ expect }) => {
    const document = documentWith(categoryId);
    for (const seed of [11, 12, 13]) {
      const report = await runOn(await startReferenceServer({ apiKey: KEY, categoryFilter: true }), document, seed);
      const problems = report.results.filter((r) => r.status === 'failed').map((r) => `${r.id}: ${r.findings.find((f) => f.level === 'error')?.message}`);
      expect(problems, `seed ${seed}`).toEqual([]);
      expect(report.results.find((r) => r.id === 'list-generated-pages')?.cases).toBeGreaterThan(0);
      // Judged, so not reported as unchecked; its refused values have a point of their own.
      expect(report.silent.map((e) => e.point)).not.toContainEqual(expect.objectContaining({ name: 'categoryId', values: 'unjudged' }));
      expect(report.silent.map((e) => e.point)).toContainEqual({ kind: 'query-parameter', name: 'categoryId', values: 'refused' });
    }
  });

  it.for([
    ['the reference server without the filter', () => startReferenceServer({ apiKey: KEY })],
    ['the mock, which has no such filter', () => startApiServer({ apiKey: KEY })],
  ] as const)('fails list-generated-pages against %s, naming an item of another category', { timeout: 60_000 }, async ([, start], { expect }) => {
    const report = await runOn(await start(), documentWith(categoryId), 21);
    expect(failed(report)).toEqual(['list-generated-pages']);
    const finding = report.results.find((r) => r.id === 'list-generated-pages')?.findings.find((f) => f.level === 'error');
    expect(finding?.message).toMatch(/^\d+ of \d+ items have another categoryId than the -?\d+ asked \(item \d+: -?\d+\)$/);
    expect(finding?.path).toMatch(/^\$\.body\[\d+\]\.categoryId$/);
    expect(finding?.reproduce?.curl).toMatch(/\/v1\/pets\?(.*&)?categoryId=-?\d+/);
    expect(report.ok).toBe(false);
  });

  it('fails list-generated-pages against a server that applies it after cutting the page, on the count', { timeout: 60_000 }, async ({ expect }) => {
    const report = await runOn(await startApiServer({ apiKey: KEY, wrap: categoryAfterLimit }), documentWith(categoryId), 21);
    expect(failed(report)).toEqual(['list-generated-pages']);
    const finding = report.results.find((r) => r.id === 'list-generated-pages')?.findings.find((f) => f.level === 'error');
    expect(finding?.message).toMatch(/^\d+ animals, while at least \d+ exist with categoryId -?\d+$/);
    expect(finding?.path).toBe('$.body.length');
  });
});

/** The mock, with `categoryId` applied to the page it answers: every item matches, but the page holds fewer than it must. */
const categoryAfterLimit = (fetch: AppFetch): AppFetch => async (request) => {
  const url = new URL(request.url);
  const asked = url.searchParams.get('categoryId');
  if (request.method !== 'GET' || url.pathname !== '/v1/pets' || asked === null || !/^-?\d+$/.test(asked)) return fetch(request);
  url.searchParams.delete('categoryId');
  const response = await fetch(new Request(url, request));
  if (response.status !== 200) return response;
  const page = (await response.json()) as Array<{ categoryId: number }>;
  return Response.json(page.filter((pet) => pet.categoryId === Number(asked)));
};

describe('a documented parameter that is not a Pet field (sort)', () => {
  it('is reported as not judged through the CLI, and the run passes a correct server', { timeout: 120_000 }, async ({ expect }) => {
    const server = await startReferenceServer({ apiKey: KEY });
    const document = documentWith(sort);
    const json = join(run.dir(), 'sort-report.json');
    const cli = await run.processes
      .node([CONTRACT_BIN, '--base-url', server.url, '--api-key', KEY, '--document', document, '--seed', '5', '--reporter', 'pretty', '--reporter', 'json', '--output', json], { env: childEnv(), cwd: run.dir() })
      .finally(() => server.close());
    expect(cli.code, cli.stdout + cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/listPets: `sort`, not judged \(documented, but neither `limit` nor a Pet field/);
    const report = JSON.parse(readFileSync(json, 'utf8')) as SuiteReport;
    const unjudged = report.silent.find((e) => typeof e.point === 'object' && e.point.name === 'sort' && e.point.values === 'unjudged');
    expect(unjudged?.answers.map((a) => a.answer)).toEqual(['200']);
    expect(unjudged?.answers[0]?.example).toMatch(/\/v1\/pets\?(.*&)?sort=(newest|oldest)/);
    // Its refused values are swept too, under their own point.
    expect(report.silent.map((e) => e.point)).toContainEqual({ kind: 'query-parameter', name: 'sort', values: 'refused' });
  });

  it('a document that cannot be read is a usage error (exit 2), before any rule', { timeout: 30_000 }, async ({ expect }) => {
    const cli = await run.processes.node([CONTRACT_BIN, '--base-url', 'http://127.0.0.1:9/v1', '--api-key', KEY, '--document', 'no-such-document.yaml'], { env: childEnv(), cwd: run.dir() });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/cannot read the contract document .*no-such-document\.yaml/);
    expect(cli.stdout).toBe('');
  });

  it('with the shipped document, nothing is reported as not judged', { timeout: 60_000 }, async ({ expect }) => {
    const report = await runOn(await startReferenceServer({ apiKey: KEY }), defaultDocumentPath(), 5);
    expect(failed(report)).toEqual([]);
    expect(report.silent.filter((e) => typeof e.point === 'object' && e.point.values === 'unjudged')).toEqual([]);
  });
});
