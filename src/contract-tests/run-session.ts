import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { FetchFunction } from './fetch-transport.js';
import { createHttpClient, type Send } from './http-client.js';
import { errorCodeOf } from './silent-log.js';
import type { RecordedExchange } from '../verdict/exchange.js';
import type { RunSessionFacts } from '../verdict/report.js';

/** What the command line asked for: the run's own session (the default), one it names (`--session`), or the shared one (`--shared-session`). */
export type SessionChoice = { kind: 'own' } | { kind: 'named'; id: string } | { kind: 'shared' };

/** The mock's session ids (docs/sessions.md): 1 to 128 of these, `.` and `..` alone refused as the mock refuses them. */
const SESSION_ID = /^[A-Za-z0-9._~:-]{1,128}$/;

/**
 * What is wrong with a session id, in words that never repeat it: a key
 * pasted after the wrong flag must not be printed. Undefined when it is
 * one the mock takes.
 */
export function sessionIdProblem(id: string): string | undefined {
  if (id === '.' || id === '..') return 'cannot be "." or ".." alone (the mock refuses them: URL normalisation would turn them into other admin paths)';
  if (SESSION_ID.test(id)) return undefined;
  if (id.length === 0 || id.length > 128) return `must be 1 to 128 characters long, got ${id.length}`;
  const at = [...id].findIndex((c) => !/[A-Za-z0-9._~:-]/.test(c));
  return `may hold only A-Z a-z 0-9 . _ ~ : - (the mock's session ids), and character ${at + 1} is not one of them`;
}

/** A session the run holds open, and how to end it. */
export interface RunSession {
  facts: RunSessionFacts;
  /** The X-Mock-Session every request carries; undefined for none. */
  header: string | undefined;
  /** Ends the run's own session (not a named or shared one); resolves to its facts, with whether it ended. Once only. */
  end(): Promise<RunSessionFacts>;
}

export interface SessionTarget {
  baseUrl: string;
  apiKey: string;
  /** The mock's admin key (--admin-key, MOCK_ADMIN_KEY): needed on its admin API when the mock was started with one. */
  adminKey: string | undefined;
  timeoutMs: number;
  fetch?: FetchFunction | undefined;
}

/** The admin API (`/__mock`) of a mock serving its API at `baseUrl`: where `/v1` is, `/__mock` is beside it. */
const adminRoot = (baseUrl: string): string => baseUrl.replace(/\/v1\/?$/, '/__mock');

/**
 * Chooses the run's session. Whether the target is this mock is read
 * from `GET /__mock/health` (src/mock/http/admin/session-routes.ts),
 * asked without a key or a session (a read needs none, and a path beside
 * the API may be another service): the mock answers 200 with its store and
 * the shared session (`"session": null`), or 401 in its admin realm when it
 * was started with --admin-key. Any other answer is a target without
 * sessions, which then gets nothing of them.
 */
export async function openRunSession(target: SessionTarget, choice: SessionChoice): Promise<RunSession> {
  const admin = createHttpClient({ baseUrl: adminRoot(target.baseUrl), apiKey: target.adminKey ?? target.apiKey, timeoutMs: target.timeoutMs, maxBodyBytes: 64 * 1024, retries: 0, fetch: target.fetch });
  const health = await askHealth(admin);
  const mock = health !== 'not-this-mock';
  if (choice.kind === 'shared') return fixed({ id: null, kind: 'shared', mock }, undefined);
  const id = choice.kind === 'named' ? choice.id : `contract-run-${randomBytes(6).toString('hex')}`;
  if (choice.kind === 'named') return fixed({ id, kind: 'named', mock }, id);
  if (!mock) return fixed({ id: null, kind: 'none' }, undefined);
  let ended: Promise<RunSessionFacts> | undefined;
  const ender: Ender = { adminKeyAsked: health === 'admin-key-asked', adminKeyGiven: target.adminKey !== undefined };
  return {
    facts: { id, kind: 'own', mock },
    header: id,
    end: () => (ended ??= endSession(admin, id, ender)),
  };
}

/** How the mock's health answered: this mock, with or without an admin key; or another target. */
type Health = 'no-admin-key' | 'admin-key-asked' | 'not-this-mock';

