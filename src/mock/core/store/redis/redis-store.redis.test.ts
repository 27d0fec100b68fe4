import { rmSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { createScenarioRuntime } from '../../scenarios/scenario-runtime.js';
import { pickStub } from '../../scenarios/pick-stub.js';
import type { Pet } from '../../catalogue/pet.js';
import type { StoredPet } from '../../catalogue/catalogue-index.js';
import type { MockStore, Session } from '../mock-store.js';
import { opened, redisStores, storeTestScenarios, requestView } from '../../../../../test/support/redis-stores.js';
import { scenarioWith } from '../../../../../test/support/scenario-folder.js';

/**
 * Two stores on one Redis, as two mock processes: what one does, the other
 * sees at once. Every test opens its own session (or its own prefix), so
 * they share the file's Redis without meeting.
 */
const url = inject('redisUrl');
const folder = storeTestScenarios();
const { stores, libraries } = await redisStores(url, folder.dir, 2);
const [a, b] = stores as [MockStore, MockStore];
let sessions = 0;
/** A new session id, and its state as the next request to each store would see it. */
function newSession() {
  const id = `s${++sessions}`;
  return { id, one: () => opened(a, id), two: () => opened(b, id), state: async (store: MockStore) => (await opened(store, id)).control.active() };
}
async function openBoth(): Promise<[Session, Session]> {
  const { one, two } = newSession();
  return [await one(), await two()];
}
const pet = (name: string, status?: Pet['status']) => ({ name, categoryId: 1, ...(status ? { status } : {}) });
const ids = (json: string): number[] => (JSON.parse(json) as Pet[]).map((one) => one.id);

describe('two processes, one catalogue', () => {
  it('an animal created through one is at once in the other: get, list, list by status, count', async () => {
    const [one, two] = await openBoth();
    const created = ((await (await one.control.active()).catalogue.create(pet('Nala', 'pending'))) as StoredPet).pet;
    expect(created).toEqual({ id: 3, name: 'Nala', categoryId: 1, status: 'pending' });
    const other = (await two.control.active()).catalogue;
    expect(await other.getJson(3)).toBe(JSON.stringify(created));
    expect(ids(await other.listJson({ limit: 10 }))).toEqual([1, 2, 3]);
    expect(ids(await other.listJson({ limit: 10, status: 'pending' }))).toEqual([3]);
    expect(ids(await other.listJson({ limit: 10, status: 'available' }))).toEqual([1]);
    expect(await other.count()).toBe(3);
  });

  it('pages take the start catalogue first, then the additions, up to the limit', async () => {
    const [one, two] = await openBoth();
    for (const name of ['c', 'd', 'e']) await (await one.control.active()).catalogue.create(pet(name));
    const other = (await two.control.active()).catalogue;
    expect(ids(await other.listJson({ limit: 1 }))).toEqual([1]);
    expect(ids(await other.listJson({ limit: 4 }))).toEqual([1, 2, 3, 4]);
    expect(await other.listJson({ limit: 10, status: 'sold' })).toBe('[]');
    expect(await other.getJson(99)).toBeUndefined();
  });

  it('a page filtered on another field takes the start catalogue, then the matching additions, up to the limit', async () => {
    const [one, two] = await openBoth();
    // The start catalogue: Milo (categoryId 3, available) and Bruno (categoryId 2).
    for (const [name, categoryId, status] of [['c', 2, 'sold'], ['d', 3, undefined], ['e', 2, undefined], ['f', 2, 'sold']] as const) {
      await (await one.control.active()).catalogue.create({ name, categoryId, ...(status ? { status } : {}) });
    }
    const other = (await two.control.active()).catalogue;
    expect(ids(await other.listJson({ limit: 10, where: [{ field: 'categoryId', value: 2 }] }))).toEqual([2, 3, 5, 6]);
    expect(ids(await other.listJson({ limit: 2, where: [{ field: 'categoryId', value: 2 }] }))).toEqual([2, 3]);
    expect(ids(await other.listJson({ limit: 10, status: 'sold', where: [{ field: 'categoryId', value: 2 }] }))).toEqual([3, 6]);
    expect(ids(await other.listJson({ limit: 10, where: [{ field: 'categoryId', value: 3 }, { field: 'name', value: 'd' }] }))).toEqual([4]);
    expect(await other.listJson({ limit: 10, where: [{ field: 'categoryId', value: 9 }] })).toBe('[]');
  });

  it('concurrent creates through both get unique, increasing ids, every one readable through either', async () => {
    const [one, two] = await openBoth();
    const [first, second] = [(await one.control.active()).catalogue, (await two.control.active()).catalogue];
    const made = (await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? first : second).create(pet(`p${i}`))))).map((made) => (made as StoredPet).pet);
    const madeIds = made.map((one) => one.id).sort((x, y) => x - y);
    expect(new Set(madeIds).size).toBe(60);
    expect(madeIds).toEqual(Array.from({ length: 60 }, (_, i) => i + 3));
    for (const one of made) {
      expect(await first.getJson(one.id)).toBe(JSON.stringify(one));
      expect(await second.getJson(one.id)).toBe(JSON.stringify(one));
    }
    expect(ids(await second.listJson({ limit: 100 }))).toEqual([1, 2, ...madeIds]);
  });

  it('the shared default is one catalogue for both too', async () => {
    const created = ((await (await a.shared.control.active()).catalogue.create(pet('Shared'))) as StoredPet).pet;
    expect(await (await b.shared.control.active()).catalogue.getJson(created.id)).toBe(JSON.stringify(created));
  });
});

