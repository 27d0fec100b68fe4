import type { CatalogueFull, CatalogueLimits } from '../catalogue/catalogue-limits.js';
import type { StoredPet } from '../catalogue/catalogue-index.js';
import type { NameTaken } from '../catalogue/name-taken.js';
import type { ListQuery } from '../catalogue/catalogue-page.js';
import type { NewPet, Pet } from '../catalogue/pet.js';
import type { JournalEntry, JournalSince } from '../journal/request-journal.js';
import type { Result } from '../result.js';
import type { CompiledStub, RequestView } from '../scenarios/compile-stub.js';
import type { Scenario } from '../scenarios/check-scenario.js';
import type { StubPick } from '../scenarios/pick-stub.js';
import type { LoadedScenario } from '../scenarios/scenario-library.js';
import type { ScenarioSource } from '../scenarios/scenario-source.js';
import type { MaybePromise } from './maybe-promise.js';
import type { SessionStubs } from '../session-stubs/session-stubs.js';

/**
 * Where the mock keeps what requests change: sessions, their scenarios'
 * states and call counts, their catalogues' additions and their journals.
 * `memory` (memory/) keeps it in the process and answers at once; `redis`
 * (redis/) keeps it on a Redis server shared by several processes, and
 * answers later; open-store.ts opens the one `--store` names. What every
 * process reads from files (the document, scenario files, start
 * catalogues) stays in each process either way.
 *
 * A store that cannot reach its state rejects with StoreUnavailable
 * (store-unavailable.ts), which a request answers as 503 `store_unavailable`.
 */
export interface MockStore {
  readonly kind: 'memory' | 'redis';
  /** The shared default: requests that name no session. */
  readonly shared: Session;
  /** Requests that carried no accepted key (401s, preflights, paths outside the API): kept apart from every session's journal. */
  readonly anonymous: Journal;
  readonly maxSessions: number;
  readonly idleMs: number;
  /** The secret key sessions' ids are made with (`--session-per-key`): one for every process on the store, so a key names the same session on each. */
  readonly secret: Uint8Array;
  /**
   * The session `id`, started on first use (owned by `owner`) with the
   * start scenario; it becomes the most recently used. Refused when the
   * table is full and its least recently used session was used within the
   * protection window, or (Redis) when the shared secret turned out to
   * have changed: `id`, if made from a key, was made with the old one.
   */
  open(id: string, owner?: string): MaybePromise<Result<Session, SessionTableFull | SecretChanged>>;
  /** The session `id` if it is running; not started, not touched. */
  find(id: string): MaybePromise<Session | undefined>;
  /** A session `id` as it would start, not kept (what the admin API shows for a session not running). */
  preview(id: string): Session;
  /** The running sessions, least recently used first (the shared one is not among them). */
  list(): MaybePromise<SessionSummary[]>;
  /** Ends a session and everything it kept, at once for every process; false: none was running. */
  end(id: string): MaybePromise<boolean>;
  /** Hot reload: that file's new version serves from now on (see each store for what happens to state already kept). */
  replace(loaded: LoadedScenario): void;
  /** Every scenario file this process serves state from. */
  paths(): Set<string>;
  /** Whether the state can be reached now: ok with what health shows of the store, or why not (`/__mock/health`). */
  health(): MaybePromise<Result<StoreFacts, string>>;
  /** Redis only: its maxmemory-policy as read at start-up (eviction-policy.ts), for the start-up line. */
  readonly evictionPolicy?: string | undefined;
  /** Stops timers and connections. */
  close(): Promise<void>;
}

/** What the shared default and every new session start with: a scenario (or none) and the catalogue's animals. */
export interface ScenarioStart {
  scenario?: Scenario | undefined;
  /** The scenario's file (absolute), what hot reload compares against. */
  path?: string | undefined;
  pets: readonly Pet[];
}

/** Why a session ended other than by the admin API. */
export type SessionEndReason = 'idle' | 'evicted';

/** One client's mock: its own scenarios, catalogues and journal. */
export interface Session {
  /** null: the shared default. */
  readonly id: string | null;
  /** The key that opened it, as its key session id (`--session-per-key`); only that key may use it. Undefined: anyone who names it. */
  readonly owner: string | undefined;
  readonly control: ScenarioControl;
  readonly journal: Journal;
  /** The stubs the admin API added to this session alone, tried before its scenario's. */
  readonly stubs: SessionStubs;
}

/** A running session as `GET /__mock/sessions` lists it. */
export interface SessionSummary {
  id: string;
  owner: string | undefined;
  scenario: string | null;
  pets: number;
  idleSeconds: number;
  journal: number;
}

/**
 * The secret of key sessions was not the one this process held (Redis lost
 * its data, FLUSHALL, and another process set its own): the store holds the
 * new one now, and a key's session id must be made again with it.
 */
export interface SecretChanged {
  secretChanged: true;
}

