import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { packageRoot } from '../../src/shared/package-root.js';

/**
 * The `animal-store-mock` command as users run it: the built bin in a child
 * process, over real HTTP on ephemeral ports.
 */
export const BIN = join(packageRoot(), 'dist', 'src', 'mock', 'bin.js');
export const BANNER = /Animal Store mock listening on (http:\/\/[^\s"]+\/v1)/;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface MockProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Settles once the process has exited and its output is read to the end. */
  exited: Promise<Exit>;
}

export interface RunningMock extends MockProcess {
  url: string;
  banner: string;
}

const children = new Set<MockProcess>();
let tmp: string;

/** This test file's temp folder (made before its tests, removed after). */
export const tmpDir = (): string => tmp;

/**
 * Registers the hooks every file of CLI tests needs: the bin must be built,
 * a temp folder, and whatever a test left running is stopped after it.
 */
export function useBuiltCli(): void {
  beforeAll(() => {
    if (!existsSync(BIN)) {
      throw new Error(`${BIN} is missing: these tests run the built CLI. Run \`npm run build\` first (\`npm test\` does).`);
    }
    tmp = mkdtempSync(join(tmpdir(), 'animal-store-cli-'));
  });

  afterEach(async () => {
    // Whatever a test left running is stopped, even when it failed.
    await Promise.all(
      [...children].map(async (mock) => {
        if (mock.child.exitCode === null && mock.child.signalCode === null) mock.child.kill('SIGKILL');
        await mock.exited;
      }),
    );
    children.clear();
  });

  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });
}

/**
 * Runs the bin with only the variables given (PORT, HOST and MOCK_API_KEYS of the test runner do not leak in).
 * `detached`: in a process group of its own, which `process.kill(-pid, signal)` signals whole, as systemd and docker's init do.
 */
export function spawnMock(args: string[], env: Record<string, string> = {}, { detached = false } = {}): MockProcess {
  const base = { ...process.env };
  delete base.PORT;
  delete base.HOST;
  delete base.MOCK_API_KEYS;
  delete base.MOCK_ADMIN_KEY;
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<Exit>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  const mock = { child, stdout: () => out, stderr: () => err, exited };
  children.add(mock);
  return mock;
}

/** Starts the mock and waits for its banner; fails with its output if it exits instead. */
export async function startMock(args: string[] = [], env: Record<string, string> = {}, spawnOptions: { detached?: boolean } = {}): Promise<RunningMock> {
  // The readable banner unless a case asks for JSON logs (the default when stdout is a pipe).
  const withFormat = args.includes('--log-format') ? args : ['--log-format', 'pretty', ...args];
  const mock = spawnMock(withFormat.includes('--port') || 'PORT' in env ? withFormat : ['--port', '0', ...withFormat], env, spawnOptions);
  const banner = await new Promise<string>((resolve, reject) => {
    const check = (): void => {
      // The banner is written in one piece; wait for its last line (or the JSON start-up line).
      if (BANNER.test(mock.stdout()) && /(Try: .*|"curl":.*)\n/.test(mock.stdout())) resolve(mock.stdout());
    };
    mock.child.stdout?.on('data', check);
    void mock.exited.then((exit) =>
      reject(new Error(`the mock exited (${JSON.stringify(exit)}) before listening\nstdout: ${mock.stdout()}\nstderr: ${mock.stderr()}`)),
    );
  });
  return { ...mock, url: (BANNER.exec(banner) as RegExpExecArray)[1] as string, banner };
}

/** Runs the bin to its end, for the cases that must not start; fails if it starts listening. */
export async function runToExit(args: string[], env: Record<string, string> = {}): Promise<Exit & { stdout: string; stderr: string }> {
  const mock = spawnMock(args, env);
  mock.child.stdout?.on('data', () => {
    if (BANNER.test(mock.stdout())) mock.child.kill('SIGKILL');
  });
  const exit = await mock.exited;
  if (BANNER.test(mock.stdout())) throw new Error(`expected ${args.join(' ')} not to start, but it listened:\n${mock.stdout()}`);
  return { ...exit, stdout: mock.stdout(), stderr: mock.stderr() };
}

/** Sends a signal and waits for the exit. */
export async function stop(mock: MockProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<Exit> {
  mock.child.kill(signal);
  return mock.exited;
}

export const bearer = (key: string): RequestInit => ({ headers: { authorization: `Bearer ${key}` } });

export async function getJson(url: string, key: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url, bearer(key));
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

export async function statusWith(mock: RunningMock, key: string | undefined): Promise<number> {
  const response = await fetch(`${mock.url}/pets?limit=1`, key === undefined ? {} : bearer(key));
  await response.arrayBuffer();
  return response.status;
}

/** The status of one request to `path` with `key`, on a connection of its own; 0 when it was closed without an answer (a stop cut it). */
export async function statusOrCut(mock: RunningMock, path: string, key: string): Promise<number> {
  try {
    const res = await fetch(`${mock.url}${path}`, { headers: { authorization: `Bearer ${key}`, connection: 'close' } });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

/** Writes a fixture file in the test's temp folder. */
export function fixture(name: string, text: string): string {
  const file = join(tmp, name);
  writeFileSync(file, text);
  return file;
}

export function listen(server: Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

export const closeServer = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

/** A port that was free a moment ago: listen on 0, read the port, close. */
export async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await closeServer(server);
  return port;
}

/** The per-request log lines among the JSON lines on stdout. */
export function requestLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => 'method' in line);
}
