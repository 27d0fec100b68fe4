import { randomBytes } from '../../../shared/digest.js';
import { errorBody } from '../../core/errors.js';
import type { Result } from '../../core/result.js';
import { andThen, type MaybePromise } from '../../core/store/maybe-promise.js';
import type { MockStore, SecretChanged, Session, SessionTableFull } from '../../core/store/mock-store.js';
import { addResponseHeaders, type Answer, type Exchange, type Next, type Step } from '../exchange.js';
import { sendError } from '../respond.js';
import { keyChecker, repeatsAuthorization, sendUnauthorized } from '../auth/bearer-credentials.js';
import { keySession } from '../sessions/key-session.js';
import { mayUse, ownerFor, refuseSession, sessionForbidden } from '../sessions/session-access.js';

export const SESSION_HEADER = 'x-mock-session';

// Readable in logs and URLs (RFC 3986 unreserved characters, and `:`), and
// short enough to keep. Not `.` or `..` alone: URL normalisation (RFC 3986
// §5.2.4) would turn `/__mock/sessions/..` into another path.
const SESSION_ID = /^(?!\.{1,2}$)[A-Za-z0-9._~:-]{1,128}$/;

export interface SessionOptions {
  store: MockStore;
  /**
   * `--session-per-key`: without an `X-Mock-Session` header the bearer key
   * names the session, and every session belongs to the key that opened it.
   */
  perKey?: boolean | undefined;
  /**
   * `open`: the session starts with its first request (the API, after auth).
   * `look`: a running session, else a fresh one that is not kept (the admin
   * API, whose reads take no key: reading it must not fill the session table).
   */
  mode: 'open' | 'look';
  /** With `perKey` in `look` mode: the accepted keys, so only they name store (401 otherwise). */
  apiKeys?: readonly string[] | undefined;
  /**
   * Every request here is the admin's: the admin key was checked before
   * (admin-credentials.ts). It names no key session (X-Mock-Session does),
   * and may see, use and end every session.
   */
  asAdmin?: boolean | undefined;
  /** The per-process secret of key-named store (random by default). */
  secret?: Uint8Array | undefined;
}

/**
 * Picks the session a request belongs to: the one `X-Mock-Session` names,
 * else with `perKey` the one of its bearer key, else the shared default.
 * A session's answers carry its id back in `X-Mock-Session`. An id that
 * breaks the format gets 400 `invalid_session`: a client that meant to be
 * isolated is told, rather than silently served from the shared state.
 * With `perKey`, a session another key owns gets 403 `session_forbidden`
 * (see session-access.ts); a full table of sessions in use, 503.
 */
export function session(options: SessionOptions): Step {
  const { store, perKey = false, mode, asAdmin = false } = options;
  const secret = options.secret ?? randomBytes(32);
  const accepts = perKey && mode === 'look' ? keyChecker(options.apiKeys ?? []) : undefined;
  const pick = (id: string, owner: string | undefined): MaybePromise<Result<Session, SessionTableFull | SecretChanged>> =>
    mode === 'open' ? store.open(id, owner) : andThen(store.find(id), (found) => ({ ok: true, value: found ?? store.preview(id) }));
  /** The request goes on in session `id`, once it is picked (started, on the Redis store, by a round trip). */
  const useSession = (x: Exchange, next: Next, id: string, again: boolean): Answer =>
    andThen(pick(id, ownerFor(x, id, perKey)), (picked) => {
      // The store took the shared secret other processes use: the key's session id is made again with it, once.
      if (!picked.ok && 'secretChanged' in picked.error && !again) return sessionOf(x, next, true);
      if (!picked.ok) return sendRefused(x, picked.error);
      // Checked again on what `open` found: on a shared store another key's request, in this process or
      // another, may have opened the session between the check before and this open.
      if (perKey && !mayUse(x, picked.value)) return sendError(x, sessionForbidden(id));
      x.session = picked.value;
      addResponseHeaders(x, { [SESSION_HEADER]: id });
      return served(x, next);
    });

  function sessionOf(x: Exchange, next: Next, again = false): Answer {
    const { c } = x;
    x.admin = asAdmin;
    if (perKey && !asAdmin) {
      const authorization = c.req.header('authorization');
      if (accepts && authorization !== undefined && (!accepts(authorization) || repeatsAuthorization(c))) return sendUnauthorized(x);
      x.key = keySession(authorization, secret);
    }
    // Without an id the exchange keeps the shared session it started with.
    const id = c.req.header(SESSION_HEADER) ?? x.key;
    if (id === undefined) return served(x, next);
    if (!SESSION_ID.test(id)) {
      return sendError(x, errorBody('invalid_session', `X-Mock-Session ${JSON.stringify(id.slice(0, 140))} is not a session id: use 1 to 128 of A-Z a-z 0-9 . _ ~ : - (not . or .. alone)`));
    }
    if (!perKey) return useSession(x, next, id, again);
    return andThen(refuseSession(x, store, id), (refused) => (refused ? sendError(x, refused) : useSession(x, next, id, again)));
  }
  return (x, next) => sessionOf(x, next);
}

/** Why a session could not be opened, answered: the table full, or the shared secret changing again at once (503, retry). */
export function sendRefused(x: Exchange, refused: SessionTableFull | SecretChanged): Response {
  if ('secretChanged' in refused) {
    return sendError(x, errorBody('store_unavailable', 'the store\'s sessions changed under this request (Redis lost its data): retry'), { 'retry-after': '1' });
  }
  return sendTableFull(x, refused);
}

/** The session is picked: the request is journaled in it from here on (steps/journal.ts), not as anonymous. */
function served(x: Exchange, next: Next): Answer {
  x.keyed = true;
  return next(x);
}

/** 503 with `Retry-After` (RFC 9110 §10.2.3, whole seconds, rounded up): when the least recently used session may be ended. */
export function sendTableFull(x: Exchange, full: SessionTableFull): Response {
  const seconds = Math.max(1, Math.ceil(full.retryAfterMs / 1000));
  const window = Math.round(full.protectMs / 1000);
  return sendError(
    x,
    errorBody('too_many_sessions', `all sessions were used in the last ${window} s, so none is ended to start another: retry in ${seconds} s, end one (DELETE /__mock/sessions/ID), or raise --max-sessions`),
    { 'retry-after': String(seconds) },
  );
}
