/**
 * A real Redis for the tests: Debian's `redis-server` as a child process on
 * a free loopback port, with its own temporary folder and no config file, so
 * nothing on the machine (a system Redis on 6379, /etc/redis) is read or
 * touched. `kill()` and `start()` are a crash and a restart on the same port
 * and folder, for the tests of what survives Redis going away.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from '../../bench/free-port.js';
import { redisCommand } from './redis-command.js';
import { REDIS, requireServerCommand } from './system-servers.js';

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Its working folder: the AOF files when `appendonly` is on. */
  dir: string;
  /** SIGTERM, waits for the exit, removes `dir`. Safe to call twice, or after `kill()`. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash: no shutdown save, and `dir` is kept for `start()`. */
  kill(): Promise<void>;
  /** Starts it again on the same port and folder and waits until it answers. */
  start(): Promise<void>;
}

export interface RedisServerOptions {
  /** Append-only file with `appendfsync always`: every acknowledged write survives a `kill()`. Default off. */
  appendonly?: boolean;
  /** Where ports come from; a free loopback port by default. This helper's own tests hand out a taken one to see the retry. */
  pickPort?: () => Promise<number>;
  /** More `--name value` settings, after this helper's own, so they win (compose.yaml's command, for its tests). */
  args?: readonly string[];
  /** `requirepass`: clients must AUTH with it (kept across `kill()` and `start()`); the readiness check does. */
  password?: string;
}

/** A port picked by listening on port 0 can be taken by someone else before redis binds it; then another is tried. */
const PORT_ATTEMPTS = 5;
const READY_TIMEOUT_MS = 10_000;
const READY_POLL_MS = 25;

/** Starts a redis-server and resolves once it answers PING. */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const command = requireServerCommand(REDIS);
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-redis-'));
  const pickPort = options.pickPort ?? freePort;
  for (let attempt = 1; ; attempt++) {
    const port = await pickPort();
    const launch = (): Promise<RedisProcess> => launchRedis(command, port, dir, options);
    try {
      return handle(port, dir, await launch(), launch);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === PORT_ATTEMPTS) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
}

function serverArgs(port: number, dir: string, options: RedisServerOptions): string[] {
  const { appendonly = false, args = [] } = options;
  return [
    ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir],
    // No RDB snapshots: what survives a crash is decided by `appendonly` alone.
    ...['--save', '', '--appendonly', appendonly ? 'yes' : 'no'],
    ...(appendonly ? ['--appendfsync', 'always'] : []),
    ...['--protected-mode', 'no', '--daemonize', 'no'],
    ...(options.password === undefined ? [] : ['--requirepass', options.password]),
    ...args,
  ];
}

/** The RedisServer over one launched process at a time. */
function handle(port: number, dir: string, first: RedisProcess, launch: () => Promise<RedisProcess>): RedisServer {
  let current: RedisProcess | undefined = first;
  const end = async (signal: NodeJS.Signals): Promise<void> => {
    const running = current;
    current = undefined;
    if (running === undefined) return;
    running.child.kill(signal);
    await running.exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    stop: async () => {
      await end('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
    kill: () => end('SIGKILL'),
    start: async () => {
      if (current !== undefined) throw new Error(`redis-server on port ${port} is already running`);
      current = await launch();
    },
  };
}

interface RedisProcess {
  child: ChildProcess;
  /** Settles once the process has exited and its output is read. */
  exited: Promise<void>;
}

class PortTaken extends Error {}

/** Spawns redis-server and resolves once it answers PING; rejects, with its output, if it exits first. */
async function launchRedis(command: string, port: number, dir: string, options: RedisServerOptions): Promise<RedisProcess> {
  const args = serverArgs(port, dir, options);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  let hasExited = false;
  const exited = new Promise<void>((resolve) => {
    child.once('error', (error) => {
      output += String(error);
      hasExited = true;
      resolve();
    });
    child.once('close', () => {
      hasExited = true;
      resolve();
    });
  });
  if (child.pid !== undefined) watchOwner(child.pid, dir, exited);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!hasExited && !(await isReady(port, child.pid, options.password))) {
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await exited;
      throw new Error(`redis-server on port ${port} did not answer PING within ${READY_TIMEOUT_MS} ms\n${output}`);
    }
    await sleep(READY_POLL_MS);
  }
  if (!hasExited) return { child, exited };
  if (/Address already in use/.test(output)) throw new PortTaken(`port ${port} was taken before redis-server bound it`);
  throw new Error(`redis-server ${args.join(' ')} exited before it was ready\n${output}`);
}

/**
 * Ready means this very process answers PING with +PONG. The process id is
 * checked because the port may have been taken by another redis-server (one
 * another test started) just before ours failed to bind it: that one would
 * answer PONG too. While it loads its AOF, redis answers PING with -LOADING.
 */
async function isReady(port: number, pid: number | undefined, password: string | undefined): Promise<boolean> {
  try {
    const info = await redisCommand(port, ['INFO', 'server'], password);
    return typeof info === 'string' && info.includes(`\r\nprocess_id:${pid}\r\n`) && (await redisCommand(port, ['PING'], password)) === 'PONG';
  } catch {
    return false;
  }
}

/**
 * Never leave a redis-server behind when the test process ends, however it
 * ends: an `exit` handler misses a SIGKILL or a signal node does not catch
 * (vitest ending a worker), and redis has no "die with the parent" option. A
 * tiny shell holds a pipe from this process; the kernel closes the pipe when
 * this process ends for any reason, `read` sees end of file, and the shell
 * kills redis and removes its folder. The watcher is ended as soon as its
 * redis exits, so it never signals a pid the system has since reused.
 */
function watchOwner(pid: number, dir: string, exited: Promise<void>): void {
  const script = 'read _; kill -KILL "$1" 2>/dev/null; rm -rf -- "$2"';
  const watcher = spawn('/bin/sh', ['-c', script, 'redis-watcher', String(pid), dir], { stdio: ['pipe', 'ignore', 'ignore'] });
  // Nothing is ever written: the pipe exists only to be closed by our exit. An EPIPE if the shell is gone is of no interest.
  watcher.stdin?.on('error', () => undefined);
  void exited.then(() => watcher.kill('SIGKILL'));
}

/** A redis-server of the test file's own, started before its tests and stopped after them: the getter gives it inside a test. */
export function useRedisServer(options: RedisServerOptions = {}): () => RedisServer {
  let redis: RedisServer | undefined;
  beforeAll(async () => {
    redis = await startRedisServer(options);
  });
  afterAll(async () => {
    await redis?.stop();
  });
  return () => {
    if (!redis) throw new Error('the redis-server is started before the tests');
    return redis;
  };
}
