import type { SilentAnswer } from '../shared/profile/learn/learned.js';
import type { FixedProfilePoint } from '../shared/profile/profile-points.js';
import type { DriftReport } from './drift-report.js';
import type { Finding, OperationId, RecordedExchange } from './exchange.js';

/**
 * What every report holds: a target's answers judged, one result per rule
 * (or per cause of a proxy's violations), and the failures grouped by
 * cause. Plain data, read by the reporters.
 */
export interface VerdictReport {
  target: { baseUrl: string };
  startedAt: string;
  ms: number;
  results: RuleResult[];
  /** Every finding of `results`, grouped by cause (failure-causes.ts): what reports lead with. */
  causes: FailureCause[];
  summary: { passed: number; failed: number; skipped: number; warnings: number; contractFailed: number };
  /** Whether it passes: no failed result (and, for a run, not a wrong target). */
  ok: boolean;
}

/**
 * A contract run's report: the rules with what they found, the coverage of
 * the document's pairs, the answers where the interface is silent, and the
 * drift from a second target.
 */
export interface SuiteReport extends VerdictReport {
  kind: 'contract-run';
  target: { baseUrl: string; readOnly: boolean };
  /** Replays the generated cases: `--seed N`. */
  seed: number;
  examples: number;
  /** The limits declared with --allow-refusal, in their own words (`name.maxLength=100`). */
  declared: string[];
  coverage: Coverage;
  /** What the target answered where the interface is silent. */
  silent: SilentEntry[];
  /** Every request answered the same status no rule can make sense of (wrong-target.ts): the address or key is wrong; null otherwise. */
  wrongTarget: WrongTarget | null;
  /** With --compare-with: what differs from the second target (drift/run-drift.ts). */
  drift?: DriftReport;
  /** With --write-profile: what the run learned (profile/learning-summary.ts). */
  learning?: Learning;
  /** How far the run pushed the target: animals created, the largest catalogue read, requests sent (answer-tally.ts). */
  growth?: { created: number; largestCatalogue: number | null; requests: number; depth: 'standard' | 'deep' };
  /** What the end of a writing run read back (read-back.ts): after a pause of `settleSeconds`, the animals it created. */
  readBack?: { settleSeconds: number; animals: number };
  /** The mock session the run was sent in (the command's choice, run-session.ts); absent when the caller chose none. */
  session?: RunSessionFacts;
  /** With --compare-with: the compared target's session. */
  comparedSession?: RunSessionFacts;
}

/**
 * Which session of the mock a run used. `own`: a fresh one it opened and
 * ended, so the mock's shared data is as it was; `named`: `--session ID`,
 * kept; `shared`: `--shared-session`, no header; `none`: the target is not
 * this mock (it answered no `GET /__mock/health` as the mock does), so no
 * header was sent and the run acted on its data.
 */
export interface RunSessionFacts {
  /** The `X-Mock-Session` every request carried; null for none. */
  id: string | null;
  kind: 'own' | 'named' | 'shared' | 'none';
  /** Whether the target answered as this mock does (own and named only). */
  mock?: boolean;
  /** For `own`, once the run is over: whether its session was ended. */
  ended?: boolean;
  /** Why it was not ended, when it was not. */
  notEnded?: string;
}

/**
 * A learning run's outcome: the profile it wrote, its points learned and
 * left to the mock's own choice, and the failed rules whose every failure
 * is a choice written into the profile. When those are all the failures,
 * the run passes (`ok`): finding such choices out is what it is for.
 */
export interface Learning {
  file: string;
  learned: string[];
  /** Left to the mock's own choice; the profile's notes say why. */
  unlearned: string[];
  /** Failed rules explained by the profile's choices, each with the points that explain it. */
  learnedFailures: Array<{ id: string; points: string[] }>;
  /** Failed rules the profile does not explain. */
  otherFailures: string[];
}

/**
 * Proxy mode's report (`--proxy-report`): the checks of every exchange over
 * the traffic it forwarded, one failed result per cause, with how many
 * exchanges broke it. It holds no seed, coverage or silent points: no rule
 * chose the requests.
 */
export interface ProxyReport extends VerdictReport {
  kind: 'proxy-traffic';
  /** The exchanges that broke a statement, each counted once per statement. */
  violations: number;
}

/** Any report the reporters that read both write: JSON, JUnit, HTML. */
export type Report = SuiteReport | ProxyReport;

