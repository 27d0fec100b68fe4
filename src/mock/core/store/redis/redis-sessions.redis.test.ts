import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, inject, it } from 'vitest';
import type { StoredPet } from '../../catalogue/catalogue-index.js';
import type { JournalEntry } from '../../journal/request-journal.js';
import type { MockStore } from '../mock-store.js';
import { redisCommand } from '../../../../../test/support/redis-command.js';
import { keysUnder, opened, redisStores, storeTestScenarios } from '../../../../../test/support/redis-stores.js';
import { journalEntry } from '../../../../../test/support/journal-entry.js';

/**
 * Sessions, scenario control and journals through two stores on one
 * Redis: what the admin API does through one process applies to the other.
 */
const url = inject('redisUrl');
const folder = storeTestScenarios();
const { stores, prefix } = await redisStores(url, folder.dir, 2, { journalSize: 5, catalogueLimits: { maxPets: 3, maxBytes: 10_000 } });
const [a, b] = stores as [MockStore, MockStore];
let sessions = 0;
const nextId = (): string => `s${++sessions}`;
const pet = (name: string) => ({ name, categoryId: 1 });
/** A key's TTL in ms (-1: none, -2: no such key). */
const keyTtl = async (key: string): Promise<number> => Number(await redisCommand(Number(new URL(url).port), ['PTTL', key]));
const entry = (path: string): JournalEntry => journalEntry({ path });