/** What `/__mock/health` shows of the store: on Redis, its maxmemory-policy read anew. */
export interface StoreFacts {
  evictionPolicy?: string;
}

/** Why a session could not start: every running one was used too recently to be ended. */
export interface SessionTableFull {
  /** When the least recently used one stops being protected. */
  retryAfterMs: number;
  /** How recently used a session must be to be protected (ms). */
  protectMs: number;
}

/**
 * The scenarios of one session: the active one, and every other one a
 * request used with `Prefer: scenario=NAME`, each with its own state.
 */
export interface ScenarioControl {
  /** Where the scenarios come from (a folder, or data). */
  readonly scenarios: ScenarioSource;
  /** What the session may add over all its scenarios' catalogues. */
  readonly limits: CatalogueLimits;
  /** The state requests answer from. */
  active(): MaybePromise<ScenarioState>;
  /** The state `Prefer: scenario=NAME` answers from: the active one's, or that scenario's own, started on first use. */
  stateOf(name: string): MaybePromise<Result<ScenarioState>>;
  /** Loads `name` from its file now and makes it active with a fresh state; a refused file leaves the previous one active. */
  activate(name: string): Promise<Result<Scenario>>;
  /** Every scenario of the session back to its start; the active one stays active. What the active one is then. */
  reset(): MaybePromise<StateSummary>;
  /** One scenario back to its start; undefined: it has no state in this session yet. */
  resetScenario(name: string): MaybePromise<StateSummary | undefined>;
}

/** A scenario state as the admin API shows it. */
export interface StateSummary {
  /** The scenario's name, or null (no scenario: the handlers alone answer). */
  scenario: string | null;
  pets: number;
  /** Its WireMock-style state, or null without a scenario. */
  state: string | null;
}

/** One scenario's live state in one session: its stubs' state and call counts, and its catalogue. */
export interface ScenarioState {
  /** None: the handlers alone answer (a mock started without a scenario). */
  readonly scenario: Scenario | undefined;
  /** The scenario file (absolute), what hot reload compares against. */
  readonly path: string | undefined;
  /** The stubs for an operation (its own and `*`, in file order). */
  stubsFor(operationId: string): readonly CompiledStub[];
  /**
   * The stub that answers `request`, trying `stubs` in order: the first
   * whose requiredState, match and calls fit. Each stub whose requiredState
   * and match fit counts the call, and the winner's newState applies, all
   * in one atomic step: two requests, in one process or two, never see the
   * same count or the same state twice.
   */
  pick(stubs: readonly CompiledStub[], request: RequestView): MaybePromise<StubPick>;
  /** Its state now (null without a scenario). */
  state(): MaybePromise<string | null>;
  /** Each stub's call count, in file order (empty without a scenario): what `calls` filters are judged on. */
  calls(): MaybePromise<readonly number[]>;
  readonly catalogue: StateCatalogue;
}

/** One scenario state's catalogue: the start catalogue (in the process) and what requests added (in the store). */
export interface StateCatalogue {
  /** The page as JSON, in id order: the start catalogue's animals, then the additions'. */
  listJson(query: ListQuery): MaybePromise<string>;
  /** One animal as JSON, as stored. */
  getJson(id: number): MaybePromise<string | undefined>;
  /**
   * Stores an animal with the next id, unless the session's catalogue
   * limits refuse it, or `refuseTakenName` is set and an animal of this
   * catalogue (its start animals or its additions) already has its name
   * (nothing stored then): the animal and its JSON as stored. The check and
   * the store are one atomic step, in one process or several. A taken name
   * is refused before the limits are judged; the names of animals created
   * without the option count as well.
   */
  create(pet: NewPet, options?: CreateOptions): MaybePromise<StoredPet | CatalogueFull | NameTaken>;
  count(): MaybePromise<number>;
}

/** How a create treats a name another animal of the catalogue has. */
export interface CreateOptions {
  /** Refuse it (NameTaken); by default it is stored, as any other name. */
  refuseTakenName?: boolean;
}

/** The last requests of a session (or the anonymous ones), oldest first. */
export interface Journal {
  readonly capacity: number;
  /** Sets the entry's seq: one more than the last appended to this journal. */
  append(entry: JournalEntry): MaybePromise<void>;
  entries(): MaybePromise<JournalEntry[]>;
  /**
   * The entries with a seq above `seq`, at most the `max` newest, oldest
   * first, with the journal's last seq, how many were appended after `seq`
   * in all, how many times it was cleared, and whether its session ended
   * (the journal stream's one read a tick): O(returned), not O(journal).
   * With `allOrNone`, no entry when more than `max` are newer.
   */
  since(seq: number, max: number, allOrNone?: boolean): MaybePromise<JournalSince>;
  /** How many entries it holds. */
  size(): MaybePromise<number>;
  /** Empties it; seqs go on counting. */
  clear(): MaybePromise<void>;
}
