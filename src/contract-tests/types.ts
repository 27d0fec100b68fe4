import type { RefusalAllowance } from './allow-refusal.js';
import type { HostForm } from './generate/host-field.js';
import type { InputModel } from './generate/schema-model.js';
import type { ExactInteger } from '../shared/exact-json/int64.js';
import type { Finding, RecordedExchange, Reproduction } from '../verdict/exchange.js';
import type { RuleFacts, SilentEntry, SilentPoint } from '../verdict/report.js';

/**
 * The harness's data: rules, the exchanges they make, and what they find.
 * Everything is plain data, so reporters, the CLI and the vitest project
 * read the same results.
 */

/** The methods the rules send: the document's, HEAD and OPTIONS, and those a client may send that it does not list (`FROB`: a token no registry holds; QUERY, SEARCH, PROPFIND, REPORT: safe methods of other specifications). */
export type Method = 'GET' | 'POST' | 'HEAD' | 'OPTIONS' | 'PUT' | 'PATCH' | 'DELETE' | 'FROB' | 'QUERY' | 'SEARCH' | 'PROPFIND' | 'REPORT';

export interface ApiRequest {
  /** DELETE is also how a run ends its session on the mock's admin API (run-session.ts). */
  method: Method;
  /** Below the base URL, e.g. `/pets?limit=1`; from the origin, base path included (`/v1/pets`), when `target` is given. */
  path: string;
  /**
   * The path is the whole path from the origin, written exactly as given
   * (a variation spells the base's segments too), and sent as this form of
   * request target (RFC 9112 §3.2.1 origin-form, §3.2.2 absolute-form).
   */
  target?: 'origin-form' | 'absolute-form' | 'absolute-form-upper-case-scheme';
  /**
   * The target names a path the interface does not have (a form it is
   * silent on: `/v1/pets/`, `//v1/pets`, `/V1/PETS`): what it gets says
   * nothing of the base URL or the key, so the wrong-target verdict
   * (wrong-target.ts) leaves it out. Not sent.
   */
  otherPath?: true;
  /** A header given as a list is sent once per value, each on its own line (fetch would join them into one). */
  headers?: Record<string, string | string[]>;
  /** Fields whose value is a path below the base URL: sent with the base URL's path before it (X-Original-URL names a whole path). */
  pathFields?: Record<string, string>;
  body?: string;
  /**
   * `key` (the default): `Bearer <configured key>`; `none`: no Authorization
   * header; `{ scheme }`: the configured key under another spelling of the
   * scheme; `{ authorization }`: exactly this header.
   */
  auth?: 'key' | 'none' | { scheme: string } | { authorization: string | string[] } | { nearMiss: NearMiss };
  /** Another way of writing the same request's fields (generate/variations.ts): it carries the fields its form says, and none of those fetch adds. */
  form?: HeaderForm;
  /**
   * What makes the request its case when the rule chose it from the answers
   * before (a body size a search picked): a drift report pairs two targets'
   * requests only when it is the same, as two searches part once answered
   * otherwise. Not sent.
   */
  case?: string;
  /**
   * `reused`: sent on a connection of its own whose answer is read byte for
   * byte, then a plain GET of the same path on the same connection, so what
   * an answer without content (HEAD, 304) sends past its header block, and
   * whether the connection still answers, are seen (one-connection.ts).
   * Over a fetch function there is no connection: the answer is read as any.
   * `after-key`: sent on a connection that has just carried a GET of the same
   * target with the key (http-client.ts `sendAfterKey`); requests without
   * the key otherwise never share a connection with one that carried it.
   */
  connection?: 'reused' | 'after-key';
}

/**
 * How a request's fields are written: the negotiation fields (null: not
 * sent), unknown fields added, the names' case, their order, whitespace
 * around values, the scheme's spelling, and the body sent chunked.
 */
