import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../document/load-contract.js';
import { defaultDocumentPath } from '../../../shared/package-root.js';
import { parseYaml } from '../../../shared/parse-yaml.js';
import { DEFAULT_API_KEY } from '../../../shared/default-api-key.js';
import { rawRequest } from '../../../../test/support/raw-request.js';
import { expectRevalidation } from '../../../../test/support/revalidation.js';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';
import { tempFolder } from '../../../../test/support/temp-folder.js';

const originOf = (mock: { url: string }): string => new URL(mock.url).origin;

/** The served document, written to a file and loaded as the mock loads a contract: it must pass the same checks. */
async function servedContract(origin: string) {
  const res = await fetch(`${origin}/docs/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const document = (await res.json()) as any;
  const file = join(tempFolder('docs-'), 'served.json');
  writeFileSync(file, JSON.stringify(document));
  return { document, contract: loadContract(file) };
}

/** The shipped contract document as JSON, changed by `change`, in a file of its own for `--contract`. */
function changedContract(change: (document: any) => void): string {
  const document = parseYaml(readFileSync(defaultDocumentPath(), 'utf8')) as any;
  change(document);
  const file = join(tempFolder('docs-contract-'), 'contract.json');
  writeFileSync(file, JSON.stringify(document));
  return file;
}

/** The note's words that only a bearer scheme's Authorize field makes true. */
const ENTER_ALONE = 'without `Bearer`';

/** Every src and href of the page. */
const references = (html: string): string[] => [...html.matchAll(/\b(?:src|href)\s*=\s*"([^"]*)"/g)].map((m) => m[1] as string);

describe('GET /docs, the API reference', () => {
  const mock = useMock();

  it('serves the page without a key, loading only files of this mock, under a policy that lets it reach nothing else', async () => {
    const res = await fetch(`${originOf(mock)}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("script-src 'self'");
    const html = await res.text();
    // No CDN, no font host, no protocol-relative URL: nothing outside the package.
    expect(html).not.toMatch(/https?:|\/\//);
    const refs = references(html);
    expect(refs.length).toBeGreaterThanOrEqual(3);
    for (const ref of refs) expect(ref === 'data:,' || ref.startsWith('/docs/assets/'), ref).toBe(true);
  });

  it('gives the page and the document (both no-cache) a strong ETag, and answers a browser that holds it 304 without them', async () => {
    const origin = originOf(mock);
    const tags = [await expectRevalidation(`${origin}/docs`), await expectRevalidation(`${origin}/docs/openapi.json`)];
    expect(tags[0]).not.toBe(tags[1]);
  });

  it('serves each file the page loads with its content type, cached for good (the name changes with the content)', async () => {
    const origin = originOf(mock);
    const html = await (await fetch(`${origin}/docs`)).text();
    const assets = references(html).filter((ref) => ref.startsWith('/docs/assets/'));
    const types = [];
    for (const asset of assets) {
      const res = await fetch(origin + asset);
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
      types.push(`${asset.split('.').pop()} ${res.headers.get('content-type')}`);
    }
    expect(new Set(types)).toEqual(new Set(['css text/css; charset=utf-8', 'js text/javascript; charset=utf-8']));
    // The renderer's bundle is the one the build copies from swagger-ui-dist.
    const bundle = assets.find((a) => a.includes('swagger-ui-bundle')) as string;
    expect(await (await fetch(origin + bundle)).text()).toContain('SwaggerUIBundle');
    const head = await fetch(origin + bundle, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('serves the contract document with one relative server, the base path, whatever Host the request came with; it passes the contract checks', async () => {
    const origin = originOf(mock);
    const { document, contract } = await servedContract(origin);
    // Relative, so the browser resolves it against the page's own address: a container's published port, a proxy ending TLS.
    expect(document.servers).toEqual([{ url: '/v1', description: 'This mock' }]);
    expect(contract.basePath).toBe('/v1');
    expect([...contract.operations.keys()].sort()).toEqual(['createPet', 'getPet', 'listPets']);
    const getPet = contract.operations.get('getPet');
    expect(getPet?.deprecated).toBe(true);
    expect(getPet?.sunset?.toISOString()).toBe('2030-12-05T00:00:00.000Z');
    // Nothing of the Host is echoed, so the answer does not vary on it.
    const other = await rawRequest(origin, { host: 'evil.example:4731' }, 'GET', undefined, '/docs/openapi.json');
    expect(other.status).toBe(200);
    expect(other.json).toEqual(document);
    expect(JSON.stringify(other.json)).not.toContain('evil.example');
    expect(other.headers.vary).toBeUndefined();
  });

  it("explains the key field without showing the keys the mock was started with", async () => {
    const res = await fetch(`${originOf(mock)}/docs/openapi.json`);
    const text = await res.text();
    expect(text).not.toContain(TEST_KEY);
    const scheme = JSON.parse(text).components.securitySchemes.bearerAuth;
    expect(scheme.description).toContain('`--api-key` or `MOCK_API_KEYS`');
    expect(scheme.description).toContain(`\`${DEFAULT_API_KEY}\` is refused`);
    expect(scheme.description).toContain(ENTER_ALONE);
    // The bearer scheme says it all; the document's description is its own.
    expect(JSON.parse(text).info.description).not.toContain('MOCK_API_KEYS');
  });

  it('links to the console and says how to ask for an error, after the document\'s own description; the link reaches the console', async () => {
    const { document } = await servedContract(originOf(mock));
    const shipped = parseYaml(readFileSync(defaultDocumentPath(), 'utf8')) as any;
    const description = document.info.description as string;
    expect(description.startsWith(`${shipped.info.description.trimEnd()}\n\n`)).toBe(true);
    const link = /\[QA console\]\(([^)]+)\)/.exec(description)?.[1];
    expect(link).toBe('/__mock/');
    const page = await fetch(new URL(link as string, `${originOf(mock)}/docs/openapi.json`));
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(description).toContain('`Prefer: code=STATUS`');
    // What it promises holds: an outage status named there is answered so.
    const outage = await mock.authed('/pets/1', { headers: { prefer: 'code=503' } });
    expect([outage.status, outage.headers.get('retry-after'), outage.headers.get('preference-applied')]).toEqual([503, '1', 'code=503, outside-contract']);
    expect(description).toContain('`Preference-Applied: code=STATUS, outside-contract`');
  });

  it('fills in no optional parameter: its example moves to its description', async () => {
    const { document } = await servedContract(originOf(mock));
    const status = document.paths['/pets'].get.parameters.find((parameter: { name: string }) => parameter.name === 'status');
    expect(status.example).toBeUndefined();
    expect(status.schema.example).toBeUndefined();
    expect(status.description).toContain('For example `"available"`');
  });

  it('keeps the deprecated operation\'s text when it already gives the sunset date', async () => {
    const { document } = await servedContract(originOf(mock));
    const shipped = parseYaml(readFileSync(defaultDocumentPath(), 'utf8')) as any;
    expect(document.paths['/pets/{petId}'].get.description).toBe(shipped.paths['/pets/{petId}'].get.description);
    expect(document.paths['/pets/{petId}'].get.deprecated).toBe(true);
  });

  it("gives the deprecated operation's sunset date in its summary, the line shown while it is folded", async () => {
    const { document } = await servedContract(originOf(mock));
    const shipped = parseYaml(readFileSync(defaultDocumentPath(), 'utf8')) as any;
    const sunset = shipped.paths['/pets/{petId}'].get['x-sunset'] as string;
    expect(document.paths['/pets/{petId}'].get.summary).toBe(`${shipped.paths['/pets/{petId}'].get.summary} (sunset ${sunset})`);
    expect(document.paths['/pets'].get.summary).toBe(shipped.paths['/pets'].get.summary);
  });

  it('journals its requests as anonymous, as every path outside the API', async () => {
    await mock.admin('/journal/anonymous', { method: 'DELETE' });
    await fetch(`${originOf(mock)}/docs/openapi.json`, { headers: { authorization: `Bearer ${TEST_KEY}` } });
    const entries = (await mock.admin('/journal/anonymous')).json.entries as Array<{ path: string; status: number }>;
    expect(entries.map((e) => `${e.path} ${e.status}`)).toEqual(['/docs/openapi.json 200']);
  });

  it('sends /docs/ to /docs', async () => {
    const res = await fetch(`${originOf(mock)}/docs/`, { redirect: 'manual' });
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe('/docs');
  });

  it.each([
    '/docs/nope',
    '/docs/assets/',
    '/docs/assets/swagger-ui-bundle.js',
    '/docs/assets/swagger-ui.000000000000.css',
    '/docs/../package.json',
    '/docs/%2e%2e/package.json',
    '/docs/assets/..%2f..%2fpackage.json',
    '/docs/assets/%2e%2e%2f%2e%2e%2fpackage.json',
    '/docs/assets/%2e%2e/%2e%2e/%2e%2e/package.json',
    '/docs/assets/..%5c..%5cpackage.json',
  ])('refuses %s with the Error body 404, reading no file', async (target) => {
    const res = await rawRequest(originOf(mock), {}, 'GET', undefined, target);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ code: 'route_not_found', message: expect.any(String), status: 404 });
  });

  it('answers a write to its paths with the Error body 405 and Allow, and its preflight lists the same methods', async () => {
    for (const path of ['/docs', '/docs/openapi.json', '/docs/assets/nope.js']) {
      const res = await fetch(originOf(mock) + path, { method: 'POST', body: '{}' });
      expect(res.status).toBe(405);
      const allow = res.headers.get('allow') ?? '';
      expect(allow.split(', ')).toEqual(expect.arrayContaining(['GET', 'HEAD']));
      for (const write of ['POST', 'PUT', 'DELETE', 'PATCH']) expect(allow).not.toContain(write);
      expect(await res.json()).toEqual({ code: 'method_not_allowed', message: expect.any(String), status: 405 });
      // A browser asking before a cross-origin GET is told what the 405 tells anyone else.
      const preflight = await fetch(originOf(mock) + path, {
        method: 'OPTIONS',
        headers: { origin: 'http://app.example.test', 'access-control-request-method': 'GET' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-methods')).toBe(allow);
    }
  });
});

describe('GET /docs on a mock accepting the default key, with an admin key', () => {
  const ADMIN_KEY = 'admin-key-for-docs-test';
  const mock = useMock({ apiKeys: [DEFAULT_API_KEY], adminKey: ADMIN_KEY });

  it('says so in the key field, and shows nothing of the admin key', async () => {
    const { document } = await servedContract(originOf(mock));
    expect(document.components.securitySchemes.bearerAuth.description).toContain(`This one accepts \`${DEFAULT_API_KEY}\`.`);
    expect(JSON.stringify(document)).not.toContain(ADMIN_KEY);
    // The page is public even so: the admin key guards /__mock only.
    expect((await fetch(`${originOf(mock)}/docs`)).status).toBe(200);
  });
});

describe('GET /docs with a contract whose deprecated operation does not give its sunset date in words', () => {
  const mock = useMock({
    contractPath: changedContract((document) => {
      document.paths['/pets/{petId}'].get.description = 'Deprecated.';
    }),
  });

  it("adds the date from x-sunset to the operation's description", async () => {
    const { document } = await servedContract(originOf(mock));
    const description = document.paths['/pets/{petId}'].get.description as string;
    expect(description.startsWith('Deprecated.\n\n')).toBe(true);
    expect(description).toContain('2030-12-05');
    expect(description).toContain('Sunset: Thu, 05 Dec 2030 00:00:00 GMT');
  });
});

describe('GET /docs/openapi.json on a mock with --cors-origin', () => {
  const mock = useMock({ corsOrigins: ['http://app.example.test'] });

  it('varies on Origin (CORS) only: its servers do not depend on Host', async () => {
    const res = await fetch(`${originOf(mock)}/docs/openapi.json`, { headers: { origin: 'http://app.example.test' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://app.example.test');
    expect(res.headers.get('vary')).toBe('Origin');
  });
});

describe.each([
  ['without info.title', 'API', (document: any) => delete document.info.title],
  ['with a number as info.title', 'API', (document: any) => (document.info.title = 12345)],
  ['without info', 'API', (document: any) => delete document.info],
  ['with markup in info.title', '&lt;/title&gt;&lt;script&gt;', (document: any) => (document.info.title = '</title><script>')],
])('GET /docs with a contract %s', (_, shown, change) => {
  const mock = useMock({ contractPath: changedContract(change) });

  it(`serves the page, titled ${shown}`, async () => {
    const res = await fetch(`${originOf(mock)}/docs`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<title>${shown}: reference (mock)</title>`);
    expect(html).not.toContain('<script>');
    expect((await servedContract(originOf(mock))).document.servers).toEqual([{ url: '/v1', description: 'This mock' }]);
  });
});

describe('GET /docs with a contract setting servers on a path and on an operation', () => {
  const mock = useMock({
    contractPath: changedContract((document) => {
      document.paths['/pets'].servers = [{ url: 'https://elsewhere.example.test/v1' }];
      document.paths['/pets/{petId}'].get.servers = [{ url: 'https://elsewhere.example.test/v1' }];
    }),
  });

  it('serves them without either, so Try it calls this mock', async () => {
    const { document } = await servedContract(originOf(mock));
    expect(JSON.stringify(document)).not.toContain('elsewhere.example.test');
    expect(document.paths['/pets'].servers).toBeUndefined();
    expect(document.paths['/pets/{petId}'].get.servers).toBeUndefined();
    expect(document.servers).toEqual([{ url: '/v1', description: 'This mock' }]);
  });
});

describe('GET /docs with a contract whose only scheme is an API key in X-Key', () => {
  const mock = useMock({
    contractPath: changedContract((document) => {
      document.components.securitySchemes = { keyAuth: { type: 'apiKey', in: 'header', name: 'X-Key' } };
      for (const item of Object.values<any>(document.paths)) for (const operation of Object.values<any>(item)) operation.security = [{ keyAuth: [] }];
    }),
  });

  it('leaves that scheme alone and says at the top of the page that the mock wants Authorization: Bearer', async () => {
    const { document } = await servedContract(originOf(mock));
    expect(document.components.securitySchemes.keyAuth.description).toBeUndefined();
    expect(document.info.description).toContain('`Authorization: Bearer <key>`');
    expect(document.info.description).toContain('`--api-key` or `MOCK_API_KEYS`');
    expect(document.info.description).not.toContain(ENTER_ALONE);
    // What the note says: X-Key is not what the mock reads.
    const res = await fetch(`${mock.url}/pets`, { headers: { 'x-key': TEST_KEY } });
    expect(res.status).toBe(401);
  });
});

describe('GET /docs with a contract declaring no security scheme', () => {
  const mock = useMock({
    contractPath: changedContract((document) => {
      delete document.components.securitySchemes;
      for (const item of Object.values<any>(document.paths)) for (const operation of Object.values<any>(item)) delete operation.security;
    }),
  });

  it("explains the key in the document's description, keeping its own text first", async () => {
    const { document } = await servedContract(originOf(mock));
    const shipped = parseYaml(readFileSync(defaultDocumentPath(), 'utf8')) as any;
    expect(document.info.description.startsWith(`${shipped.info.description.trimEnd()}\n\n`)).toBe(true);
    expect(document.info.description).toContain('`Authorization: Bearer <key>`');
    expect(document.info.description).toContain(`\`${DEFAULT_API_KEY}\` is refused`);
  });
});