/**
 * `contract`: what the interface states; a failure fails the run.
 * `advisory`: where the interface is silent; reported, and fails the run
 * only on a 5xx, a dropped connection, or an error that is not an Error body.
 */
export type Severity = 'contract' | 'advisory';

/** The statement of animal-store-interface.md a rule checks. */
export interface Statement {
  /** The interface's section, e.g. `Endpoints > List animals`. */
  section: string;
  /** What it says, quoted or closely paraphrased. */
  text: string;
}

/**
 * Where the interface is silent, a point the harness notes under its own
 * key: a profile point (profile-points.ts), or one only the harness asks
 * about (what a server refuses among valid NewPets).
 */
export type FixedSilentPoint = FixedProfilePoint | HarnessOnlySilentPoint;
export type HarnessOnlySilentPoint = 'valid-refused' | 'validators' | 'uri-forms';

/**
 * A documented listPets query parameter, one point each, read from the
 * document: what values it refuses got (`refused`), or, for a parameter
 * the harness cannot judge (neither `limit` nor a Pet field), what valid
 * values got (`unjudged`).
 */
export interface QueryParameterPoint {
  kind: 'query-parameter';
  name: string;
  values: 'refused' | 'unjudged';
}

export type SilentPoint = FixedSilentPoint | QueryParameterPoint;

export interface SilentEntry {
  point: SilentPoint;
  question: string;
  answers: SilentAnswer[];
}

/** What a rule is, as reports show it. */
export interface RuleFacts {
  /** Stable id, used by --only and --skip and in reports. */
  id: string;
  title: string;
  operation: OperationId;
  /** Whether it creates data (createPet). Writing rules are skipped in read-only mode. */
  writes: boolean;
  severity: Severity;
  statement: Statement;
}

export type RuleStatus = 'passed' | 'failed' | 'skipped';

export interface RuleResult extends RuleFacts {
  status: RuleStatus;
  /** Generated cases the rule sent (shrinking included); absent for rules with fixed requests. */
  cases?: number;
  /** Why it was skipped. */
  reason?: string;
  findings: Finding[];
  /** The exchanges kept for the report (of generated cases, only the failing ones). */
  exchanges: RecordedExchange[];
  /** Every `operation status` pair the rule's requests got, kept or not: what coverage counts. */
  observed?: string[];
  ms: number;
}

/** A documented request/response pair: an operation and one of its statuses. */
export interface DocumentedPair {
  operation: OperationId;
  method: string;
  /** The operation's path template: `/pets/{petId}`. */
  path: string;
  status: number;
  /** dredd-transactions' name for it. */
  name: string;
}

export interface Coverage {
  pairs: Array<DocumentedPair & { rules: string[] }>;
  covered: number;
  total: number;
}

/** (Nearly) every request of the run got the same answer, one no rule can make sense of: the address or the key is wrong, not the API. */
export interface WrongTarget {
  status: number;
  requests: number;
  /** How many of them got `status`: all of them, or nearly all. */
  matching: number;
  /** One line: `every request answered 404: is the base URL right? (…)`. */
  message: string;
}

/**
 * One cause of the run's failures (or, where it failed no rule, of its
 * warnings): what the findings it groups have in common, the rules it
 * affected and one of them as its example. Plain data, read by every
 * reporter; each finding names its cause by `id`.
 */
export interface FailureCause {
  /** `cause-1`, `cause-2`…: the biggest first. */
  id: string;
  /**
   * `answer`: the target answered alike wherever it happened (a 503, no
   * answer, or one operation's unexpected status), whatever the rules asked;
   * `finding`: the same finding, on answers otherwise as the rule expected.
   */
  kind: 'answer' | 'finding';
  /** What went wrong, in words: `answered 503 service_unavailable with Retry-After`, `the body is not a JSON array (at $.body)`. */
  cause: string;
  /** `error` when it failed a rule; `warning` when every finding of it is a warning. */
  level: 'error' | 'warning';
  /** The rules it affected, in the report's order. */
  rules: string[];
  findings: number;
  /** The operations where it was seen, as their method and path template: `GET /pets/{petId}`. */
  operations: string[];
  /** For an answer whatever the operation: how many of the run's requests got it (the rest of them passed or were not judged). */
  requests?: { matching: number; total: number };
  /** The first finding of it: the rule and the finding in full. */
  example: { rule: string; finding: Finding };
}