/** What ending the session needs to know to say why a DELETE was refused. */
interface Ender {
  /** The mock's health asked for its admin key: it was started with one. */
  adminKeyAsked: boolean;
  /** The run was given an admin key (--admin-key, MOCK_ADMIN_KEY), sent in place of the API key. */
  adminKeyGiven: boolean;
}

const fixed = (facts: RunSessionFacts, header: string | undefined): RunSession => ({ facts, header, end: async () => facts });

async function askHealth(admin: Send): Promise<Health> {
  // Never with a key, nor a session: the admin key goes only to a target that showed it is this mock, and only to end the session.
  const health = await admin({ method: 'GET', path: '/health', auth: 'none' });
  const response = health.response;
  if (response?.status === 401) return /realm="animal-store-mock admin"/.test(response.headers['www-authenticate'] ?? '') ? 'admin-key-asked' : 'not-this-mock';
  const body = response?.status === 200 ? (response.json as Record<string, unknown> | undefined) : undefined;
  return body?.status === 'ok' && typeof body.store === 'string' && body.session === null ? 'no-admin-key' : 'not-this-mock';
}

/** `DELETE /__mock/sessions/ID` with the key that opened it (with --session-per-key, only that key may end it) or the admin key. */
async function endSession(admin: Send, id: string, ender: Ender): Promise<RunSessionFacts> {
  const ended: RecordedExchange = { operation: undefined, ...(await admin({ method: 'DELETE', path: `/sessions/${encodeURIComponent(id)}`, auth: 'key' })) };
  const status = ended.response?.status;
  // 404 unknown_session: the run never opened it (it stopped before its first request), so nothing is left.
  if (status === 200 || (status === 404 && errorCodeOf(ended) === 'unknown_session')) return { id, kind: 'own', mock: true, ended: true };
  // A mock without an admin key ends a session for an API key it takes. It refused this one, and a request with a
  // key it refuses starts no session (its steps check the key first): the run opened none, so nothing is left.
  if (status === 401 && !ender.adminKeyAsked && !ender.adminKeyGiven) return { id, kind: 'own', mock: true, ended: true };
  const why = status === undefined ? `no answer (${ended.networkError})` : `${status}${errorCodeOf(ended) ? ` ${errorCodeOf(ended)}` : ''}`;
  return { id, kind: 'own', mock: true, ended: false, notEnded: `DELETE /__mock/sessions/${id} answered ${why}${status === 401 ? refusedBecause(ender) : ''}; it ends by itself after the mock's --session-idle` };
}

/** Why the mock refused to end the session: which key it wanted, in words that never repeat one. */
function refusedBecause(ender: Ender): string {
  if (!ender.adminKeyGiven) return ': the mock needs its admin key for it (--admin-key or MOCK_ADMIN_KEY)';
  return ender.adminKeyAsked ? ': the mock refused the admin key given (--admin-key or MOCK_ADMIN_KEY)' : ': the mock has no admin key, and refused the one given (--admin-key or MOCK_ADMIN_KEY) as an API key';
}

/**
 * How long a stopped run waits before it ends its sessions: a request the
 * mock had already read when the run stopped would open the session again
 * after its end (an ended session's next request starts it afresh).
 */
const SETTLE_BEFORE_END_MS = 150;

/**
 * Runs `run` with a session chosen for each target, and ends the run's own
 * sessions afterwards, whether it passed, failed or threw; on SIGINT or
 * SIGTERM (Ctrl-C) too: the run's requests are stopped (`signal`), then its
 * sessions ended, and the process exits with 130 (128 + SIGINT) or 143.
 * Resolves to what `run` did and each session's facts once ended.
 */
export async function inRunSessions<T>(targets: readonly SessionTarget[], choice: SessionChoice, run: (sessions: readonly RunSession[], signal: AbortSignal) => Promise<T>): Promise<{ result: T; sessions: RunSessionFacts[] }> {
  const sessions = await Promise.all(targets.map((target) => openRunSession(target, choice)));
  const endAll = () => Promise.all(sessions.map((session) => session.end()));
  const stop = new AbortController();
  // One listener per request in flight, as many as the rules send at once: not a leak.
  setMaxListeners(0, stop.signal);
  const onSignal = (signal: NodeJS.Signals) => {
    stop.abort();
    void new Promise((resolve) => setTimeout(resolve, SETTLE_BEFORE_END_MS))
      .then(endAll)
      .finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const result = await run(sessions, stop.signal);
    return { result, sessions: await endAll() };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await endAll();
  }
}
