import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, it } from 'vitest';
import { CONTRACT_BIN, parsePretty, startApiServer, startRawServer, type AppFetch, type TestServer } from '../../test/support/contract-cli.js';
import { byId, findAll, parseHtml, select, textOf, type HtmlElement } from '../../test/support/html-tree.js';
import { childEnv } from '../../test/support/processes.js';
import type { SuiteReport } from '../verdict/report.js';
import { useContractRun } from '../../test/support/contract-run-fixture.js';
import { PRISM_START_MS, startPrismMock } from '../../test/support/prism-mock.js';
import { WRONG_TARGET_MIN_REQUESTS } from './wrong-target.js';

/**
 * The harness pointed at the wrong place, through the built CLI: when every
 * request answers the same status that no rule can make sense of, one line
 * on stderr and exit 2, not a wall of failed rules (wrong-target.ts).
 */
const KEY = 'contract-wrong-target-key';
const { processes, servers, dir } = useContractRun('contract-wrong-target');

const contract = (args: string[]) => processes.node([CONTRACT_BIN, ...args], { env: childEnv(), cwd: dir() });
const kept = <T extends TestServer>(server: T): T => (servers.push(server), server);
/** A server that answers every request alike. */
const answering = async (status: number, type: string, body: string) =>
  kept(
    await startRawServer((_request, response) => {
      response.writeHead(status, { 'content-type': type });
      response.end(body);
    }),
  );
const LINE = /^animal-store-contract: every request answered (\d{3}): is the (base URL|key) right\? \((\S+), (\d+) requests\)\n$/;

describe('every request answered the same status the contract does not document', () => {
  it('a server answering 404 to everything: one line on stderr, exit 2, and the reports say so', async ({ expect }) => {
    const server = await answering(404, 'text/html', '<html><body>Not Found</body></html>');
    const [json, xml, html] = [join(dir(), '404', 'r.json'), join(dir(), '404', 'r.xml'), join(dir(), '404', 'r.html')];
    const run = await contract(['--base-url', server.url, '--api-key', KEY, '--reporter', 'json', '--output', json, '--reporter', 'junit', '--output', xml, '--reporter', 'html', '--output', html]);
    expect(run.code, run.stderr).toBe(2);
    const [, status, what, url, requests] = LINE.exec(run.stderr) ?? [];
    expect({ status, what, url }).toEqual({ status: '404', what: 'base URL', url: server.url });
    expect(Number(requests)).toBeGreaterThanOrEqual(WRONG_TARGET_MIN_REQUESTS);
    // Every request of the API's reached it: the one before them asked whether the target is the mock (GET /__mock/health), which it is not.
    const report = JSON.parse(readFileSync(json, 'utf8')) as SuiteReport;
    expect(report.growth?.requests).toBe(server.requests - 1);
    // The verdict counts those to a path of the interface (not a form it is silent on, such as //v1/pets, nor an OPTIONS).
    expect(Number(requests)).toBeLessThanOrEqual(server.requests - 1);
    // No rule, no coverage claim on the terminal.
    expect(run.stdout).toBe('');

    expect(report.wrongTarget).toEqual({ status: 404, requests: Number(requests), matching: Number(requests), message: run.stderr.replace(/^animal-store-contract: /, '').trim() });
    expect(report.ok).toBe(false);
    const junit = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(xml, 'utf8'));
    expect(junit.testsuites).toMatchObject({ '@_tests': '1', '@_failures': '1' });
    expect(junit.testsuites.testsuite.testcase.failure['@_message']).toBe(report.wrongTarget?.message);
    expect(junit.testsuites.testsuite.properties.property).toContainEqual({ '@_name': 'seed', '@_value': String(report.seed) });
    const page = parseHtml(readFileSync(html, 'utf8'));
    expect(textOf(byId(page, 'wrong-target'))).toBe(report.wrongTarget?.message);
    expect(textOf(byId(page, 'verdict'))).toMatch(/^not judged: exit code 2 /);
    expect(textOf(byId(page, 'seed'))).toContain(String(report.seed));
    expect(textOf(select(page, 'title')[0] as HtmlElement)).toBe(`Contract tests not judged: ${server.url}`);
    // No count or coverage that would read as a judgement of the API.
    expect(findAll(page, (element) => element.attributes.id === 'counts' || element.attributes.id === 'coverage')).toEqual([]);
  });

  it('a proxy answering 502 with an HTML page: the same, with 502, and the pretty report to stdout stays empty', async ({ expect }) => {
    const server = await answering(502, 'text/html', '<html><body>Bad Gateway</body></html>');
    const run = await contract(['--base-url', server.url, '--api-key', KEY]);
    expect(run.code, run.stderr).toBe(2);
    expect(LINE.exec(run.stderr)?.slice(1, 4)).toEqual(['502', 'base URL', server.url]);
    expect(run.stdout).toBe('');
  });

  it('the real mock under a wrong base path (/api/v1): every request 404', async ({ expect }) => {
    const mock = kept(await startApiServer({ apiKey: KEY }));
    const wrong = mock.url.replace(/\/v1$/, '/api/v1');
    const run = await contract(['--base-url', wrong, '--api-key', KEY]);
    expect(run.code, run.stderr).toBe(2);
    expect(LINE.exec(run.stderr)?.slice(1, 4)).toEqual(['404', 'base URL', wrong]);
    expect(await mock.pets()).toBe(30);
  });

  it('the real mock with a wrong key: every request 401, "is the key right?"', async ({ expect }) => {
    const mock = kept(await startApiServer({ apiKey: KEY }));
    const run = await contract(['--base-url', mock.url, '--api-key', 'not-the-key']);
    expect(run.code, run.stderr).toBe(2);
    expect(LINE.exec(run.stderr)?.slice(1, 4)).toEqual(['401', 'key', mock.url]);
  });
});

