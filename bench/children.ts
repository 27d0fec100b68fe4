import { spawn, type ChildProcess } from 'node:child_process';

/** A node child process started by the benchmark, with the tail of its output. */
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
  // These would change the mock's port, address or keys under the benchmark.
  delete env.PORT;
  delete env.HOST;
  delete env.MOCK_API_KEYS;
  const proc = spawn(process.execPath, args, { stdio: ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'], env });
  if (proc.pid === undefined) throw new Error(`cannot start ${label}: node ${args.join(' ')}`);
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
