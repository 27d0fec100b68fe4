// @ts-check
import { el, fill } from './dom.js';
import { targetAnswerer, violationMark } from './proxied.js';

/**
 * The live journal's list: entries and summaries from the stream, newest
 * at the top, drawn at most once per animation frame, at most MAX_ROWS kept.
 */

/** Rows kept (in memory and in the page): the oldest go first. */
export const MAX_ROWS = 500;
/**
 * Of them, at most this many keyless 401s (shown from the anonymous
 * journal): the oldest of those go first, so requests without a key can
 * no more push the session's own rows off the page than out of its journal.
 */
export const MAX_KEYLESS_ROWS = 50;

/**
 * @typedef {{ headers?: Record<string, string>, body?: string, bodyTruncated?: boolean }} Recorded
 * @typedef {{
 *   seq?: number, at?: string, session?: string | null, method: string, path: string, status: number, ms: number,
 *   operation: string | null, scenario: string | null, stub: string | null, unmatched?: string,
 *   request?: Recorded, response?: Recorded, keyless?: boolean,
 * } & import('./proxied.js').Proxied} Entry
 * @typedef {{ from: number, to: number, count: number, byStatus: Record<string, number>, byOperation: Record<string, number>, sampled: number, ms?: number, before?: true }} Summary
 * @typedef {({ kind: 'entry', entry: Entry } | { kind: 'summary', summary: Summary, at: Date, intervalMs: number }) & { row?: HTMLElement }} Item
 * @typedef {{ status: string, operation: string, unmatched: boolean }} Filter
 */

/**
 * @param {{ list: HTMLElement, onOpen: (entry: Entry) => void, onOperation: (operation: string) => void }} options
 */
export function journalView({ list, onOpen, onOperation }) {
  /** @type {Filter} */
  let filter = { status: '', operation: '', unmatched: false };
  const selection = selectedRow(onOpen);
  /** @param {Item} item @returns {HTMLElement} */
  const row = (item) => (item.kind === 'entry' ? entryRow(item.entry, selection.open) : summaryRow(item));
  const rows = rowBuffer(list, (item) => (shows(item, filter) ? row(item) : undefined));
  const noteOperations = operationsSeen(onOperation);

  return {
    /** @param {Entry[]} entries oldest first */
    entries(entries) {
      noteOperations(entries);
      rows.push(entries.map((entry) => ({ kind: 'entry', entry })));
    },
    /** @param {Summary} summary @param {number} intervalMs the stream's tick (its hello), for a summary that does not say its span */
    summary(summary, intervalMs) {
      rows.push([{ kind: 'summary', summary, at: new Date(), intervalMs }]);
    },
    clear() {
      rows.clear();
      selection.forget();
    },
    /** @param {Filter} next */
    filter(next) {
      filter = next;
      selection.forget();
      rows.redraw();
    },
  };
}

/**
 * The rows kept (at most MAX_ROWS, oldest first) and those arrived but not
 * drawn yet (bounded too, as a hidden tab draws no frame); new rows are
 * drawn at most once per animation frame, newest on top.
 * @param {HTMLElement} list
 * @param {(item: Item) => HTMLElement | undefined} shown the row of an item, or undefined when the filters hide it
 */
function rowBuffer(list, shown) {
  /** @type {Item[]} */
  let items = [];
  /** @type {Item[]} */
  let pending = [];
  let scheduled = false;
  /** @param {Item[]} from oldest first @returns {DocumentFragment} newest first */
  const fragmentOf = (from) => {
    const fragment = document.createDocumentFragment();
    for (let i = from.length - 1; i >= 0; i -= 1) {
      const item = /** @type {Item} */ (from[i]);
      const element = shown(item);
      item.row = element;
      if (element) fragment.appendChild(element);
    }
    return fragment;
  };
  const draw = () => {
    scheduled = false;
    const arrived = pending;
    pending = [];
    const { kept, gone } = capKeyless(items.concat(arrived));
    for (const item of gone) item.row?.remove();
    items = kept.slice(-MAX_ROWS);
    list.insertBefore(fragmentOf(arrived.filter((item) => !gone.has(item))), list.firstChild);
    while (list.childElementCount > MAX_ROWS) list.lastElementChild?.remove();
  };
  return {
    /** @param {Item[]} arrived */
    push(arrived) {
      pending = capKeyless(pending.concat(arrived)).kept.slice(-MAX_ROWS);
      if (!scheduled) {
        scheduled = true;
        requestAnimationFrame(draw);
      }
    },
    clear() {
      items = [];
      pending = [];
      fill(list);
    },
    redraw: () => fill(list, [fragmentOf(items)]),
  };
}

/**
 * Items with at most MAX_KEYLESS_ROWS keyless 401s, the oldest of those
 * left out (`gone`), the others in their order.
 * @param {Item[]} from oldest first
 * @returns {{ kept: Item[], gone: Set<Item> }}
 */
function capKeyless(from) {
  const keyless = from.filter((item) => item.kind === 'entry' && item.entry.keyless === true);
  const gone = new Set(keyless.slice(0, Math.max(0, keyless.length - MAX_KEYLESS_ROWS)));
  return { kept: gone.size === 0 ? from : from.filter((item) => !gone.has(item)), gone };
}

/**
 * The opened row, marked for assistive technology, and told to `onOpen`.
 * @param {(entry: Entry) => void} onOpen
 */
function selectedRow(onOpen) {
  /** @type {HTMLElement | undefined} */
  let selected;
  return {
    /** @param {Entry} entry @param {HTMLElement} button */
    open(entry, button) {
      selected?.removeAttribute('aria-current');
      selected = button;
      button.setAttribute('aria-current', 'true');
      onOpen(entry);
    },
    forget() {
      selected = undefined;
    },
  };
}

