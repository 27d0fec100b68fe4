import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { CONTRACT_BIN, startApiServer, type ApiServerOptions, type TestServer } from '../../test/support/contract-cli.js';
import { childEnv, type Run } from '../../test/support/processes.js';
import { useContractRun } from '../../test/support/contract-run-fixture.js';
import type { SuiteReport } from '../verdict/report.js';

/**
 * Time within a run and deprecation signals, through the built harness: the
 * read-back after the pause (none against the mock unless asked, 3 s
 * against any other target), and a deprecation signal that contradicts the
 * interface failing the run where one it does not state only warns.
 */
const KEY = 'settle-test-key-0042';
const { processes, servers, dir } = useContractRun('settle');

async function server(options: Omit<ApiServerOptions, 'apiKey'> = {}): Promise<TestServer> {
  const started = await startApiServer({ apiKey: KEY, ...options });
  servers.push(started);
  return started;
}

/** The mock's API without its admin API: a target that is not this mock. */
const notTheMock: ApiServerOptions['intercept'] = (request, response) => {
  if (!request.url?.startsWith('/__mock')) return false;
  response.writeHead(404).end();
  return true;
};

const contract = (url: string, args: string[]): Promise<Run> => processes.node([CONTRACT_BIN, '--base-url', url, '--api-key', KEY, '--seed', '5', ...args], { env: childEnv(), cwd: dir() });
const readBack = (file: string) => {
  const report = JSON.parse(readFileSync(join(dir(), file), 'utf8')) as SuiteReport;
  return { report, rule: report.results.find((r) => r.id === 'read-back-after-settle') };
};

describe.concurrent('the read-back after a pause (the built CLI)', { timeout: 90_000 }, () => {
  it('against the mock: no pause unless asked, every animal read back; --settle 1 waits a second first', async ({ expect }) => {
    const mock = await server();
    const only = ['--only', 'create-returns-pet,create-listed-under-status,read-back-after-settle'];
    const [now, later] = await Promise.all([contract(mock.url, [...only, '--reporter', 'json', '--output', 'now.json']), contract(mock.url, [...only, '--settle', '1', '--reporter', 'json', '--output', 'later.json'])]);
    expect(now.code, now.stdout + now.stderr).toBe(0);
    expect(later.code, later.stdout + later.stderr).toBe(0);
    const [first, second] = [readBack('now.json'), readBack('later.json')];
    expect(first.report.readBack).toEqual({ settleSeconds: 0, animals: first.report.growth?.created });
    expect(second.report.readBack).toEqual({ settleSeconds: 1, animals: second.report.growth?.created });
    expect(first.rule?.status).toBe('passed');
    expect(first.rule?.cases).toBeGreaterThan(0);
    expect(second.rule?.ms).toBeGreaterThanOrEqual(1000);
    expect(now.stdout).toMatch(/Read back: the \d+ animals the run created, after a pause of 0 s \(--settle\)/);
  });

  it('against a target that is not the mock: a pause of 3 s by default', async ({ expect }) => {
    const target = await server({ intercept: notTheMock });
    const run = await contract(target.url, ['--only', 'create-returns-pet,read-back-after-settle', '--reporter', 'json', '--output', 'remote.json']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const { report, rule } = readBack('remote.json');
    expect(report.readBack?.settleSeconds).toBe(3);
    expect(rule?.ms).toBeGreaterThanOrEqual(3000);
  });

  it.for(['', '601', 'soon', '1.5'])('--settle "%s" is bad usage', async (value, { expect }) => {
    const run = await contract('http://127.0.0.1:9/v1', ['--settle', value]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--settle must be a whole number from 0 to 600, got "${value}"`);
  });
});

describe.concurrent('deprecation signals (the built CLI)', { timeout: 90_000 }, () => {
  /** The mock with `headers` added to every answer of `operation` (by its method and path). */
  const withHeaders = (matches: (request: Request) => boolean, headers: Record<string, string>): ApiServerOptions['wrap'] => (fetch) => async (request) => {
    const response = await fetch(request);
    if (!matches(request)) return response;
    const changed = new Headers(response.headers);
    for (const [name, value] of Object.entries(headers)) changed.set(name, value);
    return new Response(response.body, { status: response.status, headers: changed });
  };
  const isList = (request: Request) => request.method === 'GET' && new URL(request.url).pathname === '/v1/pets';
  const isGet = (request: Request) => request.method === 'GET' && /^\/v1\/pets\/[^/]+$/.test(new URL(request.url).pathname);

  it('a Sunset on listPets, which is not deprecated, fails the contract rules that got it', async ({ expect }) => {
    const target = await server({ wrap: withHeaders(isList, { sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }) });
    const run = await contract(target.url, ['--only', 'list-limit-1', '--read-only']);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain('FAIL listPets answered Sunset: Thu, 05 Dec 2030 00:00:00 GMT (at $.headers.sunset)');
  });

  it('a successor-version link from getPet to another path fails; one to GET /pets with a query passes', async ({ expect }) => {
    const [elsewhere, right] = await Promise.all([
      server({ wrap: withHeaders(isGet, { link: '</v2/animals/1>; rel="successor-version"' }) }),
      server({ wrap: withHeaders(isGet, { link: '</v1/pets?status=available>; rel="successor-version"' }) }),
    ]);
    const [failed, passed] = await Promise.all([contract(elsewhere.url, ['--only', 'get-known-id', '--read-only']), contract(right.url, ['--only', 'get-known-id', '--read-only'])]);
    expect(failed.code, failed.stdout).toBe(1);
    expect(failed.stdout).toContain('FAIL the successor-version link names /v2/animals/1 (at $.headers.link)');
    expect(passed.code, passed.stdout + passed.stderr).toBe(0);
  });

  it('no Sunset on getPet, a signal the interface does not say how to send: a warning of the advisory rule, as before', async ({ expect }) => {
    const target = await server({ wrap: (fetch) => async (request) => {
      const response = await fetch(request);
      if (!isGet(request)) return response;
      const changed = new Headers(response.headers);
      changed.delete('sunset');
      return new Response(response.body, { status: response.status, headers: changed });
    } });
    const run = await contract(target.url, ['--only', 'get-deprecation-headers,get-known-id', '--read-only']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/warn Sunset is undefined \(at \$\.headers\.sunset\)/);
  });
});
