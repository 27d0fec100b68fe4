import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, it } from 'vitest';
import { CONTRACT_BIN, parsePretty, startApiServer, type ApiServerOptions, type TestServer } from '../../test/support/contract-cli.js';
import { byId, parseHtml, textOf } from '../../test/support/html-tree.js';
import { sendLargeBody, type LargeBody, type SentBody } from '../../test/faulty-servers/large-body.js';
import { childEnv, type Run } from '../../test/support/processes.js';
import { useContractRun } from '../../test/support/contract-run-fixture.js';
import type { SuiteReport } from '../verdict/report.js';

/**
 * What the built harness reads from a target that answers listPets with a
 * body too large or endless: the rule fails with one finding, shown by
 * every reporter, the other rules run, the run ends with exit code 1, and
 * the server sees the connection closed before its body was all sent. And
 * a page of exactly the cap is read and judged as any other.
 */
const KEY = 'cli-bounds-key';
const MiB = 1024 * 1024;
const TOO_LARGE = "the answer's body passed 1 MiB: not read further";
const { processes, servers, dir } = useContractRun('cli-bounds');

const isListPets = (request: IncomingMessage): boolean => request.method === 'GET' && /^\/v1\/pets(\?|$)/.test(request.url ?? '');

/** The mock, with `intercept` in front of it. */
async function mock(intercept: ApiServerOptions['intercept']): Promise<TestServer> {
  const server = await startApiServer({ apiKey: KEY, intercept });
  servers.push(server);
  return server;
}

/** The mock, but every listPets (the harness's first request included) answered with `body`; what each sending saw is kept. */
async function mockWithLargeLists(body: LargeBody): Promise<{ server: TestServer; sent: Array<Promise<SentBody>> }> {
  const sent: Array<Promise<SentBody>> = [];
  const server = await mock((request, response) => isListPets(request) && sent.push(sendLargeBody(response, body)) > 0);
  return { server, sent };
}

const contract = (url: string, args: string[]): Promise<Run> => processes.node([CONTRACT_BIN, '--base-url', url, '--api-key', KEY, ...args], { env: childEnv(), cwd: dir() });

describe.concurrent('the bound on what the harness reads (the built CLI)', { timeout: 60_000 }, () => {
  it('a 50 MiB listPets body: the rule fails with one finding in every reporter, the getPet rule still runs, exit 1, and the server saw the connection closed early', async ({ expect }) => {
    const { server, sent } = await mockWithLargeLists({ size: 50 * MiB });
    const [json, junit, html] = ['json', 'xml', 'html'].map((ext) => join(dir(), `large.${ext}`)) as [string, string, string];
    const run = await contract(server.url, ['--only', 'list-limit-100,get-unknown-id', '--reporter', 'json', '--output', json, '--reporter', 'junit', '--output', junit, '--reporter', 'html', '--output', html]);
    expect(run.code, run.stdout + run.stderr).toBe(1);

    // Pretty (printed since every reporter writes a file): the one finding, with the answer's status.
    const rules = parsePretty(run.stdout).rules;
    expect(rules.get('list-limit-100')?.status).toBe('failed');
    expect(rules.get('list-limit-100')?.text.match(/FAIL /g)).toEqual(['FAIL ']);
    expect(rules.get('list-limit-100')?.text).toContain(`FAIL ${TOO_LARGE} (at $.body)`);
    expect(rules.get('list-limit-100')?.text).toMatch(/response: 200\n/);
    expect(rules.get('get-unknown-id')?.status).toBe('passed');

    const report = JSON.parse(readFileSync(json, 'utf8')) as SuiteReport;
    const listed = report.results.find((r) => r.id === 'list-limit-100');
    expect(listed?.findings.map((f) => [f.level, f.message])).toEqual([['error', TOO_LARGE]]);
    expect(report.summary).toMatchObject({ failed: 1, contractFailed: 1 });

    const suites = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testsuite' || name === 'testcase' }).parse(readFileSync(junit, 'utf8')) as {
      testsuites: { testsuite: Array<{ testcase?: Array<{ name: string; failure?: { message: string } }> }> };
    };
    const failure = suites.testsuites.testsuite.flatMap((s) => s.testcase ?? []).find((c) => c.name.startsWith('list-limit-100:'))?.failure;
    // The finding, then its cause: the answer whose body was not read.
    expect(failure?.message.startsWith(`${TOO_LARGE} (cause-1: answered 200 with a body not read (${TOO_LARGE}), 1 rule affected)`), failure?.message).toBe(true);

    const page = parseHtml(readFileSync(html, 'utf8'));
    expect(textOf(byId(page, 'cause-1'))).toContain(TOO_LARGE);
    expect(textOf(byId(page, 'rule-list-limit-100'))).toContain('by cause-1');

    // The first request (limit=1) and the rule's: each cut, none sent whole, nothing retried.
    const bodies = await Promise.all(sent);
    expect(bodies.length).toBe(2);
    for (const body of bodies) {
      expect(body.whole).toBe(false);
      expect(body.sent).toBeLessThan(50 * MiB);
    }
  });

  it('an endless chunked listPets body: the same finding, and the run ends', async ({ expect }) => {
    const { server, sent } = await mockWithLargeLists({ size: 'endless' });
    const run = await contract(server.url, ['--only', 'list-limit-100,get-unknown-id']);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const rules = parsePretty(run.stdout).rules;
    expect(rules.get('list-limit-100')?.text).toContain(`FAIL ${TOO_LARGE}`);
    expect(rules.get('get-unknown-id')?.status).toBe('passed');
    expect((await Promise.all(sent)).map((body) => body.whole)).toEqual([false, false]);
  });

  describe('a page of exactly 1 MiB (100 animals with long names)', () => {
    // Every other request goes to the mock; limit=100 gets a valid page of 1,048,576 bytes.
    const page = (): string => {
      const pets = Array.from({ length: 100 }, (_, i) => ({ id: i + 1, name: '', categoryId: 1, status: 'available' }));
      const bare = Buffer.byteLength(JSON.stringify(pets));
      const each = Math.floor((MiB - bare) / 100);
      const named = pets.map((pet, i) => ({ ...pet, name: 'n'.repeat(each + (i < MiB - bare - each * 100 ? 1 : 0)) }));
      return JSON.stringify(named);
    };
    const body = page();
    const serveIt = () =>
      mock((request, response) => {
        if (request.url !== '/v1/pets?limit=100') return false;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(body);
        return true;
      });

    it('is read and judged: list-limit-100 passes, exit 0', async ({ expect }) => {
      expect(Buffer.byteLength(body)).toBe(MiB);
      const server = await serveIt();
      const run = await contract(server.url, ['--only', 'list-limit-100']);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(parsePretty(run.stdout).rules.get('list-limit-100')?.status).toBe('passed');
    });

    it('with --max-body-bytes one byte below it, the rule fails with the finding naming that cap', async ({ expect }) => {
      const server = await serveIt();
      const run = await contract(server.url, ['--only', 'list-limit-100', '--max-body-bytes', String(MiB - 1)]);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(parsePretty(run.stdout).rules.get('list-limit-100')?.text).toContain(`FAIL the answer's body passed ${MiB - 1} bytes: not read further (at $.body)`);
    });
  });

  it.for(['0', '1023', '67108865', '1MiB'])('--max-body-bytes %s is bad usage: exit 2, nothing sent', async (value, { expect }) => {
    const run = await contract('http://127.0.0.1:9/v1', ['--max-body-bytes', value]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`animal-store-contract: --max-body-bytes must be a whole number from 1024 to 67108864, got "${value}"`);
  });
});
