// @ts-check
import { call } from './api.js';
import { el, fill } from './dom.js';

/**
 * `--record DIR`'s recording (`/__mock/recording`): where it writes, what
 * it holds, and a button to stop it (which writes it) or start it again.
 * Shown only when the mock records: the folder is the command line's to
 * choose, so the page never starts a recording of its own.
 */

/**
 * @typedef {{ active: boolean, dir: string, scenario: string, animals: number, stubs: number }} RecordingStatus
 * @typedef {{ section: HTMLElement, state: HTMLElement, toggle: HTMLButtonElement }} RecordingPanel
 */

/** The mock answered that it does not record: its command line decides, so the page stops asking. */
let notRecording = false;

/**
 * @param {RecordingPanel} panel
 * @param {import('./panels.js').Report} report
 */
export async function loadRecording(panel, report) {
  if (notRecording) return;
  const answer = await call('GET', '/recording');
  panel.section.hidden = !answer.ok;
  if (answer.ok) show(panel, answer.body);
  // Without --record it never will: asked again, it would be a refused request in the browser's console every poll.
  else if (answer.status === 404) notRecording = true;
  else report(answer);
}

/**
 * @param {RecordingPanel} panel
 * @param {import('./panels.js').Report} report
 */
export async function toggleRecording(panel, report) {
  const stopping = panel.toggle.dataset.active === 'true';
  const answer = await call('POST', stopping ? '/recording/stop' : '/recording/start');
  if (!report(answer, answer.ok ? (stopping ? `Recording stopped and written to ${answer.body.dir}.` : 'Recording again.') : undefined) || !answer.ok) return;
  show(panel, answer.body);
}

/**
 * @param {RecordingPanel} panel
 * @param {RecordingStatus} status
 */
function show({ state, toggle }, status) {
  fill(state, [
    el('strong', {}, [status.active ? 'Recording' : 'Stopped']),
    ` into ${status.dir} (scenario ${status.scenario}): ${status.animals} animals, ${status.stubs} stubs`,
  ]);
  toggle.dataset.active = String(status.active);
  fill(toggle, [status.active ? 'Stop and write' : 'Start again']);
}
