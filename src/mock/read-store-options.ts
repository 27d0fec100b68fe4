import { failed, ok, type Result } from './core/result.js';
import { shownUrl } from './core/store/shown-url.js';
import { DEFAULT_STORE_PREFIX, MEMORY_STORE } from './core/store/open-store.js';
/** More processes than this on one machine is a mistake, not a plan: node:cluster forks each as a whole node process. */
export const MAX_WORKERS = 64;

export interface StoreFlags {
  /** `--store` (env MOCK_STORE): `memory`, or a `redis://` / `rediss://` URL. */
  storeUrl: string;
  /** `--store-prefix` (env MOCK_STORE_PREFIX): the start of every Redis key. */
  storePrefix: string;
  /** `--workers` (env MOCK_WORKERS): processes sharing the port (node:cluster). */
  workers: number;
}

// Key-safe and readable in `redis-cli --scan`: no spaces, no glob characters.
const PREFIX = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * `--store`, `--store-prefix` and `--workers`, each else its environment
 * variable (an empty one counts as unset), else the default. Several
 * workers need a shared store: with `memory` each process would be a mock
 * of its own, and a client's requests would land on a different one each
 * time, so that is refused rather than served wrong.
 */
export function readStoreOptions(values: { store?: string | undefined; 'store-prefix'?: string | undefined; workers?: string | undefined }, env: NodeJS.ProcessEnv): Result<StoreFlags, string> {
  const storeUrl = values.store ?? (env.MOCK_STORE || MEMORY_STORE);
  if (storeUrl !== MEMORY_STORE && !isRedisUrl(storeUrl)) return failed(`--store must be memory, redis://[user:password@]host:port[/db] or rediss://…, got ${JSON.stringify(shownUrl(storeUrl))}`);
  const storePrefix = values['store-prefix'] ?? (env.MOCK_STORE_PREFIX || DEFAULT_STORE_PREFIX);
  if (!PREFIX.test(storePrefix)) return failed(`--store-prefix must be 1 to 64 of A-Z a-z 0-9 . _ : -, got ${JSON.stringify(storePrefix.slice(0, 80))}`);
  const workersText = values.workers ?? (env.MOCK_WORKERS || '1');
  const workers = /^[0-9]{1,3}$/.test(workersText) ? Number(workersText) : Number.NaN;
  if (!(workers >= 1 && workers <= MAX_WORKERS)) return failed(`--workers must be a whole number from 1 to ${MAX_WORKERS}, got ${JSON.stringify(workersText)}`);
  if (workers > 1 && storeUrl === MEMORY_STORE) {
    return failed(`--workers ${workers} needs a shared store, such as --store redis://localhost:6379: with the memory store each process would be a mock of its own`);
  }
  return ok({ storeUrl, storePrefix, workers });
}

/**
 * `redis://[user:password@]host[:port][/db]`: the database is the path, a
 * number (node-redis reads no `?db=`, and a query or a longer path would be
 * silently ignored or fail later as "Invalid pathname").
 */
function isRedisUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '' && /^(\/\d{0,5})?$/.test(url.pathname) && url.search === '' && url.hash === '';
  } catch {
    return false;
  }
}
