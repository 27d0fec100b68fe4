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
   * shows the smallest failure found within the budget (150: enough to cut
   * a 10,000-character name down to the length where a server starts to
   * fail, about 270 steps unbounded, most of which pass at once).
   */
  shrinkBudget?: number;
}

/** `tried`: every case sent, shrinking included; `found`: the cases sent until the first failure. */
export type SearchResult<T, F> =
  | { failed: false; tried: number }
  | { failed: true; tried: number; found: number; shrinks: number; value: T; failure: F };

/**
 * Runs a property with fast-check: the examples, then `runs` random cases
 * from the seed; the first failure is shrunk to a smaller one that still
 * fails. The same seed gives the same cases, so a failure can be replayed.
 */
export async function search<T, F>({ arbitrary, examples = [], runs, seed, check, shrinkBudget = 150 }: SearchOptions<T, F>): Promise<SearchResult<T, F>> {
  let tried = 0;
  let shrinking = false;
  let afterFirstFailure = 0;
  let last: { value: T; failure: F } | undefined;
  const property = fc.asyncProperty(arbitrary, async (value) => {
    // Past the budget every further candidate "passes", which ends shrinking at the smallest failure so far.
    if (shrinking && ++afterFirstFailure > shrinkBudget) return true;
    tried++;
    const verdict = await check(value);
    if (verdict.ok) return true;
    shrinking = true;
    last = { value, failure: verdict.failure };
    if (verdict.final) afterFirstFailure = shrinkBudget;
    return false;
  });
  const details = await fc.check(property, { seed, numRuns: examples.length + runs, examples: examples.map((e) => [e] as [T]) });
  // A check that threw is the rule's own failure to read an answer: the rule reports it.
  if (details.failed && !last) throw details.errorInstance instanceof Error ? details.errorInstance : new Error(String(details.errorInstance));
  if (!details.failed || !last) return { failed: false, tried };
  // Shrinking moves only to failing candidates, so the last failure seen is fast-check's counterexample.
  return { failed: true, tried, found: details.numRuns, shrinks: details.numShrinks, value: last.value, failure: last.failure };
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
