import { andThen } from '../../src/mock/core/store/maybe-promise.js';
import type { MockStore, ScenarioControl, ScenarioState, Session, StateCatalogue } from '../../src/mock/core/store/mock-store.js';

/**
 * `store`, with every scenario state's catalogue (every session's, the
 * shared default's) seen through `wrap`: a deliberately broken or faulty
 * catalogue behind the real mock, with the rest of the store as it is. A
 * catalogue is wrapped once, so what a wrapper remembers lasts as long as
 * the catalogue it wraps (until a reset makes a new one).
 */
export function wrapCatalogues(store: MockStore, wrap: (catalogue: StateCatalogue) => StateCatalogue): MockStore {
  const wrapped = new WeakMap<StateCatalogue, StateCatalogue>();
  const catalogueOf = (inner: StateCatalogue): StateCatalogue => {
    let outer = wrapped.get(inner);
    if (!outer) wrapped.set(inner, (outer = wrap(inner)));
    return outer;
  };
  const state = (inner: ScenarioState): ScenarioState => override(inner, { catalogue: catalogueOf(inner.catalogue) });
  const control = (inner: ScenarioControl): ScenarioControl =>
    override(inner, {
      active: () => andThen(inner.active(), state),
      stateOf: (name: string) => andThen(inner.stateOf(name), (found) => (found.ok ? { ok: true as const, value: state(found.value) } : found)),
    });
  const session = (inner: Session): Session => override(inner, { control: control(inner.control) });
  return override(store, {
    shared: session(store.shared),
    open: (id: string, owner?: string) => andThen(store.open(id, owner), (opened) => (opened.ok ? { ok: true as const, value: session(opened.value) } : opened)),
    find: (id: string) => andThen(store.find(id), (found) => found && session(found)),
    preview: (id: string) => session(store.preview(id)),
  });
}

/** `target` with `changes` read first: its other members as they are, getters included. */
function override<T extends object>(target: T, changes: Partial<T>): T {
  return new Proxy(target, { get: (inner, key) => (key in changes ? changes[key as keyof T] : Reflect.get(inner, key)) });
}
