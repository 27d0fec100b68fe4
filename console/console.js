// @ts-check
import { adminHeaders, ANONYMOUS, BASE, call, settings } from './api.js';
import { showDetails } from './details.js';
import { byId, el, fill } from './dom.js';
import { journalView, statusTest } from './journal.js';
import { filterScenarios, loadHealth, loadScenarios, loadSessions } from './panels.js';
import { follow } from './stream.js';
import { loadStubs, stubForm } from './stubs.js';
import { loadViolations, proxyTarget, showViolations } from './violations.js';
import { loadRecording, toggleRecording } from './recording.js';

/** The health line and the sessions are read again this often while the page is visible. */
const POLL_MS = 5000;

const page = {
  health: byId('health', HTMLElement),
  notice: byId('notice', HTMLElement),
  keyForm: byId('key-form', HTMLFormElement),
  key: byId('key', HTMLInputElement),
  forgetKey: byId('forget-key', HTMLButtonElement),
  session: byId('session', HTMLSelectElement),
  sessionForm: byId('session-form', HTMLFormElement),
  sessionId: byId('session-id', HTMLInputElement),
  sessions: byId('sessions', HTMLElement),
  endAll: byId('end-all', HTMLButtonElement),
  scenarios: byId('scenarios', HTMLElement),
  scenarioSearch: byId('scenario-search', HTMLInputElement),
  stubs: byId('stubs', HTMLElement),
  stubCount: byId('stub-count', HTMLElement),
  keyHint: byId('key-hint', HTMLElement),
  resetAll: byId('reset-all', HTMLButtonElement),
  refreshScenarios: byId('refresh-scenarios', HTMLButtonElement),
  streamState: byId('stream-state', HTMLElement),
  clearJournal: byId('clear-journal', HTMLButtonElement),
  filters: byId('filters', HTMLFormElement),
  filterStatus: byId('filter-status', HTMLInputElement),
  filterOperation: byId('filter-operation', HTMLSelectElement),
  filterUnmatched: byId('filter-unmatched', HTMLInputElement),
  entries: byId('entries', HTMLElement),
  details: byId('details', HTMLElement),
  recording: {
    section: byId('recording-section', HTMLElement),
    state: byId('recording-state', HTMLElement),
    toggle: byId('recording-toggle', HTMLButtonElement),
  },
  violations: {
    section: byId('violations-section', HTMLElement),
    list: byId('violations', HTMLElement),
    count: byId('violations-count', HTMLElement),
    filter: byId('violations-filter', HTMLInputElement),
  },
};

/** Violations are read this often while the page is visible: they show the moment the target breaks the contract. */
const VIOLATIONS_POLL_MS = 1000;

/**
 * Says how an admin request went: a refusal's own message (401: and asks
 * for the key), or `done`. True when it went through.
 * @type {import('./panels.js').Report}
 */
function report(answer, done) {
  if (answer.ok) {
    if (done) notify(done, 'info');
    return true;
  }
  const { status, message } = answer.error;
  if (status === 401) {
    notify(`${message} Enter the key above.`, 'error');
    page.key.focus();
  } else notify(status === 0 ? message : `${status}: ${message}`, 'error');
  return false;
}

/** @param {string} text @param {'info' | 'error'} kind */
function notify(text, kind) {
  page.notice.hidden = false;
  page.notice.className = `notice ${kind}`;
  fill(page.notice, [text]);
}

/** The chosen view as words: the session, or the shared default. */
const where = () => (settings.session === '' ? 'the shared default (every client that names no session)' : `session ${settings.session} only`);

/**
 * What can be done from an opened row: a stub for requests like it, in
 * the chosen session (not from the anonymous journal, nor for a request
 * that is no operation).
 * @param {import('./journal.js').Entry} entry
 */
function rowActions(entry) {
  if (entry.operation === null || entry.keyless || settings.session === ANONYMOUS) return null;
  const operation = entry.operation;
  return stubForm({
    operation,
    where: where(),
    hasKey: settings.key !== '',
    async onAdd(stub) {
      const done = await call('POST', '/stubs', stub);
      if (report(done, done.ok ? `Stub ${done.body.stub.id} added: ${operation} requests of ${where()} now get it.` : undefined)) void refresh.stubs();
    },
  });
}

const journal = journalView({
  list: page.entries,
  onOpen: (entry) => showDetails(page.details, entry, rowActions(entry), proxyTarget()),
  onOperation: (name) => page.filterOperation.appendChild(el('option', { value: name }, [name === 'none' ? 'none (no operation)' : name])),
});

