// Placeholder until the Redis store lands (branch redis-store).
import type { MockStore } from '../mock-store.js';
export async function createRedisStore(options: { url: string; [key: string]: unknown }): Promise<MockStore> {
  throw new Error(`the Redis store is not built yet: ${options.url}`);
}