describe('two processes, one scenario state', () => {
  it('every: 3 over calls alternating between the two fires on exactly every third', async () => {
    const { one, state: stateIn } = newSession();
    expect((await (await one()).control.activate('every-third')).ok).toBe(true);
    const fired: number[] = [];
    for (let call = 1; call <= 12; call++) {
      const state = await stateIn(call % 2 ? a : b);
      const picked = await state.pick(state.stubsFor('listPets'), requestView());
      if (picked.stub) fired.push(call);
    }
    expect(fired).toEqual([3, 6, 9, 12]);
  });

  it('concurrent calls through both: each count once, so every third of them fires', async () => {
    const { one, state } = newSession();
    await (await one()).control.activate('every-third');
    const [first, second] = [await state(a), await state(b)];
    const picks = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? first : second).pick(first.stubsFor('listPets'), requestView())));
    expect(picks.filter((picked) => picked.stub).length).toBe(10);
  });

  it('a state machine moves once per call, whichever process takes it, and says why no stub fits as pickStub does', async () => {
    const { one, state: stateIn } = newSession();
    await (await one()).control.activate('machine');
    const state = [await stateIn(a), await stateIn(b)];
    // The same scenario in memory, driven by pickStub: the reference for which stub answers and why.
    const reference = createScenarioRuntime(state[0]!.scenario!);
    for (let call = 0; call < 8; call++) {
      const request = requestView(call === 5 ? { nope: 'x' } : {});
      const stubs = state[call % 2]!.stubsFor('getPet');
      const expected = pickStub(reference, stubs, request);
      if (expected.stub?.newState !== undefined) reference.state = expected.stub.newState;
      const picked = await state[call % 2]!.pick(stubs, request);
      expect(picked.stub?.label).toBe(expected.stub?.label);
      expect('why' in picked ? picked.why : undefined).toBe('why' in expected ? expected.why : undefined);
      expect(await state[(call + 1) % 2]!.state()).toBe(reference.state);
    }
  });

  it('two concurrent calls through two processes never both take one transition', async () => {
    const { one, state } = newSession();
    await (await one()).control.activate('machine');
    const [first, second] = [await state(a), await state(b)];
    const picks = await Promise.all([first, second, first, second].map((state) => state.pick(state.stubsFor('getPet'), requestView())));
    // In whatever order Redis takes them: feed (Started → Fed), digest's 1st call (not after the 1st: none), digest (Fed → Started), feed.
    const labels = picks.map((picked) => picked.stub?.label ?? 'none').sort();
    expect(labels).toEqual(['digest', 'feed', 'feed', 'none']);
    expect(await first.state()).toBe('Fed');
  });
});

describe('hot reload', () => {
  it("the new version's stubs serve at once in the process that reloaded it; the state kept on Redis stays", async () => {
    const fault = { then: { status: 503, retryAfterSeconds: 1 } };
    const stub = (label: string, required: string, next: string) => ({ id: label, requiredState: required, newState: next, match: { operation: 'getPet' }, fault });
    folder.write('reloaded.yaml', scenarioWith('reloaded', [stub('v1', 'Started', 'Next')]));
    const { one, state } = newSession();
    await (await one()).control.activate('reloaded');
    const before = await state(a);
    expect((await before.pick(before.stubsFor('getPet'), requestView())).stub?.label).toBe('v1');

    folder.write('reloaded.yaml', scenarioWith('reloaded', [stub('v2', 'Next', 'Done'), stub('v2-start', 'Started', 'Next')]));
    const loaded = await libraries[0]!.load('reloaded');
    if (!loaded.ok) throw new Error(`the new version did not load: ${loaded.error.message}`);
    a.replace(loaded.value);
    const after = await state(a);
    expect(after.stubsFor('getPet').map((one) => one.label)).toEqual(['v2', 'v2-start']);
    expect(await after.state()).toBe('Next');
    expect((await after.pick(after.stubsFor('getPet'), requestView())).stub?.label).toBe('v2');
    expect(await (await state(b)).state()).toBe('Done');
    expect(a.paths()).toContain(loaded.value.path);
  });

  it('a process that cannot load the scenario another activated (its file gone here) serves its start, not an error', async () => {
    const file = folder.write('gone.yaml', scenarioWith('gone', [{ id: 'g', match: { operation: 'getPet' }, fault: { then: { status: 503 } } }]));
    const { one, state } = newSession();
    expect((await (await one()).control.activate('gone')).ok).toBe(true);
    rmSync(file);
    const served = await state(b);
    expect(served.scenario).toBeUndefined();
    expect(await served.catalogue.count()).toBe(2);
  });
});
