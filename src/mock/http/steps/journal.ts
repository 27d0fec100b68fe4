import { journalPath } from '../../core/journal/journal-path.js';
import type { RequestJournal } from '../../core/journal/request-journal.js';
import { ownCopy } from '../../core/own-copy.js';
import type { Exchange, Step } from '../exchange.js';
import { after } from './after.js';

/**
 * Records every request but the admin API's own (whose steps leave this
 * one out): one that passed the key check in its session's journal, any
 * other (a 401, a preflight, a path outside the API) in the anonymous
 * journal, whatever session it names. A client without a key can then
 * neither fill nor empty anybody's journal, the shared default's included.
 * The entry tells which operation, and which stub answered or why none did (set by the stubs step; a request that never reached it
 * was answered before the stubs). One small object per request; the
 * journal's append is O(1).
 */
export function journalRequests(anonymous: RequestJournal): Step {
  return function journalRequest(x, next) {
    return after(x, next, (answer) => record(x, answer));
  };

  function record(x: Exchange, answer: Response): void {
    const url = x.c.req.url;
    const path = journalPath(url.slice(url.indexOf('/', url.indexOf('//') + 2)));
    const session = x.session;
    const journal = x.keyed ? session.journal : anonymous;
    const scenario = (x.scenario ?? session.control.active).runtime?.scenario.name ?? null;
    const { stub, operationId: operation } = x;
    // One object of one shape per request (`unmatched` undefined when a stub answered; JSON leaves it out).
    journal.append({
      method: x.c.req.method,
      path,
      status: answer.status,
      ms: Math.round((performance.now() - x.started) * 100) / 100,
      operation,
      scenario,
      stub,
      unmatched: stub !== null ? undefined : clipped(x.unmatched ?? (operation === null ? 'not a documented operation' : 'answered before the stubs (auth, session or body limit)')),
    });
  }
}

/** Why no stub answered, kept to MAX_UNMATCHED characters: one phrase per stub tried, and a scenario may have many. */
const MAX_UNMATCHED = 512;
// Copied when cut, so the entry does not keep the whole phrase alive (see ownCopy).
const clipped = (why: string): string => (why.length > MAX_UNMATCHED ? ownCopy(`${why.slice(0, MAX_UNMATCHED)}…`) : why);
