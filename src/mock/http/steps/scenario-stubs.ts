import { readBody, servingState, type Exchange, type Next, type Step } from '../exchange.js';
import { respond } from '../respond.js';
import type { CompiledStub, RequestView } from '../../core/scenarios/compile-stub.js';
import { applyFault } from '../faults/apply-fault.js';
import type { FaultContext } from '../faults/fault-behaviour.js';
import { sleep } from '../../core/scenarios/latency.js';
import { readJson } from '../../../shared/exact-json/parse-exact-json.js';
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
    const picked = await state.pick(stubs, await requestView(x, stubs));
    if (picked.stub === undefined) {
      x.unmatched = picked.why;
      return next(x);
    }
    x.stub = picked.stub.label;
    return stubAnswer(x, next, picked.stub, { by: `scenario ${state.scenario?.name ?? ''}, stub ${picked.stub.label}`, shutdown });
  }
}

/**
 * What stubs read of a request. The body is read before matching, so no
 * other request can move the state while the stubs are tried; as bytes:
 * Hono keeps what was read first, and a text() here would hand the
 * operation bytes re-encoded from a lenient decode, so invalid UTF-8 would
 * pass it as U+FFFD (RFC 8259 §8.1).
 */
export async function requestView(x: Exchange, stubs: readonly CompiledStub[]): Promise<RequestView> {
  const { c } = x;
  const body = stubs.some((stub) => stub.readsBody) ? parseJson(await readBody(x)) : undefined;
  return { query: (name) => c.req.query(name), header: (name) => c.req.header(name), body };
}

/** A stub's answer (a scenario stub's newState already applied by the pick): its response, or its latency then its fault. */
export async function stubAnswer(x: Exchange, next: Next, stub: CompiledStub, context: FaultContext): Promise<Response> {
  const given = stub.answer;
  if (given.kind === 'response') return respond(x, given.status, given.body, given.headers);
  if (given.delay) await sleep(given.delay());
  return applyFault(x, next, given.then, context);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The body as JSON for matching; undefined when it is empty, not UTF-8, not JSON or too deep (the operation then refuses it). */
function parseJson(bytes: Uint8Array): unknown {
  try {
    return bytes.byteLength === 0 ? undefined : readJson(UTF8.decode(bytes));
  } catch {
    return undefined;
  }
}
