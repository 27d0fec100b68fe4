#!/usr/bin/env node
import cluster from 'node:cluster';
import { main } from './main.js';
import { stopOnSignals } from './shutdown.js';

let stopsOnSignals = false;
const onStarted = (server: Parameters<typeof stopOnSignals>[0]): void => {
  stopsOnSignals = true;
  stopOnSignals(server);
};
const result = await main({ argv: process.argv.slice(2), env: process.env, stdout: process.stdout, stderr: process.stderr, onStarted });
if (typeof result === 'number') {
  process.exitCode = result;
  // A worker's channel to its primary (--workers) would keep it alive: it must say it is done.
  if (cluster.isWorker) process.exit(result);
} else if (!stopsOnSignals) {
  stopOnSignals(result);
}
