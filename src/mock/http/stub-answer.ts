import { readBody, type Exchange, type Next } from './exchange.js';
import { respond } from './respond.js';
import type { CompiledStub, RequestView } from '../core/scenarios/compile-stub.js';
import { applyFault } from './faults/apply-fault.js';
import type { FaultContext } from './faults/fault-behaviour.js';
import { sleep } from '../core/scenarios/latency.js';
import { readJson } from '../../shared/exact-json/parse-exact-json.js';

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