describe('the admin side through one process applies to the other', () => {
  it('an activation: the next request to the other answers from it, with a fresh state', async () => {
    const id = nextId();
    await (await (await opened(a, id)).control.active()).catalogue.create(pet('Gone'));
    expect((await (await opened(b, id)).control.activate('every-third')).ok).toBe(true);
    const state = await (await opened(a, id)).control.active();
    expect(state.scenario?.name).toBe('every-third');
    expect(state.stubsFor('listPets').map((stub) => stub.label)).toEqual(['third']);
    expect(await state.catalogue.count()).toBe(30);
    expect((await a.list()).find((one) => one.id === id)).toMatchObject({ scenario: 'every-third', pets: 30 });
  });

  it('an activation refused (a broken or unknown file) leaves the previous scenario active everywhere', async () => {
    const id = nextId();
    await (await opened(a, id)).control.activate('machine');
    const broken = await (await opened(b, id)).control.activate('broken');
    expect(broken.ok ? 'applied' : broken.error).toMatchObject({ code: 'invalid_scenario', status: 400 });
    const unknown = await (await opened(b, id)).control.activate('with space');
    expect(unknown.ok ? 'applied' : unknown.error).toMatchObject({ code: 'unknown_scenario', status: 404 });
    expect((await (await opened(a, id)).control.active()).scenario?.name).toBe('machine');
  });

  it('a reset: catalogue, state and counts back to the start for both; the active scenario stays', async () => {
    const id = nextId();
    await (await opened(a, id)).control.activate('machine');
    const before = await (await opened(a, id)).control.active();
    await before.catalogue.create(pet('x'));
    await before.pick(before.stubsFor('getPet'), { query: () => undefined, header: () => undefined, body: undefined });
    expect(await before.state()).toBe('Fed');
    expect(await (await opened(b, id)).control.reset()).toEqual({ scenario: 'machine', pets: 30, state: 'Started' });
    const after = await (await opened(a, id)).control.active();
    expect(await after.state()).toBe('Started');
    expect(await after.catalogue.count()).toBe(30);
  });

  it("a scenario's reset, and a Prefer: scenario= state kept apart from the active one", async () => {
    const id = nextId();
    const other = await (await opened(a, id)).control.stateOf('plain');
    if (!other.ok) throw new Error('plain did not load');
    await other.value.catalogue.create(pet('in plain'));
    expect(await (await (await opened(b, id)).control.active()).catalogue.count()).toBe(2);
    expect(await (await opened(b, id)).control.resetScenario('machine')).toBeUndefined();
    expect(await (await opened(b, id)).control.resetScenario('plain')).toEqual({ scenario: 'plain', pets: 30, state: 'Started' });
    const again = await (await opened(a, id)).control.stateOf('plain');
    expect(again.ok && (await again.value.catalogue.count())).toBe(30);
    const unknown = await (await opened(a, id)).control.stateOf('nope');
    expect(unknown.ok ? 'found' : unknown.error.code).toBe('unknown_scenario');
  });

  it("one budget over all a session's states, whichever process adds: refused past --max-pets, and freed by a reset", async () => {
    const id = nextId();
    await (await (await opened(a, id)).control.active()).catalogue.create(pet('1'));
    const plain = await (await opened(b, id)).control.stateOf('plain');
    if (!plain.ok) throw new Error('plain did not load');
    await plain.value.catalogue.create(pet('2'));
    await plain.value.catalogue.create(pet('3'));
    expect(await (await (await opened(a, id)).control.active()).catalogue.create(pet('4'))).toEqual({ full: 'pets' });
    await (await opened(a, id)).control.reset();
    expect(await (await (await opened(b, id)).control.active()).catalogue.create(pet('4'))).toMatchObject({ pet: { id: 3 } });
  });

  it('refused past --max-catalogue-bytes on the exact stored JSON, nothing stored', async () => {
    const id = nextId();
    const catalogue = (await (await opened(a, id)).control.active()).catalogue;
    const big = ((await catalogue.create({ name: 'x'.repeat(9_900), categoryId: 1 })) as StoredPet).pet;
    expect(Buffer.byteLength(JSON.stringify(big))).toBeLessThanOrEqual(10_000);
    const room = 10_000 - Buffer.byteLength(JSON.stringify(big));
    // {"id":4,"name":"","categoryId":1} is 33 bytes: one name character more than the room left is refused.
    const fits = room - 33;
    expect(await catalogue.create({ name: 'y'.repeat(fits + 1), categoryId: 1 })).toEqual({ full: 'bytes' });
    expect(await catalogue.create({ name: 'y'.repeat(fits), categoryId: 1 })).toMatchObject({ pet: { id: 4 } });
  });

  it('an end: gone for both at once, every key deleted; opened again, it starts afresh', async () => {
    const id = nextId();
    await (await (await opened(a, id)).control.active()).catalogue.create(pet('x'));
    await (await opened(a, id)).journal.append(entry('/v1/pets'));
    expect(await b.end(id)).toBe(true);
    expect(await a.find(id)).toBeUndefined();
    expect(await a.end(id)).toBe(false);
    expect((await b.list()).map((one) => one.id)).not.toContain(id);
    const again = await opened(a, id);
    expect(await (await again.control.active()).catalogue.count()).toBe(2);
    expect(await again.journal.entries()).toEqual([]);
  });

  it("the shared default: an activation through one serves the other's next call, and its keys never expire", async () => {
    expect((await a.shared.control.activate('plain')).ok).toBe(true);
    expect((await b.shared.control.active()).scenario?.name).toBe('plain');
    expect(await b.shared.control.reset()).toEqual({ scenario: 'plain', pets: 30, state: 'Started' });
    expect(await keyTtl(`${prefix}:shared`)).toBe(-1);
    // A session with the empty id (the HTTP layer refuses it; the store keeps it apart all the same) is not the shared default.
    const empty = await opened(a, '');
    await empty.control.activate('machine');
    expect((await b.shared.control.active()).scenario?.name).toBe('plain');
    expect(await keyTtl(`${prefix}:shared`)).toBe(-1);
    expect(await a.health()).toEqual({ ok: true, value: { evictionPolicy: 'noeviction' } });
  });

  it('the list: each running session, least recently used first, with its owner, scenario, animals, idle time and journal', async () => {
    const id = nextId();
    const opened_ = await a.open(id, 'key-1');
    if (!opened_.ok) throw new Error('not opened');
    await opened_.value.journal.append(entry('/v1/pets'));
    await (await opened_.value.control.active()).catalogue.create(pet('x'));
    const listed = await b.list();
    expect(listed.at(-1)).toEqual({ id, owner: 'key-1', scenario: null, pets: 3, idleSeconds: 0, journal: 1 });
  });

  it('a preview: a session as it would start, not kept, nothing read from another of that id', async () => {
    const id = nextId();
    const shown = b.preview(id);
    expect(shown).toMatchObject({ id, owner: undefined });
    const state = await shown.control.active();
    expect([state.scenario, await state.state(), await state.catalogue.count(), await shown.journal.entries()]).toEqual([undefined, null, 2, []]);
    expect(await a.find(id)).toBeUndefined();
    expect((await a.list()).map((one) => one.id)).not.toContain(id);
  });

  it('a journal: both append, either reads oldest first, capped; emptied through one, empty for both', async () => {
    const id = nextId();
    for (let i = 1; i <= 7; i++) await (await opened(i % 2 ? a : b, id)).journal.append(entry(`/v1/pets/${i}`));
    const journal = (await opened(a, id)).journal;
    expect((await journal.entries()).map((one) => one.path)).toEqual([3, 4, 5, 6, 7].map((i) => `/v1/pets/${i}`));
    expect(await journal.size()).toBe(5);
    await (await opened(b, id)).journal.clear();
    expect(await journal.entries()).toEqual([]);
    await a.anonymous.append(entry('/anon'));
    expect((await b.anonymous.entries()).map((one) => one.path)).toContain('/anon');
  });
});

