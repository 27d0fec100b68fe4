import type { ValidateFunction } from 'ajv';
import type { Contract } from '../../../document/contract.js';
import type { OpenApiResponse } from '../../../document/openapi-types.js';
import { resolveRef } from '../../../document/resolve-ref.js';
import { describeErrors } from '../validation/describe-errors.js';
import { childPath } from './json-path.js';
import type { ResponseSpec } from './scenario.js';

/** Headers the mock sets itself: a stub may not, or its answer could break the document or HTTP framing. */
const RESERVED_HEADERS = new Set(['content-type', 'content-length', 'transfer-encoding', 'connection']);

/**
 * Checks a stub's `response` against the contract document, for one
 * operation: the status is one the operation documents, the body is present
 * exactly when the document gives that status a JSON body, and validates
 * against that body's schema (compiled with the contract's schema compiler,
 * `$ref` responses such as `#/components/responses/Unauthorized` followed).
 * An Error body's `status` must be the HTTP status, as the interface says.
 * Returns sentences that start with `path`.
 */
export function checkStubResponse(contract: Contract, operationId: string, response: ResponseSpec, path: string, validators: Map<string, ValidateFunction | null>): string[] {
  const operation = contract.operations.get(operationId);
  const raw = findOperationObject(contract, operationId)?.responses;
  if (!operation || !raw) return [`${path} answers ${operationId}, which the contract document does not have`];
  const status = String(response.status);
  const key = operation.statuses.includes(status) ? status : operation.statuses.includes(`${status[0]}XX`) ? `${status[0]}XX` : undefined;
  if (key === undefined) {
    return [`${path}.status ${status} is not documented for ${operationId} (documented: ${operation.statuses.join(', ')}): only a fault sends other statuses`];
  }
  const problems: string[] = [];
  for (const name of Object.keys(response.headers ?? {})) {
    if (RESERVED_HEADERS.has(name.toLowerCase())) problems.push(`${childPath(`${path}.headers`, name)} is set by the mock and cannot be stubbed`);
  }
  const validatorKey = `${operationId} ${key}`;
  if (!validators.has(validatorKey)) {
    const documented = resolveRef<OpenApiResponse>(contract.document, raw[key]);
    const schema = documented.content?.['application/json']?.schema;
    validators.set(validatorKey, schema ? contract.schemas.compile(schema) : null);
  }
  const validate = validators.get(validatorKey) ?? null;
  if (validate === null) {
    if (response.body !== undefined) problems.push(`${path}.body must be left out: ${operationId} documents no JSON body for ${status}`);
    return problems;
  }
  if (response.body === undefined) {
    problems.push(`${path}.body is required: ${operationId} documents a JSON body for ${status}`);
    return problems;
  }
  if (!validate(response.body)) {
    const sentences = describeErrors(validate.errors, '$').split('; ');
    problems.push(...sentences.map((sentence) => (sentence.startsWith('$') ? `${path}.body${sentence.slice(1)}` : `${path}.body ${sentence}`)));
    return problems;
  }
  const bodyStatus = (response.body as { status?: unknown } | null)?.status;
  if (response.status >= 400 && typeof response.body === 'object' && bodyStatus !== undefined && bodyStatus !== response.status) {
    problems.push(`${path}.body.status must be ${response.status}, the HTTP status (an Error's status equals the HTTP status code)`);
  }
  return problems;
}

function findOperationObject(contract: Contract, operationId: string): { responses: Record<string, unknown> } | undefined {
  for (const item of Object.values(contract.document.paths)) {
    for (const operation of Object.values(item)) {
      if (operation?.operationId === operationId) return operation;
    }
  }
  return undefined;
}
