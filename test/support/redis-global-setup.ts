/**
 * The `redis` project's global setup: one redis-server for the whole run,
 * its URL handed to the tests (`inject('redisUrl')`). Tests share it by
 * using a key prefix of their own; a test that kills or restarts Redis starts
 * its own with startRedisServer instead.
 */
import type { TestProject } from 'vitest/node';
import { startRedisServer } from './redis-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startRedisServer();
  project.provide('redisUrl', server.url);
  return () => server.stop();
}
