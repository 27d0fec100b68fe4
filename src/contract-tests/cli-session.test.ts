import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { CONTRACT_BIN, MOCK_BIN, startApiServer } from '../../test/support/contract-cli.js';
import { childEnv, type Run } from '../../test/support/processes.js';
import { useContractRun } from '../../test/support/contract-run-fixture.js';
import type { SuiteReport } from '../verdict/report.js';

/**
 * The run in a session of its own: the built harness against the built
 * mock, each a real process over real HTTP. What the mock shares (its
 * catalogue, read through every page the interface offers; its scenario
 * state and call counts; its journal; its list of sessions) reads the same
 * before and after a default run, and differs after a run asked to share it.
 */
const KEY = 'session-test-key-4711';
const OTHER_KEY = 'session-test-other-key';
const { processes, servers, dir } = useContractRun('session');

/** Starts the built mock on a free port with `args`; resolves to its API's base URL. */
async function startMock(args: string[] = []): Promise<string> {
  const [, url] = await processes.start([MOCK_BIN, '--port', '0', '--host', '127.0.0.1', '--api-key', KEY, '--quiet', ...args], /listening on (http:\/\/[^\s"]+\/v1)/);
  return url as string;
}

const admin = (url: string, path: string, key?: string): Promise<unknown> =>
  fetch(url.replace(/\/v1$/, `/__mock${path}`), key ? { headers: { authorization: `Bearer ${key}` } } : {}).then((r) => r.json());

/** Every page the interface offers: the whole catalogue (the default one is 30 animals, under the limit of 100) and each status's. */
const PAGES = ['limit=100', 'status=available&limit=100', 'status=pending&limit=100', 'status=sold&limit=100'];

/**
 * What the mock shares, as a client of the shared session reads it: its
 * journal's size first, since reading the pages adds them to it.
 */
async function shared(url: string, key = KEY): Promise<{ journal: number; rest: unknown }> {
  const journal = ((await admin(url, '/journal')) as { entries: unknown[] }).entries.length;
  const pages = await Promise.all(PAGES.map((query) => fetch(`${url}/pets?${query}`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json())));
  const health = (await admin(url, '/health')) as Record<string, unknown>;
  return { journal, rest: { pages, health: { pets: health.pets, scenario: health.scenario, state: health.state, calls: health.calls }, sessions: await admin(url, '/sessions', key) } };
}

/** The shared session as it was, but for the reads of `before` itself. */
const unchangedSince = async (url: string, before: Awaited<ReturnType<typeof shared>>): Promise<unknown> => {
  const after = await shared(url);
  return { journal: after.journal - PAGES.length, rest: after.rest };
};

const contract = (url: string, args: string[] = []): Promise<Run> => processes.node([CONTRACT_BIN, '--base-url', url, '--api-key', KEY, '--seed', '7', ...args], { env: childEnv(), cwd: dir() });
const jsonReport = (file: string): SuiteReport => JSON.parse(readFileSync(join(dir(), file), 'utf8')) as SuiteReport;

describe.concurrent('the run in a session of its own (the built CLI and the built mock)', { timeout: 90_000 }, () => {
  it('by default: a fresh session, ended after the run, named in the report; the shared catalogue, state, journal and sessions read the same before and after', async ({ expect }) => {
    const url = await startMock();
    // A shared session someone uses: its journal holds a request, its catalogue an animal of theirs.
    await fetch(`${url}/pets`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' });
    const before = await shared(url);
    const run = await contract(url, ['--reporter', 'json', '--output', 'own.json']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(await unchangedSince(url, before)).toEqual(before);
    const { session } = jsonReport('own.json');
    expect(session).toMatchObject({ kind: 'own', mock: true, ended: true });
    expect(session?.id).toMatch(/^contract-run-[0-9a-f]{12}$/);
    expect(run.stdout).toContain(`Session: ${session?.id}, the run's own on this mock, ended after the run`);
  });

  it('--shared-session: the run creates its animals in the shared session, as the report says (what the default run is compared against)', async ({ expect }) => {
    const url = await startMock();
    const before = (await admin(url, '/health')) as { pets: number };
    const run = await contract(url, ['--shared-session']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(((await admin(url, '/health')) as { pets: number }).pets).toBeGreaterThan(before.pets);
    expect(run.stdout).toContain('Session: the shared session (--shared-session)');
  });

  it('--session ID: every request carries it, the session is kept for its owner to read; with --session-per-key another key cannot take it', async ({ expect }) => {
    const url = await startMock(['--session-per-key', '--api-key', OTHER_KEY]);
    const run = await contract(url, ['--session', 'qa:alice_1', '--only', 'list-limit-1,create-returns-pet']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('Session: qa:alice_1 (--session), on this mock, kept after the run');
    const journal = (await fetch(url.replace(/\/v1$/, '/__mock/journal'), { headers: { 'x-mock-session': 'qa:alice_1', authorization: `Bearer ${KEY}` } }).then((r) => r.json())) as { entries: unknown[] };
    expect(journal.entries.length).toBeGreaterThan(1);
    // A default run on a --session-per-key mock: its own session belongs to its key, which ends it.
    const own = await contract(url, ['--only', 'list-limit-1,create-returns-pet']);
    expect(own.code, own.stdout + own.stderr).toBe(0);
    expect(((await admin(url, '/sessions', KEY)) as { sessions: Array<{ id: string }> }).sessions.map((s) => s.id)).toEqual(['qa:alice_1']);
    const taken = await processes.node([CONTRACT_BIN, '--base-url', url, '--api-key', OTHER_KEY, '--session', 'qa:alice_1'], { env: childEnv(), cwd: dir() });
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('refused session qa:alice_1 (403 session_forbidden): another key opened it');
  });

  it('a mock at its bound of sessions, each in use: a clear line, exit 2, no rule run, nothing left behind', async ({ expect }) => {
    const url = await startMock(['--max-sessions', '1']);
    await fetch(`${url}/pets`, { headers: { authorization: `Bearer ${KEY}`, 'x-mock-session': 'in-use' } });
    const run = await contract(url);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/refused the run's session contract-run-[0-9a-f]{12}: it holds as many sessions as its --max-sessions allows.*503 too_many_sessions.*--shared-session/);
    expect(run.stdout).toBe('');
    expect(((await admin(url, '/sessions')) as { sessions: Array<{ id: string }> }).sessions.map((s) => s.id)).toEqual(['in-use']);
  });

  it('--compare-with: each mock runs in a session of its own, both ended', async ({ expect }) => {
    const [a, b] = await Promise.all([startMock(), startMock()]);
    const [beforeA, beforeB] = await Promise.all([shared(a), shared(b)]);
    const run = await contract(a, ['--compare-with', b, '--reporter', 'json', '--output', 'drift.json']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = jsonReport('drift.json');
    expect(report.session).toMatchObject({ kind: 'own', ended: true });
    expect(report.comparedSession).toMatchObject({ kind: 'own', ended: true });
    expect(report.comparedSession?.id).not.toBe(report.session?.id);
    expect([await unchangedSince(a, beforeA), await unchangedSince(b, beforeB)]).toEqual([beforeA, beforeB]);
  });

  it('a wrong API key: the mock started no session for it, and the Session line says nothing is left; a mock with an admin key not given: its key is named', async ({ expect }) => {
    const url = await startMock();
    const refused = await processes.node([CONTRACT_BIN, '--base-url', url, '--api-key', 'not-the-key', '--seed', '7', '--only', 'list-limit-1'], { env: childEnv(), cwd: dir() });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/Session: contract-run-[0-9a-f]{12}, the run's own on this mock, ended after the run/);
    expect(refused.stdout).not.toMatch(/admin key/);
    expect(((await admin(url, '/sessions')) as { sessions: unknown[] }).sessions).toEqual([]);
    const guarded = await startMock(['--admin-key', 'session-test-admin-key']);
    const run = await contract(guarded, ['--only', 'list-limit-1']);
    expect(run.stdout).toMatch(/not ended: DELETE \/__mock\/sessions\/contract-run-[0-9a-f]{12} answered 401 unauthorized: the mock needs its admin key for it \(--admin-key or MOCK_ADMIN_KEY\)/);
  });

  it('a target that is not the mock: no session header is sent, and the report says it has none; with --session the header goes, as asked', async ({ expect }) => {
    const seen: string[] = [];
    // The mock's API without its admin API: a service of the interface, with no sessions.
    const server = await startApiServer({
      apiKey: KEY,
      intercept: (request, response) => {
        seen.push(String(request.headers['x-mock-session'] ?? ''));
        if (!request.url?.startsWith('/__mock')) return false;
        response.writeHead(404).end();
        return true;
      },
    });
    servers.push(server);
    const run = await contract(server.url, ['--only', 'list-limit-1']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('Session: none: the target is not this mock and has no sessions');
    expect(seen.filter(Boolean)).toEqual([]);
    const named = await contract(server.url, ['--only', 'list-limit-1', '--session', 'ci-42']);
    expect(named.stdout).toContain('Session: ci-42 (--session), sent as X-Mock-Session; the target is not this mock');
    expect(seen.filter(Boolean).length).toBeGreaterThan(1);
    expect(new Set(seen.filter(Boolean))).toEqual(new Set(['ci-42']));
  });

  it('Ctrl-C during a run: the run ends its session before it exits', async ({ expect }) => {
    const url = await startMock();
    const child = spawn(process.execPath, [CONTRACT_BIN, '--base-url', url, '--api-key', KEY, '--examples', '400'], { env: childEnv(), stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const running = async (): Promise<Array<{ id: string }>> => ((await admin(url, '/sessions')) as { sessions: Array<{ id: string }> }).sessions;
    // Waits for the event (the session opened), not for a time.
    while ((await running()).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(await running()).toEqual([]);
  });

  it.for([
    ['a/b', "may hold only A-Z a-z 0-9 . _ ~ : - (the mock's session ids), and character 2 is not one of them"],
    ['x'.repeat(129), 'must be 1 to 128 characters long, got 129'],
    ['..', 'cannot be "." or ".." alone'],
  ])('--session %s is refused before any request, with the mock\'s syntax, never repeating it', async ([id, why], { expect }) => {
    const run = await processes.node([CONTRACT_BIN, '--base-url', 'http://127.0.0.1:9/v1', '--api-key', KEY, '--session', String(id)], { env: childEnv(), cwd: dir() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`animal-store-contract: --session ${why}`);
    if (String(id).length > 2) expect(run.stderr).not.toContain(String(id));
  });

  it('--session with --shared-session is bad usage', async ({ expect }) => {
    const run = await processes.node([CONTRACT_BIN, '--base-url', 'http://127.0.0.1:9/v1', '--api-key', KEY, '--session', 'a', '--shared-session'], { env: childEnv(), cwd: dir() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--session and --shared-session cannot go together');
  });
});
