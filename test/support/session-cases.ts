import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/mock/core/journal/request-journal.js';
import { journalEntry } from './journal-entry.js';
import { opened, requestView } from './redis-stores.js';
import type { OpenStore } from './taken-name-cases.js';

const pet = (name: string) => ({ name, categoryId: 1 });
const entry = (path: string): JournalEntry => journalEntry({ path });

/**
 * What every MockStore does with sessions and their scenarios, one case
 * list run against each store (memory, and a real Redis) through one
 * process: activation, reset, end, the list, a preview and the journal.
 * What only several processes on one Redis show is tested beside the
 * Redis store. The scenarios are the store tests' (redis-stores.ts):
 * `every-third` and `machine` start from the default catalogue (30
 * animals), the start state from Milo and Bruno.
 */
export function describeSessions(kind: string, open: OpenStore): void {
  let sessions = 0;
  const nextId = (): string => `sessions-${++sessions}`;

  describe(`a ${kind} store's sessions`, () => {
    it('an activation serves a fresh state of the scenario; one refused (broken, unknown) leaves the previous active', async () => {
      const store = await open();
      const id = nextId();
      await (await (await opened(store, id)).control.active()).catalogue.create(pet('Gone'));
      expect((await (await opened(store, id)).control.activate('every-third')).ok).toBe(true);
      const state = await (await opened(store, id)).control.active();
      expect(state.scenario?.name).toBe('every-third');
      expect(state.stubsFor('listPets').map((stub) => stub.label)).toEqual(['third']);
      expect(await state.catalogue.count()).toBe(30);
      const broken = await (await opened(store, id)).control.activate('broken');
      expect(broken.ok ? 'applied' : broken.error).toMatchObject({ code: 'invalid_scenario', status: 400 });
      const unknown = await (await opened(store, id)).control.activate('with space');
      expect(unknown.ok ? 'applied' : unknown.error).toMatchObject({ code: 'unknown_scenario', status: 404 });
      expect((await (await opened(store, id)).control.active()).scenario?.name).toBe('every-third');
    });

    it('a reset puts catalogue, state and counts back to the start; the active scenario stays', async () => {
      const store = await open();
      const id = nextId();
      await (await opened(store, id)).control.activate('machine');
      const before = await (await opened(store, id)).control.active();
      await before.catalogue.create(pet('x'));
      await before.pick(before.stubsFor('getPet'), requestView());
      expect(await before.state()).toBe('Fed');
      expect(await (await opened(store, id)).control.reset()).toEqual({ scenario: 'machine', pets: 30, state: 'Started' });
      const after = await (await opened(store, id)).control.active();
      expect([after.scenario?.name, await after.state(), await after.catalogue.count()]).toEqual(['machine', 'Started', 30]);
    });

    it('an end: gone at once; opened again, it starts afresh', async () => {
      const store = await open();
      const id = nextId();
      await (await (await opened(store, id)).control.active()).catalogue.create(pet('x'));
      await (await opened(store, id)).journal.append(entry('/v1/pets'));
      expect(await store.end(id)).toBe(true);
      expect(await store.find(id)).toBeUndefined();
      expect(await store.end(id)).toBe(false);
      expect((await store.list()).map((one) => one.id)).not.toContain(id);
      const again = await opened(store, id);
      expect(await (await again.control.active()).catalogue.count()).toBe(2);
      expect(await again.journal.entries()).toEqual([]);
    });

    it('the list: each running session with its owner, scenario, animals, idle time and journal; a preview is not kept', async () => {
      const store = await open();
      const id = nextId();
      const session = await store.open(id, 'key-1');
      if (!session.ok) throw new Error('not opened');
      await session.value.journal.append(entry('/v1/pets'));
      await (await session.value.control.active()).catalogue.create(pet('x'));
      expect((await store.list()).find((one) => one.id === id)).toEqual({ id, owner: 'key-1', scenario: null, pets: 3, idleSeconds: 0, journal: 1 });
      const other = nextId();
      const shown = store.preview(other);
      expect(await (await shown.control.active()).catalogue.count()).toBe(2);
      expect(await store.find(other)).toBeUndefined();
    });

    it('a journal: read oldest first, counted, emptied by a clear; the anonymous one apart', async () => {
      const store = await open();
      const id = nextId();
      for (let i = 1; i <= 3; i++) await (await opened(store, id)).journal.append(entry(`/v1/pets/${i}`));
      const { journal } = await opened(store, id);
      expect((await journal.entries()).map((one) => one.path)).toEqual(['/v1/pets/1', '/v1/pets/2', '/v1/pets/3']);
      expect(await journal.size()).toBe(3);
      await store.anonymous.append(entry('/anon'));
      await journal.clear();
      expect(await journal.entries()).toEqual([]);
      expect((await store.anonymous.entries()).map((one) => one.path)).toContain('/anon');
    });
  });
}
