import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, test as base } from 'vitest';
import { packageRoot } from '../shared/package-root.js';
import {
  BROKEN_RULES,
  brokenStatements,
  CONTRACT_BIN,
  MOCK_BIN,
  parsePretty,
  prettySummary,
  startApiServer,
  startRawServer,
  type ApiServer,
  type ApiServerOptions,
  type TestServer,
} from '../../test/support/contract-cli.js';
import { childEnv, Processes, requireBuilt, type Run } from '../../test/support/processes.js';
import { REDACTED_KEY } from './http-client.js';
import { allRules } from './rules/index.js';
import type { SuiteReport } from '../verdict/report.js';

/**
 * The `animal-store-contract` command as users run it: the built bin in a
 * child process, against the mock and against faulty servers, over real
 * HTTP on ephemeral ports of 127.0.0.1.
 */
const KEY = 'contract-cli-key';
const ids = allRules.map((r) => r.id);
const writing = allRules.filter((r) => r.writes).map((r) => r.id);
const reading = allRules.filter((r) => !r.writes).map((r) => r.id);

let tmp: string;
/** Every test's processes, so that afterAll can stop whatever a test left behind. */
const everyProcesses = new Set<Processes>();

beforeAll(() => {
  requireBuilt(CONTRACT_BIN, MOCK_BIN);
  tmp = mkdtempSync(join(tmpdir(), 'animal-store-contract-cli-'));
});

