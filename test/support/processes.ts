/**
 * Child processes for the tests that run built commands as users do (the
 * harness's CLI, the packed and installed mock). Always spawned
 * asynchronously: a test may serve HTTP in its own process while a child
 * talks to it, which a synchronous spawn would deadlock. Imports nothing
 * from the mock.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { packageRoot } from '../../src/shared/package-root.js';

/** Throws, naming what to do, when a built file the tests run is missing. */
export function requireBuilt(...files: string[]): void {
  for (const file of files) {
    if (!existsSync(file)) throw new Error(`${file} is missing: these tests run the build's output. Run \`npm run build\` first (\`npm test\` does).`);
  }
}

/** Variables that choose the harness's target or mode: the test runner's values must not leak into a child. */
const TARGET_VARIABLES = ['CONTRACT_API_KEY', 'CONTRACT_BASE_URL', 'CONTRACT_READ_ONLY', 'CONTRACT_SEED', 'CONTRACT_EXAMPLES', 'ANIMAL_STORE_BASE_URL', 'ANIMAL_STORE_STAGING_BASE_URL'];

/** The runner's environment without the target variables (and without vitest's own markers), plus `extra`. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (TARGET_VARIABLES.includes(name) || name.startsWith('VITEST') || name === 'NODE_OPTIONS') continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

interface Child {
  child: ChildProcess;
  closed: Promise<Run>;
}

interface SpawnOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/**
 * Child processes started by a test. `killAll` stops whatever is still
 * running (a test that failed half-way) and waits for the exits.
 */
export class Processes {
  private readonly children = new Set<Child>();

  /** Runs `command <args>` to its end and resolves with its exit and output. */
  run(command: string, args: string[], options: SpawnOptions = {}): Promise<Run> {
    const { child, closed } = this.spawn(command, args, options);
    const ended = new Promise<Run>((resolve, reject) => {
      child.once('error', reject);
      void closed.then(resolve);
    });
    return ended.finally(() => this.forget(child));
  }

  /** Runs `node <args>` to its end. */
  node(args: string[], options: SpawnOptions = {}): Promise<Run> {
    return this.run(process.execPath, args, options);
  }

  /** Starts `command <args>` and resolves once its stdout matches `ready`, with the match; rejects if it exits first. */
  startCommand(command: string, args: string[], ready: RegExp, options: SpawnOptions = {}): Promise<RegExpExecArray> {
    const { child, closed, output } = this.spawn(command, args, options);
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.stdout?.on('data', () => {
        const match = ready.exec(output.stdout);
        if (match) resolve(match);
      });
      void closed.then((exit) => reject(new Error(`${command} ${args.join(' ')} exited (${exit.code ?? exit.signal}) before it was ready\nstdout: ${exit.stdout}\nstderr: ${exit.stderr}`)));
    });
  }

  /** Starts `node <args>` and resolves once its stdout matches `ready`. */
  start(args: string[], ready: RegExp, options: SpawnOptions = {}): Promise<RegExpExecArray> {
    return this.startCommand(process.execPath, args, ready, options);
  }

  async killAll(): Promise<void> {
    await Promise.all(
      [...this.children].map(async ({ child, closed }) => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await closed.catch(() => undefined);
      }),
    );
    this.children.clear();
  }

  /** Spawns and records the child; `output` fills as it writes, `closed` resolves when its streams close. */
  private spawn(command: string, args: string[], { env = childEnv(), cwd = packageRoot() }: SpawnOptions): Child & { output: { stdout: string; stderr: string } } {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = { stdout: '', stderr: '' };
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
    const closed = new Promise<Run>((resolve) => child.once('close', (code, signal) => resolve({ code, signal, ...output })));
    this.children.add({ child, closed });
    return { child, closed, output };
  }

  private forget(child: ChildProcess): void {
    for (const entry of this.children) if (entry.child === child) this.children.delete(entry);
  }
}