export interface HeaderForm {
  /** A value given as a list goes over that many field lines of the one name (RFC 9110 §5.3). */
  negotiation: Record<'accept' | 'accept-language' | 'accept-encoding' | 'user-agent', string | readonly string[] | null>;
  extra: Record<string, string | readonly string[]>;
  names: 'lower' | 'title' | 'upper';
  order: 'as sent' | 'reversed' | 'authorization first';
  whitespace: boolean;
  scheme: string;
  schemeSpaces: number;
  chunked: boolean;
  /** The body's media type, when not the request's own (a JSON body sent as text/plain). */
  contentType?: string;
  /** An Expect field (RFC 9110 §10.1.1). */
  expect?: string;
  /** The HTTP version, when not 1.1: the request goes over a socket of its own. */
  version?: '1.0';
  /** Host written otherwise than the base URL's authority (generate/host-field.ts). */
  host?: HostForm;
}

/**
 * Credentials made from the key by the HTTP client, the one place that
 * holds it: rules never see the key, and reports print `shown`.
 */
export interface NearMissCredentials {
  authorization?: string | string[];
  query?: string;
  /** Fields other than Authorization, by lower-case name. */
  fields?: Record<string, string>;
}

export interface NearMiss {
  label: string;
  /** The Authorization header(s), the query and other fields (a cookie, X-API-Key) to add; undefined when this key allows no such variant. */
  make(key: string): NearMissCredentials | undefined;
  shown: NearMissCredentials;
}

/** One exchange with the findings the checks of every exchange made on it. */
export interface Probe {
  exchange: RecordedExchange;
  findings: Finding[];
}

/** A Pet as answered: its int64 fields are bigints past 2^53 (see shared/exact-json/int64.ts). */
export interface Pet {
  id: ExactInteger;
  name: string;
  categoryId: ExactInteger;
  status?: 'available' | 'pending' | 'sold';
}

export interface RuleContext {
  /** Sends a request, validates the response against the contract document and records both. */
  send(request: ApiRequest): Promise<RecordedExchange>;
  /** Records a finding on the last or the given exchange. */
  fail(finding: Omit<Finding, 'level'> & { level?: Finding['level'] }): void;
  /** An animal that exists, found through listPets (cached for the run); undefined for an empty catalogue. */
  existingPet(): Promise<Pet | undefined>;
  /** Why existingPet found none, as a skip reason (`listPets answered 503 …`); undefined when it found one. */
  noPetReason(): Promise<string | undefined>;
  readonly readOnly: boolean;
  /** Each animal a createPet of the run answered 201 with, by id, so far (answer-tally.ts). */
  created(): ReadonlyMap<string, unknown>;
  /** The pause, ms, before what the run created is read back (`--settle`). */
  readonly settleMs: number;
  /**
   * Sends a request and checks it as `send` does, but records nothing: for
   * generated cases, of which only the failing one is kept (`record`).
   */
  probe(request: ApiRequest): Promise<Probe>;
  /** Keeps a probe's exchange and findings in the rule's result. */
  record(probe: Probe, reproduce?: Reproduction): void;
  /** How many failing findings the rule has so far. */
  failures(): number;
  /** Notes what the target answered where the interface is silent. */
  observe: SilentLog['observe'];
  /** The base URL's path (`/v1`, none for a base URL without one), for a request sent from the origin (`ApiRequest.target`). */
  readonly basePath: string;
  /** The operations' inputs as the run's contract document states them. */
  readonly inputs: InputModel;
  /** The run's seed (a rule draws from `ruleSeed(seed, id)`) and the generated cases per operation. */
  readonly seed: number;
  readonly examples: number;
  /**
   * In a writing run, creates animals until listPets shows at least `count`
   * (once per run, shared by the rules); resolves to how many it shows.
   */
  ensureCatalogue(count: number): Promise<number | undefined>;
  /** The limits the CI owner declared (`--allow-refusal`): what the target may refuse of a valid NewPet beyond the undeclared boundary. */
  readonly allowance: RefusalAllowance;
}

/** Where the interface is silent: what the target answered, gathered by the rules. */
export interface SilentLog {
  /** `example`: the request that got the answer, or a note where no one request shows it. */
  observe(point: SilentPoint, answer: string, example: RecordedExchange | string): void;
  entries(): SilentEntry[];
}

/** A rule's end: nothing to add, a skip with its reason, or how many generated cases it sent. */
export type RuleOutcome = void | { skipped: string } | { cases: number };

export interface Rule extends RuleFacts {
  run(context: RuleContext): Promise<RuleOutcome>;
  /** Runs once every other rule is done: it looks at what they left (read-back.ts). */
  last?: boolean;
}

