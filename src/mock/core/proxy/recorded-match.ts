import { readJson } from '../../../shared/exact-json/parse-exact-json.js';
import { SECRET_NAME } from '../journal/journal-path.js';
import type { MatchSpec, TextPredicate, ValuePredicate } from '../scenarios/scenario.js';

/** The request fields a recorded stub may match on: nothing else of a request's header is ever written. */
export const RECORDED_REQUEST_HEADERS: readonly string[] = ['content-type', 'accept'];

/**
 * Request fields an answer may vary by and still be replayed to anyone: the
 * body is recorded decoded, and the mock encodes its own (Accept-Encoding);
 * the mock answers CORS itself (Origin).
 */
const REPLAYED_WHATEVER: readonly string[] = ['accept-encoding', 'origin'];

/**
 * Whether an answer's `Vary` (RFC 9110 §12.5.5) names a request field no
 * recorded stub matches (Authorization, Cookie, Accept-Language, `*`…): a
 * stub made of it would answer requests the target would have answered
 * otherwise.
 */
export function variesByUnrecorded(vary: string | undefined): boolean {
  if (vary === undefined) return false;
  return vary
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .some((name) => name !== '' && !RECORDED_REQUEST_HEADERS.includes(name) && !REPLAYED_WHATEVER.includes(name));
}

/** What a recorded stub needs of the request it answered. */
export interface RecordedRequest {
  operationId: string;
  /** The query as the client sent it (after `?`), '' for none. */
  query: string;
  /** The operation's documented query parameters: each one not sent is matched as absent. */
  documentedQuery: readonly string[];
  /** Header fields, names lower-cased. */
  headers: Record<string, string>;
  /** The request body when the mock has it whole, else undefined. */
  body: Buffer | undefined;
}

/**
 * The scenario `match` that picks out this request as exactly as the
 * scenario format can, or undefined when it cannot (getPet: stubs match no
 * path parameter, so a stub would answer for every id; a body that is not
 * a JSON object). A query parameter or body field whose name looks like a
 * credential is left out (the same names the journal redacts): the stub then
 * matches more widely, and the secret is in no file.
 */
export function recordedMatch(request: RecordedRequest): MatchSpec | undefined {
  if (request.operationId === 'getPet') return undefined;
  const match: MatchSpec = { operation: request.operationId };
  const query: Record<string, TextPredicate> = {};
  const sent = new URLSearchParams(request.query);
  for (const name of [...new Set([...sent.keys(), ...request.documentedQuery])].sort()) {
    if (SECRET_NAME.test(name)) continue;
    // The first value, as stubs read a repeated parameter.
    const value = sent.get(name);
    query[name] = value === null ? { absent: true } : { equals: value };
  }
  if (Object.keys(query).length > 0) match.query = query;
  const headers: Record<string, TextPredicate> = {};
  for (const name of RECORDED_REQUEST_HEADERS) {
    const value = request.headers[name];
    if (value !== undefined) headers[name] = { equals: value };
  }
  if (Object.keys(headers).length > 0) match.headers = headers;
  if (request.body === undefined) return request.operationId === 'createPet' ? undefined : match;
  if (request.body.length === 0) return match;
  const body = jsonObject(request.body);
  if (body === undefined) return undefined;
  const fields: Record<string, ValuePredicate> = {};
  for (const [name, value] of Object.entries(body).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!SECRET_NAME.test(name)) fields[name] = { equals: value };
  }
  match.body = fields;
  return match;
}

function jsonObject(bytes: Buffer): Record<string, unknown> | undefined {
  const value = readJson(bytes.toString('utf8'));
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
