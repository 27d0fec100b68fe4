import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { MockCliOptions } from './cli-options.js';
import { createLogger } from './logger.js';

/** What the command keeps running: a server, or the workers' primary. */
export interface Running {
  logger: Logger;
  /** How long a stop waits for requests in flight (`--shutdown-grace`). */
  graceMs: number;
  close(): Promise<void>;
}

/** The 5th death within a minute of workers that had served stops the command: something is wrong with every run. */
const MAX_DEATHS_PER_MINUTE = 5;
/** A replacement that cannot start (its store away) is tried again after 1 s, doubling to this. */
const MAX_RESTART_DELAY_MS = 30_000;

/**
 * `--workers N`: the primary of N worker processes, each a whole mock on
 * the one port (each accepting its own connections: chooseScheduling), sharing
 * their state through the store. The primary serves nothing itself.
 *
 * - If a worker fails to start at first (its store unreachable, the port
 *   taken), the others are stopped and the command exits with that code.
 * - A worker that dies after serving is replaced at once; workers dying
 *   MAX_DEATHS_PER_MINUTE times within a minute stop the command (exit 1).
 * - A replacement that cannot start (Redis away: it must reach it to start)
 *   is tried again, later and later, for as long as it takes: an outage of
 *   the store must cost 503s while it lasts, not the whole mock.
 * - SIGINT or SIGTERM to the primary stops every worker gracefully.
 */
export function startWorkers(options: MockCliOptions, stdout: NodeJS.WritableStream): Promise<number | Running> {
  const logger = createLogger({ format: options.logFormat, level: options.logLevel, destination: stdout });
  const listened = new Set<number>();
  let started = false;
  let stopping = false;
  let restartDelayMs = 1000;
  const deaths: number[] = [];
  const retries = new Set<NodeJS.Timeout>();
  let allExited = (): void => {};
  const done = new Promise<void>((resolve) => (allExited = resolve));
  const running = (): number => Object.keys(cluster.workers ?? {}).length;

  return new Promise((resolve) => {
    cluster.on('listening', (worker) => {
      listened.add(worker.id);
      restartDelayMs = 1000;
      if (!started && listened.size === options.workers) {
        started = true;
        logger.info({ workers: options.workers }, `${options.workers} workers serving one port, state in the shared store`);
        resolve({ logger, graceMs: options.shutdownGraceSeconds * 1000, close });
      }
    });
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) {
        if (running() === 0) allExited();
        return;
      }
      if (!started) {
        stopping = true;
        stopAll();
        logger.error(`worker ${worker.id} could not start (exit code ${code}): stopping the others`);
        resolve(code || 1);
        return;
      }
      if (listened.delete(worker.id)) died(worker, code, signal);
      else retry(worker, code);
    });
    chooseScheduling();
    for (let i = 0; i < options.workers; i++) cluster.fork();
  });

  function died(worker: Worker, code: number | null, signal: string | null): void {
    const now = Date.now();
    deaths.push(now);
    while ((deaths[0] ?? now) < now - 60_000) deaths.shift();
    if (deaths.length >= MAX_DEATHS_PER_MINUTE) {
      logger.error(`workers died ${deaths.length} times within a minute: stopping`);
      stopping = true;
      stopAll();
      void done.then(() => process.exit(1));
      return;
    }
    logger.error({ code, signal }, `worker ${worker.id} died (${signal ?? `exit code ${code}`}): starting another`);
    cluster.fork();
  }

  function retry(worker: Worker, code: number | null): void {
    logger.warn(`worker ${worker.id} could not start (exit code ${code}): trying again in ${restartDelayMs / 1000} s`);
    // Not unref'd: while every worker is waiting to be tried again, this timer is what keeps the primary alive.
    const timer = setTimeout(() => {
      retries.delete(timer);
      if (!stopping) cluster.fork();
    }, restartDelayMs);
    retries.add(timer);
    restartDelayMs = Math.min(restartDelayMs * 2, MAX_RESTART_DELAY_MS);
  }

  function stopAll(): void {
    for (const timer of retries) clearTimeout(timer);
    retries.clear();
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  }

  async function close(): Promise<void> {
    stopping = true;
    stopAll();
    if (running() > 0) await done;
  }
}

/**
 * Each worker accepts connections itself from the one listening socket
 * (SCHED_NONE), rather than the primary accepting them and handing each
 * to a worker in turn (round-robin, node's default off Windows). A
 * connection handed to a worker the moment it dies is left in the
 * primary, which answers it never and closes it never, and runs no HTTP
 * timeout on it. Accepted by a worker, a connection dies with the worker
 * (the kernel closes it); not yet accepted, it waits in the socket's
 * backlog for another worker. The cost: the kernel shares connections
 * less evenly between workers than round-robin, which a mock can afford.
 */
function chooseScheduling(): void {
  cluster.schedulingPolicy = cluster.SCHED_NONE;
}

/** Whether this process is the primary that must start workers (a worker itself serves as a single mock). */
export const needsWorkers = (options: MockCliOptions): boolean => options.workers > 1 && cluster.isPrimary;
