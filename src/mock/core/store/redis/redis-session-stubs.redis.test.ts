import { describe, expect, inject, it } from 'vitest';
import type { MockStore } from '../mock-store.js';
import { MAX_SESSION_STUBS, type SessionStub } from '../../session-stubs/session-stubs.js';
import { SessionEnded } from '../session-ended.js';
import { opened, redisStores, storeTestScenarios } from '../../../../../test/support/redis-stores.js';

/** Session stubs through two stores on one Redis, as two mock processes would have them. */
const url = inject('redisUrl');
const folder = storeTestScenarios();
const { stores } = await redisStores(url, folder.dir, 2);
const [a, b] = stores as [MockStore, MockStore];
const stub = (id: string): SessionStub => ({ id, match: { operation: 'getPet' }, fault: { then: { status: 500 } } });
const labels = async (store: MockStore, id: string): Promise<string[]> => (await (await opened(store, id)).stubs.compiled()).stubsFor('getPet').map((s) => s.label);

describe('session stubs on Redis', () => {
  it('added through one process, answer in the other at its next request; removed the same way', async () => {
    expect(await (await opened(a, 'stubs-1')).stubs.add(stub('one'))).toBeUndefined();
    expect(await labels(b, 'stubs-1')).toEqual(['one']);
    expect((await b.find('stubs-1'))?.stubs).toBeDefined();
    expect(await (await b.find('stubs-1'))?.stubs.list()).toEqual([stub('one')]);
    expect(await labels(b, 'stubs-2')).toEqual([]);
    expect(await (await opened(b, 'stubs-1')).stubs.remove('one')).toBe(true);
    expect(await labels(a, 'stubs-1')).toEqual([]);
    expect(await (await opened(a, 'stubs-1')).stubs.remove('one')).toBe(false);
  });

  it('on the shared default too, read at each request', async () => {
    await a.shared.stubs.add(stub('shared'));
    expect((await b.shared.stubs.compiled()).stubsFor('getPet').map((s) => s.label)).toEqual(['shared']);
    expect(await b.shared.stubs.remove('shared')).toBe(true);
    expect(await a.shared.stubs.list()).toEqual([]);
  });

  it(`hold at most ${MAX_SESSION_STUBS} however many processes add at once, and an id once`, async () => {
    const adds = Array.from({ length: MAX_SESSION_STUBS + 6 }, (_, i) => opened(i % 2 === 0 ? a : b, 'stubs-race').then((session) => session.stubs.add(stub(`s-${i}`))));
    const results = await Promise.all(adds);
    expect(results.filter((result) => result === undefined)).toHaveLength(MAX_SESSION_STUBS);
    expect(results.filter((result) => result === 'full')).toHaveLength(6);
    expect(await (await opened(a, 'stubs-race')).stubs.list()).toHaveLength(MAX_SESSION_STUBS);
    await (await opened(a, 'stubs-race')).stubs.remove('s-0');
    expect(await (await opened(b, 'stubs-race')).stubs.add(stub('s-1'))).toBe('taken');
  });

  it('end with their session; a change to a session that ended meanwhile is refused, not kept', async () => {
    const session = await opened(a, 'stubs-ending');
    await session.stubs.add(stub('gone'));
    expect(await b.end('stubs-ending')).toBe(true);
    await expect(session.stubs.add(stub('late'))).rejects.toBeInstanceOf(SessionEnded);
    expect(await labels(a, 'stubs-ending')).toEqual([]);
  });
});
