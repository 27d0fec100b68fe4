// @ts-check
import { el } from './dom.js';

/**
 * What proxy mode adds to the journal: who answered a request sent on to
 * the target (its entry's `upstream` and `fallback`), the mark of a row
 * whose answer broke the contract, and what it broke (its `violations`).
 * The journal holds at most this many violations per entry (the mock's
 * MAX_ENTRY_VIOLATIONS), each detail cut at 512 characters.
 */
export const MAX_ENTRY_VIOLATIONS = 20;

/**
 * @typedef {{ rule: string, statement: string, detail: string }} Violation
 * @typedef {'answered' | 'unavailable' | 'timeout' | 'dropped'} Upstream
 * @typedef {{ upstream?: Upstream, fallback?: 'mock', unchecked?: 'too large', violations?: Violation[], status: number }} Proxied
 */

/**
 * The answerer column's words for a request sent on to the target: `target`
 * when the target answered (or dropped its answer half-way), `mock (fallback)`
 * when the mock answered in its place (`--proxy-fallback mock`), and
 * `target away` or `target slow` when it could not be reached or sent no
 * answer in time, and the mock's 502 or 504 went out.
 * @param {Proxied & { upstream: Upstream }} entry
 */
export function targetAnswerer(entry) {
  if (entry.fallback === 'mock') return 'mock (fallback)';
  return { answered: 'target', dropped: 'target', unavailable: 'target away', timeout: 'target slow' }[entry.upstream];
}

/**
 * A row's mark when its answer broke the contract: a sign and the count,
 * read out as "N contract violations" (the sign alone says nothing to a
 * screen reader); null for a row that broke nothing.
 * @param {Proxied} entry
 */
export function violationMark(entry) {
  const count = entry.violations?.length ?? 0;
  if (count === 0) return null;
  return el('span', { class: 'mark', title: `${count} contract violation${count === 1 ? '' : 's'}: open the row to see them` }, [
    el('span', { 'aria-hidden': 'true' }, [`⚠ ${count}`]),
    el('span', { class: 'hidden-label' }, [`${count} contract violation${count === 1 ? '' : 's'}: `]),
  ]);
}

/**
 * Who answered, in the details of a request sent on to the target, and
 * how that ended; then why it went there: no stub answered it (the
 * journal's reason), or a stub matched it and let it through (a latency, `pass`).
 * @param {Proxied & { upstream: Upstream, stub: string | null, unmatched?: string, scenario: string | null }} entry
 * @param {string} target the target's base, '' before the page has read it
 * @returns {import('./dom.js').Child[]}
 */
export function answeredByTarget(entry, target) {
  const named = target === '' ? 'the target' : `the target (${target})`;
  const { stub, unmatched, scenario } = entry;
  const sentOn =
    stub !== null
      ? ` ${stub.startsWith('session stub ') ? stub.replace(/^s/, 'S') : `Stub ${stub}${scenario ? ` of scenario ${scenario}` : ''}`} matched it first, and let it through.`
      : unmatched
        ? ` No stub or Prefer answered it (${unmatched}), so it was sent on.`
        : '';
  if (entry.fallback === 'mock') {
    const away = entry.upstream === 'timeout' ? 'sent no answer within --proxy-timeout' : 'could not be reached';
    return [`Answered by the mock, from its own catalogue: ${named} ${away}, and --proxy-fallback mock answers in its place (marked X-Mock-Fallback).${sentOn}`];
  }
  const ended = {
    answered: `Answered by ${named}: its answer was passed on as sent.`,
    dropped: `Answered by ${named}, which dropped the connection before the end of its answer: the client's connection was closed too, so no cut body passed as whole.`,
    unavailable: `Not answered: ${named} could not be reached, so the mock answered ${entry.status} in its place.`,
    timeout: `Not answered: ${named} sent no answer within --proxy-timeout, so the mock answered ${entry.status} in its place.`,
  }[entry.upstream];
  return [`${ended}${sentOn}`];
}

/**
 * What the target's answer broke: each violation's check id, the statement
 * of the interface it protects, and what was seen; or that nothing was, or
 * that the body was too large to check. Nothing for an answer the target
 * did not send.
 * @param {Proxied & { upstream: Upstream }} entry
 * @returns {import('./dom.js').Child[]}
 */
export function violationsOf(entry) {
  if (entry.fallback === 'mock' || entry.upstream === 'unavailable' || entry.upstream === 'timeout') return [];
  const violations = entry.violations ?? [];
  if (violations.length === 0) {
    const verdict = entry.unchecked ? 'Not checked: its body passed 1 MiB, so it was passed on unchecked.' : 'The checks found nothing wrong with this answer.';
    return [el('p', { class: 'checked' }, [verdict])];
  }
  return [
    el('h4', { class: 'broke' }, [`Violations of the contract (${violations.length}${violations.length >= MAX_ENTRY_VIOLATIONS ? ', the first the journal keeps' : ''})`]),
    el(
      'ul',
      { class: 'entry-violations' },
      violations.map(({ rule, statement, detail }) =>
        el('li', {}, [el('code', {}, [rule]), el('p', { class: 'statement' }, [statement]), el('p', { class: 'seen' }, ['Seen: ', detail])]),
      ),
    ),
  ];
}
