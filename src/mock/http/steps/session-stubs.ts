import { pickSessionStub } from '../../core/session-stubs/session-stubs.js';
import type { CompiledStub } from '../../core/scenarios/compile-stub.js';
import { andThen } from '../../core/store/maybe-promise.js';
import type { Exchange, Next, Step } from '../exchange.js';
import { requestView, stubAnswer } from '../stub-answer.js';
import { traceStub } from '../exchange-trace.js';

export interface SessionStubsOptions {
  operationId: string;
  /** Aborted when the server shuts down (ends hangs). */
  shutdown?: AbortSignal | undefined;
}

/**
 * The step that lets the stubs the admin API added to the request's
 * session answer one operation, before the scenario's stubs: a stub QA
 * added for this session is meant to win over whatever scenario serves
 * it. The first whose match fits answers (the journal's stub reads
 * `session stub <id>`); with none, the scenario's stubs are tried.
 */
export function sessionStubs({ operationId, shutdown }: SessionStubsOptions): Step {
  return function sessionStub(x, next) {
    return andThen(x.session.stubs.compiled(), (compiled) => {
      const stubs = compiled.stubsFor(operationId);
      return stubs.length === 0 ? next(x) : trySessionStubs(x, next, stubs);
    });
  };

  async function trySessionStubs(x: Exchange, next: Next, stubs: readonly CompiledStub[]): Promise<Response> {
    const picked = pickSessionStub(stubs, await requestView(x, stubs));
    if (picked.stub === undefined) return next(x);
    const by = `session stub ${picked.stub.label}`;
    traceStub(x, by);
    return stubAnswer(x, next, picked.stub, { by, shutdown });
  }
}
