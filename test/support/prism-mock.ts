/**
 * A real `prism mock openapi/animal-store.yaml` (@stoplight/prism-cli, a
 * development dependency), for the tests of the wrong-target verdict. Like
 * any `prism mock`, it serves the document's paths at the root (`/pets`),
 * whatever its `servers` say, so a harness asked to test `…/v1` gets 404
 * for every route, and 400 for a body it cannot parse. Not a test file
 * itself.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packageRoot } from '../../src/shared/package-root.js';
import { freePort } from './built-cli.js';
import type { TestServer } from './contract-cli.js';

const require = createRequire(import.meta.url);
const PRISM_BIN = require.resolve('@stoplight/prism-cli/dist/index.js');
/** How long prism may take to load the document and listen, on a loaded machine. */
export const PRISM_START_MS = 60_000;

/** Starts it on a free port; its `url` is the base the harness would be given (`…/v1`), which prism does not serve. `requests` counts the requests prism logged (a lower bound). */
export async function startPrismMock(): Promise<TestServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [PRISM_BIN, 'mock', join(packageRoot(), 'openapi', 'animal-store.yaml'), '--host', '127.0.0.1', '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  let requests = 0;
  const read = (chunk: Buffer): void => {
    log += chunk.toString('utf8');
    const lines = log.split('\n');
    log = lines.pop() ?? '';
    // prism logs one "Request received" line for every request it reads.
    requests += lines.filter((line) => line.includes('Request received')).length;
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  const deadline = Date.now() + PRISM_START_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prism mock exited ${child.exitCode} before listening`);
    const ready = await fetch(`http://127.0.0.1:${port}/pets?limit=1`, { headers: { authorization: 'Bearer probe' } }).then(
      () => true,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prism mock did not listen on ${port} within ${PRISM_START_MS} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    /** The requests prism logged, the readiness probe's included: its log lags its answers and does not name every request, so a lower bound. */
    get requests() {
      return requests;
    },
    close: stop,
  };
}
