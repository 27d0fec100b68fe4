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
 * Follows a journal stream until stopped: reconnects after a drop with
 * `?after=<last seq seen>`, so no entry is shown twice or missed (unless the
 * journal overwrote it meanwhile), waits Retry-After on a 503, and stops on
 * a refusal it cannot get past alone (401: the key) or when the session ends.
 * @param {{
 *   url: string,
 *   headers: () => Record<string, string>,
 *   onEvent: (name: string, data: any) => void,
 *   onState: (state: StreamState) => void,
 * }} options
 * @returns {{ stop(): void }}
 */
export function follow({ url, headers, onEvent, onState }) {
  let stopped = false;
  let last = 0;
  /** @type {AbortController | undefined} */
  let connection;
  let failures = 0;

  /** @param {string} name @param {any} data @returns {'go on' | 'reconnect' | 'stop'} */
  const seen = (name, data) => {
    if (name === 'hello' && typeof data?.last === 'number' && data.last < last) {
      // The journal is not the one followed before (the mock restarted, or the session started afresh): start over.
      last = 0;
      onEvent('restarted', {});
      return 'reconnect';
    }
    if (name === 'entries' && Array.isArray(data) && data.length > 0) last = Math.max(last, Number(data[data.length - 1].seq) || last);
    if (name === 'summary' && typeof data?.to === 'number') last = Math.max(last, data.to);
    onEvent(name, data);
    return name === 'ended' ? 'stop' : 'go on';
  };

  const run = async () => {
    while (!stopped) {
      onState({ kind: 'connecting' });
      const outcome = await connect();
      if (stopped || outcome.stop) return;
      failures = outcome.opened ? 0 : failures + 1;
      const retryInMs = outcome.retryInMs ?? RETRY_MS[Math.min(failures, RETRY_MS.length - 1)] ?? 10_000;
      if (!outcome.quiet) onState({ kind: 'dropped', retryInMs });
      await new Promise((resolve) => setTimeout(resolve, retryInMs));
    }
  };

  /** @returns {Promise<{ stop?: boolean, opened?: boolean, retryInMs?: number, quiet?: boolean }>} */
  const connect = async () => {
    const controller = new AbortController();
    connection = controller;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let watchdog;
    const quiet = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => controller.abort(), SILENCE_MS);
    };
    try {
      const res = await fetch(last > 0 ? `${url}?after=${last}` : url, { headers: headers(), signal: controller.signal, cache: 'no-store' });
      if (!res.ok) {
        const error = errorOf(res.status, await res.json().catch(() => undefined));
        // 503 (too many streams, the store away) passes with time, and so does a session not started yet (its first
        // request or activation starts it); any other refusal (401, 403, 400) needs the user.
        const retryInMs = res.status === 503 ? (retryAfter(res) ?? 5) * 1000 : error.code === 'unknown_session' ? WAIT_FOR_SESSION_MS : undefined;
        onState({ kind: 'refused', error, retryInMs });
        return retryInMs === undefined ? { stop: true } : { retryInMs, quiet: true };
      }
      if (!res.body) return {};
      onState({ kind: 'open' });
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let verdict = /** @type {'go on' | 'reconnect' | 'stop'} */ ('go on');
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
      quiet();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        quiet();
        parse(value);
        if (verdict !== 'go on') {
          controller.abort();
          break;
        }
      }
      if (verdict === 'stop') return { stop: true };
      return { opened: true, retryInMs: verdict === 'reconnect' ? 0 : undefined, quiet: verdict === 'reconnect' };
    } catch {
      return {};
    } finally {
      clearTimeout(watchdog);
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
