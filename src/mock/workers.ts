import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { MockCliOptions } from './cli-options.js';
import { createLogger } from './logger.js';

/** What the command keeps running: a server, or the workers' primary. */
export interface Running {
  logger: Logger;
  close(): Promise<void>;
}

/** A worker that dies this many times within a minute is not started again: something is wrong with every start. */
const MAX_RESTARTS_PER_MINUTE = 5;

/**
 * `--workers N`: the primary of N worker processes, each a whole mock on
 * the one port (node:cluster hands connections to them in turn), sharing
 * their state through the store. The primary serves nothing itself.
 *
 * - If a worker fails to start (its store unreachable, the port taken), the
 *   others are stopped and the command exits with that worker's code.
 * - A worker that dies later is replaced, unless workers keep dying
 *   (MAX_RESTARTS_PER_MINUTE): then the command stops, exit code 1.
 * - SIGINT or SIGTERM to the primary stops every worker gracefully.
 */
export function startWorkers(options: MockCliOptions, stdout: NodeJS.WritableStream): Promise<number | Running> {
  const logger = createLogger({ format: options.logFormat, quiet: options.quiet, destination: stdout });
  let listening = 0;
  let stopping = false;
  const deaths: number[] = [];
  let allExited = (): void => {};
  const done = new Promise<void>((resolve) => (allExited = resolve));
  const running = (): number => Object.keys(cluster.workers ?? {}).length;

  return new Promise((resolve) => {
    const failStart = (worker: Worker, code: number | null): void => {
      stopping = true;
      stopAll();
      resolve(code || 1);
      logger.error(`worker ${worker.id} could not start (exit code ${code}): stopping the others`);
    };
    cluster.on('listening', () => {
      listening += 1;
      if (listening === options.workers) {
        logger.info({ workers: options.workers }, `${options.workers} workers serving one port, state in ${options.store === 'memory' ? 'memory' : 'the shared store'}`);
        resolve({ logger, close });
      }
    });
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) {
        if (running() === 0) allExited();
        return;
      }
      if (listening < options.workers) return failStart(worker, code);
      replace(worker, code, signal);
    });
    for (let i = 0; i < options.workers; i++) cluster.fork();
  });

  function replace(worker: Worker, code: number | null, signal: string | null): void {
    const now = Date.now();
    deaths.push(now);
    while ((deaths[0] ?? now) < now - 60_000) deaths.shift();
    if (deaths.length > MAX_RESTARTS_PER_MINUTE) {
      logger.error(`workers died ${deaths.length} times within a minute: stopping`);
      stopping = true;
      stopAll();
      void done.then(() => process.exit(1));
      return;
    }
    logger.error({ code, signal }, `worker ${worker.id} died (${signal ?? `exit code ${code}`}): starting another`);
    cluster.fork();
  }

  function stopAll(): void {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  }

  async function close(): Promise<void> {
    stopping = true;
    stopAll();
    if (running() > 0) await done;
  }
}

/** Whether this process is the primary that must start workers (a worker itself serves as a single mock). */
export const needsWorkers = (options: MockCliOptions): boolean => options.workers > 1 && cluster.isPrimary;
