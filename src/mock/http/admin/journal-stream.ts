import { unrefTimer } from '../../../shared/unref-timer.js';
import type { Context } from 'hono';
import { errorBody } from '../../core/errors.js';
import { backlogSummary, BACKLOG_SAMPLE, cursorAfter, nextEvents, STREAM_INTERVAL_MS, SUMMARY_ABOVE, type JournalCursor } from '../../core/journal/journal-cursor.js';
import type { JournalSince } from '../../core/journal/request-journal.js';
import { fail, failed, ok, type Result } from '../../core/result.js';
import type { Journal, MockStore } from '../../core/store/mock-store.js';
import type { Exchange, MockEnv } from '../exchange.js';
import { nodeBindings } from '../node-bindings.js';
import { respond, sendError } from '../respond.js';
import { mayUse, sessionForbidden } from '../sessions/session-access.js';
import { exchange, type AdminRouter } from './admin-router.js';
import { EVENT_STREAM_HEADERS, eventStream, type EventStream } from './event-stream.js';
import { MAX_STREAMS, streamSlots } from './stream-slots.js';

/**
 * The longest a stream lives (ms): then the server ends it with a
 * `reconnect` event, and the reader opens another with `?after=`. So a
 * slot held by a reader that went silently away (a stream with nothing
 * new never fills a buffer) comes back in at most this long.
 */
export const STREAM_LIFETIME_MS = 10 * 60_000;
/** A comment line after this long without an event (ms): proxies close connections idle for long. */
export const KEEP_ALIVE_MS = 15_000;

/** The streams as `GET /__mock/health` shows them. */
export interface StreamStats {
  open: number;
  max: number;
  /** Bytes written to every open stream that the kernel has not taken yet: at most one write each. */
  queuedBytes: number;
  /** Ticks skipped, since start, because a reader had not taken the previous event. */
  skippedTicks: number;
}

export interface JournalStreamOptions {
  store: MockStore;
  /** Aborted when the server shuts down: every stream ends then. */
  shutdown?: AbortSignal | undefined;
  /** How long a stream lives (STREAM_LIFETIME_MS; shorter in tests). */
  streamLifetimeMs?: number | undefined;
  /** `--admin-key` is set: every reader has shown it, so no client is held to its share (stream-slots.ts). */
  adminKeySet?: boolean | undefined;
}

/**
 * `GET /__mock/journal/stream` and `GET /__mock/journal/anonymous/stream`:
 * a journal as Server-Sent Events (docs/admin-and-console.md, "The journal stream"). The
 * admin API's steps have checked Host, Origin, the key and the session
 * (pipeline.ts) as for every admin route. Gives the streams' figures.
 */
export function journalStreamRoutes(router: AdminRouter, { store, shutdown, streamLifetimeMs = STREAM_LIFETIME_MS, adminKeySet = false }: JournalStreamOptions): () => StreamStats {
  const open = new Set<{ close(now: boolean): void; stream: EventStream }>();
  // Taken from the check until the stream closes: the first read of the journal may wait on the store.
  const slots = streamSlots({ perClient: !adminKeySet });
  let skippedTicks = 0;
  // One listener for every stream, not one each (16 would pass the signal's limit of 10, and warn).
  shutdown?.addEventListener('abort', () => [...open].forEach((each) => each.close(true)), { once: true });

  const follow = async (c: Context<MockEnv>, anonymous: boolean): Promise<Response> => {
    const x = exchange(c);
    const after = readAfter(c.req.query('after'));
    if (!after.ok) return sendError(x, after.error);
    const journal = anonymous ? ok(store.anonymous) : await runningJournal(x, store);
    if (!journal.ok) return sendError(x, journal.error);
    const node = nodeBindings(c);
    const slot = slots.take(node?.incoming.socket.remoteAddress ?? '');
    if (!slot.ok) return sendError(x, slot.error, { 'retry-after': '5' });
    const release = slot.value;
    if (c.req.method === 'HEAD' || !node) {
      release();
      if (!node) return sendError(x, errorBody('internal_error', 'A journal stream needs the mock to run on a node server.'));
      return respond(x, 200, null, { ...EVENT_STREAM_HEADERS });
    }
    let first: Opening;
    try {
      first = await opening(journal.value, anonymous ? null : x.session.id, after.value, BACKLOG_SAMPLE[store.kind]);
    } catch (error) {
      release();
      throw error;
    }
    const stream = eventStream(node.outgoing, () => close(false));
    stream.send(first.events);
    const stop = follower(journal.value, stream, first.cursor, { onSkip: () => (skippedTicks += 1), onEnded: () => close(false) });
    const lifetime = setTimeout(() => {
      // A planned end, which the reader follows at once with ?after= (when it has taken the previous event; else a plain end).
      stream.send([{ event: 'reconnect', data: { reason: `a stream lives at most ${Math.round(streamLifetimeMs / 1000)} s: open it again with ?after=${first.cursor.sent}`, after: first.cursor.sent } }]);
      close(false);
    }, streamLifetimeMs);
    unrefTimer(lifetime);
    const entry = { close, stream };
    open.add(entry);
    function close(now: boolean): void {
      stop();
      clearTimeout(lifetime);
      open.delete(entry);
      release();
      stream.end(now);
    }
    if (shutdown?.aborted) close(true);
    else if (first.ended) close(false);
    return new Response(stream.body, { status: 200, headers: { ...x.headers, ...EVENT_STREAM_HEADERS } });
  };

  router.on('GET', '/journal/stream', (c) => follow(c, false));
  router.on('GET', '/journal/anonymous/stream', (c) => follow(c, true));
  return () => {
    let queuedBytes = 0;
    for (const { stream } of open) queuedBytes += stream.queued();
    return { open: open.size, max: MAX_STREAMS, queuedBytes, skippedTicks };
  };
}

