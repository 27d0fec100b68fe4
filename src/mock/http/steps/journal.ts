import { isoNow } from '../../core/journal/iso-now.js';
import { bodyText, journalMessage, MAX_JOURNAL_RESPONSE_BODY } from '../../core/journal/journal-message.js';
import { journalRequest } from '../../core/journal/journal-request.js';
import { journalPath } from '../../core/journal/journal-path.js';
import type { JournalEntry, JournalMessage } from '../../core/journal/request-journal.js';
import { pending, type MaybePromise } from '../../core/store/maybe-promise.js';
import type { Journal } from '../../core/store/mock-store.js';
import { ownCopy } from '../../core/own-copy.js';
import type { Exchange, Step } from '../exchange.js';
import { nodeBindings } from '../node-bindings.js';
import { after } from '../after.js';
import { sentStatusOf, type ExchangeTrace } from '../exchange-trace.js';

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
export function journalRequests(anonymous: Journal, onFailure: (error: unknown) => void): Step {
  return function journalRequest(x, next) {
    return after(x, next, record);
  };

  function record(x: Exchange, answer: Response): MaybePromise<void> {
    const journal = x.keyed ? x.session.journal : anonymous;
    try {
      const appended = pending(journal.append(entry(x, answer)));
      if (!appended) return;
      // On Redis, a session's entry is stored before its answer goes out, so a client that then reads
      // or empties the journal through any process finds it there. The anonymous journal's is not
      // waited for: a refused request (a 401 sent before its body) is answered at once, as in memory.
      const recorded = appended.catch(onFailure);
      return x.keyed ? recorded : undefined;
    } catch (error) {
      onFailure(error);
    }
  }
}

/** One object of one shape per request (`unmatched` undefined when a stub answered; JSON leaves it out). */
function entry(x: Exchange, answer: Response): JournalEntry {
  const url = x.c.req.url;
  const { operationId: operation } = x;
  const { stub } = x.trace;
  return {
    seq: 0,
    at: isoNow(),
    session: x.keyed ? x.session.id : null,
    method: x.c.req.method,
    path: journalPath(url, url.indexOf('/', url.indexOf('//') + 2)),
    status: sentStatusOf(x, answer),
    ms: Math.round((performance.now() - x.started) * 100) / 100,
    operation,
    // The state that answered, once a step picked it (Prefer: scenario=, the stubs): none for a request answered before.
    scenario: x.scenarioState?.scenario?.name ?? null,
    stub,
    unmatched: stub !== null ? undefined : clipped(x.trace.unmatched ?? (operation === null ? 'not a documented operation' : 'answered before the stubs (auth, session or body limit)')),
    request: requestOf(x),
    response: responseOf(x, answer),
    ...(x.trace.proxy ? proxyOf(x.trace.proxy) : {}),
  };
}

/** Proxy mode's part of an entry, only for a request sent on to the target. */
const proxyOf = ({ upstream, fallback, unchecked, violations }: NonNullable<ExchangeTrace['proxy']>): Pick<JournalEntry, 'upstream' | 'fallback' | 'unchecked' | 'violations'> => ({
  upstream,
  ...(fallback ? { fallback } : {}),
  ...(unchecked ? { unchecked } : {}),
  violations,
});

/**
 * The request's headers from node's rawHeaders (no Headers object is
 * iterated on the way), and the start of the body the operation read.
 */
function requestOf(x: Exchange): JournalMessage {
  return journalRequest(nodeBindings(x.c)?.incoming.rawHeaders ?? fieldList(x.c.req.raw.headers), bodyText(x.trace.body));
}

/** A Request's fields as rawHeaders lists them (name, value, …): by forEach, which cost node's Headers a quarter of spreading its iterator. */
function fieldList(headers: Headers): string[] {
  const raw: string[] = [];
  headers.forEach((value, name) => {
    raw.push(name, value);
  });
  return raw;
}

/**
 * What respond() kept of the answer (the header record and body it sent,
 * as they are). An answer built elsewhere (none is, but a step of the
 * future might) shows its headers and no body.
 */
function responseOf(x: Exchange, answer: Response): JournalMessage {
  const { sent } = x.trace;
  if (sent?.response === answer) return journalMessage(sent.headers, sent.body ?? '', MAX_JOURNAL_RESPONSE_BODY);
  // A request never answered (noAnswer: a reset, a hang given up) sent no header.
  return journalMessage(answer.headers.has('x-hono-already-sent') ? {} : Object.fromEntries(answer.headers), '', MAX_JOURNAL_RESPONSE_BODY);
}

/** Why no stub answered, kept to MAX_UNMATCHED characters: one phrase per stub tried, and a scenario may have many. */
const MAX_UNMATCHED = 512;
// Copied when cut, so the entry does not keep the whole phrase alive (see ownCopy).
const clipped = (why: string): string => (why.length > MAX_UNMATCHED ? ownCopy(`${why.slice(0, MAX_UNMATCHED)}…`) : why);
