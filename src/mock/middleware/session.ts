import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { errorBody } from '../errors.js';
import type { MockEnv } from '../http/mock-env.js';
import { addResponseHeaders, sendError } from '../http/respond.js';
import type { SessionRegistry } from '../sessions/session-registry.js';

export const SESSION_HEADER = 'x-mock-session';

// Readable in logs and URLs (RFC 3986 unreserved characters, and `:`), and short enough to keep.
const SESSION_ID = /^[A-Za-z0-9._~:-]{1,128}$/;

export interface SessionOptions {
  sessions: SessionRegistry;
  /** Without an `X-Mock-Session` header, the bearer key names the session (`--session-per-key`). */
  perKey?: boolean;
}

/**
 * Picks the session a request belongs to: the one `X-Mock-Session` names
 * (started on its first request), else with `perKey` the one of its bearer
 * key, else the shared default. A session's answers carry its id back in
 * `X-Mock-Session`. An id that breaks the format gets 400 `invalid_session`:
 * a client that meant to be isolated is told, rather than silently served
 * from the shared state. On the API it runs after auth, so 401 still wins.
 */
export function session({ sessions, perKey = false }: SessionOptions): MiddlewareHandler<MockEnv> {
  return function sessionOf(c, next) {
    const id = c.req.header(SESSION_HEADER) ?? (perKey ? keySession(c.req.header('authorization')) : undefined);
    if (id === undefined) {
      c.set('session', sessions.shared);
      return next();
    }
    if (!SESSION_ID.test(id)) {
      c.set('session', sessions.shared);
      return Promise.resolve(sendError(c, errorBody('invalid_session', `X-Mock-Session ${JSON.stringify(id.slice(0, 140))} is not a session id: use 1 to 128 of A-Z a-z 0-9 . _ ~ : -`)));
    }
    c.set('session', sessions.open(id));
    addResponseHeaders(c, { [SESSION_HEADER]: id });
    return next();
  };
}

/** The session of a bearer key: a digest, so the key itself never shows in ids, listings or logs. */
function keySession(authorization: string | undefined): string | undefined {
  const token = /^bearer +(\S+)/i.exec(authorization ?? '')?.[1];
  return token === undefined ? undefined : `key-${createHash('sha256').update(token).digest('hex').slice(0, 16)}`;
}
