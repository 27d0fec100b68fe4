import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { MockEnv } from '../mock-env.js';

/**
 * One log line per request: method, path, status, duration and whether the
 * operation is deprecated (read off the headers added to the response, so
 * the log cannot disagree with what the client saw), and the session when
 * the request named one, so a shared mock's log tells its clients apart.
 */
export function requestLog(logger: Logger): MiddlewareHandler<MockEnv> {
  return async function logRequest(c, next) {
    const started = performance.now();
    await next();
    const ms = Math.round((performance.now() - started) * 100) / 100;
    const deprecated = c.get('responseHeaders')?.deprecation !== undefined;
    const { method } = c.req;
    const path = c.req.path;
    const status = c.res.status;
    const session = c.get('session')?.id ?? null;
    const fields = session === null ? { method, path, status, ms, deprecated } : { method, path, status, ms, deprecated, session };
    logger.info(fields, `${method} ${path} ${status} ${ms}ms${deprecated ? ' (deprecated)' : ''}${session === null ? '' : ` [session ${session}]`}`);
  };
}
