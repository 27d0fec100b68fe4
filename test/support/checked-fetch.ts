import { createResponseValidator, type ResponseValidator, type Violation } from '../../src/document/response-validator.js';
import { UNDOCUMENTED_RESPONSES } from './undocumented-responses.js';

export interface CheckedResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: any;
}

export interface FidelityFailure {
  request: string;
  status: number;
  violations: Violation[];
}

let validator: Promise<ResponseValidator> | undefined;
const sharedValidator = (): Promise<ResponseValidator> => (validator ??= createResponseValidator());

/**
 * fetch, plus the fidelity check: every response is validated against the
 * contract document with prism-http's output validator. A status the
 * document does not list for the operation passes only if it is one of the
 * mock's listed undocumented responses (docs/reference.md), with a valid Error body.
 * Failures are collected, and the test file fails on them at the end.
 */
export function checkedFetch(baseUrl: string, failures: FidelityFailure[]) {
  const base = new URL(baseUrl);
  return async function request(path: string, init: RequestInit = {}): Promise<CheckedResponse> {
    const url = new URL(base.pathname + path, base);
    const response = await fetch(url, init);
    const text = await response.text();
    const method = (init.method ?? 'GET').toUpperCase();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (method !== 'OPTIONS') {
      const violations = check(await sharedValidator(), method, url.pathname.slice(base.pathname.length), response, text, json);
      if (violations.length > 0) failures.push({ request: `${method} ${url.pathname}${url.search}`, status: response.status, violations });
    }
    return { status: response.status, headers: response.headers, text, json };
  };
}

function check(validator: ResponseValidator, method: string, path: string, response: Response, text: string, json: unknown): Violation[] {
  const headers = Object.fromEntries(response.headers);
  // HEAD is answered like GET without a body (RFC 9110 §9.3.2).
  const operation = validator.operationFor(method === 'HEAD' ? 'GET' : method, path);
  // Matched on the code too: a listed status lets through only its own Error (a 403 session_forbidden is no licence for any 403).
  const code = (json as { code?: unknown } | undefined)?.code;
  const allowed = UNDOCUMENTED_RESPONSES.some(
    (u) =>
      u.status === response.status &&
      (json === undefined || u.code === code) &&
      (u.operation === '*' || (u.operation === undefined ? operation === undefined : u.operation === operation?.iid)),
  );
  const documented = operation?.responses.some((r) => r.code === String(response.status)) ?? false;
  if (operation && documented) {
    return validator.validate(operation, { status: response.status, headers, body: method === 'HEAD' ? '' : text }).filter(
      (v) => !(method === 'HEAD' && v.path[0] === 'body'),
    );
  }
  if (!allowed) {
    return [{ code: 'unexpected-status', message: `status ${response.status} is neither documented for ${operation?.iid ?? 'this route'} nor a listed undocumented response`, severity: 'error', path: ['status'] }];
  }
  return errorBodyViolations(response, method === 'HEAD' ? undefined : json);
}

/** An undocumented response must still be the interface's Error body. */
function errorBodyViolations(response: Response, json: unknown): Violation[] {
  const violations: Violation[] = [];
  if (!/^application\/json\b/.test(response.headers.get('content-type') ?? '')) {
    violations.push({ code: 'content-type', message: `content type ${response.headers.get('content-type')} is not application/json`, severity: 'error', path: ['headers', 'content-type'] });
  }
  if (json === undefined) return violations;
  const body = json as Record<string, unknown>;
  if (typeof body.code !== 'string' || typeof body.message !== 'string' || body.status !== response.status) {
    violations.push({ code: 'error-body', message: `not an Error body with status ${response.status}: ${JSON.stringify(json)}`, severity: 'error', path: ['body'] });
  }
  return violations;
}