/**
 * Tells `onOperation` of each operation the first time an entry has it (the operation filter's choices).
 * @param {(operation: string) => void} onOperation
 * @returns {(entries: Entry[]) => void}
 */
function operationsSeen(onOperation) {
  const operations = new Set();
  return (entries) => {
    for (const { operation } of entries) {
      const name = operation ?? 'none';
      if (!operations.has(name)) {
        operations.add(name);
        onOperation(name);
      }
    }
  };
}

/**
 * A status filter as typed: '' any, `4xx` a class, `503` one status.
 * @param {string} text
 * @returns {((status: number) => boolean) | undefined} undefined when the text is neither
 */
export function statusTest(text) {
  const value = text.trim().toLowerCase();
  if (value === '') return () => true;
  if (/^[1-5]xx$/.test(value)) return (status) => Math.floor(status / 100) === Number(value[0]);
  if (/^[1-5]\d\d$/.test(value)) return (status) => status === Number(value);
  return undefined;
}

/**
 * Whether a row shows under the filters. A summary stands for many
 * entries of every kind, so it always shows.
 * @param {Item} item
 * @param {Filter} filter
 */
function shows(item, filter) {
  if (item.kind === 'summary') return true;
  const { entry } = item;
  const status = statusTest(filter.status) ?? (() => true);
  if (!status(entry.status)) return false;
  if (filter.operation !== '' && (entry.operation ?? 'none') !== filter.operation) return false;
  return !filter.unmatched || entry.stub === null;
}

/**
 * @param {Entry} entry
 * @param {(entry: Entry, button: HTMLElement) => void} open
 */
function entryRow(entry, open) {
  const mark = violationMark(entry);
  const button = el('button', { type: 'button', class: `entry s${Math.floor(entry.status / 100)}xx${entry.keyless ? ' keyless' : ''}${mark ? ' violated' : ''}`, 'data-seq': entry.seq }, [
    el('span', { class: 'time' }, [clock(entry.at ? new Date(entry.at) : undefined)]),
    el('span', { class: 'status' }, [entry.status]),
    el('span', { class: 'method' }, [entry.method]),
    // The mark leads the path, which is cut from its end: it shows however long the path.
    el('span', { class: 'path', title: entry.path }, [mark, shownPath(entry.path)]),
    el('span', { class: 'operation' }, [entry.operation ?? '—']),
    el('span', { class: entry.stub === null && entry.upstream === undefined ? 'stub none' : 'stub', title: entry.stub ?? entry.unmatched }, [answeredBy(entry)]),
    el('span', { class: 'ms' }, [`${entry.ms} ms`]),
  ]);
  button.addEventListener('click', () => open(entry, button));
  return el('li', {}, [button]);
}

/**
 * Who answered a request, in a word or two: in proxy mode the target (or
 * the mock in its place: proxied.js), its stub (a session's own
 * reads `session stub ID`), `Prefer`, `catalogue` when the operation
 * answered from the session's animals, or `no stub` when it was answered
 * before any stub could (a refused key or session, a body too large, a
 * path that is no operation); a 401 shown from the anonymous journal reads
 * `no key (401)`.
 * @param {Entry} entry
 */
export function answeredBy(entry) {
  if (entry.keyless) return 'no key (401)';
  // Sent on to the target, perhaps after a stub that let it through (a latency): the answer is the target's.
  if (entry.upstream !== undefined) return targetAnswerer({ ...entry, upstream: entry.upstream });
  if (entry.stub !== null) return entry.stub.startsWith('session stub ') ? entry.stub : `stub ${entry.stub}`;
  const why = entry.unmatched ?? '';
  if (why.startsWith('answered by Prefer')) return 'Prefer';
  if (entry.operation === null || why.startsWith('answered before the stubs') || why === 'refused Prefer') return 'no stub';
  return 'catalogue';
}

/**
 * "N requests in 1.2 s: 200×n, 503×m …", one row for a burst the stream
 * summed up, over the time it says it covers (skipped ticks included);
 * "N requests not shown" for the entries a resumed stream's backlog left out.
 * @param {{ summary: Summary, at: Date, intervalMs: number }} item
 */
function summaryRow({ summary, at, intervalMs }) {
  const counts = (/** @type {Record<string, number>} */ byKey) =>
    Object.entries(byKey)
      .sort(([, a], [, b]) => b - a)
      .map(([key, n]) => `${key}×${n}`)
      .join(', ');
  const counted = summary.sampled < summary.count ? ` (${summary.sampled} still in the journal counted)` : '';
  const what = summary.before ? `${summary.count} requests not shown` : `${summary.count} requests in ${span(summary.ms ?? intervalMs)}`;
  const text = `${what}: ${counts(summary.byStatus)}${counted}`;
  return el('li', { class: 'summary', title: `${text}; ${counts(summary.byOperation)}`, 'data-count': summary.count }, [
    el('span', { class: 'time' }, [clock(at)]),
    el('span', { class: 'text' }, [text]),
    el('span', { class: 'operations' }, [counts(summary.byOperation)]),
  ]);
}

/**
 * A path as people read it: percent-escapes decoded as an address bar shows
 * them (decodeURI leaves `/`, `?`, `#` and the like encoded, so the path's
 * structure is kept), the recorded form when it is not valid UTF-8.
 * @param {string} path
 */
export function shownPath(path) {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** A time span as people read it: `250 ms`, `1.5 s`, `12 s`. @param {number} ms */
const span = (ms) => (ms < 1000 ? `${Math.round(ms)} ms` : ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`);

/** @param {Date | undefined} date */
const clock = (date) => (date && !Number.isNaN(date.getTime()) ? date.toTimeString().slice(0, 8) + '.' + String(date.getMilliseconds()).padStart(3, '0') : '');
