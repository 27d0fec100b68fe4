// @ts-check
import { call } from './api.js';
import { el, fill } from './dom.js';

/**
 * Proxy mode's violations (`GET /__mock/violations`): each statement the
 * target broke, with its check ids, how many exchanges broke it, the last
 * detail and curl line. Shown only in proxy mode; read every second while
 * the page is visible, so a violation shows the moment staging breaks the
 * contract; filtered by any text of a group, and counted.
 */

/**
 * @typedef {{ statement: string, rules: string[], count: number, last: { detail: string, curl: string, status: number }, lastSeen: string }} ViolationGroup
 */

/** The groups last read, for the filter to apply without asking again. */
/** @type {ViolationGroup[]} */
let groups = [];
/** The target's base, as the mock names it ('' without --proxy, or before the first read): the journal's details name it. */
let target = '';

/** Proxy mode's target, '' until known. */
export const proxyTarget = () => target;

/**
 * @param {{ section: HTMLElement, list: HTMLElement, count: HTMLElement, filter: HTMLInputElement }} panel
 */
export async function loadViolations(panel) {
  const answer = await call('GET', '/violations');
  if (!answer.ok) return;
  panel.section.hidden = !answer.body.proxy;
  target = answer.body.target ?? '';
  groups = answer.body.violations;
  showViolations(panel);
}

/**
 * @param {{ list: HTMLElement, count: HTMLElement, filter: HTMLInputElement }} panel
 */
export function showViolations({ list, count, filter }) {
  const words = filter.value.trim().toLowerCase();
  const shown = groups.filter((group) => words === '' || [group.statement, ...group.rules, group.last.detail, group.last.curl].join('\n').toLowerCase().includes(words));
  const total = shown.reduce((sum, group) => sum + group.count, 0);
  fill(count, [`${total} violation${total === 1 ? '' : 's'} of ${shown.length} statement${shown.length === 1 ? '' : 's'}${words === '' ? '' : ` matching “${filter.value.trim()}”`}`]);
  fill(
    list,
    shown.map((group) =>
      el('li', { class: 'violation' }, [
        el('p', { class: 'statement' }, [el('strong', {}, [String(group.count)]), ' × ', group.statement]),
        el('p', { class: 'rules' }, [group.rules.join(', '), ` · last ${group.last.status} at ${group.lastSeen.slice(11, 19)}`]),
        el('p', { class: 'detail' }, [group.last.detail]),
        el('code', { class: 'curl' }, [group.last.curl]),
      ]),
    ),
  );
}
