import { afterAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../../../../bench/free-port.js';
import type { Pet } from '../../catalogue/pet.js';
import type { StoredPet } from '../../catalogue/catalogue-index.js';
import type { MockStore } from '../mock-store.js';
import { StoreUnavailable } from '../store-unavailable.js';
import { createRedisStore } from './redis-store.js';
import { storeLimits } from '../store-limits.js';
import { pausableProxy } from '../../../../../test/support/pausable-proxy.js';
import { startRedisServer } from '../../../../../test/support/redis-server.js';
import { redisStores, storeTestScenarios } from '../../../../../test/support/redis-stores.js';
import { journalEntry } from '../../../../../test/support/journal-entry.js';

/**
 * Redis going away, hanging, and coming back: every call ends within a
 * bound (the test fails if one takes more than 3 s) as StoreUnavailable,
 * nothing is thrown unhandled (vitest fails a run that has one), and the
 * same store serves again once Redis is back, with every acknowledged
 * write still there (append-only file, fsync always).
 */
const BOUND_MS = 3000;
const folder = storeTestScenarios();
const server = await startRedisServer({ appendonly: true });
afterAll(() => server.stop());

/** Runs `call` and says how it ended and how long it took. */
async function timed(call: () => unknown): Promise<{ ms: number; outcome: unknown }> {
  const started = performance.now();
  let outcome: unknown;
  try {
    outcome = await call();
  } catch (error) {
    outcome = error;
  }
  return { ms: performance.now() - started, outcome };
}

/** Every store call a request or the admin API makes, on a store whose Redis is away: each fails at once, not at the command timeout (no offline queue). */
async function expectAllUnavailable(store: MockStore, id: string, atOnceMs: number): Promise<void> {
  const calls: Array<[string, () => unknown]> = [
    ['open', () => store.open(id)],
    ['find', () => store.find(id)],
    ['list', () => store.list()],
    ['end', () => store.end('other')],
    ['active', () => store.shared.control.active()],
    ['activate', () => store.shared.control.activate('plain')],
    ['reset', () => store.shared.control.reset()],
    ['journal append', () => store.shared.journal.append(journalEntry({ path: '/', operation: null }))],
    ['journal entries', () => store.anonymous.entries()],
    ['journal clear', () => store.shared.journal.clear()],
  ];
  for (const [what, call] of calls) {
    const { ms, outcome } = await timed(call);
    expect(outcome, what).toBeInstanceOf(StoreUnavailable);
    expect(ms, what).toBeLessThan(atOnceMs);
  }
}

describe('Redis killed, then started again', () => {
  it('calls fail fast as StoreUnavailable, health says why, and the same store serves again with nothing acknowledged lost', async () => {
    const { stores: [store] } = await redisStores(server.url, folder.dir, 1, { commandTimeoutMs: 2000 });
    const opened = await store!.open('kept');
    if (!opened.ok) throw new Error('not opened');
    const catalogue = (await opened.value.control.active()).catalogue;
    const made = (await Promise.all(Array.from({ length: 20 }, (_, i) => catalogue.create({ name: `p${i}`, categoryId: 1 })))).map((made) => (made as StoredPet).pet);

    await server.kill();
    await expectAllUnavailable(store!, 'kept', 1000);
    const reads = await Promise.all([timed(() => catalogue.count()), timed(() => catalogue.create({ name: 'lost', categoryId: 1 }))]);
    for (const { ms, outcome } of reads) {
      expect(outcome).toBeInstanceOf(StoreUnavailable);
      expect(ms).toBeLessThan(BOUND_MS);
    }
    const health = await timed(() => store!.health());
    expect(health.ms).toBeLessThan(BOUND_MS);
    expect(health.outcome).toMatchObject({ ok: false, error: expect.stringMatching(/\S/) });

    await server.start();
    await vi.waitFor(async () => expect(await store!.health()).toEqual({ ok: true, value: { evictionPolicy: 'noeviction' } }), { timeout: 5000, interval: 100 });
    const again = await store!.open('kept');
    const state = again.ok ? await again.value.control.active() : undefined;
    expect(await state?.catalogue.count()).toBe(2 + made.length);
    for (const one of made) expect(await state?.catalogue.getJson(one.id)).toBe(JSON.stringify(one));
    expect(await state?.catalogue.create({ name: 'after', categoryId: 1 })).toMatchObject({ pet: { id: 3 + made.length } });
  });
});

describe('Redis killed under load', () => {
  it('creates in flight each end acknowledged or StoreUnavailable, within the bound; every acknowledged one is there after the restart', async () => {
    const { stores: [one, two] } = await redisStores(server.url, folder.dir, 2, { commandTimeoutMs: 1000 });
    const session = async (store: MockStore) => {
      const opened = await store.open('load');
      if (!opened.ok) throw new Error('not opened');
      return (await opened.value.control.active()).catalogue;
    };
    const catalogues = [await session(one!), await session(two!)];
    const acknowledged: Pet[] = [];
    const outcomes: string[] = [];
    let stop = false;
    const worker = async (n: number): Promise<void> => {
      for (let i = 0; !stop; i++) {
        const { ms, outcome } = await timed(() => catalogues[n % 2]!.create({ name: `w${n}-${i}`, categoryId: 1 }));
        expect(ms).toBeLessThan(BOUND_MS);
        if (outcome instanceof StoreUnavailable) outcomes.push('unavailable');
        else if (outcome && typeof outcome === 'object' && 'pet' in outcome) acknowledged.push((outcome as StoredPet).pet);
        else throw new Error(`unexpected outcome ${String(outcome)}`);
        if (outcome instanceof StoreUnavailable) await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const workers = Array.from({ length: 8 }, (_, n) => worker(n));
    await vi.waitFor(() => expect(acknowledged.length).toBeGreaterThan(50));
    await server.kill();
    await vi.waitFor(() => expect(outcomes.length).toBeGreaterThan(8));
    const beforeRestart = acknowledged.length;
    await server.start();
    // Both stores reconnect by themselves, and creates are acknowledged again.
    for (const store of [one!, two!]) await vi.waitFor(async () => expect((await store.health()).ok).toBe(true), { timeout: 5000, interval: 100 });
    await vi.waitFor(() => expect(acknowledged.length).toBeGreaterThan(beforeRestart + 8), { timeout: 5000 });
    stop = true;
    await Promise.all(workers);
    const after = await session(two!);
    // A create Redis ran whose answer the kill cut off is there too, though its caller was told StoreUnavailable: as with any store over a network.
    const count = await after.count();
    expect(count).toBeGreaterThanOrEqual(2 + acknowledged.length);
    expect(count).toBeLessThanOrEqual(2 + acknowledged.length + outcomes.length);
    for (const pet of acknowledged) expect(await after.getJson(pet.id)).toBe(JSON.stringify(pet));
  });
});

describe('Redis that stops answering but keeps the connection', () => {
  it('each call gives up at the command timeout as StoreUnavailable, and works again when Redis answers', async () => {
    const proxy = await pausableProxy(server.port);
    afterAll(() => proxy.close());
    const { stores: [store] } = await redisStores(`redis://127.0.0.1:${proxy.port}`, folder.dir, 1, { commandTimeoutMs: 300 });
    expect((await store!.open('hung')).ok).toBe(true);
    proxy.pause();
    const { ms, outcome } = await timed(() => store!.open('hung'));
    expect(outcome).toBeInstanceOf(StoreUnavailable);
    expect((outcome as Error).message).toContain('within 300 ms');
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(BOUND_MS);
    expect(await store!.health()).toMatchObject({ ok: false });
    proxy.resume();
    expect((await store!.open('hung')).ok).toBe(true);
  });
});

describe('no Redis at start-up', () => {
  it('createRedisStore retries for connectTimeoutMs, then rejects naming the URL without its password', async () => {
    const port = await freePort();
    const { ms, outcome } = await timed(() =>
      createRedisStore({ url: `redis://me:s3cret@127.0.0.1:${port}/2`, prefix: 'x', library: {} as never, start: { pets: [] }, limits: storeLimits(), connectTimeoutMs: 800 }),
    );
    expect(outcome).toBeInstanceOf(Error);
    const message = (outcome as Error).message;
    expect(message).toContain(`127.0.0.1:${port}`);
    expect(message).toContain('within 800 ms');
    expect(message).not.toContain('s3cret');
    expect(ms).toBeGreaterThanOrEqual(790);
    expect(ms).toBeLessThan(BOUND_MS);
  });
});
