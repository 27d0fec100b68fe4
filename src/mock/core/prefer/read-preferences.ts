import type { OperationSpec } from '../../../document/operations.js';
import { clip } from '../errors.js';
import { isOutageStatus, OUTAGE_STATUS_LIST, type OutageStatus } from '../faults/outage-statuses.js';
import { fail, ok, type Result } from '../result.js';

/** What a request's `Prefer` header asks of one operation, checked against the document. */
export type Preferences = AnswerPreferences | OutagePreference | ScenarioPreference;

/**
 * `code=` an outage status the operation does not document (500, 502,
 * 503, 504, 429): the mock's simulated Error, outside the contract document.
 */
export interface OutagePreference {
  kind: 'outage';
  status: OutageStatus;
  /** The `Preference-Applied` value: the code, and `outside-contract`, as RFC 7240 §3 gives an applied preference no parameters. */
  applied: string;
}

/** `scenario=NAME`: answer as that scenario would, from its own state. */
export interface ScenarioPreference {
  kind: 'scenario';
  name: string;
  applied: string;
}

/** `code`, `example`, `dynamic`: answer from the document, touching no state. */
export interface AnswerPreferences {
  kind: 'answer';
  /** The status to answer with. */
  status: string;
  /** The example to send (`example=NAME`, else the status's first); none with `dynamic`. */
  example: string | undefined;
  dynamic: boolean;
  /** The `Preference-Applied` value (RFC 7240 §3). */
  applied: string;
}

/**
 * Reads `code`, `example` and `dynamic` (Prism's meanings), and `scenario`,
 * for one operation. Other preferences are ignored (RFC 7240 §2). Undefined: no
 * known preference asks for anything, so the request is answered as usual.
 * A malformed or impossible value of a known one fails with
 * `invalid_preference`, naming it and what is allowed.
 */
export function readPreferences(preferences: ReadonlyMap<string, string | undefined>, operation: OperationSpec): Result<Preferences | undefined> {
  const code = preferences.get('code');
  const example = preferences.get('example');
  const dynamic = preferences.get('dynamic');
  const id = operation.operationId;
  if (preferences.has('scenario')) return readScenario(preferences);
  if (preferences.has('code') && (code === undefined || !/^\d{3}$/.test(code) || !operation.examples.has(code))) return readOutage(preferences, operation);
  if (preferences.has('dynamic') && dynamic !== 'true' && dynamic !== 'false') {
    return fail('invalid_preference', `Prefer: dynamic=${dynamic ?? ''} is not allowed; use dynamic=true or dynamic=false.`);
  }
  const isDynamic = dynamic === 'true';
  const success = operation.statuses.find((s) => s.startsWith('2'));
  if (success === undefined) throw new Error(`${id} documents no success status`);
  const status = code ?? success;
  const names = [...(operation.examples.get(status)?.keys() ?? [])];
  if (preferences.has('example')) {
    if (isDynamic) return fail('invalid_preference', `Prefer: example=${example ?? ''} and dynamic=true contradict each other; ask for one of them.`);
    if (example === undefined || !names.includes(example)) {
      return fail('invalid_preference', `Prefer: example=${example ?? ''} names no example of ${id}'s ${status} response; its examples: ${names.join(', ') || 'none'}.`);
    }
  }
  if (code === undefined && example === undefined && !isDynamic) return ok(undefined);
  if (!isDynamic && names.length === 0) return fail('invalid_preference', `Prefer: the document gives ${id}'s ${status} response no example; use dynamic=true.`);
  const applied = [code !== undefined && `code=${code}`, example !== undefined && `example=${example}`, isDynamic && 'dynamic=true'].filter(Boolean).join(', ');
  return ok({ kind: 'answer', status, example: isDynamic ? undefined : (example ?? names[0]), dynamic: isDynamic, applied });
}

/**
 * `code=` a status the operation does not document: an outage status is
 * simulated, as a real outage would send it whatever the document says;
 * any other would break a promise the document makes (createPet answers
 * 201 on success, never 200; listPets never 404), so it is refused, saying
 * which promise. An outage has no example and no schema, so `example=` and
 * `dynamic=true` cannot go with it.
 */
function readOutage(preferences: ReadonlyMap<string, string | undefined>, operation: OperationSpec): Result<Preferences> {
  const code = preferences.get('code') ?? '';
  const id = operation.operationId;
  const statuses = operation.statuses.join(', ');
  const status = Number(code);
  if (!/^\d{3}$/.test(code) || !isOutageStatus(status)) {
    const success = operation.statuses.filter((s) => s.startsWith('2')).join(', ');
    const promise = code.startsWith('2') && /^\d{3}$/.test(code) ? `${id} answers ${success} on success, never ${code}` : `${id} answers only ${statuses}`;
    return fail(
      'invalid_preference',
      `Prefer: code=${clip(code)} is not a status ${id} documents; documented statuses: ${statuses}. It would break a promise of the contract document (${promise}); outside it, the mock simulates only outages: code=${OUTAGE_STATUS_LIST.join(', ')}.`,
    );
  }
  const extra = ['example', 'dynamic'].filter((other) => preferences.has(other) && !(other === 'dynamic' && preferences.get(other) === 'false'));
  if (extra.length > 0) {
    return fail(
      'invalid_preference',
      `Prefer: code=${code} is outside the contract document, which gives it no example or schema, so ${extra.map((other) => `${other}=${preferences.get(other) ?? ''}`).join(' and ')} cannot go with it; send code=${code} alone.`,
    );
  }
  return ok({ kind: 'outage', status, applied: `code=${code}, outside-contract` });
}

/**
 * `scenario=NAME` asks for the scenario's stubs and catalogue; `code`,
 * `example` and `dynamic` ask to bypass them. Both at once cannot be
 * honoured, so that is refused rather than one silently dropped. Whether the
 * scenario exists is the session's to say (it loads it).
 */
function readScenario(preferences: ReadonlyMap<string, string | undefined>): Result<Preferences> {
  const name = preferences.get('scenario');
  if (name === undefined || name === '') return fail('invalid_preference', 'Prefer: scenario= names no scenario; send scenario=NAME, one of GET /__mock/scenarios.');
  const others = ['code', 'example', 'dynamic'].filter((other) => preferences.has(other) && !(other === 'dynamic' && preferences.get(other) === 'false'));
  if (others.length > 0) {
    return fail('invalid_preference', `Prefer: scenario=${clip(name)} and ${others.map((other) => `${other}=${preferences.get(other) ?? ''}`).join(', ')} contradict each other: a scenario answers with its own stubs and catalogue; ask for one of them.`);
  }
  return ok({ kind: 'scenario', name, applied: `scenario=${name}` });
}