describe('nearly every request answered the same status', () => {
  const NEARLY = /^animal-store-contract: nearly every request answered 404 \((\d+) of (\d+); ((?:\d+ answered \d{3}(?:, )?)+)\): is the base URL right\? \((\S+), (\d+) requests\)\n$/;
  /** "4 answered 400, 1 answered 500" as its statuses and counts. */
  const others = (text: string): Map<number, number> => new Map([...text.matchAll(/(\d+) answered (\d{3})/g)].map((m) => [Number(m[2]), Number(m[1])]));

  it("prism's mock asked below /v1, which it does not serve: 404 to every route, 400 to the body it cannot parse, and still one line, exit 2", { timeout: PRISM_START_MS + 30_000 }, async ({ expect }) => {
    const prism = kept(await startPrismMock());
    // It is a mock of the API, at its root: the harness was given the wrong base.
    const root = await fetch(prism.url.replace(/\/v1$/, '/pets?limit=1'), { headers: { authorization: `Bearer ${KEY}` } });
    expect(root.status).toBe(200);
    const json = join(dir(), 'prism', 'r.json');
    const run = await contract(['--base-url', prism.url, '--api-key', KEY, '--reporter', 'json', '--output', json]);
    expect(run.code, run.stderr).toBe(2);
    const [, matching, total, rest, url, requests] = NEARLY.exec(run.stderr) ?? [];
    expect(url, run.stderr).toBe(prism.url);
    expect(Number(total)).toBe(Number(requests));
    // The malformed-JSON bodies the harness sends are refused before routing (400); prism fails on a few odd requests (500); everything else is 404.
    const other = others(rest ?? '');
    expect(other.get(400) ?? 0, run.stderr).toBeGreaterThan(0);
    expect(Number(matching) + [...other.values()].reduce((a, b) => a + b, 0)).toBe(Number(requests));
    // The run reached prism itself (its log names each request it read; not every one, so no exact count).
    expect(prism.requests).toBeGreaterThanOrEqual(WRONG_TARGET_MIN_REQUESTS);
    const report = JSON.parse(readFileSync(json, 'utf8')) as SuiteReport;
    expect(report.wrongTarget).toMatchObject({ status: 404, requests: Number(requests), matching: Number(matching) });
    expect(run.stdout).toBe('');
  });

  it('the real mock, asked only the near-misses of the key: 401 to all but the first request, which got 200, so the key is right', async ({ expect }) => {
    const mock = kept(await startApiServer({ apiKey: KEY }));
    const run = await contract(['--base-url', mock.url, '--api-key', KEY, '--only', 'auth-near-misses-list-pets,auth-near-misses-get-pet']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('every request answered');
    expect(mock.requests).toBeGreaterThanOrEqual(WRONG_TARGET_MIN_REQUESTS * 2);
  });

  it('a server answering 404 to all but one request in ten: judged rule by rule', async ({ expect }) => {
    const server = kept(
      await startRawServer((_request, response, count) => {
        response.writeHead(count % 10 === 0 ? 400 : 404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ code: 'nope', message: 'no', status: count % 10 === 0 ? 400 : 404 }));
      }),
    );
    const run = await contract(['--base-url', server.url, '--api-key', KEY]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).not.toContain('every request answered');
  });
});

describe('answers that are judged rule by rule, as before', () => {
  // getPet gives 404 for every id, listPets and createPet answer as they should: a faulty API, not a wrong address.
  const getPetAlways404 = (fetch: AppFetch): AppFetch => async (request) =>
    request.method === 'GET' && /\/v1\/pets\/[^/]+$/.test(new URL(request.url).pathname)
      ? Response.json({ code: 'pet_not_found', message: 'No animal has the id requested.', status: 404 }, { status: 404 })
      : fetch(request);

  it('a server answering 404 for one operation only: exit 1 with its failed rules', async ({ expect }) => {
    const server = kept(await startApiServer({ apiKey: KEY, wrap: getPetAlways404 }));
    const run = await contract(['--base-url', server.url, '--api-key', KEY]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).not.toContain('every request answered');
    expect(parsePretty(run.stdout).rules.get('get-known-id')?.status).toBe('failed');
  });

  it(`a run of fewer than ${WRONG_TARGET_MIN_REQUESTS} requests, every one 404: too few to blame the address`, async ({ expect }) => {
    const server = await answering(404, 'application/json', '{"code":"nope","message":"no","status":404}');
    const run = await contract(['--base-url', server.url, '--api-key', KEY, '--only', 'list-limit-1']);
    expect(server.requests).toBeLessThan(WRONG_TARGET_MIN_REQUESTS);
    expect(run.code, run.stderr).toBe(1);
    expect(parsePretty(run.stdout).rules.get('list-limit-1')?.status).toBe('failed');
  });
});
