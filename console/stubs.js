// @ts-check
import { adminHeaders, BASE, call, errorOf } from './api.js';
import { el, fill } from './dom.js';

/**
 * The session's own stubs (`/__mock/stubs`): the form that adds one from a
 * journal row ("answer requests like this with…"), the list with its
 * Remove and Download buttons. A stub is a scenario file's stub, so what
 * the form builds is what a file would hold.
 */

/**
 * @typedef {{ id: string, match: { operation: string }, response?: { status: number }, fault?: { latency?: { fixedMs?: number }, then?: string | { status: number } } }} Stub
 */

/** The answers the form offers, as QA names them, each with the stub's answer part. */
const ANSWERS = [
  { value: 'status-500', label: '500 Internal Server Error', answer: () => ({ fault: { then: { status: 500 } } }) },
  { value: 'status-503', label: '503 Service Unavailable (Retry-After: 1)', answer: () => ({ fault: { then: { status: 503, retryAfterSeconds: 1 } } }) },
  { value: 'status-429', label: '429 Too Many Requests (Retry-After: 1)', answer: () => ({ fault: { then: { status: 429, retryAfterSeconds: 1 } } }) },
  { value: 'delay', label: 'a delay, then the normal answer', answer: (/** @type {number} */ ms) => ({ fault: { latency: { fixedMs: ms } } }) },
  { value: 'hang', label: 'no answer (hang)', answer: () => ({ fault: { then: 'hang' } }) },
  { value: 'reset', label: 'the connection dropped (reset)', answer: () => ({ fault: { then: 'reset' } }) },
  { value: 'close', label: 'the connection closed before any answer', answer: () => ({ fault: { then: 'close' } }) },
  { value: 'malformed-json', label: 'a JSON body cut half way', answer: () => ({ fault: { then: 'malformed-json' } }) },
  { value: 'empty-body', label: 'the normal status with an empty body', answer: () => ({ fault: { then: 'empty-body' } }) },
  { value: 'wrong-content-type', label: 'the normal answer labelled text/plain', answer: () => ({ fault: { then: 'wrong-content-type' } }) },
  { value: 'gateway-page', label: "502 Bad Gateway as a gateway's HTML page", answer: () => ({ fault: { then: 'gateway-page' } }) },
  { value: 'fallback-page', label: "200 with a web app's HTML page (index.html)", answer: () => ({ fault: { then: 'fallback-page' } }) },
  { value: 'truncated-body', label: 'the connection closed half way through the body', answer: () => ({ fault: { then: 'truncated-body' } }) },
];

/**
 * "Answer requests like this with…": every request of this operation in
 * the session, before its scenario's stubs.
 * @param {{ operation: string, where: string, hasKey: boolean, onAdd: (stub: object) => void }} options
 */
export function stubForm({ operation, where, hasKey, onAdd }) {
  const choice = el('select', { name: 'answer', 'aria-label': 'Answer with' }, ANSWERS.map(({ value, label }) => el('option', { value }, [label])));
  const ms = el('input', { type: 'number', name: 'ms', min: 0, max: 600000, step: 100, value: 2000, 'aria-label': 'Delay in milliseconds', hidden: true });
  choice.addEventListener('change', () => (ms.hidden = choice.value !== 'delay'));
  const add = el('button', { type: 'submit', disabled: !hasKey, 'data-needs-key': true }, ['Add stub']);
  const form = el('form', { class: 'stub-form', 'aria-label': 'Answer requests like this' }, [
    el('h4', {}, ['Answer requests like this with…']),
    el('p', { class: 'muted' }, [`Every ${operation} request of ${where}, before its scenario's stubs, until removed.`]),
    el('div', { class: 'inline' }, [choice, ms, add]),
  ]);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const picked = ANSWERS.find(({ value }) => value === choice.value);
    if (picked) onAdd({ match: { operation }, ...picked.answer(Number(ms.value)) });
  });
  return form;
}

/**
 * What a stub answers, in a few words.
 * @param {Stub} stub
 */
export function stubSummary(stub) {
  const then = stub.fault?.then;
  const latency = stub.fault?.latency?.fixedMs;
  const answer = stub.response
    ? `${stub.response.status}`
    : then === undefined || then === 'pass'
      ? `normal answer after ${latency ?? 'a delay of'} ms`
      : typeof then === 'string'
        ? then
        : `${then.status}`;
  return `${stub.match.operation === '*' ? 'every operation' : stub.match.operation} → ${answer}`;
}

/**
 * The session's stubs, each with Download (its scenario file) and Remove.
 * @param {{ list: HTMLElement, count: HTMLElement, hasKey: boolean, report: import('./panels.js').Report, changed: () => void }} options
 */
export async function loadStubs({ list, count, hasKey, report, changed }) {
  const answer = await call('GET', '/stubs');
  if (!answer.ok) return void report(answer);
  /** @type {Stub[]} */
  const stubs = answer.body.stubs;
  fill(count, [`${stubs.length} of ${answer.body.max}`]);
  /** @param {string} id */
  const remove = async (id) => {
    if (report(await call('DELETE', `/stubs/${encodeURIComponent(id)}`), `Stub ${id} removed.`)) changed();
  };
  fill(
    list,
    stubs.length === 0
      ? [el('li', { class: 'muted' }, ['No stub: open a journal row to add one.'])]
      : stubs.map((stub) =>
          el('li', { class: 'stub-item', 'data-stub': stub.id }, [
            el('code', {}, [stub.id]),
            el('span', { class: 'what' }, [stubSummary(stub)]),
            el('span', { class: 'row-actions' }, [
              el('button', { type: 'button', onclick: () => void download(stub.id, report), 'aria-label': `Download ${stub.id} as a scenario file` }, ['Download']),
              el('button', { type: 'button', disabled: !hasKey, 'data-needs-key': true, onclick: () => void remove(stub.id), 'aria-label': `Remove stub ${stub.id}` }, ['Remove']),
            ]),
          ]),
        ),
  );
}

/**
 * Saves the stub's scenario file: fetched with the session's headers (a
 * link cannot send them), then handed to the browser as a download.
 * @param {string} id
 * @param {import('./panels.js').Report} report
 */
async function download(id, report) {
  const res = await fetch(`${BASE}/stubs/${encodeURIComponent(id)}/scenario`, { headers: adminHeaders(), cache: 'no-store' }).catch(() => undefined);
  if (!res || !res.ok) {
    const status = res?.status ?? 0;
    report({ ok: false, status, error: res ? errorOf(status, await res.json().catch(() => undefined)) : { code: 'unreachable', message: 'The mock did not answer.', status: 0 }, retryAfter: undefined });
    return;
  }
  const url = URL.createObjectURL(await res.blob());
  const link = el('a', { href: url, download: `${id}.yaml` });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
