/**
 * 5xx answers the bounds give on purpose, as `status code` (the Error
 * body's code): bodies in flight over budget, a session table full of
 * sessions in use, a full catalogue. Any other 5xx is a failure.
 */
export const EXPECTED_5XX: ReadonlySet<string> = new Set(['503 server_busy', '503 too_many_sessions', '507 catalogue_full']);
/** The same, for a report line. */
export const EXPECTED_5XX_TEXT = [...EXPECTED_5XX].join(', ');

/**
 * How an answer is counted: its status, and for a 5xx also the Error body's
 * `code` (`503 server_busy`), so a bound's answer is told from a failure.
 */
export function statusKey(status: number, body: string | undefined): string {
  if (status < 500) return String(status);
  let code = '?';
  try {
    const parsed = JSON.parse(body ?? '') as { code?: unknown };
    if (typeof parsed.code === 'string') code = parsed.code;
  } catch {
    // Not an Error body: the key says so with '?'.
  }
  return `${status} ${code}`;
}

/** Whether a key from `statusKey` is a 5xx other than the bounds' expected answers. */
export function isUnexpected5xx(key: string): boolean {
  return Number(key.split(' ')[0]) >= 500 && !EXPECTED_5XX.has(key);
}

export type Counts = Record<string, number>;

/** How many of `counts` (keyed by `statusKey`) are unexpected 5xx. */
export const countUnexpected5xx = (counts: Counts): number =>
  Object.entries(counts).reduce((n, [key, count]) => n + (isUnexpected5xx(key) ? count : 0), 0);

const add = (counts: Counts, key: string, n = 1): void => {
  counts[key] = (counts[key] ?? 0) + n;
};

/** Answers and connection errors per traffic stream, in total and since the last one-second sample. */
export class Tally {
  readonly answers: Record<string, Counts> = {};
  readonly errors: Record<string, Counts> = {};
  #answersThisSecond: Counts = {};
  #errorsThisSecond = 0;

  answer(stream: string, status: number, body?: string): void {
    this.count(stream, statusKey(status, body));
  }

  /** Something other than an answer counted with the answers, e.g. a body given up on purpose. */
  count(stream: string, key: string): void {
    add((this.answers[stream] ??= {}), key);
    add(this.#answersThisSecond, key);
  }

  /** A connection error (refused, reset, timed out), by its code. */
  error(stream: string, code: string): void {
    add((this.errors[stream] ??= {}), code);
    this.#errorsThisSecond++;
  }

  /** Answers by status and the error count since the last call. */
  takeSecond(): { answers: Counts; errors: number } {
    const taken = { answers: this.#answersThisSecond, errors: this.#errorsThisSecond };
    this.#answersThisSecond = {};
    this.#errorsThisSecond = 0;
    return taken;
  }
}

/** Counts summed over streams. */
export function totals(byStream: Record<string, Counts>): Counts {
  const sum: Counts = {};
  for (const counts of Object.values(byStream)) for (const [key, n] of Object.entries(counts)) add(sum, key, n);
  return sum;
}
