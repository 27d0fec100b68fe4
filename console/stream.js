// @ts-check
import { errorOf, retryAfter } from './api.js';

/**
 * Following the journal stream (`GET /__mock/journal/stream`, Server-Sent
 * Events) over fetch: EventSource cannot send the Authorization and
 * X-Mock-Session headers the admin API needs.
 */

/** A line longer than this is no event the mock sends: the stream is dropped rather than the page buffering without end. */
const MAX_LINE = 4 * 1024 * 1024;
/** The mock sends a comment every 15 s of silence; twice that and more with nothing means the connection is dead. */
const SILENCE_MS = 40_000;
const RETRY_MS = [500, 1000, 2000, 5000, 10_000];
/** How often a session that is not running yet is asked for again. */
const WAIT_FOR_SESSION_MS = 1000;

/**
 * @typedef {{ event: string, data: string }} SseEvent
 * @typedef {{ kind: 'connecting' } | { kind: 'open' } | { kind: 'dropped', retryInMs: number }
 *   | { kind: 'refused', error: import('./api.js').ErrorBody, retryInMs: number | undefined } | { kind: 'ended', reason: string }} StreamState
 */

/**
 * A parser of the text/event-stream format (HTML standard, "Server-sent
 * events", parsing an event stream): lines end with CR, LF or CRLF; `:`
 * starts a comment; a blank line dispatches the event. Fed chunks of text
 * as they arrive; a line split across chunks waits for its end.
 * @param {(event: SseEvent) => void} onEvent
 * @returns {(chunk: string) => void}
 */
