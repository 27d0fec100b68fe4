import { describe, expect, inject, it } from 'vitest';
import type { StoredPet } from '../../catalogue/catalogue-index.js';
import type { NewPet, Pet } from '../../catalogue/pet.js';
import type { MockStore, ScenarioState } from '../mock-store.js';
import { redisCommand } from '../../../../../test/support/redis-command.js';
import { opened, redisStores, storeTestScenarios } from '../../../../../test/support/redis-stores.js';

/**
 * What the Redis store does of its own with a create that refuses a taken
 * name (what every store does: taken-name.redis.test.ts): two stores on one
 * Redis, as two mock processes, share the additions' names (a set on
 * Redis, checked and added in the create's one script), and each state's
 * set goes with its state. The start catalogue: Milo (id 1) and Bruno (id 2).
 */
const url = inject('redisUrl');
const port = Number(new URL(url).port);
const folder = storeTestScenarios();
const { stores, prefix } = await redisStores(url, folder.dir, 2);
const [a, b] = stores as [MockStore, MockStore];
let sessions = 0;
const nextId = (): string => `s${++sessions}`;
const refuse = { refuseTakenName: true };
const pet = (name: string): NewPet => ({ name, categoryId: 1 });
const active = async (store: MockStore, id: string): Promise<ScenarioState> => (await opened(store, id)).control.active();
const names = async (state: ScenarioState): Promise<string[]> => (JSON.parse(await state.catalogue.listJson({ limit: 1000 })) as Pet[]).map((one) => one.name);

/** The names sets of session `id`'s running generation (one a state that stored an animal). */
async function nameSets(id: string): Promise<string[]> {
  // One string: the test helper reads no arrays.
  const joined = String(await redisCommand(port, ['EVAL', "return table.concat(redis.call('KEYS', ARGV[1]), ' ')", '0', `${prefix}:s:${Buffer.byteLength(id)}:${id}:*:names`]));
  return joined === '' ? [] : joined.split(' ');
}
const keyTtl = async (key: string): Promise<number> => Number(await redisCommand(port, ['PTTL', key]));

describe('a create asked to refuse a taken name, two processes on one Redis, and the sets Redis keeps', () => {

  it('a name added through one process, with the option or without, is taken in the other', async () => {
    const id = nextId();
    expect(await (await active(b, id)).catalogue.create(pet('Nala'))).toMatchObject({ pet: { id: 3 } });
    expect(await (await active(a, id)).catalogue.create(pet('Nala'), refuse)).toEqual({ taken: true });
    expect(await (await active(a, id)).catalogue.create(pet('Kit'), refuse)).toMatchObject({ pet: { id: 4 } });
    expect(await (await active(b, id)).catalogue.create(pet('Kit'), refuse)).toEqual({ taken: true });
    expect(await names(await active(b, id))).toEqual(['Milo', 'Bruno', 'Nala', 'Kit']);
  });

  it('two processes creating one new name at once with the option store it exactly once', async () => {
    const id = nextId();
    const [first, second] = [await active(a, id), await active(b, id)];
    const fresh = Array.from({ length: 10 }, (_, i) => `twin-${i}`);
    const outcomes = await Promise.all(fresh.flatMap((name) => [first.catalogue.create(pet(name), refuse), second.catalogue.create(pet(name), refuse)]));
    const stored = outcomes.filter((outcome): outcome is StoredPet => 'pet' in outcome);
    expect(stored.map((one) => one.pet.name).sort()).toEqual(fresh);
    expect(outcomes.filter((outcome) => 'taken' in outcome)).toHaveLength(fresh.length);
    expect(await second.catalogue.count()).toBe(2 + fresh.length);
    expect((await names(first)).sort()).toEqual(['Bruno', 'Milo', ...fresh].sort());
  });

  it("after a session reset the additions' names are free again, the start animals' still taken; the set is gone with them", async () => {
    const id = nextId();
    await (await active(a, id)).catalogue.create(pet('Nala'));
    const [set] = await nameSets(id);
    expect(await keyTtl(set!)).toBeGreaterThan(0);
    await (await opened(b, id)).control.reset();
    expect(await nameSets(id)).toEqual([]);
    expect(await (await active(a, id)).catalogue.create(pet('Milo'), refuse)).toEqual({ taken: true });
    expect(await (await active(a, id)).catalogue.create(pet('Nala'), refuse)).toMatchObject({ pet: { id: 3, name: 'Nala' } });
  });

  it("each state has its own names; a scenario's reset, an activation and an end each take theirs", async () => {
    const id = nextId();
    // A name neither start catalogue has (the scenarios' fixture has 30 animals).
    const other = await (await opened(a, id)).control.stateOf('plain');
    if (!other.ok) throw new Error('plain did not load');
    expect(await other.value.catalogue.create(pet('Quokka'), refuse)).toHaveProperty('pet');
    expect(await (await active(b, id)).catalogue.create(pet('Quokka'), refuse)).toHaveProperty('pet');
    expect(await other.value.catalogue.create(pet('Quokka'), refuse)).toEqual({ taken: true });
    expect(await nameSets(id)).toHaveLength(2);
    await (await opened(b, id)).control.resetScenario('plain');
    expect(await nameSets(id)).toHaveLength(1);
    expect(await other.value.catalogue.create(pet('Quokka'), refuse)).toHaveProperty('pet');

    expect((await (await opened(a, id)).control.activate('machine')).ok).toBe(true);
    const machine = await active(b, id);
    const [startName] = await names(machine);
    expect(await machine.catalogue.create(pet(startName!), refuse)).toEqual({ taken: true });
    // The start state's set went with the activation; plain's stays.
    expect(await nameSets(id)).toHaveLength(1);
    expect(await b.end(id)).toBe(true);
    expect(await nameSets(id)).toEqual([]);
  });
});
