import type { Log } from '../../core/log/log.js';
import type { Exchange, Step } from '../exchange.js';
import { printable } from '../../core/log/printable.js';
import { after } from '../after.js';
import { sentStatusOf } from '../exchange-trace.js';

/**
 * One log line per request: method, path, status, duration and whether the
 * operation is deprecated (read off the headers added to the response, so
 * the log cannot disagree with what the client saw), and the session when
 * the request named one, so a shared mock's log tells its clients apart.
 *
 * At info, but a `routine` request answered 2xx or 3xx at debug: a
 * container's health check comes every 30 s, and an open console reads the
 * sessions every 5 s and loads its files, and they say nothing while they
 * pass. A failing one (503, 401, 403) stays at info, where it is news.
 *
 * In proxy mode, then one line per violation the target's answer broke (at
 * most the 20 its journal entry keeps), at info like the request's own, so
 * `--quiet` leaves both out: its check id, the statement, the request line
 * (method and path: never the query, which may hold a credential, nor a
 * key) and what was seen, keys already taken out by the check.
 */
export function requestLog(logger: Log, routine: (x: Exchange) => boolean = () => false): Step {
  const debug = logger.isLevelEnabled('debug');
  return function logRequest(x, next) {
    return after(x, next, (_, answer) => {
      const status = sentStatusOf(x, answer);
      const passed = status < 400 && routine(x);
      if (passed && !debug) return;
      const ms = Math.round((performance.now() - x.started) * 100) / 100;
      const deprecated = x.headers?.deprecation !== undefined || x.successHeaders?.deprecation !== undefined;
      const { method } = x.c.req;
      const path = printable(x.c.req.path);
      const session = x.session.id;
      const fields = session === null ? { method, path, status, ms, deprecated } : { method, path, status, ms, deprecated, session };
      logger[passed ? 'debug' : 'info'](fields, `${method} ${path} ${status} ${ms}ms${deprecated ? ' (deprecated)' : ''}${session === null ? '' : ` [session ${session}]`}`);
      const broke = x.trace.proxy?.violations;
      if (broke === undefined) return;
      for (const { rule, statement, detail } of broke) {
        // The detail quotes the target's answer: its control characters are written out, as a path's are.
        const seen = printable(detail);
        logger.info({ ...(session === null ? {} : { session }), method, path, status, rule, statement, detail: seen }, `${method} ${path} ${status} broke ${rule} (${statement}); seen: ${seen}`);
      }
    });
  };
}
