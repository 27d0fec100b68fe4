// @ts-check
import { el, fill } from './dom.js';
import { shownPath } from './journal.js';

/**
 * One journal entry opened: the request, the answer, and the stub that
 * answered or why none did.
 * @param {HTMLElement} pane
 * @param {import('./journal.js').Entry} entry
 */
export function showDetails(pane, entry) {
  pane.hidden = false;
  const answeredBy =
    entry.stub !== null
      ? ['Answered by stub ', el('code', {}, [entry.stub]), entry.scenario ? ` of scenario ${entry.scenario}` : '']
      : ['No stub answered: ', entry.unmatched ?? 'the journal does not say why'];
  fill(pane, [
    el('header', {}, [
      el('h3', {}, [`${entry.method} ${shownPath(entry.path)}`]),
      el('button', { type: 'button', class: 'close', 'aria-label': 'Close the details', onclick: () => (pane.hidden = true) }, ['×']),
    ]),
    el('p', { class: 'facts' }, [
      [entry.seq === undefined ? '' : `#${entry.seq}`, entry.at ?? '', `${entry.ms} ms`, entry.session ? `session ${entry.session}` : 'shared default', entry.operation ?? 'no operation']
        .filter(Boolean)
        .join(' · '),
    ]),
    el('p', { class: entry.stub === null ? 'stub none' : 'stub' }, answeredBy),
    el('h4', {}, ['Request']),
    el('p', { class: 'line' }, [el('code', {}, [`${entry.method} ${entry.path}`]), ' (as received)']),
    ...recorded(entry.request),
    el('h4', {}, ['Answer']),
    el('p', { class: `line s${Math.floor(entry.status / 100)}xx` }, [el('code', {}, [`${entry.status}`])]),
    ...recorded(entry.response),
  ]);
}

/**
 * Headers as a table and the body, pretty when it is JSON.
 * @param {import('./journal.js').Recorded | undefined} part
 */
function recorded(part) {
  if (!part) return [el('p', { class: 'muted' }, ['Not recorded by this mock.'])];
  const headers = Object.entries(part.headers ?? {});
  return [
    headers.length === 0
      ? el('p', { class: 'muted' }, ['No headers recorded.'])
      : el('table', { class: 'headers' }, [el('tbody', {}, headers.map(([name, value]) => el('tr', {}, [el('th', { scope: 'row' }, [name]), el('td', {}, [value])])))]),
    part.body ? el('pre', { class: 'body' }, [pretty(part.body)]) : el('p', { class: 'muted' }, ['No body.']),
    part.bodyTruncated ? el('p', { class: 'muted' }, ['The body is cut short: the journal keeps its beginning only.']) : null,
  ];
}

/** @param {string} body */
function pretty(body) {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
