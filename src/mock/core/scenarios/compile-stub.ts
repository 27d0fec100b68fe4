import { jsonEqual } from '../../../shared/json-equal.js';
import { delaySampler, type DelaySampler } from './latency.js';
import type { CallsSpec, StubSpec, TextPredicate, ValuePredicate } from './scenario.js';
import { nameFault, type NamedFault } from '../faults/named-fault.js';

/** What a stub's match reads of a request. */
export interface RequestView {
  /** The first value of a query parameter. */
  query(name: string): string | undefined;
  header(name: string): string | undefined;
  /** The request body parsed as JSON; undefined when it is absent or not JSON. */
  body: unknown;
}

export type StubAnswer =
  | { kind: 'response'; status: number; body: string | null; headers: Record<string, string> }
  | { kind: 'fault'; delay: DelaySampler | undefined; then: NamedFault };

/** A stub ready for the request path: predicates compiled to functions, the body serialized once. */
export interface CompiledStub {
  index: number;
  /** Its `id`, or `#index`. */
  label: string;
  /** An operationId, or `*`. */
  operation: string;
  requiredState: string | undefined;
  newState: string | undefined;
  /** Whether `fits` needs the request body. */
  readsBody: boolean;
  /** Query, header and body predicates: undefined when all fit, else the first that fails (`match failed: query limit`). */
  mismatch(request: RequestView): string | undefined;
  /** Its `calls` filter as written, for a store that checks it where the count is kept (the Redis store's pick script). */
  calls: CallsSpec | undefined;
  /** The `calls` filter, given which fitting request this is (from 1). */
  fitsCall(call: number): boolean;
  /** Why call number `call` does not fit `calls`, in a short phrase (for the journal). */
  callMismatch(call: number): string;
  answer: StubAnswer;
}

/** Compiles a stub that validateStubs accepted. */
export function compileStub(stub: StubSpec, index: number): CompiledStub {
  const tests: Array<{ what: string; test: (request: RequestView) => boolean }> = [];
  const add = (what: string, test: (request: RequestView) => boolean): void => {
    tests.push({ what: `match failed: ${what}`, test });
  };
  for (const [name, predicate] of Object.entries(stub.match.query ?? {})) {
    const test = textTest(predicate);
    add(`query ${name}`, (request) => test(request.query(name)));
  }
  for (const [name, predicate] of Object.entries(stub.match.headers ?? {})) {
    const test = textTest(predicate);
    const lower = name.toLowerCase();
    add(`header ${lower}`, (request) => test(request.header(lower)));
  }
  const bodyFields = Object.entries(stub.match.body ?? {});
  for (const [name, predicate] of bodyFields) {
    const test = valueTest(predicate);
    add(`body ${name}`, (request) => {
      const body = request.body;
      const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
      return test(isObject && Object.hasOwn(body, name) ? (body as Record<string, unknown>)[name] : undefined);
    });
  }
  return {
    index,
    label: stub.id ?? `#${index}`,
    operation: stub.match.operation,
    requiredState: stub.requiredState,
    newState: stub.newState,
    readsBody: bodyFields.length > 0,
    mismatch(request) {
      for (const { what, test } of tests) if (!test(request)) return what;
      return undefined;
    },
    calls: stub.match.calls,
    fitsCall: callsTest(stub.match.calls),
    callMismatch: callsMismatch(stub.match.calls),
    answer: compileAnswer(stub),
  };
}

function compileAnswer(stub: StubSpec): StubAnswer {
  if (stub.response) {
    const { status, body, headers } = stub.response;
    return {
      kind: 'response',
      status,
      body: body === undefined ? null : JSON.stringify(body),
      headers: Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)])),
    };
  }
  const fault = stub.fault ?? {};
  return { kind: 'fault', delay: fault.latency ? delaySampler(fault.latency) : undefined, then: nameFault(fault.then) };
}

/** Regular expressions match the whole value, as WireMock's `matches` does. */
const wholeValue = (source: string): RegExp => new RegExp(`^(?:${source})$`);

function textTest(predicate: TextPredicate): (value: string | undefined) => boolean {
  if ('absent' in predicate) return (value) => value === undefined;
  if ('equals' in predicate) {
    const expected = String(predicate.equals);
    return (value) => value === expected;
  }
  const pattern = wholeValue(predicate.matches);
  return (value) => value !== undefined && pattern.test(value);
}

function valueTest(predicate: ValuePredicate): (value: unknown) => boolean {
  if ('absent' in predicate) return (value) => value === undefined;
  if ('equals' in predicate) {
    const expected = predicate.equals;
    return (value) => value !== undefined && jsonEqual(value, expected);
  }
  const pattern = wholeValue(predicate.matches);
  // A request's body is read no deeper than MAX_JSON_DEPTH (scenario-stubs.ts), which JSON.stringify follows.
  return (value) => value !== undefined && pattern.test(typeof value === 'string' ? value : JSON.stringify(value));
}

function callsTest(calls: CallsSpec | undefined): (call: number) => boolean {
  if (!calls) return () => true;
  const { every, first, after } = calls;
  return (call) => (every === undefined || call % every === 0) && (first === undefined || call <= first) && (after === undefined || call > after);
}

const ordinal = (n: number): string => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
};

function callsMismatch(calls: CallsSpec | undefined): (call: number) => string {
  return (call) => {
    const { every, first, after } = calls ?? {};
    if (every !== undefined && call % every !== 0) return `calls: the ${ordinal(call)} call is not a multiple of ${every}`;
    if (first !== undefined && call > first) return `calls: the ${ordinal(call)} call is past the first ${first}`;
    if (after !== undefined && call <= after) return `calls: the ${ordinal(call)} call is not after the ${ordinal(after)}`;
    return 'calls: fits';
  };
}
