#!/usr/bin/env node
import cluster from 'node:cluster';
import { main } from './main.js';

const result = await main({ argv: process.argv.slice(2), env: process.env, stdout: process.stdout, stderr: process.stderr });
if (typeof result === 'number') {
  process.exitCode = result;
  // A worker's channel to its primary (--workers) would keep it alive: it must say it is done.
  if (cluster.isWorker) process.exit(result);
} else {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      // A second Ctrl-C means now.
      process.exit(130);
    }
    stopping = true;
    // Through the log, so `--log-format json` stays JSON to the last line; warn, so `--quiet` keeps it.
    result.logger.warn({ signal }, `${signal} received: finishing requests in flight, then stopping.`);
    void result.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
