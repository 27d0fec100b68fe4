import type { FixedProfilePoint } from '../shared/profile/profile-points.js';
import type { ExchangeCheckId } from './exchange-check-ids.js';

/**
 * One exchange with an Animal Store API as whoever made it recorded it (the
 * harness's client, the proxy), and what the checks found in it: plain
 * data, read by the checks, the reporters, the proxy's journal and report.
 */

export type OperationId = 'listPets' | 'createPet' | 'getPet';

/** An answer as the harness's client received it: the key redacted, the body parsed when it is JSON. */
export interface ReceivedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Set in a report when `body` holds only the start of the answer's body (shown-body.ts): its whole length. */
  bodyChars?: number;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown;
  /**
   * The same body as a schema validator judges it (parseExactJson's `view`),
   * so it is read once: the same object as `json` unless the body holds an
   * integer past 2^53.
   */
  view?: unknown;
  /**
   * Set when the body was not read to its end: it passed the harness's cap,
   * or did not end within the time limit, or its content coding could not
   * be decoded. `body` then holds only its start
   * (4 KiB at most) and `json` is undefined; the reason is the finding.
   */
  unread?: { reason: string; expected: string };
  /** For a request sent on a connection of its own (ApiRequest `connection`): what came past the header block, and whether the connection answered again. */
  afterward?: Afterward;
}

/**
 * What followed an answer's header block on its connection: the bytes sent
 * before the next answer (content, for an answer that may carry none), and
 * the status a second request got, or why none came.
 */
export interface Afterward {
  /** The bytes past the header block, before the second answer or the connection's end, as text. */
  content: string;
  /** The answer said `Connection: close`: no second request was sent, and none was due. */
  closes: boolean;
  /** The second request's status. */
  next?: number;
  /** Why the second request got no answer (closed, reset, nothing within the time limit). */
  broken?: string;
}

/** One request the harness sent, and the answer it received or the network error in its place. */
export interface RecordedExchange {
  operation: OperationId | undefined;
  /**
   * `without`: fields deliberately not sent that curl would add of its own (a curl line removes them).
   * `bodyChars`: set in a report when `body` holds only the start of what was sent (shown-body.ts): its whole length.
   * `version`: the HTTP version when not 1.1 (`1.0`).
   * `follows`: the request sent just before it on the same, reused, connection (a curl line sends both, `--next`).
   */
  request: { method: string; url: string; headers: Record<string, string | string[]>; body?: string | undefined; bodyChars?: number; without?: string[]; version?: string; target?: string; follows?: RecordedExchange['request'] };
  response?: ReceivedResponse;
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
  /**
   * Marks findings that fail even an advisory rule: 5xx, dropped connection,
   * an error that is not an Error body or not application/json, a page that
   * breaks the listing invariants.
   */
  hard?: boolean;
  /** The check of every exchange that made it (exchange-check-ids.ts); absent for a rule's own findings. */
  check?: ExchangeCheckId;
  exchange?: RecordedExchange;
  /** For a generated case: how to replay it. */
  reproduce?: Reproduction;
  /** The cause it is grouped under (failure-causes.ts), once the run is over: `cause-1`. */
  cause?: string;
  /**
   * The profile point whose choice the finding may show (a valid name
   * refused at a length): a learning run that wrote that point's choice
   * into its profile, and whose choice explains it, counts it learned.
   */
  profilePoint?: FixedProfilePoint;
}

/** A generated case that failed, shrunk, with what replays it. */
export interface Reproduction {
  /** The failing request as a curl line, the key redacted. */
  curl: string;
  /** The run's seed: `--seed N --only RULE` sends the same cases. */
  seed: number;
  /** What the case was, in words (`name = "Zoë"`, `categoryId: a boolean`). */
  case: string;
  /** Cases sent before it failed, and shrinking steps taken. */
  tried: number;
  shrinks: number;
}

/** The network error of a near-miss that this key allows no variant of: nothing was sent. */
export const NOT_SENT = 'not sent: the key allows no such variant';
