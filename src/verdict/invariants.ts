import type { IHttpOperation } from '../document/prism.js';
import type { RecordedExchange, Finding } from './exchange.js';
import { stringifyExactJson } from '../shared/exact-json/stringify-exact-json.js';
import { isExactInteger } from '../shared/exact-json/int64.js';
import { checkStatement } from './exchange-check-ids.js';

type NewFinding = Omit<Finding, 'exchange'>;

const PAGE = checkStatement('invariant-page-size');
const FILTER = checkStatement('invariant-status-filter');
const GET = checkStatement('invariant-get-pet-id');

/**
 * What holds of every answer of an operation, whatever the request, read
 * from the contract document: a listPets page never holds more than the
 * maximum `limit`, nor more than the `limit` asked when that is a valid one
 * (the default when there is none); a page filtered by a valid `status`
 * holds only that status; getPet's Pet is the one asked for. These hold
 * where the rest of the answer is the server's choice (`limit=101` may be
 * refused or clamped), so they fail even an advisory rule.
 */
export function invariantFindings(operation: IHttpOperation | undefined, exchange: RecordedExchange): NewFinding[] {
  const response = exchange.response;
  if (!operation || response?.status !== 200) return [];
  const url = new URL(exchange.request.url);
  if (operation.iid === 'listPets' && Array.isArray(response.json)) return pageFindings(operation, url.searchParams, response.json as unknown[]);
  if (operation.iid === 'getPet') {
    const asked = decodedOrAsSent(url.pathname.split('/').at(-1) ?? '');
    const id = (response.json as { id?: unknown } | undefined)?.id;
    if (/^-?\d+$/.test(asked) && isExactInteger(id) && BigInt(id) !== BigInt(asked)) {
      return [{ check: 'invariant-get-pet-id', level: 'error', hard: true, message: `asked for animal ${asked}, got animal ${id}`, expected: GET, path: '$.body.id' }];
    }
  }
  return [];
}

/** A segment percent-decoded, or as sent when its octets are no UTF-8 (`%C0%AF`): then it is no id, and the invariant has nothing to compare. */
function decodedOrAsSent(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function pageFindings(operation: IHttpOperation, query: URLSearchParams, pets: unknown[]): NewFinding[] {
  const limit = queryParam(operation, 'limit');
  const findings: NewFinding[] = [];
  const maximum = typeof limit?.maximum === 'number' ? limit.maximum : undefined;
  const asked = query.getAll('limit');
  const valid = asked.length === 1 && /^\d+$/.test(asked[0] as string) ? Number(asked[0]) : undefined;
  const bound = Math.min(
    maximum ?? Infinity,
    asked.length === 0 && typeof limit?.default === 'number' ? limit.default : Infinity,
    valid !== undefined && valid >= (limit?.minimum as number | undefined ?? 1) && valid <= (maximum ?? Infinity) ? valid : Infinity,
  );
  if (pets.length > bound) {
    const why = asked.length === 0 ? 'no limit (default)' : `limit=${asked.join('&limit=')}`;
    findings.push({ check: 'invariant-page-size', level: 'error', hard: true, message: `${pets.length} animals for ${why}`, expected: `at most ${bound} (${PAGE})`, path: '$.body.length' });
  }
  const statuses = queryParam(operation, 'status')?.enum as unknown[] | undefined;
  const status = query.getAll('status');
  if (status.length === 1 && statuses?.includes(status[0])) {
    // One finding per page, naming the first stray item: the rules about the filter list them all.
    const strays = pets.map((pet, index) => ({ index, actual: (pet as { status?: unknown } | null)?.status })).filter((p) => p.actual !== status[0]);
    const first = strays[0];
    if (first) {
      findings.push({ check: 'invariant-status-filter', level: 'error', hard: true, message: `${strays.length} of ${pets.length} items in a page for status=${status[0]} have another status (item ${first.index}: ${stringifyExactJson(first.actual)})`, expected: FILTER, path: `$.body[${first.index}].status` });
    }
  }
  return findings;
}

/** A query parameter's schema as prism read it from the document. */
function queryParam(operation: IHttpOperation, name: string): Record<string, unknown> | undefined {
  return operation.request?.query?.find((p) => p.name === name)?.schema as Record<string, unknown> | undefined;
}
