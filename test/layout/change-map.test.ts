import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSuite } from '../../src/contract-tests/run-suite.js';
import { type SuiteReport } from '../../src/verdict/report.js';
import { allRules } from '../../src/contract-tests/rules/index.js';
import type { OpenApiDocument } from '../../src/document/openapi-types.js';
import { createResponseValidator } from '../../src/document/response-validator.js';
import { defaultDocumentPath, packageRoot } from '../../src/shared/package-root.js';
import { parseYaml } from '../../src/shared/parse-yaml.js';
import { getJson, startMock, stop, tmpDir, useBuiltCli } from '../support/built-cli.js';
import { startReferenceServer } from '../servers/reference-server.js';

/**
 * "Where a change goes" (docs/contributing.md) is true: a listPets filter on a Pet
 * field, made in a copy of the document, is served by the real mock (the
 * built command, given that document), judged by the harness, and passed by
 * the reference server with its own filter, and the guide names exactly
 * the files that took; every rule of the harness is named in docs/harness-rules.md.
 */
useBuiltCli();
const KEY = 'change-map-key';
const CONTRIBUTING = readFileSync(join(packageRoot(), 'docs', 'contributing.md'), 'utf8');
const HARNESS = readFileSync(join(packageRoot(), 'docs', 'harness-rules.md'), 'utf8');

/** The files the numbered list under `heading` in docs/contributing.md names first on each item. */
function filesUnder(heading: string): string[] {
  const start = CONTRIBUTING.indexOf(heading);
  if (start < 0) throw new Error(`docs/contributing.md has no "${heading}"`);
  const list = CONTRIBUTING.slice(start).split(/\n\n(?!\d+\.|\s)/)[0] ?? '';
  return [...list.matchAll(/^\d+\. `([^`]+)`/gm)].map((match) => match[1] as string);
}

/** The shipped document with listPets filtering on categoryId and on name, as a file of the test's own. */
function documentWithCategoryFilter(): string {
  const document = parseYaml(readFileSync(defaultDocumentPath(), 'utf8')) as OpenApiDocument;
  document.paths['/pets']?.get?.parameters?.push(
    { name: 'categoryId', in: 'query', required: false, schema: { type: 'integer', format: 'int64' } },
    { name: 'name', in: 'query', required: false, schema: { type: 'string' } },
  );
  const file = join(tmpDir(), 'with-category-filter.json');
  writeFileSync(file, JSON.stringify(document));
  return file;
}

async function judged(baseUrl: string, documentPath: string, seed: number): Promise<SuiteReport> {
  const run = await runSuite({ baseUrl, apiKey: KEY, seed, documentPath, validator: await createResponseValidator(documentPath) });
  if (!run.ok) throw new Error(run.error.message);
  return run.report;
}

const failures = (report: SuiteReport): string[] => report.results.filter((r) => r.status === 'failed').map((r) => `${r.id}: ${r.findings.find((f) => f.level === 'error')?.message}`);

describe('a listPets filter on a Pet field, made as docs/contributing.md says', () => {
  it('names the document and the reference server, and no other file', () => {
    expect(filesUnder('**A listPets filter on a Pet field**')).toEqual(['openapi/animal-store.yaml', 'test/servers/reference-server.ts']);
  });

  it('is served by the real mock with the document alone: only that category, and the harness passes it', { timeout: 120_000 }, async () => {
    const document = documentWithCategoryFilter();
    const mock = await startMock(['--contract', document, '--api-key', KEY]);
    try {
      const all = await getJson(`${mock.url}/pets?limit=100`, KEY);
      const category = (all.body as Array<{ categoryId: number }>)[0]?.categoryId as number;
      const page = await getJson(`${mock.url}/pets?limit=100&categoryId=${category}`, KEY);
      expect(page.status).toBe(200);
      expect((page.body as unknown[]).length).toBe((all.body as Array<{ categoryId: number }>).filter((pet) => pet.categoryId === category).length);
      expect((page.body as Array<{ categoryId: number }>).every((pet) => pet.categoryId === category)).toBe(true);
      const name = (all.body as Array<{ name: string }>)[1]?.name as string;
      const named = await getJson(`${mock.url}/pets?limit=100&name=${encodeURIComponent(name)}`, KEY);
      expect((named.body as Array<{ name: string }>).map((pet) => pet.name)).toEqual((all.body as Array<{ name: string }>).filter((pet) => pet.name === name).map((pet) => pet.name));
      for (const seed of [1, 2]) {
        const report = await judged(mock.url, document, seed);
        expect(failures(report), `seed ${seed}`).toEqual([]);
        expect(report.silent.map((entry) => entry.point)).not.toContainEqual(expect.objectContaining({ values: 'unjudged' }));
      }
    } finally {
      await stop(mock);
    }
  });

  it('is passed by the reference server with its own filter', { timeout: 60_000 }, async () => {
    const server = await startReferenceServer({ apiKey: KEY, categoryFilter: true, nameFilter: true });
    try {
      expect(failures(await judged(server.url, documentWithCategoryFilter(), 3))).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('a harness rule', () => {
  it('is named under Rules in docs/harness-rules.md, each of them', () => {
    const start = HARNESS.indexOf('\n## Rules\n');
    expect(start).toBeGreaterThan(0);
    const rules = HARNESS.slice(start, HARNESS.indexOf('\n## ', start + 1));
    expect(allRules.map((rule) => rule.id).filter((id) => !rules.includes(`\`${id}\``))).toEqual([]);
  });
});
