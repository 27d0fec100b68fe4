import type { CompiledStub, RequestView } from './compile-stub.js';
import type { ScenarioRuntime } from './scenario-runtime.js';

/** The stub that answers a request, or why none does (one phrase per stub tried). */
export type StubPick = { stub: CompiledStub } | { stub: undefined; why: string };

/**
 * Tries an operation's stubs (its own and `*`, in file order) on a request:
 * the first whose requiredState, match and calls fit answers. A stub's
 * call count is of the requests that fitted its requiredState and match,
 * whether or not its `calls` then fit (see ScenarioRuntime.calls).
 * Synchronous, so no other request can move the state between the check
 * and the count.
 */
export function pickStub(runtime: ScenarioRuntime, stubs: readonly CompiledStub[], request: RequestView): StubPick {
  // Why each stub tried did not fit; built only when a stub misses.
  let why = '';
  const missed = (reason: string): void => {
    why = why === '' ? reason : `${why}; ${reason}`;
  };
  for (const stub of stubs) {
    if (stub.requiredState !== undefined && stub.requiredState !== runtime.state) {
      missed(`${stub.label}: requiredState ${stub.requiredState}, state is ${runtime.state}`);
      continue;
    }
    const mismatch = stub.mismatch(request);
    if (mismatch !== undefined) {
      missed(`${stub.label}: ${mismatch}`);
      continue;
    }
    const call = (runtime.calls[stub.index] = (runtime.calls[stub.index] ?? 0) + 1);
    if (!stub.fitsCall(call)) {
      missed(`${stub.label}: ${stub.callMismatch(call)}`);
      continue;
    }
    return { stub };
  }
  return { stub: undefined, why };
}
