import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';

/**
 * One log line per request: method, path, status, duration and whether the
 * operation is deprecated (read off the response's `Deprecation` header, so
 * the log cannot disagree with what the client saw).
 */
export function requestLog(logger: Logger): MiddlewareHandler {
  return async function logRequest(c, next) {
    const started = performance.now();
    await next();
    const ms = Math.round((performance.now() - started) * 100) / 100;
    const deprecated = c.res.headers.has('deprecation');
    const { method } = c.req;
    const path = c.req.path;
    const status = c.res.status;
    logger.info(
      { method, path, status, ms, deprecated },
      `${method} ${path} ${status} ${ms}ms${deprecated ? ' (deprecated)' : ''}`,
    );
  };
}
