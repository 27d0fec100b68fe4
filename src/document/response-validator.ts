import { INT64_MAX, INT64_MIN } from '../shared/exact-json/int64.js';
import { parseExactJson, unreadJson } from '../shared/exact-json/parse-exact-json.js';
import { mediaTypesOf } from '../shared/media-types.js';
import { splitOutsideQuotes } from '../shared/split-outside-quotes.js';
import { httpOperations } from './http-operations.js';
import { prismValidators, type HttpResponse, type IHttpOperation } from './prism.js';

/** A difference between a response and the contract document, as plain data. */
export interface Violation {
  code: string;
  message: string;
  severity: 'error' | 'warning';
  /** Where in the response: e.g. `['body', '0', 'status']`, `['headers', 'content-type']`, `['status']`. */
  path: string[];
}

/** What the validator reads of a response, whoever received it. */
export interface ResponseToValidate {
  status: number;
  headers: Record<string, string>;
  /** The body as text; parsed here when the content type is JSON. */
  body: string;
  /** The body already read by parseExactJson, its `view`: given, the text is not read a second time. */
  view?: unknown;
}

export interface ResponseValidator {
  /** The documented operation a request goes to, by method and path below the base path (`/pets/3`). */
  operationFor(method: string, path: string): IHttpOperation | undefined;
  /** Checks a response against its operation with prism-http's output validator. */
  validate(operation: IHttpOperation, response: ResponseToValidate): Violation[];
}

/**
 * The contract's response rules, from prism-http: a status the operation
 * documents, the documented content type, the body schema and headers.
 * prism reports an undocumented non-2xx status only as a warning; here it is
 * an error too, so callers decide which undocumented statuses they allow.
 */
export async function createResponseValidator(documentPath?: string): Promise<ResponseValidator> {
  const operations = await httpOperations(documentPath);
  const routes = operations.map((operation) => ({ operation, pattern: templateToRegExp(operation.path) }));
  const judged = new Map<string, Violation[]>();
  return {
    operationFor(method, path) {
      const lower = method.toLowerCase();
      return routes.find((r) => r.operation.method === lower && r.pattern.test(path))?.operation;
    },
    validate(operation, response) {
      const violations: Violation[] = [];
      const documented = operation.responses.some((r) => r.code === String(response.status));
      if (!documented) {
        violations.push({
          code: 'undocumented-status',
          message: `${operation.iid ?? operation.id} does not document status ${response.status} (documented: ${operation.responses.map((r) => r.code).join(', ')})`,
          severity: 'error',
          path: ['status'],
        });
        return violations;
      }
      const key = memoKey(operation, response);
      const known = key === undefined ? undefined : judged.get(key);
      if (known) return known.map((v) => ({ ...v, path: [...v.path] }));
      const element: HttpResponse = { statusCode: response.status, headers: readableHeaders(response.headers), body: parseBody(response, violations) };
      let result;
      try {
        result = prismValidators.validateOutput({ resource: operation, element });
      } catch (error) {
        // Never a throw: the proxy judges answers after they have gone, where a throw would end the process.
        violations.push({ code: 'not-judged', message: `the answer could not be judged against the document: ${(error as Error).message}`, severity: 'warning', path: [] });
        return violations;
      }
      if (result._tag === 'Left') {
        for (const d of result.left) {
          violations.push({
            code: String(d.code ?? 'schema'),
            message: int64Message(d.message),
            severity: d.severity === 0 ? 'error' : 'warning',
            path: d.path ?? [],
          });
        }
      }
      if (key !== undefined) remember(judged, key, violations.map((v) => ({ ...v, path: [...v.path] })));
      return violations;
    },
  };
}

/**
 * A run sends the same answer many times over (every 401 to a request
 * without the key is one Error body), and prism reads each in some 0.5 ms:
 * an answer already judged is not judged again. prism reads the status, the
 * Content-Type, the body and the fields the document names for that status,
 * nothing else, so those are the key. At most MEMO_ENTRIES answers of at most
 * MEMO_BODY_BYTES characters each are kept (about 4 MiB), the oldest
 * forgotten first.
 */
const MEMO_ENTRIES = 256;
const MEMO_BODY_BYTES = 16 * 1024;

function memoKey(operation: IHttpOperation, response: ResponseToValidate): string | undefined {
  if (response.body.length > MEMO_BODY_BYTES) return undefined;
  const documented = operation.responses.find((r) => r.code === String(response.status))?.headers ?? [];
  const fields = documented.map((h) => response.headers[h.name.toLowerCase()] ?? null);
  return JSON.stringify([operation.iid ?? operation.id, response.status, response.headers['content-type'] ?? null, fields, response.body]);
}

function remember(judged: Map<string, Violation[]>, key: string, violations: Violation[]): void {
  if (judged.size >= MEMO_ENTRIES) judged.delete(judged.keys().next().value as string);
  judged.set(key, violations);
}

/**
 * The headers with their Content-Type as prism's parser (the content-type
 * package) reads it. It throws on two forms RFC 9110 allows: an empty
 * parameter (`application/json;`, §5.6.6: `*( OWS ";" OWS [ parameter ] )`)
 * and an empty list element (`application/json, `, §5.6.1.2). Whether the
 * field names one media type is exchange-content-type-once's to judge.
 */
function readableHeaders(headers: Record<string, string>): Record<string, string> {
  const value = headers['content-type'];
  if (value === undefined) return headers;
  const types = mediaTypesOf(value);
  if (types.length !== 1) return headers;
  const [type = '', ...parameters] = splitOutsideQuotes(types[0]!, ';').map((part) => part.trim());
  return { ...headers, 'content-type': [type, ...parameters.filter((parameter) => parameter !== '')].join('; ') };
}

function parseBody(response: ResponseToValidate, violations: Violation[]): unknown {
  const type = response.headers['content-type'] ?? '';
  if (!/[/+]json\b/i.test(type) || response.body === '') return response.body;
  if (response.view !== undefined) return response.view;
  // Read exactly and judged on its view (shared/exact-json/): an int64 past
  // 2^53 is valid, an integer past int64 is not, whatever JavaScript's doubles hold.
  try {
    return parseExactJson(response.body).view;
  } catch (error) {
    violations.push({ code: 'malformed-json', message: `the body ${unreadJson(error)}`, severity: 'error', path: ['body'] });
    return response.body;
  }
}

/** `/pets/{petId}` → /^\/pets\/[^/]+$/ */
function templateToRegExp(template: string): RegExp {
  const source = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${source}$`);
}

/**
 * prism reads `format: int64` as the range ±(2^53−1), which on a body's
 * view (see int64StandIn) means exactly "within int64": its message says so
 * in int64's own bounds.
 */
const SAFE_BOUND = new RegExp(`must be [<>]= -?${Number.MAX_SAFE_INTEGER}$`);
const int64Message = (message: string): string => (SAFE_BOUND.test(message) ? `must be an integer from ${INT64_MIN} to ${INT64_MAX} (int64)` : message);
