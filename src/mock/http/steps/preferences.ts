import { stringifyExactJson } from '../../../shared/exact-json/stringify-exact-json.js';
import type { Faker } from '@faker-js/faker';
import type { OperationSpec } from '../../../document/operations.js';
import { loadFaker } from '../../core/catalogue/generate-pets.js';
import { clip, errorBody, type ErrorBody } from '../../core/errors.js';
import { outageError, type OutageStatus } from '../../core/faults/outage-statuses.js';
import { parsePrefer } from '../../core/prefer/parse-prefer.js';
import { readDelay } from '../../core/prefer/read-delay.js';
import { readPreferences, type AnswerPreferences } from '../../core/prefer/read-preferences.js';
import { sleep } from '../../core/scenarios/latency.js';
import { addResponseHeaders, type Exchange, type Next, type Step } from '../exchange.js';
import type { ServedOperation } from '../operations/served-operation.js';
import { respond, sendError } from '../respond.js';
import { traceUnmatched } from '../exchange-trace.js';

/** The `Retry-After` of `Prefer: code=503` and `code=429`. */
export const OUTAGE_RETRY_AFTER_SECONDS = 1;

/**
 * The step for one operation's `Prefer` header (RFC 7240): `code`,
 * `example` and `dynamic` with Prism's meanings, `scenario=NAME`, and
 * `delay=MS` before whatever answer comes (read-delay.ts). It
 * runs after auth, the body limit and the session, before the scenario's
 * stubs: what a request asks of itself wins over the active scenario.
 * `code`, `example` and `dynamic` store nothing; `scenario=NAME` hands the
 * request on to that scenario's stubs and catalogue in the request's
 * session, which it may change as that scenario would. Without a known
 * preference asking for something, the request goes on as usual.
 */
export function preferences(operation: OperationSpec, served: ServedOperation<unknown>): Step {
  return function preferred(x, next) {
    const header = x.c.req.header('prefer');
    return header === undefined ? next(x) : answer(x, next, header);
  };

  async function answer(x: Exchange, next: Next, header: string): Promise<Response> {
    const parsed = parsePrefer(header);
    const delay = readDelay(parsed);
    if (!delay.ok) return refused(x, delay.error);
    const read = readPreferences(parsed, operation);
    if (!read.ok) return refused(x, read.error);
    const asked = read.value;
    const waited = delay.value;
    if (waited !== undefined) await sleep(waited);
    const appliedDelay = waited === undefined ? [] : [`delay=${waited}`];
    if (asked === undefined) {
      if (waited !== undefined) addResponseHeaders(x, { 'preference-applied': appliedDelay.join('') });
      return next(x);
    }
    const applied = { 'preference-applied': [asked.applied, ...appliedDelay].join(', ') };
    if (asked.kind === 'scenario') {
      const state = await x.session.control.stateOf(asked.name);
      if (!state.ok) {
        traceUnmatched(x, 'refused Prefer');
        return sendError(x, errorBody('invalid_preference', `Prefer: scenario=${clip(asked.name)} cannot be used: ${state.error.message}`));
      }
      x.scenarioState = state.value;
      addResponseHeaders(x, applied);
      return next(x);
    }
    traceUnmatched(x, `answered by Prefer: ${asked.applied}`);
    if (asked.kind === 'outage') return outage(x, asked.status, applied);
    if (!asked.dynamic) {
      const body = operation.examples.get(asked.status)?.get(asked.example as string);
      return respond(x, Number(asked.status), JSON.stringify(body), applied);
    }
    return generated(x, asked, applied);
  }

  /** `dynamic=true`: the request read as the operation reads it (the same Errors), then a made-up answer, never stored. */
  async function generated(x: Exchange, asked: AnswerPreferences, applied: Record<string, string>): Promise<Response> {
    const faker = await loadFaker();
    const status = Number(asked.status);
    if (!asked.status.startsWith('2')) return respond(x, status, JSON.stringify(generatedError(faker, status)), applied);
    const input = await served.read(x);
    if (!input.ok) return sendError(x, input.error);
    return respond(x, status, stringifyExactJson(served.generate(faker, input.value) as object), applied);
  }
}

/** A `Prefer` the mock cannot honour: 400 `invalid_preference`, saying why, before anything waits or is stored. */
function refused(x: Exchange, error: ErrorBody): Response {
  traceUnmatched(x, 'refused Prefer');
  return sendError(x, error);
}

/**
 * An outage status, outside the contract document (the journal's
 * `answered by Prefer: code=503, outside-contract` says so): its Error, and
 * on 503 and 429 `Retry-After: 1` (delay-seconds, RFC 9110 §10.2.3; RFC
 * 6585 §4), the shortest wait a client's retry logic can be seen to honour.
 */
function outage(x: Exchange, status: OutageStatus, applied: Record<string, string>): Response {
  const retry = status === 503 || status === 429 ? OUTAGE_RETRY_AFTER_SECONDS : undefined;
  return sendError(x, outageError(status, `Prefer: code=${status}`, retry), retry === undefined ? applied : { ...applied, 'retry-after': String(retry) });
}

/** A made-up Error body for `code=4xx|5xx, dynamic=true`, with that status. */
function generatedError(faker: Faker, status: number): { code: string; message: string; status: number } {
  const code = faker.helpers.slugify(faker.lorem.words(2)).replace(/-/g, '_').toLowerCase();
  return { code, message: faker.lorem.sentence(), status };
}