interface Opening {
  events: Array<{ event: string; data: unknown }>;
  cursor: JournalCursor;
  ended: boolean;
}

/**
 * A stream's first events: `hello`, then, with `?after=` far behind, a
 * summary of the entries the backlog leaves out, then the backlog (sent
 * even when empty: the reader then knows everything before `last` is in),
 * then `ended` if the session has.
 */
async function opening(journal: Journal, session: string | null, after: number | undefined, sample: number): Promise<Opening> {
  const read = await journal.since(after ?? 0, after === undefined ? SUMMARY_ABOVE : SUMMARY_ABOVE + sample);
  const cursor = cursorAfter(read, performance.now());
  const backlog = read.entries.slice(-SUMMARY_ABOVE);
  const before = after === undefined ? undefined : backlogSummary(after, read, backlog);
  const hello = { session, journal: read.id, capacity: journal.capacity, intervalMs: STREAM_INTERVAL_MS, summaryAbove: SUMMARY_ABOVE, last: read.last, cleared: read.cleared };
  const events = [{ event: 'hello', data: hello }, ...(before ? [{ event: 'summary', data: before }] : []), { event: 'entries', data: backlog }, ...ended(read)];
  return { events, cursor, ended: read.ended !== undefined };
}

/**
 * Polls the journal every tick while the stream is open, and sends what
 * is new (journal-cursor.ts): one read of O(new entries) a tick. A tick
 * whose previous event the reader has not taken skips, reading nothing;
 * what it would have sent goes into the next one's summary. Gives the
 * function that stops it.
 */
function follower(
  journal: Journal,
  stream: EventStream,
  cursor: JournalCursor,
  { onSkip, onEnded }: { onSkip: () => void; onEnded: () => void },
): () => void {
  let busy = false;
  let stopped = false;
  const tick = async (): Promise<void> => {
    if (busy) return;
    if (stream.waiting()) {
      cursor.behind = true;
      onSkip();
      return;
    }
    busy = true;
    try {
      // More than SUMMARY_ABOVE new: no entry read at all, the summary comes from the journal's counts.
      const since = await journal.since(cursor.sent, SUMMARY_ABOVE, true);
      // The reader may have fallen behind while the store answered.
      if (stopped || stream.waiting()) return;
      const events = nextEvents(cursor, since, performance.now());
      if (events.length === 0) stream.keepAlive(KEEP_ALIVE_MS);
      else stream.send(events);
      if (since.ended !== undefined) onEnded();
    } catch {
      // The store did not answer (StoreUnavailable): the next tick asks again, from the same seq.
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), STREAM_INTERVAL_MS);
  // The server holds the process while a stream is open; a stream alone must not.
  unrefTimer(timer);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/** The journal of the request's session: the shared default's, or a running session's (404 unknown_session otherwise: nothing would ever arrive in a session not running). */
async function runningJournal(x: Exchange, store: MockStore): Promise<Result<Journal>> {
  const { id } = x.session;
  if (id === null) return ok(store.shared.journal);
  const running = await store.find(id);
  if (!running) return fail('unknown_session', `no session ${JSON.stringify(id)} is running, so it has no journal to follow: its first request starts it (GET /__mock/sessions lists those running)`);
  if (!mayUse(x, running)) return failed(sessionForbidden(id));
  return ok(running.journal);
}

/** The `ended` event, when the journal's session has ended. */
const ended = (since: JournalSince): Array<{ event: string; data: unknown }> => (since.ended === undefined ? [] : [{ event: 'ended', data: { reason: since.ended } }]);

// A seq the stream sent: a whole number, written plainly (no sign, exponent or leading zero), up to 2^53 - 1.
const SEQ = /^(0|[1-9][0-9]{0,15})$/;

/** `?after=<seq>`: absent, or a seq. */
function readAfter(text: string | undefined): Result<number | undefined> {
  if (text === undefined) return ok(undefined);
  const seq = Number(text);
  if (SEQ.test(text) && Number.isSafeInteger(seq)) return ok(seq);
  return fail('invalid_parameter', `after must be a seq the stream sent, a whole number from 0 to ${Number.MAX_SAFE_INTEGER}; got ${JSON.stringify(text.slice(0, 40))}`);
}
