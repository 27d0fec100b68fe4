import { compileStub, type CompiledStub, type RequestView } from '../scenarios/compile-stub.js';
import type { StubPick } from '../scenarios/pick-stub.js';
import type { StubSpec } from '../scenarios/scenario.js';
import type { MaybePromise } from '../store/maybe-promise.js';

/**
 * How many stubs one session may hold. Each is at most one admin request
 * body (64 KiB) of at most MAX_STUB_VALUES values, so a session's stubs
 * take at most about 3.1 MiB of heap (times --max-sessions, plus the shared
 * default's; docs/reference.md, Bounds).
 */
export const MAX_SESSION_STUBS = 20;

/**
 * A stub one session added through the admin API: a scenario file's stub,
 * as written, with its `id` (given, or made when added). Without `calls`,
 * `requiredState` or `newState`: a session stub keeps no count and no
 * state, so it answers every request that fits its match, in every process.
 */
export type SessionStub = StubSpec & { id: string };

/** Why a stub was not added: the session holds MAX_SESSION_STUBS already, or one has its id. */
export type AddRefused = 'full' | 'taken';

/** One session's stubs, in the order added: tried in that order, before its scenario's. */
export interface SessionStubs {
  list(): MaybePromise<readonly SessionStub[]>;
  /** The stubs compiled for the request path, one operation's (its own and `*`) at a time. */
  compiled(): MaybePromise<CompiledSessionStubs>;
  /** Adds a stub checked by checkSessionStub; undefined once added. */
  add(stub: SessionStub): MaybePromise<AddRefused | undefined>;
  /** Removes the stub `id`; false: the session has none by that id. */
  remove(id: string): MaybePromise<boolean>;
}

export interface CompiledSessionStubs {
  stubsFor(operationId: string): readonly CompiledStub[];
}

export const NO_SESSION_STUBS: CompiledSessionStubs = { stubsFor: () => [] };

/** Compiles a session's stubs, as they are written, grouped by the operation they answer. */
export function compileSessionStubs(stubs: readonly SessionStub[]): CompiledSessionStubs {
  if (stubs.length === 0) return NO_SESSION_STUBS;
  const compiled = stubs.map(compileStub);
  const byOperation = new Map<string, CompiledStub[]>();
  return {
    stubsFor(operationId) {
      let found = byOperation.get(operationId);
      if (!found) byOperation.set(operationId, (found = compiled.filter((s) => s.operation === '*' || s.operation === operationId)));
      return found;
    },
  };
}

/**
 * The first stub whose match fits the request, or why none did (one phrase
 * per stub tried). A session stub has no calls or state to check, so
 * nothing is counted and any process may pick it.
 */
export function pickSessionStub(stubs: readonly CompiledStub[], request: RequestView): StubPick {
  let why = '';
  for (const stub of stubs) {
    const mismatch = stub.mismatch(request);
    if (mismatch === undefined) return { stub };
    why = `${why === '' ? '' : `${why}; `}session stub ${stub.label}: ${mismatch}`;
  }
  return { stub: undefined, why };
}