/** @type {{ stop(): void } | undefined} */
let following;
/** @type {{ stop(): void } | undefined} */
let followingKeyless;
let intervalMs = 250;

/**
 * The 401s that name the chosen session (or, for the shared default, none)
 * and came while the page follows it: they are kept in the anonymous
 * journal, so a client without a key cannot push the session's own
 * entries out, but are shown here, marked, where QA is looking.
 * @param {number} since ms since the epoch
 * @returns {(entry: import('./journal.js').Entry) => boolean}
 */
const keylessOfChosen = (since) => (entry) => {
  const named = entry.request?.headers?.['x-mock-session'];
  return entry.status === 401 && (named ?? '') === settings.session && Date.parse(entry.at ?? '') >= since;
};

let bannerTimer = 0;
/** The health line and the sessions read again soon after a create or a reset, so their animal counts follow the journal's. */
function refreshBannerSoon() {
  if (bannerTimer !== 0) return;
  bannerTimer = window.setTimeout(() => {
    bannerTimer = 0;
    void refresh.health();
    void refresh.sessions();
  }, 150);
}

/** Follows the chosen journal from its backlog, the list emptied first. */
function followJournal() {
  following?.stop();
  followingKeyless?.stop();
  followingKeyless = undefined;
  journal.clear();
  page.details.hidden = true;
  const anonymous = settings.session === ANONYMOUS;
  // Started once the session's own stream is open (or waits for the session to start): a page holds a second stream only when the mock has one to spare (it allows few per address).
  const followKeyless = () => {
    if (anonymous || followingKeyless) return;
    const shows = keylessOfChosen(Date.now() - 1000);
    followingKeyless = follow({
      url: `${BASE}/journal/anonymous/stream`,
      headers: adminHeaders,
      onEvent(name, data) {
        if (name === 'entries') journal.entries(data.filter(shows).map((/** @type {import('./journal.js').Entry} */ entry) => ({ ...entry, keyless: true })));
      },
      onState() {},
    });
  };
  following = follow({
    url: `${BASE}/journal${anonymous ? '/anonymous' : ''}/stream`,
    headers: adminHeaders,
    started: settings.session === '' || anonymous ? undefined : sessionStarted,
    onEvent(name, data) {
      if (name === 'hello') intervalMs = Number(data.intervalMs) || intervalMs;
      else if (name === 'entries') {
        journal.entries(data);
        if (data.some((/** @type {import('./journal.js').Entry} */ e) => e.operation === 'createPet' && e.status < 300)) refreshBannerSoon();
      }
      else if (name === 'summary') journal.summary(data, intervalMs);
      else if (name === 'cleared' || name === 'restarted') journal.clear();
      else if (name === 'ended') streamState(`Ended: ${data.reason ?? 'the session ended'}. Choose a session to follow again.`, 'down');
    },
    onState(state) {
      if (state.kind === 'open') {
        streamState('Live', 'live');
        followKeyless();
      }
      else if (state.kind === 'connecting') streamState('Connecting…', 'waiting');
      else if (state.kind === 'dropped') streamState(`Connection lost; trying again in ${Math.ceil(state.retryInMs / 1000)} s`, 'waiting');
      else if (state.kind === 'refused' && state.error.code === 'unknown_session') {
        // Its requests may all be refused for want of a key, and so never start it: those are shown meanwhile.
        followKeyless();
        streamState(`Waiting for session ${settings.session} to start: its first request, or an activation, starts it`, 'waiting');
      } else if (state.kind === 'refused') {
        report({ ok: false, status: state.error.status, error: state.error, retryAfter: undefined });
        streamState(state.retryInMs === undefined ? `Not following: ${state.error.message}` : `Busy; trying again in ${Math.ceil(state.retryInMs / 1000)} s`, 'down');
      }
    },
  });
}

/**
 * Whether the chosen session runs, asked of the sessions' list, which
 * answers 200 either way. A list the mock refuses, or one that leaves the
 * session out though it runs, cannot hold the page up: the stream is asked.
 */
async function sessionStarted() {
  const answer = await call('GET', '/sessions');
  return !answer.ok || answer.body.sessions.some((/** @type {{ id: string }} */ listed) => listed.id === settings.session);
}

/** @param {string} text @param {'live' | 'waiting' | 'down'} kind */
function streamState(text, kind) {
  page.streamState.className = `stream-state ${kind}`;
  fill(page.streamState, [text]);
}

