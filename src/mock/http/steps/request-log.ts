import type { Logger } from 'pino';
import type { Step } from '../exchange.js';
import { printable } from '../../logger.js';
import { after } from './after.js';

/**
 * One log line per request: method, path, status, duration and whether the
 * operation is deprecated (read off the headers added to the response, so
 * the log cannot disagree with what the client saw), and the session when
 * the request named one, so a shared mock's log tells its clients apart.
 */
export function requestLog(logger: Logger): Step {
  return function logRequest(x, next) {
    return after(x, next, (answer) => {
      const ms = Math.round((performance.now() - x.started) * 100) / 100;
      const deprecated = x.headers?.deprecation !== undefined;
      const { method } = x.c.req;
      const path = printable(x.c.req.path);
      const status = answer.status;
      const session = x.session.id;
      const fields = session === null ? { method, path, status, ms, deprecated } : { method, path, status, ms, deprecated, session };
      logger.info(fields, `${method} ${path} ${status} ${ms}ms${deprecated ? ' (deprecated)' : ''}${session === null ? '' : ` [session ${session}]`}`);
    });
  };
}
