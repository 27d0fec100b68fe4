import type { CompiledStub } from './compile-stub.js';
import type { Scenario } from './check-scenario.js';

/** The live state of a scenario: its WireMock-style state and each stub's call count. */
export interface ScenarioRuntime {
  readonly scenario: Scenario;
  state: string;
  /** Requests that reached each stub and fitted its match and requiredState, by stub index. */
  readonly calls: number[];
  /** The stubs for an operation (its own and `*`, in file order); none: an empty list. */
  stubsFor(operationId: string): readonly CompiledStub[];
}

const NO_STUBS: readonly CompiledStub[] = Object.freeze([]);

export function createScenarioRuntime(scenario: Scenario): ScenarioRuntime {
  const byOperation = new Map<string, CompiledStub[]>();
  const wildcard = scenario.stubs.filter((stub) => stub.operation === '*');
  for (const stub of scenario.stubs) {
    if (stub.operation === '*' || byOperation.has(stub.operation)) continue;
    byOperation.set(stub.operation, scenario.stubs.filter((s) => s.operation === '*' || s.operation === stub.operation));
  }
  return {
    scenario,
    state: scenario.initialState,
    calls: scenario.stubs.map(() => 0),
    stubsFor: (operationId) => byOperation.get(operationId) ?? (wildcard.length > 0 ? wildcard : NO_STUBS),
  };
}

/** Back to the start: the initial state, every call count 0. */
export function resetScenarioRuntime(runtime: ScenarioRuntime): void {
  runtime.state = runtime.scenario.initialState;
  runtime.calls.fill(0);
}