afterAll(async () => {
  await Promise.all([...everyProcesses].map((processes) => processes.killAll()));
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** What a test starts; the fixture stops it all when the test ends, passed or not. */
interface Harness {
  /** Runs the harness to its end, in the temp folder, with only the variables given. */
  contract(args: string[], env?: Record<string, string>): Promise<Run>;
  /** The mock, in process (its store tells what was created). */
  mock(options?: Partial<ApiServerOptions>): Promise<ApiServer>;
  raw(handler: Parameters<typeof startRawServer>[0]): Promise<TestServer>;
  /** Starts a long-running node process and waits for `ready` on its stdout. */
  start(args: string[], ready: RegExp): Promise<RegExpExecArray>;
}

function harness(): Harness & { stop(): Promise<void> } {
  const processes = new Processes();
  everyProcesses.add(processes);
  const servers: TestServer[] = [];
  const track = <T extends TestServer>(server: T): T => {
    servers.push(server);
    return server;
  };
  return {
    contract: (args, env = {}) => processes.node([CONTRACT_BIN, ...args], { env: childEnv(env), cwd: tmp }),
    mock: async (options = {}) => track(await startApiServer({ apiKey: KEY, ...options })),
    raw: async (handler) => track(await startRawServer(handler)),
    start: (args, ready) => processes.start(args, ready),
    async stop() {
      await processes.killAll();
      everyProcesses.delete(processes);
      await Promise.all(servers.map((server) => server.close()));
    },
  };
}

// The tests run concurrently (each CLI run spends most of its time loading modules); each has its own processes and servers.
const it = base.extend<{ harness: Harness }>({
  // eslint-disable-next-line no-empty-pattern
  harness: async ({}, use) => {
    const own = harness();
    await use(own);
    await own.stop();
  },
});

/** A port nothing listens on: listen on 0, read the port, close. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const file = (name: string, text: string): string => {
  const path = join(tmp, name);
  writeFileSync(path, text);
  return path;
};

const readJson = (path: string): SuiteReport => JSON.parse(readFileSync(path, 'utf8')) as SuiteReport;
/** The ids of the pretty report with the given mark. */
const marked = (stdout: string, status: string): string[] => [...parsePretty(stdout).rules].filter(([, r]) => r.status === status).map(([id]) => id);
const sorted = (list: readonly string[]): string[] => [...list].sort();

describe.concurrent('animal-store-contract (the built CLI)', { timeout: 60_000 }, () => {
  describe('against the mock', () => {
    it('exits 0 with every rule passed, grouped by operation, and coverage 8/8 (the built mock bin)', async ({ expect, harness: { contract, start } }) => {
      const [, url] = (await start(
        [MOCK_BIN, '--port', '0', '--quiet', '--log-format', 'pretty', '--api-key', KEY],
        /Animal Store mock listening on (http:\/\/\S+\/v1)\n[^]*Try: .*\n/,
      )) as unknown as [string, string];
      const run = await contract(['--base-url', url, '--api-key', KEY]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Contract tests against ${url}\n`);
      expect(prettySummary(run.stdout)).toEqual({ passed: allRules.length, failed: 0, skipped: 0, covered: 8, total: 8 });
      expect(run.stdout).toContain('Coverage of the documented request/response pairs (dredd-transactions): 8/8');
      expect(run.stdout).not.toContain('NOT COVERED');

      const pretty = parsePretty(run.stdout);
      expect(pretty.headings).toEqual(['listPets', 'createPet', 'getPet']);
      expect(sorted([...pretty.rules.keys()])).toEqual(sorted(ids));
      for (const rule of allRules) {
        const shown = pretty.rules.get(rule.id);
        expect(shown?.status, rule.id).toBe('passed');
        expect(shown?.operation, rule.id).toBe(rule.operation);
        expect(shown?.text, rule.id).toContain(`${rule.id}: ${rule.title}`);
      }
    });

    it('takes the key from CONTRACT_API_KEY like --api-key, and --api-key wins over it', async ({ expect, harness: { contract, mock } }) => {
      const server = await mock();
      const [fromEnv, flagWins] = await Promise.all([
        contract(['--base-url', server.url], { CONTRACT_API_KEY: KEY }),
        contract(['--base-url', server.url, '--api-key', KEY], { CONTRACT_API_KEY: 'not-the-key' }),
      ]);
      for (const run of [fromEnv, flagWins]) {
        expect(run.code, run.stdout + run.stderr).toBe(0);
        expect(prettySummary(run.stdout)).toMatchObject({ passed: allRules.length, failed: 0, skipped: 0 });
        // Passes only when the key is taken: it is skipped when listPets refuses it.
        expect(parsePretty(run.stdout).rules.get('auth-scheme-case-insensitive')?.status).toBe('passed');
      }
    });

    it('--list prints every rule with its operation, severity and whether it reads or writes, and exits 0', async ({ expect, harness: { contract } }) => {
      const run = await contract(['--list']);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      const lines = run.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(allRules.length);
      for (const rule of allRules) {
        const line = lines.find((l) => l.startsWith(`${rule.id} `));
        expect(line, rule.id).toBeDefined();
        expect(line?.split(/\s+/).slice(0, 4), rule.id).toEqual([rule.id, rule.operation, rule.severity, rule.writes ? 'writes' : 'reads']);
        expect(line).toContain(rule.title);
      }
    });
  });

  describe('against a faulty server', () => {
    it('exits 1 and shows the failing rule, its request, the expected statement and the response', async ({ expect, harness: { contract, raw } }) => {
      // Any key, any request: 200 and the same JSON object.
      const server = await raw((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"hello":"any key will do"}');
      });
      const run = await contract(['--base-url', server.url, '--api-key', KEY]);
      expect(run.code, run.stderr).toBe(1);
      const summary = prettySummary(run.stdout);
      expect(summary.failed).toBeGreaterThan(0);

      const rules = parsePretty(run.stdout).rules;
      const missingKey = rules.get('auth-missing-key-list-pets');
      expect(missingKey?.status).toBe('failed');
      expect(missingKey?.text).toContain('✗ auth-missing-key-list-pets: listPets with no Authorization header gets 401');
      expect(missingKey?.text).toContain('FAIL answered 200 (at $.status)');
      expect(missingKey?.text).toContain('expected: 401 (Authentication: The requirement applies to every operation.');
      expect(missingKey?.text).toContain(`request:  GET ${server.url}/pets\n`);
      expect(missingKey?.text).toMatch(/response: 200\n/);
      expect(missingKey?.text).toContain('body: {"hello":"any key will do"}');

      // createPet answering 200 is one cause, whichever rule asked: the rule names it, and the cause shows one example in full.
      const create = rules.get('create-returns-pet');
      expect(create?.status).toBe('failed');
      expect(create?.text).toContain('FAIL answered 200 (at $.status) [cause-');
      expect(create?.text).toMatch(/ {2}cause-\d+: POST \/pets answered 200, where one of 201, 400, 401 \(the contract document\) was expected: \d+ rules affected/);
      expect(create?.text).toContain(`request:  POST ${server.url}/pets\n`);
      expect(create?.text).toMatch(/body: \{"name":/);
      expect(create?.text).toContain('response: 200');
      expect(run.stdout).toMatch(new RegExp(`^${summary.passed} passed, ${summary.failed} failed`, 'm'));
    });

    it('never prints the key: it shows <API key> in its place, on stdout and in the JSON and JUnit files', async ({ expect, harness: { contract, raw } }) => {
      const secret = 'sk-live-SECRET-123456';
      // Any key accepted, and echoed back in a header and the body: every rule that sends the key fails and prints it.
      const server = await raw((request, response) => {
        const authorization = request.headers.authorization ?? '';
        response.writeHead(200, { 'content-type': 'application/json', 'x-seen-authorization': authorization });
        response.end(JSON.stringify({ seen: authorization, url: request.url }));
      });
      const [json, xml] = [join(tmp, 'secret', 'r.json'), join(tmp, 'secret', 'r.xml')];
      const run = await contract(['--base-url', server.url, '--api-key', secret, '--reporter', 'pretty', '--reporter', 'json', '--output', json, '--reporter', 'junit', '--output', xml]);
      expect(run.code, run.stderr).toBe(1);
      const outputs = { stdout: run.stdout, stderr: run.stderr, 'r.json': readFileSync(json, 'utf8'), 'r.xml': readFileSync(xml, 'utf8') };
      for (const [where, text] of Object.entries(outputs)) expect(text.includes(secret), `the key in ${where}`).toBe(false);

      // It was sent, and the failures show where it went.
      const failure = parsePretty(run.stdout).rules.get('list-limit-1');
      expect(failure?.status).toBe('failed');
      expect(failure?.text).toContain(`authorization: Bearer ${REDACTED_KEY}`);
      expect(failure?.text).toContain(`x-seen-authorization: Bearer ${REDACTED_KEY}`);
      expect(failure?.text).toContain(`"seen":"Bearer ${REDACTED_KEY}"`);
      const report = readJson(json);
      const result = report.results.find((r) => r.id === 'list-limit-1');
      expect(result?.status).toBe('failed');
      expect(result?.exchanges[0]?.request.headers.authorization).toBe(`Bearer ${REDACTED_KEY}`);
      expect(outputs['r.xml']).toContain('authorization: Bearer &lt;API key&gt;');
    });

    it('hides a short key where it is sent, without garbling the rest of the report', async ({ expect, harness: { contract, raw } }) => {
      const server = await raw((_request, response) => {
        // 418 to everything: both rules fail and print their requests and answers.
        response.writeHead(418, { 'content-type': 'application/json', connection: 'keep-alive' });
        response.end('{"code":"teapot","message":"k","status":418}');
      });
      const run = await contract(['--base-url', server.url, '--api-key', 'k', '--only', 'list-limit-1,auth-wrong-key-list-pets']);
      const failure = parsePretty(run.stdout).rules.get('list-limit-1');
      expect(failure?.status).toBe('failed');
      expect(failure?.text).toContain(`authorization: Bearer ${REDACTED_KEY}`);
      expect(failure?.text).toContain('connection: keep-alive');
      expect(run.stdout).not.toContain('<API key>eep');
      expect(run.stdout).not.toMatch(/Bearer k\b/);
    });
  });

  describe('a target that cannot be reached', () => {
    it('exits 2 with "cannot reach" on stderr, and lists no failed rules', async ({ expect, harness: { contract } }) => {
      const url = `http://127.0.0.1:${await closedPort()}/v1`;
      const run = await contract(['--base-url', url, '--api-key', KEY]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`cannot reach ${url}: ECONNREFUSED`);
      expect(run.stderr).toContain('No rule was run.');
      expect(run.stdout).not.toMatch(/✗|failed/);
      for (const id of ids) expect(run.stdout).not.toContain(id);
    });

    it('says to try http:// when an https URL reaches a port that answers plain HTTP', async ({ expect, harness: { contract, raw } }) => {
      const server = await raw((_request, response) => response.writeHead(404).end());
      const url = server.url.replace(/^http:/, 'https:');
      const run = await contract(['--base-url', url, '--api-key', KEY]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`cannot reach ${url}: EPROTO`);
      expect(run.stderr).toContain('wrong version number');
      expect(run.stderr).toContain('(is the target plain HTTP? try http://)');
    });
  });

  describe('bad usage exits 2 with a message', () => {
    const SECRET = 'sk-usage-SECRET-99';
    const target = ['--base-url', 'http://127.0.0.1:9/v1', '--api-key', SECRET];
    const envConfig = join(packageRoot(), 'contract-tests.config.yaml');
    const cases: Array<{ name: string; args: () => string[]; env?: Record<string, string>; message: string | (() => string) }> = [
      { name: 'an unknown flag', args: () => [...target, '--bogus'], message: "Unknown option '--bogus'" },
      { name: 'a mistyped flag', args: () => [...target, '--reporterr', 'json'], message: "Unknown option '--reporterr': did you mean --reporter?" },
      { name: 'a mistyped key flag, its value not repeated', args: () => ['--base-url', 'http://127.0.0.1:9/v1', `--api-kye=${SECRET}`], message: "Unknown option '--api-kye': did you mean --api-key?" },
      { name: 'a key without its flag, not repeated', args: () => ['--base-url', 'http://127.0.0.1:9/v1', SECRET], message: 'An argument without a flag was given (not shown: it may be a key)' },
      { name: 'a flag without its value', args: () => [...target, '--reporter'], message: "Option '--reporter <value>' argument missing" },
      { name: 'no target', args: () => ['--api-key', SECRET], message: 'no target: pass --base-url URL (ending in /v1) or --env NAME' },
      { name: 'a base URL not ending in /v1', args: () => ['--base-url', 'http://127.0.0.1:9/v2', '--api-key', SECRET], message: 'the base URL must be http(s) and end in /v1, got "http://127.0.0.1:9/v2"' },
      { name: 'a base URL that is not http(s)', args: () => ['--base-url', 'ftp://127.0.0.1:9/v1', '--api-key', SECRET], message: 'the base URL must be http(s) and end in /v1, got "ftp://127.0.0.1:9/v1"' },
      { name: 'no key', args: () => ['--base-url', 'http://127.0.0.1:9/v1'], message: 'no API key: pass --api-key KEY or set CONTRACT_API_KEY' },
      { name: 'an empty CONTRACT_API_KEY', args: () => ['--base-url', 'http://127.0.0.1:9/v1'], env: { CONTRACT_API_KEY: '' }, message: 'no API key: pass --api-key KEY or set CONTRACT_API_KEY' },
      { name: '--reporter xml', args: () => [...target, '--reporter', 'xml'], message: '--reporter must be pretty, summary, json, junit, html, github or markdown, got "xml"' },
      { name: '--output without a reporter before it', args: () => [...target, '--output', 'r.json', '--reporter', 'json'], message: '--output must follow the --reporter it is for' },
      { name: 'two --output for one reporter', args: () => [...target, '--reporter', 'json', '--output', 'a.json', '--output', 'b.json'], message: '--output must follow the --reporter it is for' },
      { name: 'two reporters both on stdout', args: () => [...target, '--reporter', 'pretty', '--reporter', 'json'], message: 'only one reporter can write to stdout; give the others --output FILE' },
      { name: '--timeout abc', args: () => [...target, '--timeout', 'abc'], message: '--timeout must be a whole number from 1 to 600000, got "abc"' },
      { name: '--concurrency 0', args: () => [...target, '--concurrency', '0'], message: '--concurrency must be a whole number from 1 to 64, got "0"' },
      { name: '--retries 11', args: () => [...target, '--retries', '11'], message: '--retries must be a whole number from 0 to 10, got "11"' },
      // The port is closed: a check made after connecting would say "cannot reach" instead.
      { name: '--only with an unknown rule id', args: () => [...target, '--only', 'list-limit-1,no-such-rule'], message: 'unknown rule id: no-such-rule; --list prints every rule id' },
      { name: '--skip with an unknown rule id', args: () => [...target, '--skip', 'list-limit-1', '--skip', 'nor-this-one'], message: 'unknown rule id: nor-this-one; --list prints every rule id' },
      { name: '--only with a slip of a rule id', args: () => [...target, '--only', 'list-limt-1'], message: 'unknown rule id: list-limt-1 (did you mean list-limit-1?); --list prints every rule id' },
      { name: '--env with an unknown environment', args: () => ['--env', 'nowhere', '--api-key', SECRET], message: `no environment "nowhere" in ${envConfig} (there are: mock, staging, production)` },
      {
        name: '--env staging with ANIMAL_STORE_STAGING_BASE_URL unset',
        args: () => ['--env', 'staging'],
        env: { CONTRACT_API_KEY: SECRET },
        message: 'environment staging takes its base URL from ANIMAL_STORE_STAGING_BASE_URL, which is not set; set it or pass --base-url',
      },
      {
        name: 'a config that breaks its schema',
        args: () => ['--env', 'mock', '--config', join(tmp, 'broken.yaml')],
        message: () =>
          `invalid config ${join(tmp, 'broken.yaml')}: /environments/mock must NOT have additional properties; /environments/mock/baseUrl must match pattern "^https?://"; /environments/mock/readOnly must be boolean`,
      },
      { name: 'a config that is not there', args: () => ['--env', 'mock', '--config', join(tmp, 'missing.yaml')], message: () => `cannot read the config ${join(tmp, 'missing.yaml')}: ENOENT` },
      { name: '--config without --env', args: () => [...target, '--config', envConfig], message: '--config needs --env NAME to say which environment to use' },
    ];

    beforeAll(() => {
      file('broken.yaml', 'environments:\n  mock:\n    baseUrl: ftp://127.0.0.1:9/v1\n    apiKey: k\n    readOnly: "yes"\n    colour: blue\n');
    });

    it.for(cases)('$name', async ({ args, env, message }, { expect, harness: { contract } }) => {
      const run = await contract(args(), env);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`animal-store-contract: ${typeof message === 'string' ? message : message()}`);
      expect(run.stderr).toContain('Run animal-store-contract --help for the options.');
      expect(run.stdout).toBe('');
      expect(run.stderr).not.toContain(SECRET);
    });

    it('--help prints the usage and exits 0', async ({ expect, harness: { contract } }) => {
      const run = await contract(['--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Usage: animal-store-contract --base-url URL [options]');
      expect(run.stdout).toContain('Exit codes: 0 every contract rule passed; 1 a rule failed; 2 bad usage');
    });

    it.for([['--version'], ['-v']])('%s prints the package\'s version and exits 0, with no target needed', async (args, { expect, harness: { contract } }) => {
      const run = await contract(args);
      const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
      expect([run.code, run.stdout, run.stderr]).toEqual([0, `${manifest.version}\n`, '']);
    });
  });

  describe('read-only runs', () => {
    it('--read-only reports the writing rules skipped, and creates nothing', async ({ expect, harness: { contract, mock } }) => {
      const server = await mock();
      const size = await server.pets();
      const json = join(tmp, 'read-only.json');
      const run = await contract(['--base-url', server.url, '--api-key', KEY, '--read-only', '--reporter', 'json', '--output', json]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(await server.pets()).toBe(size);
      // Every reporter writes to a file: the pretty report goes to stdout too.
      expect(run.stdout).toContain(`Contract tests against ${server.url} (read-only)`);
      expect(sorted(marked(run.stdout, 'skipped'))).toEqual(sorted(writing));
      expect(sorted(marked(run.stdout, 'passed'))).toEqual(sorted(reading));
      for (const id of writing) expect(parsePretty(run.stdout).rules.get(id)?.text).toMatch(/\[(advisory, )?writes\] \(skipped: read-only run: this rule sends createPet requests/);
      const report = readJson(json);
      expect(report.target.readOnly).toBe(true);
      for (const result of report.results.filter((r) => r.writes)) {
        expect(result.status).toBe('skipped');
        expect(result.reason).toMatch(/read-only/);
        expect(result.exchanges).toEqual([]);
      }
    });

    it('--env production takes ANIMAL_STORE_BASE_URL and is read-only; --allow-writes lets the writing rules run', async ({ expect, harness: { contract, mock } }) => {
      const [readOnly, writable] = await Promise.all([mock(), mock()]);
      const [before, beforeWritable] = [await readOnly.pets(), await writable.pets()];
      const [skipping, writes] = await Promise.all([
        contract(['--env', 'production'], { ANIMAL_STORE_BASE_URL: readOnly.url, CONTRACT_API_KEY: KEY }),
        // In the shared session, where the catalogue counted below is: a run of its own would write into its own session.
        contract(['--env', 'production', '--allow-writes', '--shared-session'], { ANIMAL_STORE_BASE_URL: writable.url, CONTRACT_API_KEY: KEY }),
      ]);
      expect(skipping.code, skipping.stdout + skipping.stderr).toBe(0);
      expect(skipping.stdout).toContain(`Contract tests against ${readOnly.url} (read-only)`);
      expect(sorted(marked(skipping.stdout, 'skipped'))).toEqual(sorted(writing));
      expect(await readOnly.pets()).toBe(before);

      expect(writes.code, writes.stdout + writes.stderr).toBe(0);
      expect(writes.stdout).toContain(`Contract tests against ${writable.url}\n`);
      expect(prettySummary(writes.stdout)).toMatchObject({ passed: allRules.length, skipped: 0 });
      expect(await writable.pets()).toBeGreaterThan(beforeWritable);
    });

    it('--env mock --config FILE takes the base URL and key of the file (a path relative to the working folder)', async ({ expect, harness: { contract, mock } }) => {
      const server = await mock();
      file('environments.yaml', `environments:\n  mock:\n    baseUrl: ${server.url}\n    apiKey: ${KEY}\n`);
      const run = await contract(['--env', 'mock', '--config', 'environments.yaml']);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain(`Contract tests against ${server.url}\n`);
      expect(prettySummary(run.stdout)).toEqual({ passed: allRules.length, failed: 0, skipped: 0, covered: 8, total: 8 });
    });
    it("--env mock uses the file's key even when CONTRACT_API_KEY (meant for staging) is set; --api-key still wins", async ({ expect, harness: { contract, mock } }) => {
      const server = await mock();
      file('keyed.yaml', `environments:\n  mock:\n    baseUrl: ${server.url}\n    apiKey: ${KEY}\n`);
      const run = await contract(['--env', 'mock', '--config', 'keyed.yaml', '--only', 'list-limit-1'], { CONTRACT_API_KEY: 'a-staging-key' });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const flagged = await contract(['--env', 'mock', '--config', 'keyed.yaml', '--api-key', 'not-the-key', '--only', 'list-limit-1']);
      expect(flagged.code, flagged.stdout + flagged.stderr).toBe(1);
      expect(parsePretty(flagged.stdout).rules.get('list-limit-1')?.text).toContain('answered 401');
    });
    it("--api-key-from VAR: the key in that variable wins over the environment's own, as --api-key does; an empty one or both ways at once is bad usage, naming no key", async ({ expect, harness: { contract, mock } }) => {
      const server = await mock();
      file('stale.yaml', `environments:\n  staging:\n    baseUrl: ${server.url}\n    apiKeyFrom: STALE_STAGING_KEY\n`);
      const run = await contract(['--env', 'staging', '--config', 'stale.yaml', '--api-key-from', 'THE_RIGHT_KEY', '--only', 'list-limit-1'], { STALE_STAGING_KEY: 'a-stale-key', THE_RIGHT_KEY: KEY });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const stale = await contract(['--env', 'staging', '--config', 'stale.yaml', '--only', 'list-limit-1'], { STALE_STAGING_KEY: 'a-stale-key' });
      expect(stale.code).toBe(1);
      const empty = await contract(['--base-url', server.url, '--api-key-from', 'THE_RIGHT_KEY'], { THE_RIGHT_KEY: '' });
      expect(empty.code).toBe(2);
      expect(empty.stderr).toContain('the variable --api-key-from names is not set or is empty');
      const both = await contract(['--base-url', server.url, '--api-key', 'k-9f3e', '--api-key-from', 'THE_RIGHT_KEY']);
      expect(both.code).toBe(2);
      expect(both.stderr).toContain('--api-key and --api-key-from both give the key');
      const pasted = await contract(['--base-url', server.url, '--api-key-from', 'SK_LIVE_5F3A9']);
      expect(pasted.code).toBe(2);
      expect(pasted.stderr).not.toContain('SK_LIVE_5F3A9');
      expect(both.stderr).not.toContain('k-9f3e');
    });
  });

  describe('choosing rules', () => {
    it('--only (comma-separated and repeated) runs only those rules; --skip leaves its rules out; both show the others skipped', async ({ expect, harness: { contract, mock } }) => {
      const [onlyServer, skipServer] = await Promise.all([mock(), mock()]);
      const size = await onlyServer.pets();
      const chosen = ['list-limit-1', 'get-known-id', 'auth-wrong-key-list-pets'];
      const left = ['create-returns-pet', 'get-known-id', 'list-status-sold'];
      const [only, skip] = await Promise.all([
        contract(['--base-url', onlyServer.url, '--api-key', KEY, '--only', 'list-limit-1, get-known-id', '--only', 'auth-wrong-key-list-pets']),
        contract(['--base-url', skipServer.url, '--api-key', KEY, '--skip', 'create-returns-pet,get-known-id', '--skip', 'list-status-sold']),
      ]);

      expect(only.code, only.stdout + only.stderr).toBe(0);
      expect(sorted(marked(only.stdout, 'passed'))).toEqual(sorted(chosen));
      expect(sorted(marked(only.stdout, 'skipped'))).toEqual(sorted(ids.filter((id) => !chosen.includes(id))));
      for (const id of ids.filter((i) => !chosen.includes(i))) expect(parsePretty(only.stdout).rules.get(id)?.text).toContain('(skipped: not selected by --only)');
      expect(await onlyServer.pets()).toBe(size);

      expect(skip.code, skip.stdout + skip.stderr).toBe(0);
      expect(sorted(marked(skip.stdout, 'skipped'))).toEqual(sorted(left));
      expect(sorted(marked(skip.stdout, 'passed'))).toEqual(sorted(ids.filter((id) => !left.includes(id))));
      for (const id of left) expect(parsePretty(skip.stdout).rules.get(id)?.text).toContain('(skipped: left out by --skip)');
    });
  });

  describe('a report file that cannot be written', () => {
    it('exits 2 naming the file, with no stack trace, and still prints the pretty report', async ({ expect, harness: { contract, mock } }) => {
      const server = await mock();
      // The output names a folder.
      const run = await contract(['--base-url', server.url, '--api-key', KEY, '--only', 'list-limit-1', '--reporter', 'json', '--output', tmp]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`animal-store-contract: cannot write the json report to ${tmp}: EISDIR`);
      expect(run.stderr).not.toMatch(/^\s+at /m);
      expect(prettySummary(run.stdout)).toMatchObject({ passed: 1, failed: 0 });
    });
  });

  describe('reporters to files, against a server that breaks some statements', () => {
    let run: Run;
    let pretty: ReturnType<typeof prettySummary>;
    const json = () => join(tmp, 'reports', 'contract.json');
    const xml = () => join(tmp, 'reports', 'contract.xml');
    const shared = harness();

    beforeAll(async () => {
      const server = await shared.mock({ wrap: brokenStatements(KEY) });
      // Read-only, so the report has passed, failed and skipped rules.
      run = await shared.contract(['--base-url', server.url, '--api-key', KEY, '--read-only', '--reporter', 'json', '--output', json(), '--reporter', 'junit', '--output', xml()]);
      pretty = prettySummary(run.stdout);
    }, 60_000);

    afterAll(() => shared.stop());

    it('exits 1 and prints the pretty report as well', ({ expect }) => {
      expect(run.code, run.stderr).toBe(1);
      expect(pretty.passed).toBeGreaterThan(0);
      expect(pretty.failed).toBe(BROKEN_RULES.failed('read-only, 30 animals').length);
      expect(pretty.skipped).toBe(writing.length + BROKEN_RULES.skipped.length);
      expect(sorted(marked(run.stdout, 'failed'))).toEqual(sorted(BROKEN_RULES.failed('read-only, 30 animals')));
    });

    it('JSON: one result per rule with id, status, severity and statement, and the summary of the pretty report', ({ expect }) => {
      const report = readJson(json());
      expect(report.results.map((r) => r.id)).toEqual(ids);
      for (const result of report.results) {
        const rule = allRules.find((r) => r.id === result.id);
        expect(result.status, result.id).toBe(parsePretty(run.stdout).rules.get(result.id)?.status);
        expect(result.severity).toBe(rule?.severity);
        expect(result.statement).toEqual(rule?.statement);
        expect(result.statement.section.length).toBeGreaterThan(0);
        if (result.status === 'skipped') expect(result.reason, result.id).toEqual(expect.any(String));
        if (result.status === 'failed') expect(result.findings.some((f) => f.level === 'error'), result.id).toBe(true);
      }
      const count = (status: string) => report.results.filter((r) => r.status === status).length;
      expect(report.summary).toMatchObject({ passed: count('passed'), failed: count('failed'), skipped: count('skipped') });
      expect(report.summary).toMatchObject({ passed: pretty.passed, failed: pretty.failed, skipped: pretty.skipped });
      expect(report.summary.contractFailed).toBe(BROKEN_RULES.failed('read-only, 30 animals').length);
      expect(report.summary.warnings).toBeGreaterThanOrEqual(1);
      expect({ covered: report.coverage.covered, total: report.coverage.total }).toEqual({ covered: pretty.covered, total: pretty.total });
      expect(report.ok).toBe(false);
      expect(report.target).toEqual({ baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1$/), readOnly: true });
    });

    it('JUnit: valid XML, a <testsuite> per operation, a <testcase> per rule, <failure> and <skipped> where due, counts of the pretty report', ({ expect }) => {
      const text = readFileSync(xml(), 'utf8');
      expect(XMLValidator.validate(text)).toBe(true);
      const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testsuite' || name === 'testcase' }).parse(text) as {
        testsuites: Record<string, string> & {
          testsuite: Array<Record<string, string> & { testcase: Array<{ name: string; classname: string; failure?: unknown; skipped?: unknown }> }>;
        };
      };
      const root = parsed.testsuites;
      // One suite per operation, then the silent points (no test cases), with the seed as a property of each.
      expect(root.testsuite.map((s) => s.name)).toEqual(['listPets', 'createPet', 'getPet', 'where-the-interface-is-silent']);
      expect(text).toContain('<property name="seed" value="');
      expect(text).toMatch(/<system-out>Where the interface is silent, this target answered:/);
      expect({ tests: Number(root.tests), failures: Number(root.failures), skipped: Number(root.skipped) }).toEqual({
        tests: allRules.length,
        failures: pretty.failed,
        skipped: pretty.skipped,
      });
      const failed = new Set(marked(run.stdout, 'failed'));
      const skipped = new Set(marked(run.stdout, 'skipped'));
      let [tests, failures, skips] = [0, 0, 0];
      for (const suite of root.testsuite.filter((s) => s.testcase !== undefined)) {
        const rules = allRules.filter((r) => r.operation === suite.name);
        expect(suite.testcase.map((c) => c.name)).toEqual(rules.map((r) => `${r.id}: ${r.title}`));
        for (const testcase of suite.testcase) {
          const id = testcase.name.slice(0, testcase.name.indexOf(':'));
          expect(testcase.classname).toBe(`animal-store.${suite.name}`);
          expect(testcase.failure !== undefined, `<failure> in ${id}`).toBe(failed.has(id));
          expect(testcase.skipped !== undefined, `<skipped> in ${id}`).toBe(skipped.has(id));
        }
        expect(Number(suite.tests)).toBe(suite.testcase.length);
        expect(Number(suite.failures)).toBe(suite.testcase.filter((c) => c.failure !== undefined).length);
        expect(Number(suite.skipped)).toBe(suite.testcase.filter((c) => c.skipped !== undefined).length);
        tests += Number(suite.tests);
        failures += Number(suite.failures);
        skips += Number(suite.skipped);
      }
      expect({ tests, failures, skips }).toEqual({ tests: allRules.length, failures: pretty.failed, skips: pretty.skipped });
      // A failure says what was expected, from which statement, and what came back.
      expect(text).toMatch(/<failure message="\d+ of \d+ items in a page for status=\w+ have another status \(item \d+: &quot;\w+&quot;\) \(cause-\d+: [^"]+, \d+ rules? affected\)" type="contract">Endpoints &gt; List animals: /);
      expect(text).toContain('<skipped message="read-only run: this rule sends createPet requests');
    });
  });

  describe('requests', () => {
    /**
     * Lets the first request to the API (the harness's reachability probe) through, then applies `fault` to the next ones;
     * `sent()` counts the API's requests. The admin API's (whether the target is the mock, ending the run's session) pass by.
     */
    const afterProbe = (fault: ApiServerOptions['intercept']) => {
      let api = 0;
      const intercept: ApiServerOptions['intercept'] = (request, response) => !request.url?.startsWith('/__mock') && ++api > 1 && (fault?.(request, response, api) ?? false);
      return { intercept, sent: () => api };
    };

    it('--retries retries a dropped connection: a rule fails with --retries 0 and passes with --retries 2', async ({ expect, harness: { contract, mock } }) => {
      // The first request after the probe has its socket destroyed, unanswered.
      const dropSecond = () =>
        afterProbe((request, _response, count) => {
          if (count !== 2) return false;
          request.socket.destroy();
          return true;
        });
      const [dropOnce, dropTwice] = [dropSecond(), dropSecond()];
      const [once, twice] = await Promise.all([mock({ intercept: dropOnce.intercept }), mock({ intercept: dropTwice.intercept })]);
      const [noRetry, retried] = await Promise.all([
        contract(['--base-url', once.url, '--api-key', KEY, '--retries', '0', '--only', 'list-limit-1']),
        contract(['--base-url', twice.url, '--api-key', KEY, '--retries', '2', '--only', 'list-limit-1']),
      ]);
      expect(noRetry.code, noRetry.stdout + noRetry.stderr).toBe(1);
      const failure = parsePretty(noRetry.stdout).rules.get('list-limit-1');
      expect(failure?.status).toBe('failed');
      expect(failure?.text).toMatch(/FAIL the connection failed: (UND_ERR_SOCKET|ECONNRESET)/);
      expect(failure?.text).toMatch(/response: none \(/);
      expect(dropOnce.sent()).toBe(2);

      expect(retried.code, retried.stdout + retried.stderr).toBe(0);
      expect(parsePretty(retried.stdout).rules.get('list-limit-1')?.status).toBe('passed');
      expect(dropTwice.sent()).toBe(3);
    });

    it('--retries never retries an HTTP answer: a 503 fails the rule even with --retries 3', async ({ expect, harness: { contract, mock } }) => {
      const unavailable = afterProbe((_request, response, count) => {
        if (count !== 2) return false;
        response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
        response.end(JSON.stringify({ code: 'unavailable', message: 'try again later', status: 503 }));
        return true;
      });
      const server = await mock({ intercept: unavailable.intercept });
      const run = await contract(['--base-url', server.url, '--api-key', KEY, '--retries', '3', '--only', 'list-limit-1']);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      const failure = parsePretty(run.stdout).rules.get('list-limit-1');
      expect(failure?.status).toBe('failed');
      expect(failure?.text).toContain('FAIL the server answered 503');
      expect(failure?.text).toContain('response: 503');
      expect(failure?.text).toContain('body: {"code":"unavailable","message":"try again later","status":503}');
      // The probe and the one request of the rule: nothing was sent again.
      expect(unavailable.sent()).toBe(2);
    });

    it('--retries never resends a POST: a createPet cut in flight may have created its animal', async ({ expect, harness: { contract, mock } }) => {
      const drop = afterProbe((request, _response) => {
        if (request.method !== 'POST') return false;
        request.socket.destroy();
        return true;
      });
      const server = await mock({ intercept: drop.intercept });
      const run = await contract(['--base-url', server.url, '--api-key', KEY, '--retries', '3', '--only', 'create-returns-pet']);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(parsePretty(run.stdout).rules.get('create-returns-pet')?.text).toMatch(/FAIL the connection failed/);
      // The probe and one POST: the POST was not sent again.
      expect(drop.sent()).toBe(2);
    });

    it('--timeout: a request with no answer fails its rule with "no answer within"', async ({ expect, harness: { contract, mock } }) => {
      // Answers the probe (limit=1), never the rule's limit=100.
      const server = await mock({ intercept: (request) => request.url === '/v1/pets?limit=100' });
      // Two tries each: the probe still gets through on a busy machine; the rule's request waits twice.
      const run = await contract(['--base-url', server.url, '--api-key', KEY, '--timeout', '500', '--retries', '1', '--only', 'list-limit-100']);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      const failure = parsePretty(run.stdout).rules.get('list-limit-100');
      expect(failure?.status).toBe('failed');
      expect(failure?.text).toContain('FAIL the connection failed: no answer within 500 ms');
      expect(failure?.text).toContain(`request:  GET ${server.url}/pets?limit=100`);
    });
  });
});
