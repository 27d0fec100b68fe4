import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileSource, compileTransactions } from './dredd.js';
import { defaultDocumentPath } from '../shared/package-root.js';
import { loadContract } from './load-contract.js';
import { loadDocument } from './load-document.js';
import { getHttpOperationsFromSpec } from './prism.js';
import { httpOperations } from './http-operations.js';
import { tempFolder } from '../../test/support/temp-folder.js';

describe('the contract document', () => {
  it('compiles with dredd-transactions into complete pairs for every operation and status, getPet included', async () => {
    const { transactions, annotations } = await compileSource(readFileSync(defaultDocumentPath(), 'utf8'), 'openapi/animal-store.yaml');
    expect(annotations.filter((a) => a.type === 'error')).toEqual([]);
    const pairs = transactions.map((t) => `${t.request.method} ${t.request.uri} -> ${t.response.status}`);
    expect(pairs).toEqual([
      'GET /pets?limit=20&status=available -> 200',
      'GET /pets?limit=20&status=available -> 401',
      'POST /pets -> 201',
      'POST /pets -> 400',
      'POST /pets -> 401',
      'GET /pets/1 -> 200',
      'GET /pets/1 -> 401',
      'GET /pets/1 -> 404',
    ]);
    for (const t of transactions) {
      // Complete: every parameter filled in from its example, a JSON example body for every response.
      expect(t.request.uri).not.toMatch(/[{}]/);
      expect(t.response.headers).toContainEqual({ name: 'Content-Type', value: 'application/json' });
      expect(() => JSON.parse(t.response.body ?? '')).not.toThrow();
      if (t.request.method === 'POST') expect(JSON.parse(t.request.body)).toMatchObject({ name: expect.any(String), categoryId: expect.any(Number) });
    }
  });

  it("the build's pairs are dredd-transactions' own, and an edited document is compiled again", async () => {
    const source = readFileSync(defaultDocumentPath(), 'utf8');
    expect(await compileTransactions()).toEqual(await compileSource(source, 'openapi/animal-store.yaml'));
    const edited = join(tempFolder('contract-document-'), 'edited.yaml');
    writeFileSync(edited, source.replace('/pets/{petId}:', '/animals/{petId}:').replaceAll("'/pets/{petId}'", "'/animals/{petId}'"));
    const pairs = (await compileTransactions(edited)).transactions.map((t) => `${t.request.method} ${t.request.uri}`);
    expect(pairs).toContain('GET /animals/1');
    expect(pairs).not.toContain('GET /pets/1');
  });

  it("the build's operations are prism's own, read back as prism's validators read them", async () => {
    const fresh = await getHttpOperationsFromSpec(loadDocument());
    // JSON leaves out the one undefined member prism writes (an unset bearerFormat); nothing else differs.
    expect(await httpOperations()).toEqual(JSON.parse(JSON.stringify(fresh)));
    const edited = join(tempFolder('contract-document-'), 'edited.yaml');
    writeFileSync(edited, readFileSync(defaultDocumentPath(), 'utf8').replace('/pets/{petId}:', '/animals/{petId}:'));
    expect((await httpOperations(edited)).map((o) => o.path)).toContain('/animals/{petId}');
  });

  it('loads into prism-http with the three operations, getPet deprecated', async () => {
    const operations = await getHttpOperationsFromSpec(loadDocument());
    expect(operations.map((o) => [o.iid, o.method, o.path, o.deprecated === true])).toEqual([
      ['listPets', 'get', '/pets', false],
      ['createPet', 'post', '/pets', false],
      ['getPet', 'get', '/pets/{petId}', true],
    ]);
  });

  it('declares version 1.0.0, the bearer scheme on every operation and both environments under /v1', () => {
    const contract = loadContract();
    const { document } = contract;
    expect(document.info.version).toBe('1.0.0');
    expect(contract.basePath).toBe('/v1');
    expect(document.servers?.map((s) => s.url)).toEqual(['{base_url}', '{staging_base_url}']);
    for (const item of Object.values(document.paths)) {
      for (const operation of Object.values(item)) expect(operation?.security).toEqual([{ bearerAuth: [] }]);
    }
    const getPet = contract.operations.get('getPet');
    expect(getPet?.sunset?.toISOString()).toBe('2030-12-05T00:00:00.000Z');
    expect(getPet?.replacement).toBe('listPets');
  });

  it('gives the limit its documented range and default to the compiled operation', () => {
    const limit = loadContract().operations.get('listPets')?.query.find((p) => p.name === 'limit');
    expect(limit?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(limit?.default).toBe(20);
  });

  it('refuses a file that is not an OpenAPI 3 document, naming it', () => {
    expect(() => loadDocument('package.json')).toThrow(/package\.json is not an OpenAPI 3 document/);
    expect(() => loadDocument('no/such/file.yaml')).toThrow(/cannot read the contract document no\/such\/file\.yaml/);
  });
});
