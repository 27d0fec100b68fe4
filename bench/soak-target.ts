import { spawnNode, type Child } from './children.js';
import { HOST, MOCK_BIN } from './config.js';
import { freePort } from './free-port.js';
import { waitReady } from './wait-ready.js';

/**
 * The upstream of `npm run bench:soak -- --proxy`: a second, plain mock
 * (the built `animal-store-mock`, default flags). It is chosen over
 * bench/baseline-server.ts because it keeps what is created: createPet with
 * a name of almost 1 MiB is stored, so listPets pages of up to 100 such
 * animals come back through the proxy as answers of many MiB, and its own
 * bounds (507 `catalogue_full`, 503 `too_many_sessions`) answer with Error
 * bodies the proxy relays as they are.
 */
export interface SoakTarget {
  child: Child;
  /** What `--proxy` is given: the target's origin with the API's base, `/v1`. */
  url: string;
  command: string;
}

const TARGET_FLAGS = ['--log-format', 'json', '--quiet'];

/** Starts the target on a free port; resolves once it answers. */
export async function startTarget(): Promise<SoakTarget> {
  const port = await freePort();
  const args = ['--port', String(port), ...TARGET_FLAGS];
  const child = spawnNode('target', [MOCK_BIN, ...args]);
  const origin = `http://${HOST}:${port}`;
  await waitReady(origin, child);
  return { child, url: `${origin}/v1`, command: `animal-store-mock ${args.join(' ')}` };
}
