import { compileSessionStubs, MAX_SESSION_STUBS, NO_SESSION_STUBS, type CompiledSessionStubs, type SessionStub, type SessionStubs } from '../../session-stubs/session-stubs.js';

/** A session's stubs in memory, compiled again only when they change. */
export function memorySessionStubs(): SessionStubs {
  let stubs: readonly SessionStub[] = [];
  let compiled: CompiledSessionStubs = NO_SESSION_STUBS;
  const set = (next: readonly SessionStub[]): void => {
    stubs = next;
    compiled = compileSessionStubs(next);
  };
  return {
    list: () => stubs,
    compiled: () => compiled,
    add(stub) {
      if (stubs.some((s) => s.id === stub.id)) return 'taken';
      if (stubs.length >= MAX_SESSION_STUBS) return 'full';
      set([...stubs, stub]);
      return undefined;
    },
    remove(id) {
      const kept = stubs.filter((s) => s.id !== id);
      if (kept.length === stubs.length) return false;
      set(kept);
      return true;
    },
  };
}
