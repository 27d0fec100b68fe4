import type { RunSessionFacts, SuiteReport } from '../report.js';

/** A fact of a run: an id (the HTML page's, a JUnit property's name), its label, and its text. */
export type RunFact = [id: string, label: string, text: string];

/**
 * What a run did to its target beside judging it, as every reporter shows
 * it: how far it pushed it, what it read back after its pause, and the
 * mock session it was sent in. One list, so each reporter says the
 * same in its own form.
 */
export function runFacts(report: SuiteReport): RunFact[] {
  const facts: RunFact[] = [];
  if (report.growth) facts.push(['growth', 'Growth', growthText(report.growth)]);
  if (report.readBack) facts.push(['read-back', 'Read back', `the ${report.readBack.animals} animals the run created, after a pause of ${report.readBack.settleSeconds} s (--settle)`]);
  if (report.session) facts.push(['session', 'Session', sessionText(report.session)]);
  if (report.comparedSession) facts.push(['compared-session', 'Session of the compared target', sessionText(report.comparedSession)]);
  return facts;
}

/** `152 animals created, at least 182 animals in the catalogue (distinct ids read), 812 requests sent (--depth standard)`. */
export function growthText(growth: NonNullable<SuiteReport['growth']>): string {
  const read = growth.largestCatalogue === null ? 'no animal read' : `at least ${growth.largestCatalogue} animals in the catalogue (distinct ids read)`;
  return `${growth.created} animals created, ${read}, ${growth.requests} requests sent (--depth ${growth.depth})`;
}

/** `contract-run-1a2b3c4d5e6f, the run's own on this mock, ended after the run: …`. */
export function sessionText(session: RunSessionFacts): string {
  switch (session.kind) {
    case 'own':
      return `${session.id}, the run's own on this mock, ${session.ended === false ? `not ended: ${session.notEnded ?? 'the mock did not end it'}` : 'ended after the run: the shared session is as it was'}`;
    case 'named':
      return session.mock ? `${session.id} (--session), on this mock, kept after the run` : `${session.id} (--session), sent as X-Mock-Session; the target is not this mock and has no sessions, so the run acted on its data`;
    case 'shared':
      return 'the shared session (--shared-session): what the run created stays there';
    case 'none':
      return 'none: the target is not this mock and has no sessions, so the run acted on its data';
  }
}

/** The facts as `Label: text` lines, for the text reports. */
export const runFactLines = (report: SuiteReport): string[] => runFacts(report).map(([, label, text]) => `${label}: ${text}`);
