import { curlLine } from './curl-line.js';
import { excerpt } from './reporters/excerpt.js';
import type { Exchange, SilentEntry, SilentLog, SilentPoint } from './types.js';

/** The points the interface leaves open, in report order, with the question each answers. */
export const SILENT_QUESTIONS: Record<SilentPoint, string> = {
  limit: 'listPets: `limit` outside 1–100, or not an integer',
  status: 'listPets: a `status` that is unknown, wrongly cased or padded',
  order: 'listPets: the order of results',
  'default-status': 'createPet: the status of an animal created without one',
  'name-length': 'createPet: the longest name accepted',
  'valid-refused': 'createPet: valid NewPets refused (limits on names and categories are not shown)',
  location: 'createPet: whether `Location` is sent with 201',
  'body-not-json': 'createPet: a body that is not JSON, or not sent as application/json',
  'pet-id': 'getPet: a `petId` that is not an int64',
};

/** How an answer is summed up: the status, and the Error code when there is one. */
export function answerOf(exchange: Exchange): string {
  const response = exchange.response;
  if (!response) return `no answer (${exchange.networkError})`;
  const code = (response.json as { code?: unknown } | undefined)?.code;
  return response.status >= 400 && typeof code === 'string' ? `${response.status} ${code}` : String(response.status);
}

/**
 * Gathers what the target answered where the interface is silent: each
 * distinct answer once per point, with how often it came and the first
 * request that got it, as a curl line.
 */
export function createSilentLog(): SilentLog {
  const points = new Map<SilentPoint, Map<string, { count: number; example: string }>>();
  return {
    observe(point, answer, example) {
      const answers = points.get(point) ?? new Map<string, { count: number; example: string }>();
      points.set(point, answers);
      const seen = answers.get(answer);
      if (seen) seen.count++;
      // Cut: the example shows the kind of request; a 10,000-character name would bury the section.
      else answers.set(answer, { count: 1, example: typeof example === 'string' ? example : excerpt(curlLine(example.request), 300) });
    },
    entries(): SilentEntry[] {
      return (Object.keys(SILENT_QUESTIONS) as SilentPoint[])
        .filter((point) => points.has(point))
        .map((point) => ({
          point,
          question: SILENT_QUESTIONS[point],
          answers: [...(points.get(point) ?? [])].map(([answer, { count, example }]) => ({ answer, count, example })).sort((a, b) => b.count - a.count),
        }));
    },
  };
}
