import { readBody, servingState, type Exchange, type Next, type Step } from '../exchange.js';
import { respond } from '../respond.js';
import type { CompiledStub, RequestView } from '../../core/scenarios/compile-stub.js';
import { applyFault } from '../faults/apply-fault.js';
import { sleep } from '../../core/scenarios/latency.js';
import { andThen } from '../../core/store/maybe-promise.js';
import type { ScenarioState } from '../../core/store/mock-store.js';

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
        x.unmatched = 'no active scenario';
        return next(x);
      }
      const stubs = state.stubsFor(operationId);
      if (stubs.length === 0) {
        x.unmatched = 'no stub for this operation';
        return next(x);
      }
      return tryStubs(x, next, state, stubs);
    });
  };

  async function tryStubs(x: Exchange, next: Next, state: ScenarioState, stubs: readonly CompiledStub[]): Promise<Response> {
    const { c } = x;
    // Read before matching, so no other request can move the state while the stubs are tried. As
    // bytes: Hono keeps what was read first, and a text() here would hand the operation bytes
    // re-encoded from a lenient decode, so invalid UTF-8 would pass it as U+FFFD (RFC 8259 §8.1).
    const body = stubs.some((stub) => stub.readsBody) ? parseJson(await readBody(x)) : undefined;
    const request: RequestView = { query: (name) => c.req.query(name), header: (name) => c.req.header(name), body };
    const picked = await state.pick(stubs, request);
    if (picked.stub === undefined) {
      x.unmatched = picked.why;
      return next(x);
    }
    x.stub = picked.stub.label;
    return answer(x, next, picked.stub, state.scenario?.name ?? '');
  }

  /** The stub's answer (its newState already applied by the pick). */
  async function answer(x: Exchange, next: Next, stub: CompiledStub, scenario: string): Promise<Response> {
    const given = stub.answer;
    if (given.kind === 'response') return respond(x, given.status, given.body, given.headers);
    if (given.delay) await sleep(given.delay());
    return applyFault(x, next, given.then, { scenario, stub: stub.label, shutdown });
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The body as JSON for matching; undefined when it is empty, not UTF-8 or not JSON (the operation then refuses it). */
function parseJson(bytes: Uint8Array): unknown {
  try {
    return bytes.byteLength === 0 ? undefined : (JSON.parse(UTF8.decode(bytes)) as unknown);
  } catch {
    return undefined;
  }
}
