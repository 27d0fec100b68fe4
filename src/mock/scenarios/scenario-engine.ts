import type { MiddlewareHandler } from 'hono';
import type { MockEnv } from '../http/mock-env.js';
import { respond } from '../http/respond.js';
import type { CompiledStub, RequestView } from './compile-stub.js';
import { applyFault, hang } from './faults.js';
import { sleep } from './latency.js';
import type { Scenario } from './load-scenario.js';

/** The live state of a scenario: its WireMock-style state and each stub's call count. */
export interface ScenarioRuntime {
  readonly scenario: Scenario;
  state: string;
  /** Requests that reached each stub and fitted its match and requiredState, by stub index. */
  readonly calls: number[];
}

export function createScenarioRuntime(scenario: Scenario): ScenarioRuntime {
  return { scenario, state: scenario.initialState, calls: scenario.stubs.map(() => 0) };
}

export interface ScenarioStubsOptions {
  runtime: ScenarioRuntime;
  operationId: string;
  /** Aborted when the server shuts down (ends hangs). */
  shutdown?: AbortSignal | undefined;
}

/**
 * The middleware that lets a scenario's stubs answer one operation. It runs
 * after auth and before the operation's handler. The stubs for the
 * operation (its own and `*`) are tried in order; the first whose
 * requiredState, match and calls fit answers; none does: the handler
 * answers. Undefined when the scenario has no stub for the operation, so
 * the route carries no middleware at all and costs nothing.
 */
export function scenarioStubs({ runtime, operationId, shutdown }: ScenarioStubsOptions): MiddlewareHandler<MockEnv> | undefined {
  const stubs = runtime.scenario.stubs.filter((stub) => stub.operation === '*' || stub.operation === operationId);
  if (stubs.length === 0) return undefined;
  const readsBody = stubs.some((stub) => stub.readsBody);

  return async function scenarioStub(c, next) {
    // Read before matching, so no other request can move the state while the stubs are tried.
    const body = readsBody ? parseJson(await c.req.text()) : undefined;
    const request: RequestView = { query: (name) => c.req.query(name), header: (name) => c.req.header(name), body };
    for (const stub of stubs) {
      if (stub.requiredState !== undefined && stub.requiredState !== runtime.state) continue;
      if (!stub.fits(request)) continue;
      const call = (runtime.calls[stub.index] = (runtime.calls[stub.index] ?? 0) + 1);
      if (!stub.fitsCall(call)) continue;
      return answer(stub);
    }
    return next();

    /** The stub's answer; its newState takes effect once it has answered (a hang: once it starts). */
    async function answer(stub: CompiledStub): Promise<Response | undefined> {
      const moveOn = (): void => {
        if (stub.newState !== undefined) runtime.state = stub.newState;
      };
      const given = stub.answer;
      if (given.kind === 'response') {
        const response = respond(c, given.status, given.body, given.headers);
        moveOn();
        return response;
      }
      if (given.delay) await sleep(given.delay());
      if (given.then === 'hang') {
        moveOn();
        return hang(c, shutdown);
      }
      const response = await applyFault(c, next, given.then, { scenario: runtime.scenario.name, stub: stub.label, shutdown });
      moveOn();
      return response;
    }
  };
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
