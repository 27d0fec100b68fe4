import type { Contract } from '../../../document/contract.js';
import { errorBody, type ErrorBody } from '../errors.js';
import { fail, ok, type Result } from '../result.js';
import type { ScenarioFile, StubSpec } from '../scenarios/scenario.js';
import { checkScenarioSchema } from '../scenarios/scenario-schema.js';
import { validateStubs } from '../scenarios/validate-stubs.js';
import type { SessionStub } from './session-stubs.js';
import { stubShapeProblem } from './stub-shape.js';
import { nameFault } from '../faults/named-fault.js';

/** A session stub's id names its downloaded scenario file too, so it is written as a scenario's name is. */
const STUB_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const MAX_ID_LENGTH = 64;

/** What a session stub cannot have: it keeps no count and no state (see SessionStub). */
const STATEFUL = [
  ['requiredState', (stub: Record<string, unknown>) => 'requiredState' in stub],
  ['newState', (stub: Record<string, unknown>) => 'newState' in stub],
  ['match.calls', (stub: Record<string, unknown>) => typeof stub.match === 'object' && stub.match !== null && 'calls' in stub.match],
] as const;

/**
 * Checks a stub sent to the admin API as a scenario file's stub is checked
 * when the file loads (scenarios/scenario.schema.json, then the contract
 * document: a `response` must keep it), so a stub that is accepted here
 * loads as written in a scenario file. Problems are named by their
 * JSONPath in the body (`$.fault.then`). `existing`: the session's ids, so
 * a made-up id is new.
 */
export function checkSessionStub(contract: Contract, body: unknown, existing: readonly string[]): Result<SessionStub, ErrorBody> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return fail('invalid_body', 'the body must be one stub, as a scenario file writes it: {"match": {"operation": "getPet"}, "fault": {"then": {"status": 500}}}');
  }
  // First: the checks below recurse into the body.
  const shape = stubShapeProblem(body);
  if (shape !== undefined) return fail('invalid_body', shape);
  const stateful = STATEFUL.filter(([, present]) => present(body as Record<string, unknown>)).map(([path]) => `$.${path}`);
  if (stateful.length > 0) {
    return fail('invalid_body', `${stateful.join(', ')}: a session stub keeps no count and no state, so it cannot have calls, requiredState or newState; put it in a scenario file instead`);
  }
  const id = (body as { id?: unknown }).id;
  if (id !== undefined && (typeof id !== 'string' || !STUB_ID.test(id) || id.length > MAX_ID_LENGTH)) {
    return fail('invalid_body', `$.id must be 1 to ${MAX_ID_LENGTH} lower-case letters and digits in words joined by "-" (it names the stub's scenario file), got ${JSON.stringify(id).slice(0, 80)}`);
  }
  const scenario = { name: 'session-stub', description: 'one session stub', catalogue: { fixture: 'fixtures/pets.json' }, stubs: [body] };
  const checked = checkScenarioSchema(scenario);
  if (!checked.ok) return { ok: false, error: refused(checked.error) };
  const problems = validateStubs(contract, checked.value);
  if (problems.length > 0) return { ok: false, error: refused(problems) };
  const stub = (checked.value as ScenarioFile).stubs[0] as StubSpec;
  return ok({ ...stub, id: stub.id ?? newId(stub, existing) });
}

/** The scenario checks' sentences, their paths made the body's (`$.stubs[0].fault` → `$.fault`). */
function refused(problems: string[]): ErrorBody {
  const own = problems.map((problem) => problem.replaceAll('$.stubs[0]', '$').replace(/^\$ /, 'the stub '));
  return errorBody('invalid_body', own.join('; '));
}

/** A readable id from what the stub answers (`getpet-500`, `listpets-hang`, `any-delay`), numbered when taken. */
function newId(stub: StubSpec, existing: readonly string[]): string {
  const operation = stub.match.operation === '*' ? 'any' : stub.match.operation.toLowerCase();
  const named = nameFault(stub.fault?.then);
  // A status fault by its status; any other by its kind's name (latency alone, or pass: a delay).
  const what = stub.response ? String(stub.response.status) : named.kind === 'pass' ? 'delay' : named.kind === 'status' ? String(named.options.status) : named.kind;
  const base = `${operation}-${what}`;
  let id = base;
  for (let n = 2; existing.includes(id); n++) id = `${base}-${n}`;
  return id;
}
