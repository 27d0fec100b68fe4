import { errorBody, type ErrorBody } from '../../core/errors.js';
import { andThen, type MaybePromise } from '../../core/store/maybe-promise.js';
import type { MockStore } from '../../core/store/mock-store.js';
import type { Exchange } from '../exchange.js';
import { isKeySession } from './key-session.js';


/**
 * Whether the request may see and use a session (`--session-per-key`): its
 * own key's, or one nobody owns; the admin key may use them all. The id
 * alone is not enough: ids show in logs, and anyone may send a header.
 */
export const mayUse = (x: Exchange, session: { owner: string | undefined }): boolean => x.admin || session.owner === undefined || session.owner === x.key;

/**
 * Why the request may not name session `id` (`--session-per-key`), or
 * undefined. A key session id names that key's session only, running or
 * not: another client naming it first would otherwise own it, and lock
 * the key out of its own session.
 */
export function refuseSession(x: Exchange, store: MockStore, id: string): MaybePromise<ErrorBody | undefined> {
  if (x.admin) return undefined;
  return andThen(store.find(id), (running) => {
    const theirs = running ? !mayUse(x, running) : isKeySession(id) && id !== x.key;
    return theirs ? sessionForbidden(id) : undefined;
  });
}

export const sessionForbidden = (id: string): ErrorBody =>
  errorBody('session_forbidden', `session ${id} belongs to another API key: with --session-per-key a session is used only with the key that opened it`);

/**
 * Who owns a session this request opens: with `--session-per-key`, a key
 * session's id is its owner whoever opens it (the admin key too), else the
 * caller's key; without it, nobody.
 */
export const ownerFor = (x: Exchange, id: string, perKey: boolean): string | undefined => (!perKey ? undefined : isKeySession(id) ? id : x.key);
