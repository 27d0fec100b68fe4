import type { Pet, RuleContext } from '../types.js';
import type { Statement } from '../../verdict/report.js';
import type { RecordedExchange } from '../../verdict/exchange.js';
import { cite } from './statements.js';
import { stringifyExactJson } from '../../shared/exact-json/stringify-exact-json.js';
import { isExactInteger } from '../../shared/exact-json/int64.js';

/**
 * Checks the status of an answer and records a finding when it differs.
 * Returns whether the rule can go on reading the answer. A network failure,
 * or a body not read to its end, is already a finding of its own.
 */
export function expectStatus(context: RuleContext, exchange: RecordedExchange, expected: readonly number[], statement: Statement): boolean {
  const status = exchange.response?.status;
  if (status === undefined || exchange.response?.unread) return false;
  if (expected.includes(status)) return true;
  context.fail({ message: `answered ${status}`, expected: `${expected.join(' or ')} (${cite(statement)})`, path: '$.status', exchange });
  return false;
}

/** The answer's body as an array of pets, or a finding. */
export function petsOf(context: RuleContext, exchange: RecordedExchange, statement: Statement): Pet[] | undefined {
  const json = exchange.response?.json;
  if (Array.isArray(json)) return json as Pet[];
  context.fail({ message: 'the body is not a JSON array', expected: cite(statement), path: '$.body', exchange });
  return undefined;
}

/** The answer's body as one pet, or a finding. */
export function petOf(context: RuleContext, exchange: RecordedExchange, statement: Statement): Pet | undefined {
  const json = exchange.response?.json as Pet | undefined;
  if (json && typeof json === 'object' && !Array.isArray(json) && isExactInteger(json.id)) return json;
  context.fail({ message: 'the body is not a Pet with an integer id', expected: cite(statement), path: '$.body', exchange });
  return undefined;
}

/** Compares one field and records a finding naming its JSON path. */
export function expectField(context: RuleContext, exchange: RecordedExchange, path: string, actual: unknown, expected: unknown, statement: Statement): void {
  if (Object.is(actual, expected)) return;
  context.fail({ message: `${path} is ${stringifyExactJson(actual)}, not ${stringifyExactJson(expected)}`, expected: cite(statement), path, exchange });
}

export const JSON_BODY = { 'content-type': 'application/json' };
