import type { Context, MiddlewareHandler, Next } from 'hono';
import type { OperationSpec } from '../../../contract/operations.js';
import type { MockEnv } from '../mock-env.js';
import { addResponseHeaders, respond, sendError } from '../respond.js';
import { clip, errorBody } from '../../core/errors.js';
import { dynamicAnswers } from '../operations/dynamic-answers.js';
import { parsePrefer } from '../../core/prefer/parse-prefer.js';
import { readPreferences } from '../../core/prefer/read-preferences.js';

/**
 * The middleware for one operation's `Prefer` header (RFC 7240): `code`,
 * `example` and `dynamic` with Prism's meanings, and `scenario=NAME`. It
 * runs after auth, the body limit and the session, before the scenario's
 * stubs: what a request asks of itself wins over the active scenario.
 * `code`, `example` and `dynamic` store nothing; `scenario=NAME` hands the
 * request on to that scenario's stubs and catalogue in the request's
 * session, which it may change as that scenario would. Without a known
 * preference asking for something, the request goes on as usual.
 */
export function preferences(operation: OperationSpec): MiddlewareHandler<MockEnv> {
  const dynamic = dynamicAnswers(operation);
  // Not async itself: without a Prefer header (most requests) it costs no extra promise.
  return function preferred(c, next) {
    const header = c.req.header('prefer');
    return header === undefined ? next() : answer(c, next, header);
  };

  async function answer(c: Context<MockEnv>, next: Next, header: string): Promise<Response | undefined> {
    const read = readPreferences(parsePrefer(header), operation);
    if (!read.ok) {
      c.set('unmatched', 'refused Prefer');
      return sendError(c, read.error);
    }
    const asked = read.value;
    if (asked === undefined) {
      await next();
      return undefined;
    }
    const applied = { 'preference-applied': asked.applied };
    if (asked.kind === 'scenario') {
      const state = await c.get('session').control.stateOf(asked.name);
      if (!state.ok) {
        c.set('unmatched', 'refused Prefer');
        return sendError(c, errorBody('invalid_preference', `Prefer: scenario=${clip(asked.name)} cannot be used: ${state.error.message}`));
      }
      c.set('scenario', state.value);
      addResponseHeaders(c, applied);
      await next();
      return undefined;
    }
    c.set('unmatched', `answered by Prefer: ${asked.applied}`);
    if (!asked.dynamic) {
      const body = operation.examples.get(asked.status)?.get(asked.example as string);
      return respond(c, Number(asked.status), JSON.stringify(body), applied);
    }
    const generated = await dynamic(c, asked.status);
    if (!generated.ok) return sendError(c, generated.error);
    return respond(c, generated.value.status, JSON.stringify(generated.value.body), applied);
  }
}
