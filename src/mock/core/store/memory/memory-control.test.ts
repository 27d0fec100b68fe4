import { describe, expect, it } from 'vitest';
import { DEFAULT_CATALOGUE_LIMITS } from '../../catalogue/catalogue-limits.js';
import { errorBody } from '../../errors.js';
import { type Result } from '../../result.js';
import type { Pet } from '../../catalogue/pet.js';
import type { Scenario } from '../../scenarios/check-scenario.js';
import { createMemoryControl } from './memory-control.js';
import type { LoadedScenario, ScenarioLibrary } from '../../scenarios/scenario-library.js';

/**
 * Overlapping activations, whose order over HTTP cannot be forced: the
 * library here finishes each load when the test says, so every order is
 * tried. The control is the real one.
 */
const scenario = (name: string): Scenario => ({ name, description: name, file: `${name}.yaml`, catalogue: { fixture: 'x' }, initialState: 'Started', stubs: [] });
const pets = (count: number): Pet[] => Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `p${i + 1}`, categoryId: 1 }));

function controlledLibrary() {
  const pending = new Map<string, (result: Result<LoadedScenario>) => void>();
  const library: ScenarioLibrary = {
    source: { where: 'nowhere', list: () => ({ ok: true, value: new Map() }), fixture: () => ({ ok: false, error: 'none' }) },
    catalogueLimits: DEFAULT_CATALOGUE_LIMITS,
    load: (name) => new Promise((resolve) => pending.set(name, resolve)),
    get: (name) => library.load(name),
  };
  const finish = (name: string, count = 1): void => pending.get(name)?.({ ok: true, value: { scenario: scenario(name), path: `/nowhere/${name}.yaml`, pets: pets(count) } });
  const refuse = (name: string): void => pending.get(name)?.({ ok: false, error: errorBody('unknown_scenario', `unknown scenario "${name}"`) });
  return { library, finish, refuse };
}

describe('overlapping activations in one session', () => {
  it('the one started last wins when it loads last', async () => {
    const { library, finish } = controlledLibrary();
    const control = createMemoryControl({ library, start: { pets: [] } });
    const first = control.activate('first');
    const second = control.activate('second');
    finish('first', 1);
    expect((await first).ok).toBe(true);
    finish('second', 2);
    expect((await second).ok).toBe(true);
    expect(control.active().runtime?.scenario.name).toBe('second');
  });

  it('the one started last wins when it loads first; the earlier gets 409 activation_superseded', async () => {
    const { library, finish } = controlledLibrary();
    const control = createMemoryControl({ library, start: { pets: [] } });
    const first = control.activate('first');
    const second = control.activate('second');
    finish('second', 2);
    expect((await second).ok).toBe(true);
    finish('first', 1);
    const superseded = await first;
    expect(superseded.ok ? 'applied' : superseded.error).toMatchObject({ code: 'activation_superseded', status: 409 });
    expect(control.active().runtime?.scenario.name).toBe('second');
    expect(control.active().size()).toBe(2);
  });

  it('a later activation that fails cancels nothing', async () => {
    const { library, finish, refuse } = controlledLibrary();
    const control = createMemoryControl({ library, start: { pets: [] } });
    const first = control.activate('first');
    const second = control.activate('second');
    refuse('second');
    expect((await second).ok).toBe(false);
    finish('first', 3);
    expect((await first).ok).toBe(true);
    expect(control.active().runtime?.scenario.name).toBe('first');
    expect(control.active().size()).toBe(3);
  });
});
