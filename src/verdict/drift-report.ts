/**
 * What differs between two targets sent the same generated cases, grouped
 * by cause. Plain data, read by every reporter.
 */

/** One cause: where two targets answered alike cases differently, and how many cases show it. */
export interface DriftGroup {
  /** What differs, in words: a silent point's question, or `createPet 201: header Location`. */
  cause: string;
  /** `silent`: a point where the interface is silent; `answer`: the status, Error code, a header or the body's shape. */
  kind: 'silent' | 'answer';
  /** What each target answered there. */
  a: string;
  b: string;
  cases: number;
  /** One case, as a curl line for each side (keys redacted). */
  example: { a: string; b: string };
}

/** A cause where a target answered the same request differently on repeat: not drift, since neither answer is its choice. */
export interface Inconsistency {
  cause: string;
  side: 'a' | 'b';
  /** The answers it gave, in the order it gave them. */
  answers: string[];
  example: string;
}

/** A difference the mock will not copy, whatever a profile says (drift/not-copied.ts): listed once, not as drift. */
export interface NotCopied {
  what: string;
  why: string;
  cases: number;
}

export interface DriftReport {
  /** The two targets: `a` is --base-url, `b` is --compare-with. */
  a: string;
  b: string;
  groups: DriftGroup[];
  /** Differences no profile removes, as the mock will not copy them: each once, with why. */
  notCopied: NotCopied[];
  inconsistent: Inconsistency[];
  /** The rules failed on the compared target (`b`): contract failures, reported as such and not compared. */
  failedOnB: Array<{ id: string; message: string }>;
  /** Rules not compared, with why (failed on a side, or their cases went out of step after a difference). */
  notCompared: Array<{ id: string; reason: string }>;
  /** Exchanges compared pairwise. */
  compared: number;
  /** Whether drift fails the run (--fail-on-drift); otherwise it is reported only. */
  failsRun: boolean;
}
