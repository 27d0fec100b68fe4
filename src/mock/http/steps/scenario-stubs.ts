import { servingState, type Exchange, type Next, type Step } from '../exchange.js';
import { requestView, stubAnswer } from '../stub-answer.js';
import type { CompiledStub } from '../../core/scenarios/compile-stub.js';
import { andThen } from '../../core/store/maybe-promise.js';
import type { ScenarioState } from '../../core/store/mock-store.js';
import { traceStub, traceUnmatched } from '../exchange-trace.js';

export interface ScenarioStubsOptions {
  operationId: string;
  /** Aborted when the server shuts down (ends hangs). */
  shutdown?: AbortSignal | undefined;
}

/**
 * The step that lets the serving scenario's stubs (its session's active
 * one, or the one `Prefer: scenario=` names) answer one operation. It runs
 * after auth and before the operation. The stubs for the operation (its own
 * and `*`) are tried in order (pickStub); the first whose requiredState,
 * match and calls fit answers; when none does, the operation answers. Which
 * stub answered, or why none did, goes to the journal. The pick counts
 * the call and moves the state in one atomic step of the store
 * (ScenarioState.pick), so the state machine advances once per request,
 * whichever process serves it.
 */
export function scenarioStubs({ operationId, shutdown }: ScenarioStubsOptions): Step {
  // With no stub for the operation (as in `default`) it stays synchronous.
  return function scenarioStub(x, next) {
    // Read at each request: another scenario can be activated, or its file reloaded, at any time.
    return andThen(servingState(x), (state) => {
      if (!state.scenario) {
        traceUnmatched(x, 'no active scenario');
        return next(x);
      }
      const stubs = state.stubsFor(operationId);
      if (stubs.length === 0) {
        traceUnmatched(x, 'no stub for this operation');
        return next(x);
      }
      return tryStubs(x, next, state, stubs);
    });
  };

  async function tryStubs(x: Exchange, next: Next, state: ScenarioState, stubs: readonly CompiledStub[]): Promise<Response> {
    const picked = await state.pick(stubs, await requestView(x, stubs));
    if (picked.stub === undefined) {
      traceUnmatched(x, picked.why);
      return next(x);
    }
    traceStub(x, picked.stub.label);
    return stubAnswer(x, next, picked.stub, { by: `scenario ${state.scenario?.name ?? ''}, stub ${picked.stub.label}`, shutdown });
  }
}
