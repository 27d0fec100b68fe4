import { createHash } from 'node:crypto';

/** Clean verdicts remembered: a 32-byte digest each, so a few thousand cost well under a MiB. */
export const MAX_CLEAN_ANSWERS = 4096;

/** Everything the checks of one exchange read (check-answer.ts): nothing else can change their verdict. */
export interface CheckedInput {
  method: string;
  url: string;
  keyed: boolean;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * The answers the checks found nothing wrong with, remembered by a digest
 * of everything the checks read. The checks are a function of that alone,
 * so an answer seen before (the same request, status, fields and body) gets
 * the verdict they gave it, without running them again: a page of animals
 * asked for a thousand times is checked once. Only clean verdicts are kept:
 * an answer that breaks the contract is checked, and reported, every time.
 * Bounded by MAX_CLEAN_ANSWERS; the one used longest ago is forgotten first.
 */
export interface CleanAnswers {
  digest(input: CheckedInput): string;
  has(digest: string): boolean;
  add(digest: string): void;
}

export function cleanAnswers(max = MAX_CLEAN_ANSWERS): CleanAnswers {
  // A Set keeps insertion order: deleting and adding again makes a digest the most recently used.
  const seen = new Set<string>();
  return {
    digest({ method, url, keyed, status, headers, body }) {
      // SHA-256, not a faster hash: a target able to make two answers collide could have a broken one pass as a clean one.
      return createHash('sha256').update(JSON.stringify([method, url, keyed, status, headers])).update(body).digest('base64');
    },
    has(digest) {
      if (!seen.delete(digest)) return false;
      seen.add(digest);
      return true;
    },
    add(digest) {
      seen.delete(digest);
      if (seen.size >= max) seen.delete(seen.values().next().value as string);
      seen.add(digest);
    },
  };
}
