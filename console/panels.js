// @ts-check
import { ANONYMOUS, call, settings } from './api.js';
import { el, fill } from './dom.js';

/**
 * The health line, the sessions and the scenarios: each read from the
 * admin API and drawn again after every change the page makes.
 */

/**
 * @typedef {(answer: import('./api.js').Answer, done?: string) => boolean} Report
 *   shows a refusal's message (or `done` when it went through); true when it went through
 */

/**
 * @param {HTMLElement} line
 * @param {Report} report
 */
export async function loadHealth(line, report) {
  const answer = await call('GET', '/health');
  if (!answer.ok) {
    report(answer);
    fill(line, [`Health: ${answer.error.message}`]);
    line.className = 'health down';
    return;
  }
  const { store, session, scenario, state, pets, profile } = answer.body;
  line.className = 'health';
  fill(line, [
    el('span', {}, [`store ${store}`]),
    el('span', {}, [session === null ? 'shared default' : `session ${session}`]),
    el('span', {}, ['scenario ', el('strong', {}, [scenario ?? 'none']), state ? ` (${state})` : '']),
    // Where the interface is silent, the mock answers by this profile, in every session alike.
    el('span', { class: 'profile', title: `the choices where the interface is silent, from ${profile.file}` }, ['profile ', el('strong', {}, [profile.name])]),
    el('span', { class: 'pets' }, [`${pets} pets`]),
  ]);
}

/**
 * The running sessions, and the chooser: the shared default, the anonymous
 * journal, each running session, and the one chosen (typed in, or no
 * longer running).
 * @param {{ table: HTMLElement, chooser: HTMLSelectElement, report: Report, changed: () => void }} options
 */
export async function loadSessions({ table, chooser, report, changed }) {
  const answer = await call('GET', '/sessions');
  if (!answer.ok) return void report(answer);
  /** @type {Array<{ id: string, scenario: string | null, pets: number, idleSeconds: number, journal: number }>} */
  const sessions = answer.body.sessions;
  const chosen = settings.session;
  const ids = sessions.map(({ id }) => id);
  if (chosen !== '' && chosen !== ANONYMOUS && !ids.includes(chosen)) ids.push(chosen);
  // Drawn again only when the list changed: redrawing closes the list under the user's pointer.
  const values = ['', ANONYMOUS, ...ids];
  if ([...chooser.options].map((option) => option.value).join('\n') !== values.join('\n')) {
    fill(chooser, [
      el('option', { value: '' }, ['Shared default (no X-Mock-Session)']),
      el('option', { value: ANONYMOUS }, ['Anonymous journal (refused and keyless requests)']),
      ...ids.map((id) => el('option', { value: id }, [`Session ${id}`])),
    ]);
  }
  chooser.value = chosen;
  /** @param {string} id */
  const end = async (id) => {
    if (report(await call('DELETE', `/sessions/${encodeURIComponent(id)}`), `Session ${id} ended.`)) changed();
  };
  /** @param {string} id */
  const use = (id) => {
    settings.session = id;
    changed();
  };
  fill(
    table,
    sessions.length === 0
      ? [el('tr', {}, [el('td', { colspan: 5, class: 'muted' }, ['No session is running.'])])]
      : sessions.map(({ id, scenario, pets, idleSeconds }) =>
          el('tr', {}, [
            el('td', { class: 'id' }, [id]),
            el('td', {}, [scenario ?? '—']),
            el('td', {}, [pets]),
            el('td', {}, [`${Math.round(idleSeconds)} s`]),
            el('td', { class: 'row-actions' }, [
              el('button', { type: 'button', onclick: () => use(id), 'aria-label': `Use session ${id}` }, ['Use']),
              el('button', { type: 'button', disabled: settings.key === '', 'data-needs-key': true, onclick: () => void end(id), 'aria-label': `End session ${id}` }, ['End']),
            ]),
          ]),
        ),
  );
}

/** From this many scenarios on, the list gets a search box, so the one QA needs is found without scrolling. */
export const SEARCH_FROM = 11;

/**
 * Every scenario file: name, description, active, and for a refused one
 * its file and each error (`<file>: <JSONPath> <reason>`).
 * @param {{ list: HTMLElement, search: HTMLInputElement, report: Report, changed: () => void }} options
 */
export async function loadScenarios({ list, search, report, changed }) {
  const answer = await call('GET', '/scenarios');
  if (!answer.ok) return void report(answer);
  /** @type {Array<{ name: string, description: string, file: string, valid: boolean, active: boolean, errors?: string[] }>} */
  const scenarios = answer.body.scenarios;
  /** @param {string} name */
  const activate = async (name) => {
    const done = await call('PUT', '/scenarios/active', { name });
    if (report(done, done.ok ? `Scenario ${name} is active (${done.body.pets} pets).` : undefined)) changed();
  };
  /** @param {string} name */
  const reset = async (name) => {
    const done = await call('POST', `/scenarios/${encodeURIComponent(name)}/reset`);
    if (report(done, done.ok ? (done.body.started ? `Scenario ${name} is back at its start.` : `Scenario ${name} had not started in this session: nothing to reset.`) : undefined)) changed();
  };
  fill(
    list,
    scenarios.map(({ name, description, file, valid, active, errors }) =>
      el('li', { class: `scenario${active ? ' active' : ''}${valid ? '' : ' invalid'}`, 'data-scenario': name }, [
        el('div', { class: 'scenario-head' }, [
          el('strong', {}, [name]),
          active ? el('span', { class: 'badge' }, ['active']) : null,
          valid ? null : el('span', { class: 'badge refused' }, ['refused']),
          el('span', { class: 'row-actions' }, [
            el('button', { type: 'button', disabled: !valid || active || settings.key === '', 'data-needs-key': true, onclick: () => void activate(name), 'aria-label': `Activate ${name}` }, ['Activate']),
            el('button', { type: 'button', disabled: !valid || settings.key === '', 'data-needs-key': true, onclick: () => void reset(name), 'aria-label': `Reset ${name}` }, ['Reset']),
          ]),
        ]),
        el('p', { class: 'description' }, [description || 'No description.']),
        valid ? null : el('p', { class: 'file' }, [file]),
        valid ? null : el('ul', { class: 'errors' }, (errors ?? []).map((error) => el('li', {}, [error]))),
      ]),
    ),
  );
  search.hidden = scenarios.length < SEARCH_FROM;
  list.classList.toggle('compact', !search.hidden);
  filterScenarios(list, search.hidden ? '' : search.value);
}

/**
 * Shows the scenarios whose name or description holds the text (any case); all for ''.
 * @param {HTMLElement} list
 * @param {string} text
 */
export function filterScenarios(list, text) {
  const wanted = text.trim().toLowerCase();
  for (const item of list.children) {
    if (item instanceof HTMLElement) item.hidden = wanted !== '' && !(item.textContent ?? '').toLowerCase().includes(wanted);
  }
}
