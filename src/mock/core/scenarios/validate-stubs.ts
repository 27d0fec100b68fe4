import type { ValidateFunction } from 'ajv';
import type { Contract } from '../../../document/contract.js';
import { childPath } from './json-path.js';
import { DEFAULT_INITIAL_STATE, type ScenarioFile, type StubSpec } from './scenario.js';
import { checkStubResponse } from './stub-response-check.js';

/**
 * What the schema cannot say about a scenario's stubs, checked against the
 * contract document: each operation exists, body predicates are only on
 * operations with a request body, regular expressions compile, uniform
 * latencies have min ≤ max, every requiredState can be reached, and every
 * `response` keeps the document (for an operation `*` stub, for every
 * operation). Returns sentences that start with the JSONPath in the file.
 */
export function validateStubs(contract: Contract, scenario: ScenarioFile): string[] {
  const problems: string[] = [];
  const validators = new Map<string, ValidateFunction | null>();
  const reachable = new Set([scenario.initialState ?? DEFAULT_INITIAL_STATE, ...scenario.stubs.flatMap((s) => (s.newState ? [s.newState] : []))]);
  scenario.stubs.forEach((stub, index) => {
    const path = `$.stubs[${index}]`;
    const operations = operationsOf(contract, stub);
    if (operations === undefined) {
      problems.push(`${path}.match.operation ${stub.match.operation} is not an operation of the contract document (${[...contract.operations.keys(), '*'].join(', ')})`);
      return;
    }
    if (stub.match.body) {
      const bodiless = operations.filter((id) => !contract.operations.get(id)?.body);
      if (stub.match.operation === '*' || bodiless.length > 0) {
        problems.push(
          stub.match.operation === '*'
            ? `${path}.match.body needs one operation with a request body, not * (${bodiless.join(', ')} have none)`
            : `${path}.match.body needs an operation with a request body (${bodiless.join(', ')} has none)`,
        );
      }
    }
    problems.push(...regexProblems(stub, path));
    const uniform = stub.fault?.latency && 'uniformMs' in stub.fault.latency ? stub.fault.latency.uniformMs : undefined;
    if (uniform && uniform[0] > uniform[1]) problems.push(`${path}.fault.latency.uniformMs must be [min, max] with min ≤ max (got [${uniform.join(', ')}])`);
    if (stub.requiredState !== undefined && !reachable.has(stub.requiredState)) {
      problems.push(
        `${path}.requiredState ${JSON.stringify(stub.requiredState)} can never be reached: the scenario starts in ${JSON.stringify(scenario.initialState ?? DEFAULT_INITIAL_STATE)} and no stub has it as newState`,
      );
    }
    const response = stub.response;
    if (response) {
      const perOperation = operations.map((id) => checkStubResponse(contract, id, response, `${path}.response`, validators));
      const failing = operations.filter((_, i) => (perOperation[i]?.length ?? 0) > 0);
      const first = perOperation.find((p) => p.length > 0) ?? [];
      const suffix = stub.match.operation === '*' ? `, and an operation * stub must suit every operation (it does not suit ${failing.join(', ')})` : '';
      problems.push(...first.map((sentence) => sentence + suffix));
    }
  });
  return problems;
}

/** The operationIds a stub applies to, or undefined when its operation is not in the contract. */
export function operationsOf(contract: Contract, stub: StubSpec): string[] | undefined {
  if (stub.match.operation === '*') return [...contract.operations.keys()];
  return contract.operations.has(stub.match.operation) ? [stub.match.operation] : undefined;
}

function regexProblems(stub: StubSpec, path: string): string[] {
  const problems: string[] = [];
  for (const part of ['query', 'headers', 'body'] as const) {
    for (const [name, predicate] of Object.entries(stub.match[part] ?? {})) {
      if (!('matches' in predicate)) continue;
      try {
        new RegExp(predicate.matches);
      } catch (error) {
        problems.push(`${childPath(`${path}.match.${part}`, name)}.matches is not a valid regular expression: ${(error as Error).message}`);
      }
    }
  }
  return problems;
}
