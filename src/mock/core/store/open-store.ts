import type { Logger } from 'pino';
import type { ScenarioLibrary } from '../scenarios/scenario-library.js';
import { createMemoryStore } from './memory/memory-store.js';
import type { MockStore, ScenarioStart, SessionEndReason } from './mock-store.js';
import { storeLimits, type StoreLimits } from './store-limits.js';

export const MEMORY_STORE = 'memory';
const ENDED: Record<SessionEndReason, string> = { idle: 'idle too long', evicted: 'the least recently used, to make room' };
export const DEFAULT_STORE_PREFIX = 'animal-store-mock';

export interface StoreOptions extends Partial<StoreLimits> {
  /** `--store`: `memory` (the default), or a `redis://` / `rediss://` URL. */
  url?: string | undefined;
  /** `--store-prefix`: the start of every Redis key, so several mocks can share one Redis. */
  prefix?: string | undefined;
  /** The scenario files sessions activate and reload from. */
  library: ScenarioLibrary;
  /** What the shared default and every new session start from: the start-up scenario and the catalogue's animals. */
  start: ScenarioStart;
  /** Where a session that ends other than by the admin API is told, at info. */
  logger?: Logger | undefined;
  /** Redis only: how long the first connection is retried, and how long a command may take (defaults in redis-connection.ts). */
  connectTimeoutMs?: number | undefined;
  commandTimeoutMs?: number | undefined;
}

/**
 * The store `url` names, its sessions starting from `start`: the one place
 * a store is chosen and its limits checked. The HTTP layer is handed what
 * this opens and never builds a store of its own.
 */
export async function openStore(options: StoreOptions): Promise<MockStore> {
  const limits = storeLimits(options);
  const { url = MEMORY_STORE, library, start, logger } = options;
  const onEnd = logger && ((id: string, why: SessionEndReason) => logger.info({ session: id }, `session ${id} ended: ${ENDED[why]}`));
  if (url === MEMORY_STORE) return createMemoryStore({ library, start, limits, onEnd });
  // Loaded only here: the Redis client costs the memory store's start about 150 ms and 19 MiB (BENCHMARKS.md).
  const { createRedisStore } = await import('./redis/redis-store.js');
  return createRedisStore({
    url,
    prefix: options.prefix ?? DEFAULT_STORE_PREFIX,
    library,
    start,
    limits,
    onEnd,
    onWarning: logger && ((message: string) => logger.warn(message)),
    connectTimeoutMs: options.connectTimeoutMs,
    commandTimeoutMs: options.commandTimeoutMs,
  });
}
