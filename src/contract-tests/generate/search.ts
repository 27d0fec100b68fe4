import fc from 'fast-check';

/** What one generated case found: nothing wrong, or what failed (kept as data for the report). */
/** `final`: a failure not worth shrinking (no answer came; a smaller case would wait as long). */
export type CaseVerdict<F> = { ok: true } | { ok: false; failure: F; final?: boolean };

export interface SearchOptions<T, F> {
  arbitrary: fc.Arbitrary<T>;
  /** Cases tried first on every run (boundaries), shrunk like the random ones when they fail. */
  examples?: readonly T[];
  /** Random cases after the examples. */
  runs: number;
  seed: number;
  /** Sends the case and judges it. */
  check: (value: T) => Promise<CaseVerdict<F>>;
  /**
   * How many more cases shrinking may send once a failure is found: each is
   * a real request (a write, for createPet), so shrinking is bounded and
   * shows the smallest failure found within the budget.
   */
  shrinkBudget?: number;
}

export type SearchResult<T, F> =
  | { failed: false; tried: number }
  | { failed: true; tried: number; shrinks: number; value: T; failure: F };

/**
 * Runs a property with fast-check: the examples, then `runs` random cases
 * from the seed; the first failure is shrunk to a smaller one that still
 * fails. The same seed gives the same cases, so a failure can be replayed.
 */
export async function search<T, F>({ arbitrary, examples = [], runs, seed, check, shrinkBudget = 80 }: SearchOptions<T, F>): Promise<SearchResult<T, F>> {
  let tried = 0;
  let failuresSeen = 0;
  let afterFirstFailure = 0;
  let last: { value: T; failure: F } | undefined;
  const property = fc.asyncProperty(arbitrary, async (value) => {
    if (failuresSeen > 0 && ++afterFirstFailure > shrinkBudget) return true;
    tried++;
    const verdict = await check(value);
    if (verdict.ok) return true;
    failuresSeen++;
    last = { value, failure: verdict.failure };
    if (verdict.final) afterFirstFailure = shrinkBudget;
    return false;
  });
  const details = await fc.check(property, { seed, numRuns: examples.length + runs, examples: examples.map((e) => [e] as [T]) });
  if (!details.failed || !last) return { failed: false, tried };
  // fast-check reports the smallest failing case; `last` is the last one that failed, which is that case.
  return { failed: true, tried, shrinks: details.numShrinks, value: last.value, failure: last.failure };
}

/**
 * A rule's own seed from the run's: rules run concurrently, so each draws
 * from its own sequence and a failure replays the same with `--only`.
 */
export function ruleSeed(runSeed: number, ruleId: string): number {
  let h = runSeed | 0;
  for (let i = 0; i < ruleId.length; i++) h = Math.imul(h ^ ruleId.charCodeAt(i), 0x9e3779b1);
  return h | 0;
}

/** A seed for a run that was given none: printed by every reporter, so the run can be replayed. */
export const drawSeed = (): number => Math.floor(Math.random() * 2 ** 31);
