import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dump as stringify, load as parse } from 'js-yaml';
import { loadContract } from '../../../document/load-contract.js';
import { defaultDocumentPath } from '../../../shared/package-root.js';
import { createMockApp } from '../../http/app.js';
import { createLogger } from '../../logger.js';
import { openMemoryStore } from '../../../../test/support/memory-store.js';
import { generateCatalogue } from '../fixtures/generate-catalogue.js';
import { useMock } from '../../../../test/support/use-mock.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A copy of the contract document, changed by `edit`, in a temporary folder removed after the file's tests. */
function editedDocument(edit: (document: any) => void): string {
  const document = parse(readFileSync(defaultDocumentPath(), 'utf8'));
  edit(document);
  const folder = mkdtempSync(join(tmpdir(), 'contract-'));
  folders.push(folder);
  const file = join(folder, 'animal-store.yaml');
  writeFileSync(file, stringify(document));
  return file;
}

describe('request validation comes from the document, not a copy of its rules', () => {
  const narrowed = editedDocument((document) => {
    const limit = document.paths['/pets'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    limit.schema.maximum = 50;
    limit.schema.default = 7;
  });
  const mock = useMock({ contractPath: narrowed, pets: generateCatalogue({ seed: 3, count: 80 }) });

  it('takes the default limit from the document', async () => {
    const res = await mock.authed('/pets');
    expect(res.json).toHaveLength(7);
  });

  it('takes the maximum limit from the document', async () => {
    expect((await mock.authed('/pets?limit=50')).json).toHaveLength(50);
    const res = await mock.authed('/pets?limit=51');
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('query parameter limit must be an integer from 1 to 50 (got "51")');
  });
});

describe('createPet\'s Location comes from the document\'s base path', () => {
  const moved = editedDocument((document) => {
    for (const server of document.servers) for (const variable of Object.values<{ default: string }>(server.variables)) variable.default = variable.default.replace(/\/v1$/, '/v2');
  });
  const mock = useMock({ contractPath: moved, pets: generateCatalogue({ seed: 3, count: 2 }) });

  it('names the new animal below /v2 when the servers end with /v2', async () => {
    const res = await mock.authed('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Moved', categoryId: 1 }) });
    expect(mock.url).toMatch(/\/v2$/);
    expect(res.headers.get('location')).toBe(`/v2/pets/${res.json.id}`);
  });
});

describe('the routes come from the document', () => {
  it('refuses a path whose template and path parameters differ', () => {
    const renamed = editedDocument((document) => {
      document.paths['/pets/{id}'] = document.paths['/pets/{petId}'];
      delete document.paths['/pets/{petId}'];
    });
    expect(() => loadContract(renamed)).toThrow('getPet: the path /pets/{id} names {id} but the operation declares path parameters petId');
  });

  it('refuses to start with an operation it has no handler for', async () => {
    const extended = editedDocument((document) => {
      document.paths['/pets/{petId}'].delete = {
        operationId: 'deletePet',
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' }, example: 1 }],
        responses: { '204': { description: 'Deleted.' } },
      };
    });
    const contract = loadContract(extended);
    const { store } = await openMemoryStore(contract, { pets: [] });
    expect(() =>
      createMockApp({
        contract,
        store,
        apiKeys: ['k'],
        logger: createLogger({ format: 'json', level: 'warn' }),
      }),
    ).toThrow('the mock has no handler for operation deletePet');
  });
});