export function sseParser(onEvent) {
  let pending = '';
  let event = '';
  /** @type {string[]} */
  let data = [];
  /** @param {string} line */
  const line = (line) => {
    if (line === '') {
      if (data.length > 0) onEvent({ event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  };
  return (chunk) => {
    const lines = (pending + chunk).split(/\r\n|\r|\n/);
    // The last piece has no line end yet (a CR at a chunk's end may still be a CRLF: harmless, an empty line then).
    pending = lines.pop() ?? '';
    if (pending.length > MAX_LINE) throw new Error('the stream sent a line longer than 4 MiB');
    for (const each of lines) line(each);
  };
}

/**
 * @typedef {'go on' | 'reconnect' | 'stop'} Verdict
 * @typedef {{ stop?: boolean, opened?: boolean, retryInMs?: number, quiet?: boolean, notStarted?: boolean }} Outcome
 */

/**
 * Follows a journal stream until stopped: reconnects after a drop with
 * `?after=<last seq seen>`, so no entry is shown twice or missed (unless the
 * journal overwrote it meanwhile), at once and quietly when the mock ends a
 * stream as planned (`reconnect`), waits Retry-After on a 503, and stops on
 * a refusal it cannot get past alone (401: the key) or when the session ends.
 * A session not running yet is waited for with `started`, which asks
 * without being refused: a refused request is a red line in the browser's
 * console, every second while QA waits.
 * @param {{
 *   url: string,
 *   headers: () => Record<string, string>,
 *   onEvent: (name: string, data: any) => void,
 *   onState: (state: StreamState) => void,
 *   started?: () => Promise<boolean>,
 * }} options
 * @returns {{ stop(): void }}
 */
export function follow({ url, headers, onEvent, onState, started }) {
  let stopped = false;
  /** @type {AbortController | undefined} */
  let connection;
  const position = journalPosition(onEvent);

  const run = async () => {
    let failures = 0;
    // A session that is not running yet is waited for before its stream is first asked for, too.
    if (started && !(await started()) && !stopped) {
      onState({ kind: 'refused', error: { code: 'unknown_session', message: 'the session has not started', status: 404 }, retryInMs: WAIT_FOR_SESSION_MS });
      while (!stopped && !(await started())) await new Promise((resolve) => setTimeout(resolve, WAIT_FOR_SESSION_MS));
    }
    while (!stopped) {
      onState({ kind: 'connecting' });
      connection = new AbortController();
      const outcome = await connect(position.url(url), { headers: headers(), controller: connection, seen: position.seen, onState });
      if (stopped || outcome.stop) return;
      failures = outcome.opened ? 0 : failures + 1;
      const retryInMs = outcome.retryInMs ?? RETRY_MS[Math.min(failures, RETRY_MS.length - 1)] ?? 10_000;
      if (!outcome.quiet) onState({ kind: 'dropped', retryInMs });
      await new Promise((resolve) => setTimeout(resolve, retryInMs));
      while (outcome.notStarted && started && !stopped && !(await started())) await new Promise((resolve) => setTimeout(resolve, WAIT_FOR_SESSION_MS));
    }
  };

  void run();
  return {
    stop() {
      stopped = true;
      connection?.abort();
    },
  };
}

/**
 * Where the page is in the journal it follows: the last seq shown, and the
 * journal's id and clear count from its last `hello`, which tell, after a
 * reconnect, a journal made afresh (the mock restarted, the session started
 * again: `restarted`, and the rows go) or emptied while away (`cleared`).
 * @param {(name: string, data: any) => void} onEvent
 */
function journalPosition(onEvent) {
  let last = 0;
  /** @type {string | undefined} */
  let journal;
  /** @type {number | undefined} */
  let cleared;

  /** @param {any} hello @returns {Verdict} */
  const greeted = (hello) => {
    const other = (journal !== undefined && hello.journal !== journal) || (typeof hello.last === 'number' && hello.last < last);
    if (other) {
      // Start over from its beginning: the seqs shown belong to another journal.
      last = 0;
      journal = undefined;
      cleared = undefined;
      onEvent('restarted', {});
      return 'reconnect';
    }
    if (cleared !== undefined && hello.cleared !== cleared) onEvent('cleared', {});
    journal = hello.journal;
    cleared = hello.cleared;
    onEvent('hello', hello);
    return 'go on';
  };

  return {
    /** @param {string} url */
    url: (url) => (last > 0 ? `${url}?after=${last}` : url),
    /** @param {string} name @param {any} data @returns {Verdict} */
    seen(name, data) {
      if (name === 'hello') return greeted(data ?? {});
      if (name === 'entries' && Array.isArray(data) && data.length > 0) last = Math.max(last, Number(data[data.length - 1].seq) || last);
      if (name === 'summary' && typeof data?.to === 'number') last = Math.max(last, data.to);
      if (name === 'cleared') cleared = typeof data?.cleared === 'number' ? data.cleared : (cleared ?? 0) + 1;
      // A planned end (the stream's lifetime): the next stream starts at once, after the last seq shown.
      if (name === 'reconnect') return 'reconnect';
      onEvent(name, data);
      return name === 'ended' ? 'stop' : 'go on';
    },
  };
}

/**
 * One connection: the request, then its events until it ends, the
 * verdict says to leave, or the mock is silent for SILENCE_MS.
 * @param {string} url
 * @param {{ headers: Record<string, string>, controller: AbortController, seen: (name: string, data: any) => Verdict, onState: (state: StreamState) => void }} options
 * @returns {Promise<Outcome>}
 */
async function connect(url, { headers, controller, seen, onState }) {
  try {
    const res = await fetch(url, { headers, signal: controller.signal, cache: 'no-store' });
    if (!res.ok) return await refused(res, onState);
    if (!res.body) return {};
    onState({ kind: 'open' });
    const verdict = await readEvents(res.body, controller, seen);
    if (verdict === 'stop') return { stop: true };
    return { opened: true, retryInMs: verdict === 'reconnect' ? 0 : undefined, quiet: verdict === 'reconnect' };
  } catch {
    return {};
  }
}

/**
 * 503 (too many streams, the store away) passes with time, and so does a
 * session not started yet (its first request or activation starts it);
 * any other refusal (401, 403, 400) needs the user.
 * @param {Response} res
 * @param {(state: StreamState) => void} onState
 * @returns {Promise<Outcome>}
 */
async function refused(res, onState) {
  const error = errorOf(res.status, await res.json().catch(() => undefined));
  const retryInMs = res.status === 503 ? (retryAfter(res) ?? 5) * 1000 : error.code === 'unknown_session' ? WAIT_FOR_SESSION_MS : undefined;
  onState({ kind: 'refused', error, retryInMs });
  return retryInMs === undefined ? { stop: true } : { retryInMs, quiet: true, notStarted: error.code === 'unknown_session' };
}

/**
 * Reads a stream's events, each handed to `seen` as parsed JSON, until it
 * ends or `seen` says to leave; aborts it after SILENCE_MS without a byte.
 * @param {ReadableStream<BufferSource>} body
 * @param {AbortController} controller
 * @param {(name: string, data: any) => Verdict} seen
 * @returns {Promise<Verdict>}
 */
async function readEvents(body, controller, seen) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let watchdog;
  const alive = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => controller.abort(), SILENCE_MS);
  };
  let verdict = /** @type {Verdict} */ ('go on');
  const parse = sseParser(({ event, data }) => {
    if (verdict !== 'go on') return;
    let parsed;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    verdict = seen(event, parsed);
  });
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    alive();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return verdict;
      alive();
      parse(value);
      if (verdict !== 'go on') {
        controller.abort();
        return verdict;
      }
    }
  } finally {
    clearTimeout(watchdog);
  }
}
