import type { Send } from '../http-client.js';
import { curlLine } from '../../verdict/curl-line.js';
import { excerpt } from '../../verdict/reporters/excerpt.js';
import type { RecordedExchange } from '../../verdict/exchange.js';
import type { Difference } from './compare-rule.js';
import type { DriftGroup, Inconsistency } from '../../verdict/drift-report.js';
import { unstableAnswers } from './flapping.js';
import { groupByCause } from '../../verdict/group-by-cause.js';

export interface SideTools {
  send: Send | undefined;
  repeats: Map<string, string[]>;
}

/**
 * Groups the differences by cause (the point or facet, and what each target
 * answered there), then sets apart the causes where a target did not answer
 * alike on repeat: those are inconsistent on that target, not drift.
 */
export async function groupDrift(differences: readonly Difference[], sides: { a: SideTools; b: SideTools }): Promise<{ groups: DriftGroup[]; inconsistent: Inconsistency[] }> {
  // An answer that differs as one a silent point explained, elsewhere in the run, is that point again.
  const explainedAs = new Map<string, string>();
  for (const d of differences) if (d.explainedBy) explainedAs.set(keyOf(d), keyOf(d.explainedBy));
  // The silent difference is the group's example; its explained answers only add to the count.
  const byCause = groupByCause(differences, (d) => explainedAs.get(keyOf(d)) ?? keyOf(d), (d) => d.kind === 'silent');
  const groups: DriftGroup[] = [];
  const inconsistent: Inconsistency[] = [];
  for (const cases of byCause.values()) {
    const first = cases[0] as Difference;
    const unstable = await firstUnstable(cases, sides);
    if (unstable) {
      if (!inconsistent.some((i) => i.cause === first.cause && i.side === unstable.side)) inconsistent.push({ cause: first.cause, ...unstable });
      continue;
    }
    const example = first.pair ? { a: shown(first.pair.a.exchange), b: shown(first.pair.b.exchange) } : (first.notes as { a: string; b: string });
    groups.push({ cause: first.cause, kind: first.kind, a: first.a, b: first.b, cases: cases.length, example });
  }
  groups.sort((x, y) => y.cases - x.cases || x.cause.localeCompare(y.cause));
  return { groups, inconsistent };
}

const keyOf = (d: Difference): string => `${d.kind}\u0000${d.cause}\u0000${d.a}\u0000${d.b}`;

/** A curl line as the silent log shows one: the key is already redacted in what the client recorded; a 10,000-character name is cut. */
const shown = (exchange: RecordedExchange): string => excerpt(curlLine(exchange.request), 300);

async function firstUnstable(cases: readonly Difference[], sides: { a: SideTools; b: SideTools }): Promise<Omit<Inconsistency, 'cause'> | undefined> {
  // The run's own repeats for every case; a GET is sent again for the first case only, to keep the cost to a few requests per cause.
  for (const [index, d] of cases.entries()) {
    if (!d.pair) continue;
    for (const side of ['a', 'b'] as const) {
      const tools = sides[side];
      const answers = await unstableAnswers(index === 0 ? tools.send : undefined, d.pair[side].request, d.pair[side].exchange, tools.repeats);
      if (answers) return { side, answers: [...new Set(answers)], example: shown(d.pair[side].exchange) };
    }
  }
  return undefined;
}
