import { curlLine } from '../verdict/curl-line.js';
import { excerpt } from '../verdict/reporters/excerpt.js';
import type { SilentLog } from './types.js';
import type { FixedSilentPoint, HarnessOnlySilentPoint, SilentEntry, SilentPoint } from '../verdict/report.js';
import { pageNote } from '../shared/profile/learn/noted-answers.js';
import { PROFILE_POINTS, type FixedProfilePoint } from '../shared/profile/profile-points.js';
import type { ProfilePointSpec } from '../shared/profile/profile-point.js';
import type { RecordedExchange } from '../verdict/exchange.js';

/** The points only the harness asks about, each with its question and the profile point it is reported after. */
const HARNESS_ONLY: Record<HarnessOnlySilentPoint, { question: string; after: FixedProfilePoint }> = {
  'valid-refused': {
    question: 'createPet: valid NewPets refused within the limits a server may have (limits on names, bodies and categories are not shown), or declared',
    after: 'name-length',
  },
  'uri-forms': {
    question: 'every operation: a target written a way RFC 3986 does not call the same (`//`, another case, `;x=1`, `%2F`, `\\`, `#x`, an empty query piece), and dot segments a server refuses: what each got (a 2xx with the key, a redirect or a 4xx; without the key 401 or the same refusal)',
    after: 'unknown-path',
  },
  validators: { question: 'listPets and getPet: the validators a client revalidates with (ETag, Last-Modified); without one, revalidation is not judged', after: 'deprecation' },
};

/** The interface's own open points, in report order (after listPets' parameters), with the question each answers: the profile points' (profile-points.ts), and the harness's own. */
export const SILENT_QUESTIONS = Object.fromEntries(
  (PROFILE_POINTS as readonly ProfilePointSpec[])
    .filter((point) => point.noted === 'fixed')
    .flatMap((point) => [
      [point.key, point.question],
      ...Object.entries(HARNESS_ONLY)
        .filter(([, own]) => own.after === point.key)
        .map(([key, own]) => [key, own.question]),
    ]),
) as Record<FixedSilentPoint, string>;

/** The question a point answers; a query parameter's comes from its name, as the document gives it. */
export function questionOf(point: SilentPoint): string {
  if (typeof point === 'string') return SILENT_QUESTIONS[point];
  return point.values === 'refused'
    ? `listPets: a \`${point.name}\` the document refuses (out of range, of another type, not one of its values)`
    : `listPets: \`${point.name}\`, not judged (documented, but neither \`limit\` nor a Pet field: what it does to a page is not stated)`;
}

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
  return exchange.response?.status === 200 && Array.isArray(json) ? pageNote.say(json.length) : answerOf(exchange);
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