const refresh = {
  health: () => loadHealth(page.health, report),
  sessions: () => loadSessions({ table: page.sessions, chooser: page.session, report, changed: everything }),
  scenarios: () => loadScenarios({ list: page.scenarios, search: page.scenarioSearch, report, changed: refreshAll }),
  stubs: () => loadStubs({ list: page.stubs, count: page.stubCount, hasKey: settings.key !== '', report, changed: () => void refresh.stubs() }),
};

async function refreshAll() {
  showKeyNeed();
  await Promise.all([refresh.health(), refresh.sessions(), refresh.scenarios(), settings.session === ANONYMOUS ? undefined : refresh.stubs()]);
}

/** Without a key, what needs one is disabled, and one line says why. */
function showKeyNeed() {
  const none = settings.key === '';
  page.keyHint.hidden = !none;
  for (const button of document.querySelectorAll('button[data-needs-key]')) {
    if (button instanceof HTMLButtonElement) button.disabled = none;
  }
}

/** After the session or the key changed: every panel, and the journal followed. */
function everything() {
  followJournal();
  void refreshAll();
}

page.key.value = settings.key;
page.keyForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const key = page.key.value.trim();
  // A header value the browser would refuse to send (fetch throws on it): said here, not as an unreachable mock.
  if (!/^[\x21-\x7e]*$/.test(key)) return notify('A key is printable ASCII without spaces (a bearer token, RFC 6750 §2.1).', 'error');
  settings.key = key;
  notify(settings.key === '' ? 'No key: reads only, when the mock allows them.' : 'Key kept for this tab.', 'info');
  everything();
});
page.forgetKey.addEventListener('click', () => {
  settings.key = '';
  page.key.value = '';
  everything();
});
page.session.addEventListener('change', () => {
  settings.session = page.session.value;
  everything();
});
page.sessionForm.addEventListener('submit', (event) => {
  event.preventDefault();
  if (!page.sessionId.reportValidity()) return;
  settings.session = page.sessionId.value;
  page.sessionId.value = '';
  everything();
});
page.endAll.addEventListener('click', async () => {
  const done = await call('DELETE', '/sessions');
  if (report(done, done.ok ? `${done.body.ended} session(s) ended; the shared default is kept.` : undefined)) void refreshAll();
});
page.resetAll.addEventListener('click', async () => {
  const done = await call('POST', '/reset');
  if (report(done, done.ok ? `Every scenario of this session is back at its start; ${done.body.active} active, ${done.body.pets} pets.` : undefined)) void refreshAll();
});
page.refreshScenarios.addEventListener('click', () => void refresh.scenarios());
page.scenarioSearch.addEventListener('input', () => filterScenarios(page.scenarios, page.scenarioSearch.value));
page.clearJournal.addEventListener('click', async () => {
  const done = await call('DELETE', settings.session === ANONYMOUS ? '/journal/anonymous' : '/journal');
  report(done, done.ok ? 'Journal emptied.' : undefined);
});

const applyFilters = () => {
  const valid = statusTest(page.filterStatus.value) !== undefined;
  page.filterStatus.setAttribute('aria-invalid', String(!valid));
  page.filterStatus.title = valid ? '' : 'A class (2xx, 4xx, 5xx) or one status (503)';
  journal.filter({ status: valid ? page.filterStatus.value : '', operation: page.filterOperation.value, unmatched: page.filterUnmatched.checked });
};
page.filters.addEventListener('input', applyFilters);
page.violations.filter.addEventListener('input', () => showViolations(page.violations));
page.recording.toggle.addEventListener('click', () => void toggleRecording(page.recording, report));
page.filters.addEventListener('submit', (event) => event.preventDefault());

// Polled quietly: a refusal shows in the health line, and must not take the focus every 5 s.
/** @type {import('./panels.js').Report} */
const quiet = (answer) => answer.ok;
setInterval(() => {
  if (document.visibilityState !== 'visible') return;
  void loadHealth(page.health, quiet);
  void loadSessions({ table: page.sessions, chooser: page.session, report: quiet, changed: everything });
  if (proxyTarget() !== '') void loadRecording(page.recording, quiet);
}, POLL_MS);
setInterval(() => {
  if (document.visibilityState === 'visible') void loadViolations(page.violations);
}, VIOLATIONS_POLL_MS);
// Only proxy mode records (--record needs --proxy): without it, the page does not ask.
void loadViolations(page.violations).then(() => {
  if (proxyTarget() !== '') void loadRecording(page.recording, quiet);
});
everything();
