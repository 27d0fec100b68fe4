import { curlLine } from '../verdict/curl-line.js';
import { excerpt } from '../verdict/reporters/excerpt.js';
import type { SilentLog } from './types.js';
import type { FixedSilentPoint, SilentEntry, SilentPoint } from '../verdict/report.js';
import type { RecordedExchange } from '../verdict/exchange.js';

/** The interface's own open points, in report order (after listPets' parameters), with the question each answers. */
export const SILENT_QUESTIONS: Record<FixedSilentPoint, string> = {
  // The interface fixes an Error's shape, not its codes: each condition a client may tell apart is a point.
  'missing-key': 'every operation: no `Authorization` header (the Error code of the 401)',
  'wrong-key': 'every operation: `Authorization` without an accepted key (the Error code of the 401)',
  challenge: 'every operation: the `WWW-Authenticate` challenge of a 401',
  order: 'listPets: the order of results',
  'default-status': 'createPet: the status of an animal created without one',
  'name-length': 'createPet: the longest name accepted',
  'valid-refused': 'createPet: valid NewPets refused within the limits a server may have (limits on names, bodies and categories are not shown), or declared',
  'body-size': 'createPet: the largest body accepted (limits on bodies are not shown)',
  'empty-name': 'createPet: an empty name (accepted, or refused with 400)',
  'control-characters': 'createPet: a name with a control character (accepted, or refused with 400)',
  'taken-name': 'createPet: a name an animal already has (accepted, or refused with 400)',
  'chunked-body': 'createPet: a body sent chunked (accepted, or refused with 411)',
  'extra-member': 'createPet: a member NewPet does not name (ignored, or refused with 400)',
  location: 'createPet: whether `Location` is sent with 201',
  // One point each, as a server may answer each otherwise (and a profile sets each).
  'missing-body': 'createPet: an empty body',
  'malformed-json': 'createPet: a body that is not JSON',
  'body-not-object': 'createPet: JSON that is not an object (null, an array, a string, a number, true)',
  'media-type': 'createPet: a NewPet not sent as application/json',
  'missing-field': 'createPet: a NewPet without a field it requires (the Error code of the 400, by field)',
  'invalid-value': 'createPet: a NewPet with a field of the wrong type or out of its range (the Error code of the 400, by field)',
  'unknown-id': 'getPet: an id no animal has (the Error code of the 404)',
  'pet-id': 'getPet: a `petId` that is not an int64, and a known id written other ways (read as the id, or refused)',
  'unknown-query-parameter': 'every operation: a query parameter the document does not name',
};

/** The question a point answers; a query parameter's comes from its name, as the document gives it. */
export function questionOf(point: SilentPoint): string {
  if (typeof point === 'string') return SILENT_QUESTIONS[point];
  return point.values === 'refused'
    ? `listPets: a \`${point.name}\` the document refuses (out of range, of another type, not one of its values)`
    : `listPets: \`${point.name}\`, not judged (documented, but neither \`limit\` nor a Pet field: what it does to a page is not stated)`;
}

/** The note of a `petId` text some reading takes as an id: its answer may be the unknown id's, not the answer to a text that is no id. */
export const MAY_BE_READ = 'a reading may take it as an id';

/** The Error body's `code`, when the answer has one. */
export function errorCodeOf(exchange: RecordedExchange): string | undefined {
  const code = (exchange.response?.json as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** How an answer is summed up: the status, and the Error code when there is one. */
export function answerOf(exchange: RecordedExchange): string {
  const response = exchange.response;
  if (!response) return `no answer (${exchange.networkError})`;
  const code = errorCodeOf(exchange);
  return response.status >= 400 && code !== undefined ? `${response.status} ${code}` : String(response.status);
}

/** A listPets answer as the silent log notes it: a page with its size (`200 with 20 animals`: the default page, or clamped to 100), else as answerOf. */
export function pageAnswerOf(exchange: RecordedExchange): string {
  const json = exchange.response?.json;
  return exchange.response?.status === 200 && Array.isArray(json) ? `200 with ${json.length} animals` : answerOf(exchange);
}

export const keyOf = (point: SilentPoint): string => (typeof point === 'string' ? point : `${point.kind} ${point.name} ${point.values}`);

/** Report order: listPets' parameters by name (refused values, then unjudged ones), then the fixed points. */
function reportOrder(a: SilentPoint, b: SilentPoint): number {
  if (typeof a === 'string' || typeof b === 'string') {
    const rank = (p: SilentPoint) => (typeof p === 'string' ? Object.keys(SILENT_QUESTIONS).indexOf(p) : -1);
    return rank(a) - rank(b);
  }
  return a.name.localeCompare(b.name) || a.values.localeCompare(b.values);
}

/**
 * Gathers what the target answered where the interface is silent: each
 * distinct answer once per point, with how often it came and the first
 * request that got it, as a curl line.
 */
export function createSilentLog(): SilentLog {
  const points = new Map<string, { point: SilentPoint; answers: Map<string, { count: number; example: string }> }>();
  return {
    observe(point, answer, example) {
      const entry = points.get(keyOf(point)) ?? { point, answers: new Map<string, { count: number; example: string }>() };
      points.set(keyOf(point), entry);
      const seen = entry.answers.get(answer);
      if (seen) seen.count++;
      // Cut: the example shows the kind of request; a 10,000-character name would bury the section.
      else entry.answers.set(answer, { count: 1, example: typeof example === 'string' ? example : excerpt(curlLine(example.request), 300) });
    },
    entries(): SilentEntry[] {
      return [...points.values()]
        .sort((a, b) => reportOrder(a.point, b.point))
        .map(({ point, answers }) => ({
          point,
          question: questionOf(point),
          answers: [...answers].map(([answer, { count, example }]) => ({ answer, count, example })).sort((a, b) => b.count - a.count),
        }));
    },
  };
}
