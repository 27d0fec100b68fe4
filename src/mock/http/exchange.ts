import type { Context } from 'hono';
import { andThen, type MaybePromise } from '../core/store/maybe-promise.js';
import type { ScenarioState, Session } from '../core/store/mock-store.js';
import { mergeHeaders, type HeaderRecord } from './shared-headers.js';
import { newTrace, traceBody, type ExchangeTrace } from './exchange-trace.js';

/**
 * One request on its way through the steps (pipeline.ts): what each step
 * hands on to the next. A plain object made once per request: Hono's
 * `c.set`/`c.get` keep variables in a Map, and each middleware Hono
 * composes costs a promise, which together showed up in the request
 * path's CPU profile.
 */
export interface Exchange {
  /** The Hono context: the request is read through it. */
  readonly c: Context<MockEnv>;
  /** The documented operation the route serves; null for any other path. */
  readonly operationId: string | null;
  /** When the first step saw the request (performance.now()). */
  readonly started: number;
  /** Headers steps add to whatever answer the request gets (CORS, deprecation, session); never mutated, replaced. */
  headers: HeaderRecord | undefined;
  /** Headers a step adds to a 2xx answer only: the deprecation signals, where the profile says they go on success alone. */
  successHeaders: HeaderRecord | undefined;
  /** The request passed the key check and its session was picked (session step): it is journaled in that session, not as anonymous. */
  keyed: boolean;
  /** With `--session-per-key`: the caller's key, as its key session id (session step); it owns the sessions it opens. */
  key: string | undefined;
  /** The admin key was presented (admin API): every session may be seen and ended. */
  admin: boolean;
  /** The request's session: the shared one until the session step picks another. */
  session: Session;
  /** The scenario state that answers: the one `Prefer: scenario=NAME` picked, else the session's active one once a step has read it (servingState). */
  scenarioState: ScenarioState | undefined;
  /** What happened to the request, for the journal and the log: written only through exchange-trace.ts. */
  readonly trace: ExchangeTrace;
  /** The `next` functions already called for this request (chain): each may be called once. */
  nextCalled: Set<Next> | undefined;
}

/** The Hono environment of the mock: the admin routes read their request's exchange from it. */
export interface MockEnv {
  Variables: { exchange: Exchange };
}

/** What a step or an operation gives back: the answer, at once or later. */
export type Answer = MaybePromise<Response>;
/** The rest of the steps after one. */
export type Next = (x: Exchange) => Answer;
/** One step of a request: answers itself, or hands the exchange on to `next` (and may change what comes back). */
export type Step = (x: Exchange, next: Next) => Answer;

export function newExchange(c: Context<MockEnv>, operationId: string | null, session: Session): Exchange {
  return {
    c,
    operationId,
    started: performance.now(),
    headers: undefined,
    successHeaders: undefined,
    keyed: false,
    key: undefined,
    admin: false,
    session,
    scenarioState: undefined,
    trace: newTrace(),
    nextCalled: undefined,
  };
}

/** The request body's bytes (Hono reads them once, and gives them again), kept on the exchange for the journal. */
export async function readBody(x: Exchange): Promise<Uint8Array> {
  const bytes = new Uint8Array(await x.c.req.arrayBuffer());
  traceBody(x, bytes);
  return bytes;
}

/**
 * The steps as one function, built once per route: no closure or promise is
 * made per request, and a step that answers at once (most do) keeps the
 * whole chain synchronous, unlike Hono's compose, which awaits each layer.
 * As compose does, it refuses a step calling its `next` twice for one
 * request: the rest of the steps would run, and answer, twice.
 */
export function chain(steps: readonly Step[], last: Next): Next {
  return steps.reduceRight<Next>((rest, step) => {
    const once: Next = (x) => {
      const called = (x.nextCalled ??= new Set());
      if (called.has(once)) throw new Error('next() called more than once for one request');
      called.add(once);
      return rest(x);
    };
    return (x) => step(x, once);
  }, last);
}

/** Adds headers to whatever answer the request gets; `respond` merges them in. Frozen ones are merged once per route (shared-headers.ts). */
export function addResponseHeaders(x: Exchange, headers: HeaderRecord): void {
  x.headers = x.headers ? mergeHeaders(x.headers, headers) : headers;
}

/**
 * The scenario state that answers this request: the one `Prefer: scenario=`
 * picked, else its session's active one, read once per request and kept on
 * the exchange (from Redis, a read: the next steps must not pay it again,
 * nor see another activation half-way through the request).
 */
export function servingState(x: Exchange): MaybePromise<ScenarioState> {
  if (x.scenarioState) return x.scenarioState;
  return andThen(x.session.control.active(), (state) => (x.scenarioState = state));
}