describe('a request whose session ended while it was served', () => {
  it('writes nothing: a create, a pick, a Prefer state and a journal entry are refused or dropped, and leave no key behind', async () => {
    const id = nextId();
    const held = await opened(a, id);
    const state = await held.control.active();
    // Another process ends it (DELETE /__mock/sessions/ID) while this request is still being served.
    expect(await b.end(id)).toBe(true);
    await expect(state.catalogue.create(pet('Orphan'))).rejects.toMatchObject({ name: 'SessionEnded', id });
    await expect(held.control.stateOf('every-third')).rejects.toMatchObject({ name: 'SessionEnded' });
    await held.journal.append(entry('/v1/pets'));
    const port = Number(new URL(url).port);
    const left = await redisCommand(port, ['EVAL', "return #redis.call('KEYS', ARGV[1])", '0', `${prefix}:s:${id.length}:${id}*`]);
    expect(left).toBe(0);
  });

  it('the same for a session ended and started again: the old request never writes into the new generation', async () => {
    const id = nextId();
    const old = await (await opened(a, id)).control.active();
    await b.end(id);
    const fresh = await opened(b, id);
    await expect(old.catalogue.create(pet('Stale'))).rejects.toMatchObject({ name: 'SessionEnded' });
    expect(await (await fresh.control.active()).catalogue.count()).toBe(2);
  });
});

describe('the session table across processes', () => {
  it('--max-sessions holds across both; a session used within the protection window is never ended to make room', async () => {
    const ended: string[] = [];
    const { stores: [one, two] } = await redisStores(url, folder.dir, 2, { maxSessions: 2, protectMs: 300, onEnd: (id) => ended.push(id) });
    expect((await one!.open('x1')).ok).toBe(true);
    expect((await two!.open('x2')).ok).toBe(true);
    const refused = await one!.open('x3');
    expect(refused.ok ? 'opened' : refused.error).toMatchObject({ protectMs: 300 });
    expect(refused.ok || ('retryAfterMs' in refused.error && refused.error.retryAfterMs > 0 && refused.error.retryAfterMs <= 300)).toBe(true);
    await sleep(350);
    expect((await two!.open('x3')).ok).toBe(true);
    expect(ended).toEqual(['x1']);
    expect((await one!.list()).map((session) => session.id)).toEqual(['x2', 'x3']);
    expect(await one!.find('x1')).toBeUndefined();
  });

  it('a session idle past idleMs ends by TTL everywhere, and leaves no key behind', async () => {
    const { stores: [one, two], prefix: own } = await redisStores(url, folder.dir, 2, { idleMs: 300 });
    const session = await opened(one!, 'idle');
    await (await session.control.active()).catalogue.create(pet('x'));
    await session.journal.append(entry('/v1/pets'));
    expect(await keysUnder(url, own)).toBeGreaterThan(2);
    await sleep(450);
    expect(await two!.find('idle')).toBeUndefined();
    expect(await two!.list()).toEqual([]);
    // Left: the generation counter and the shared secret of key sessions (the shared default and the anonymous journal wrote nothing).
    expect(await keysUnder(url, own)).toBe(2);
  });

  it('a session used keeps living: each open refreshes every key', async () => {
    const { stores: [one, two] } = await redisStores(url, folder.dir, 2, { idleMs: 400 });
    await (await (await opened(one!, 'busy')).control.active()).catalogue.create(pet('x'));
    for (let i = 0; i < 4; i++) {
      await sleep(200);
      await opened(i % 2 ? one! : two!, 'busy');
    }
    expect(await (await (await opened(two!, 'busy')).control.active()).catalogue.count()).toBe(3);
  });

  it('two prefixes on one Redis do not see each other', async () => {
    const { stores: [other] } = await redisStores(url, folder.dir, 1);
    const id = nextId();
    await (await (await opened(a, id)).control.active()).catalogue.create(pet('here'));
    expect(await other!.find(id)).toBeUndefined();
    expect(await (await (await opened(other!, id)).control.active()).catalogue.count()).toBe(2);
    expect(prefix).not.toBe('');
  });
});

