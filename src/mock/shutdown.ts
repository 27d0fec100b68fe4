import cluster from 'node:cluster';
import type { Logger } from 'pino';

/**
 * The server closes what is still open at the end of the grace period
 * (http/server.ts); this backstop, a little later, covers a close that
 * hangs after that (the store's). The primary of --workers waits longer
 * than its workers, which bound their own stop.
 */
const BACKSTOP_MS = 1000;
const PRIMARY_MARGIN_MS = 2000;

interface Stoppable {
  logger: Logger;
  /** The grace period (`--shutdown-grace`), which the server's close keeps to. */
  graceMs: number;
  close(): Promise<void>;
}

/**
 * Stops `running` on SIGTERM or SIGINT the way Kubernetes expects: stop
 * accepting connections, answer what is in flight, exit 0.
 *
 * - A second SIGTERM changes nothing: a worker of --workers gets the
 *   process group's signal (systemd, docker's init, Ctrl-C) and then its
 *   primary's SIGTERM, and must not drop its requests for it.
 * - A second SIGINT (Ctrl-C again) forces the stop at once (exit 130).
 * - At the end of the grace period the server closes the connections
 *   still open (logged there); a stop still not done a moment later is
 *   forced (exit 1).
 * A forced stop is logged.
 */
export function stopOnSignals(running: Stoppable): void {
  const { graceMs } = running;
  const primary = Object.keys(cluster.workers ?? {}).length > 0;
  const backstopMs = graceMs + BACKSTOP_MS + (primary ? PRIMARY_MARGIN_MS : 0);
  let stopping = false;
  let interrupts = 0;
  const force = (why: string, code: number): void => {
    running.logger.error({ exitCode: code }, `${why}: stopping now, requests still in flight are not answered`);
    // The workers of --workers would exit with their primary's channel anyway; this does not wait for that.
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
    process.exit(code);
  };
  const stop = (signal: NodeJS.Signals): void => {
    if (signal === 'SIGINT') interrupts++;
    if (stopping) {
      if (interrupts >= 2) force('SIGINT received twice', 130);
      // Debug: every worker of --workers gets its primary's SIGTERM after the group's signal.
      else running.logger.debug({ signal }, `${signal} received while stopping: still finishing requests in flight (SIGINT twice forces the stop)`);
      return;
    }
    stopping = true;
    // Through the log, so `--log-format json` stays JSON to the last line; warn, so `--quiet` keeps it.
    running.logger.warn({ signal, graceMs }, `${signal} received: finishing requests in flight, then stopping.`);
    setTimeout(() => force(`still not stopped ${backstopMs / 1000} s after ${signal}`, 1), backstopMs).unref();
    void running.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
