// @ts-check
import { el, fill } from './dom.js';
import { answeredBy, shownPath } from './journal.js';
import { answeredByTarget, violationsOf } from './proxied.js';

/**
 * One journal entry opened: the request, the answer, and the stub that
 * answered or why none did; in proxy mode, the target that answered and
 * what its answer broke.
 * @param {HTMLElement} pane
 * @param {import('./journal.js').Entry} entry
 * @param {Node | null} [actions] what may be done from it (the stub form), shown under who answered
 * @param {string} [target] proxy mode's target, as `GET /__mock/violations` names it ('' before it is read)
 */
export function showDetails(pane, entry, actions = null, target = '') {
  pane.hidden = false;
  const answerer = answeredBy(entry);
  const { upstream } = entry;
  const proxied = !entry.keyless && upstream !== undefined;
  const answered = entry.keyless
    ? ['No key: refused with 401 before its session was looked at. Kept in the anonymous journal, so requests without a key cannot push this session\'s entries out; shown here because it names this session.']
    : proxied
      ? answeredByTarget({ ...entry, upstream }, target)
      : entry.stub !== null
        ? ['Answered by ', el('code', {}, [answerer]), entry.scenario && !entry.stub.startsWith('session stub ') ? ` of scenario ${entry.scenario}` : '']
        : [`Answered by the ${answerer === 'catalogue' ? 'catalogue' : answerer === 'Prefer' ? 'Prefer header' : 'mock, before any stub'}: `, entry.unmatched ?? 'the journal does not say why'];
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
    el('p', { class: entry.stub === null && !proxied ? 'stub none' : 'stub' }, answered),
    ...(proxied ? violationsOf({ ...entry, upstream }) : []),
    actions,
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