describe('odd input', () => {
  it("ids with ':', '*', unicode and 128 characters are sessions of their own", async () => {
    const ids = ['a', 'a:b', 'a:b:c', '1:a', '*', 'a*', 'ünï-cødé ✓', 'x'.repeat(128), 'x'.repeat(127)];
    for (const [i, id] of ids.entries()) {
      const catalogue = (await (await opened(a, id)).control.active()).catalogue;
      for (let n = 0; n <= i; n++) await catalogue.create(pet(id));
    }
    for (const [i, id] of ids.entries()) {
      expect(await (await (await opened(b, id)).control.active()).catalogue.count()).toBe(2 + Math.min(i + 1, 3));
      expect((await b.find(id))?.id).toBe(id);
    }
  });

  it("ids shaped like another session's key names stay sessions of their own", async () => {
    const { stores: [one] } = await redisStores(url, folder.dir, 1);
    const first = await opened(one!, 'k');
    await first.journal.append(entry('/k'));
    await (await first.control.active()).catalogue.create(pet('k'));
    // What a session's keys would be called if ids were written as they are (its generation is small in a new prefix).
    const lookalikes = [1, 2, 3].flatMap((gen) => [`k:${gen}:j`, `k:${gen}:n`, `k:${gen}:t::h`, `k:${gen}:t::o`]);
    for (const id of lookalikes) {
      const session = await opened(one!, id);
      expect(await session.journal.entries()).toEqual([]);
      expect(await (await session.control.active()).catalogue.count()).toBe(2);
    }
    expect((await (await opened(one!, 'k')).journal.entries()).map((e) => e.path)).toEqual(['/k']);
  });

  it('ids no animal can have are simply not found', async () => {
    const catalogue = (await (await opened(a, nextId())).control.active()).catalogue;
    await catalogue.create(pet('x'));
    for (const id of [0, -1, 2.5, 3.5, 2 ** 53, 2 ** 60, 9.2e18, 1e300, Number.MAX_VALUE]) expect(await catalogue.getJson(id), String(id)).toBeUndefined();
    expect(await catalogue.getJson(3)).toContain('"id":3');
  });

  it('an owner is kept as given, and none is none', async () => {
    expect((await opened(a, 'owned')).owner).toBeUndefined();
    const id = nextId();
    expect((await a.open(id, 'key:abc')).ok && (await b.find(id))?.owner).toBe('key:abc');
  });

  it('a journal entry with a huge path and odd characters comes back as it went in', async () => {
    const path = `/v1/pets?q=${'é"\\\n'.repeat(20_000)}`;
    const journal = (await opened(a, nextId())).journal;
    await journal.append({ ...entry(path), unmatched: 'x' });
    expect(await journal.entries()).toEqual([{ ...entry(path), unmatched: 'x', seq: 1 }]);
  });

  it("a journal's seqs: one counter for every process, kept across a clear, with the session's TTL, gone with it", async () => {
    const id = nextId();
    await (await opened(a, id)).journal.append(entry('/v1/pets?n=1'));
    await (await opened(b, id)).journal.append(entry('/v1/pets?n=2'));
    const seen = await (await opened(a, id)).journal.since(0, 10);
    expect(seen).toMatchObject({ last: 2, newer: 2, cleared: 0, ended: undefined });
    expect(seen.entries.map((one) => [one.seq, one.path])).toEqual([[1, '/v1/pets?n=1'], [2, '/v1/pets?n=2']]);
    await (await opened(b, id)).journal.clear();
    await (await opened(a, id)).journal.append(entry('/v1/pets?n=3'));
    const after = await (await opened(b, id)).journal.since(1, 10);
    expect(after).toMatchObject({ last: 3, newer: 2, cleared: 1 });
    expect(after.entries.map((one) => one.seq)).toEqual([3]);
    // At most the `max` newest, oldest first; the journal holds 5, so the oldest of 8 are gone.
    for (let n = 4; n <= 8; n++) await (await opened(a, id)).journal.append(entry(`/v1/pets?n=${n}`));
    expect((await (await opened(b, id)).journal.since(0, 3)).entries.map((one) => one.seq)).toEqual([6, 7, 8]);
    expect((await (await opened(b, id)).journal.since(0, 10)).entries.map((one) => one.seq)).toEqual([4, 5, 6, 7, 8]);
    // Counted by status and operation as appended, by every process, with one id; all-or-none reads nothing past max.
    const counted = await (await opened(b, id)).journal.since(2, 3, true);
    expect(counted).toMatchObject({ entries: [], newer: 6, counts: { byStatus: { 200: 8 }, byOperation: { listPets: 8 } } });
    expect(counted.id).toMatch(/^\d{16}$/);
    expect((await (await opened(a, id)).journal.since(0, 1)).id).toBe(counted.id);
    const counters = (await keysOf(id)).find((key) => key.endsWith(':j:q')) ?? '';
    expect(await keyTtl(counters)).toBeGreaterThan(0);
    const view = await opened(a, id);
    expect(await b.end(id)).toBe(true);
    expect(await keyTtl(counters)).toBe(-2);
    expect((await view.journal.since(8, 10)).ended).toMatch(/ended/);
    // Nothing is written for the ended session: no key comes back.
    await view.journal.clear();
    expect(await keysOf(id)).toEqual([]);
  });
});

/** The keys of session `id`'s running generation and hash. */
async function keysOf(id: string): Promise<string[]> {
  const port = Number(new URL(url).port);
  // One string: the test helper reads no arrays.
  const joined = String(await redisCommand(port, ['EVAL', "return table.concat(redis.call('KEYS', ARGV[1]), ' ')", '0', `${prefix}:s:${Buffer.byteLength(id)}:${id}*`]));
  return joined === '' ? [] : joined.split(' ');
}
