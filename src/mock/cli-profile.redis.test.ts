import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY } from '../shared/default-api-key.js';
import { fixture, startMock, useBuiltCli, type RunningMock } from '../../test/support/built-cli.js';
import { useRedisServer } from '../../test/support/redis-server.js';

/**
 * A profile's order on the Redis store: newest first, as the memory store
 * serves it. The same animals added to a mock on each store, the two list
 * the same ids in the same order, page by page and filtered by status.
 */
useBuiltCli();

const redis = useRedisServer();

const NEWEST_FIRST = 'version: 1\nname: newest-first\nchoices:\n  order: descending\n';

async function call(mock: RunningMock, path: string, init: RequestInit = {}): Promise<{ status: number; json: any }> {
  const response = await fetch(`${mock.url}${path}`, { ...init, headers: { authorization: `Bearer ${DEFAULT_API_KEY}`, 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });
  return { status: response.status, json: await response.json() };
}

const ids = async (mock: RunningMock, query: string): Promise<number[]> => {
  const page = await call(mock, `/pets?${query}`);
  expect(page.status, query).toBe(200);
  return page.json.map((pet: { id: number }) => pet.id);
};

describe('a profile with the listing newest first, on the Redis store', () => {
  it('lists additions first, then the start catalogue, from the largest id, as the memory store does', { timeout: 30_000 }, async () => {
    const profile = fixture('newest-first-redis.yaml', NEWEST_FIRST);
    const [onRedis, inMemory] = await Promise.all([
      startMock(['--profile', profile, '--store', redis().url, '--store-prefix', `order-${randomUUID()}`, '--no-watch']),
      startMock(['--profile', profile, '--no-watch']),
    ]);
    expect(onRedis.banner).toMatch(/Profile: +newest-first/);
    const added: number[] = [];
    for (const [i, status] of ['sold', 'available', 'sold', undefined, 'pending'].entries()) {
      const pet = { name: `order ${i}`, categoryId: 1, ...(status && { status }) };
      const [a, b] = await Promise.all([onRedis, inMemory].map((mock) => call(mock, '/pets', { method: 'POST', body: JSON.stringify(pet) })));
      expect(a?.status).toBe(201);
      expect(a?.json.id).toBe(b?.json.id);
      added.push(a?.json.id);
    }
    for (const query of ['limit=100', 'limit=1', 'limit=3', 'limit=7', 'status=sold&limit=1', 'status=sold&limit=100', 'status=pending&limit=2', 'status=available']) {
      const listed = await ids(onRedis, query);
      expect(listed, query).toEqual(await ids(inMemory, query));
      expect(listed, query).toEqual([...listed].sort((x, y) => y - x));
    }
    // The additions come first: the newest is the first of every page it belongs to.
    expect((await ids(onRedis, 'limit=5')).slice(0, 5)).toEqual([...added].reverse());
  });
});
