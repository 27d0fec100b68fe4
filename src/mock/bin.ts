#!/usr/bin/env node
import cluster from 'node:cluster';
import { main } from './main.js';
import { stopOnSignals } from './shutdown.js';

const result = await main({ argv: process.argv.slice(2), env: process.env, stdout: process.stdout, stderr: process.stderr });
if (typeof result === 'number') {
  process.exitCode = result;
  // A worker's channel to its primary (--workers) would keep it alive: it must say it is done.
  if (cluster.isWorker) process.exit(result);
} else {
  stopOnSignals(result);
}
