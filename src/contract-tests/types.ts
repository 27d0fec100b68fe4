/**
 * The harness's data: rules, the exchanges they make, and what they find.
 * Everything is plain data, so reporters, the CLI and the vitest project
 * read the same results.
 */

export type OperationId = 'listPets' | 'createPet' | 'getPet';

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

export interface ApiRequest {
  method: 'GET' | 'POST';
  /** Below the base URL, e.g. `/pets?limit=1`. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /**
   * `key` (the default): `Bearer <configured key>`; `none`: no Authorization
   * header; `{ scheme }`: the configured key under another spelling of the
   * scheme; `{ authorization }`: exactly this header.
   */
  auth?: 'key' | 'none' | { scheme: string } | { authorization: string };
}

export interface ObservedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown;
}

export interface Exchange {
  operation: OperationId | undefined;
  request: { method: string; url: string; headers: Record<string, string>; body?: string | undefined };
  response?: ObservedResponse;
  /** A network failure after the retries (refused, reset, timed out). */
  networkError?: string;
  ms: number;
}

export interface Finding {
  /** `error` fails the rule; `warning` is reported only. */
  level: 'error' | 'warning';
  /** What went wrong, in one sentence. */
  message: string;
  /** What was expected, and from which statement. */
  expected: string;
  /** Where in the response, as a JSON path (`$.body[0].name`, `$.status`, `$.headers.content-type`). */
  path?: string;
  /** Marks findings that fail even an advisory rule: 5xx, dropped connection, an error that is not an Error body. */
  hard?: boolean;
  exchange?: Exchange;
}

export interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: 'available' | 'pending' | 'sold';
}

export interface RuleContext {
  /** Sends a request, validates the response against the contract document and records both. */
  send(request: ApiRequest): Promise<Exchange>;
  /** Records a finding on the last or the given exchange. */
  fail(finding: Omit<Finding, 'level'> & { level?: Finding['level'] }): void;
  /** An animal that exists, found through listPets (cached for the run); undefined for an empty catalogue. */
  existingPet(): Promise<Pet | undefined>;
  readonly readOnly: boolean;
}

export type RuleOutcome = void | { skipped: string };

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

export interface Rule extends RuleFacts {
  run(context: RuleContext): Promise<RuleOutcome>;
}

export type RuleStatus = 'passed' | 'failed' | 'skipped';

export interface RuleResult extends RuleFacts {
  status: RuleStatus;
  /** Why it was skipped. */
  reason?: string;
  findings: Finding[];
  exchanges: Exchange[];
  ms: number;
}
