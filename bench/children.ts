import { spawn, type ChildProcess } from 'node:child_process';

/** A child process (node, redis-server) started by the benchmark, with the tail of its output. */
export interface Child {
  label: string;
  process: ChildProcess;
  pid: number;
  /** The last few KiB of its stdout and stderr, for error messages. */
  output(): string;
  /** Whether it has exited already. */
  exited(): boolean;
}

const live = new Set<Child>();
const OUTPUT_TAIL = 4096;

/**
 * Starts `node <args>` and keeps track of it, so that every child can be
 * stopped at the end, also when the benchmark fails or is interrupted.
 * With `ipc`, the child gets an IPC channel (`process.send`), as `fork` gives.
 */
export function spawnNode(label: string, args: readonly string[], { ipc = false }: { ipc?: boolean } = {}): Child {
  const env = { ...process.env };
  // These would change the mock's port, address, keys or store under the benchmark.
  for (const name of ['PORT', 'HOST', 'MOCK_API_KEYS', 'MOCK_STORE', 'MOCK_STORE_PREFIX', 'MOCK_WORKERS']) delete env[name];
  return spawnChild(label, process.execPath, args, { ipc, env });
}

/**
 * Starts any command (`redis-server`, node) and keeps track of it as
 * spawnNode does. Throws when it cannot be started at all (not on PATH, not
 * executable): the error's message says which.
 */
export function spawnChild(label: string, command: string, args: readonly string[], { ipc = false, env = process.env }: { ipc?: boolean; env?: NodeJS.ProcessEnv } = {}): Child {
  const proc = spawn(command, args, { stdio: ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'], env });
  // A command that cannot start emits 'error' (ENOENT, EACCES) on the next tick; without a listener that would end the benchmark.
  proc.once('error', () => undefined);
  if (proc.pid === undefined) throw new Error(`cannot start ${label}: ${command} ${args.join(' ')}`);
  let tail = '';
  const keep = (chunk: Buffer): void => {
    tail = (tail + chunk.toString('utf8')).slice(-OUTPUT_TAIL);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const child: Child = {
    label,
    process: proc,
    pid: proc.pid,
    output: () => tail,
    exited: () => proc.exitCode !== null || proc.signalCode !== null,
  };
  live.add(child);
  proc.once('exit', () => live.delete(child));
  return child;
}

/** SIGTERM, then SIGKILL if the child has not exited after `graceMs`. */
export async function stopChild(child: Child, graceMs = 5000): Promise<void> {
  if (child.exited()) return;
  const exit = new Promise<void>((resolve) => child.process.once('exit', () => resolve()));
  child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), graceMs);
  await exit;
  clearTimeout(timer);
}

export async function stopAllChildren(): Promise<void> {
  await Promise.all([...live].map((child) => stopChild(child)));
}

/** Synchronous last resort, for `process.on('exit')` and signals. */
export function killAllChildrenNow(): void {
  for (const child of live) child.process.kill('SIGKILL');
}

/** Makes sure no child outlives the benchmark, whichever way it ends. */
export function killChildrenOnExit(): void {
  process.on('exit', killAllChildrenNow);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: stopping the servers.\n`);
      killAllChildrenNow();
      process.exit(130);
    });
  }
}
