import fc from 'fast-check';
import { countShown } from '../catalogue-fill.js';
import { badTexts } from '../generate/negative-values.js';
import { arbitraryFor, boundaryValues } from '../generate/positive-values.js';
import { inputModel, type ParameterModel } from '../generate/schema-model.js';
import { answerOf } from '../silent-log.js';
import type { Pet, Probe, Rule, RuleContext, SilentPoint } from '../types.js';
import { finding, searchAndRecord, sweep, verdictOf, type Verdict } from './generated.js';
import { cite, STATEMENTS } from './statements.js';

const { listQuery } = inputModel();
type Query = Record<string, string>;

const toPath = (query: Query) => {
  const text = new URLSearchParams(query).toString();
  return `/pets${text ? `?${text}` : ''}`;
};

/** Each parameter present (a value its schema allows) or left out. */
const queries: fc.Arbitrary<Query> = fc
  .record(Object.fromEntries(listQuery.map((p) => [p.name, fc.option(arbitraryFor(p.schema).map(String), { nil: undefined })])))
  .map((q) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as Query);

/** Every boundary value of each parameter, alone. */
const boundaryQueries: Query[] = [{}, ...listQuery.flatMap((p) => boundaryValues(p.schema).map((v) => ({ [p.name]: String(v) })))];

/**
 * How many animals each page should at least hold, from counts taken before
 * the case (the catalogue only grows): min(limit, animals known).
 */
interface Known {
  all: number;
  byStatus: Map<string, number>;
}

async function knownCounts(context: RuleContext): Promise<Known | undefined> {
  const all = await countShown((request) => context.probe(request).then((p) => p.exchange));
  if (all === undefined) return undefined;
  const byStatus = new Map<string, number>();
  const status = listQuery.find((p) => p.name === 'status');
  for (const value of status?.schema.kind === 'string' ? (status.schema.enum ?? []) : []) {
    const page = (await context.probe({ method: 'GET', path: `/pets?status=${value}&limit=100` })).exchange.response?.json;
    if (Array.isArray(page)) byStatus.set(value, page.length);
  }
  return { all, byStatus };
}

/**
 * A page must hold min(limit, animals that exist). A short page is asked
 * again with the counts taken afresh before it fails: on a shared service
 * someone else may have removed animals (the interface has no delete, a
 * staging service may).
 */
async function judgePageTwice(context: RuleContext, query: Query, known: Known): Promise<Verdict> {
  const first = judgePage(await context.probe({ method: 'GET', path: toPath(query) }), query, known);
  if (first.ok || first.failure.findings.some((f) => f.hard)) return first;
  const again = await knownCounts(context);
  return again ? judgePage(await context.probe({ method: 'GET', path: toPath(query) }), query, again) : first;
}

function judgePage(probe: Probe, query: Query, known: Known): Verdict {
  const response = probe.exchange.response;
  if (response?.status !== 200) return verdictOf([probe], [finding(probe.exchange, `answered ${response?.status ?? 'nothing'} to valid parameters`, cite(STATEMENTS.listSuccess), '$.status')]);
  const pets = Array.isArray(response.json) ? (response.json as Pet[]) : undefined;
  if (!pets) return verdictOf([probe]);
  const limit = query.limit === undefined ? 20 : Number(query.limit);
  const exists = query.status === undefined ? known.all : (known.byStatus.get(query.status) ?? 0);
  const expected = Math.min(limit, exists);
  const short = pets.length < expected ? [finding(probe.exchange, `${pets.length} animals, while at least ${exists} exist${query.status ? ` with status ${query.status}` : ''}`, `min(limit, animals that exist) = ${expected} (${cite(STATEMENTS.limitRange)})`, '$.body.length')] : [];
  return verdictOf([probe], short);
}

/** Parameter values the document refuses, one at a time; the interface documents no 400 for listPets, so any 4xx Error or a 200 is fine. */
function badQueries(parameters: readonly ParameterModel[]): Array<{ label: string; query: Query; point: SilentPoint }> {
  return parameters.flatMap((p) => badTexts(p.schema).map((bad) => ({ label: `${p.name}: ${bad.label}`, query: { [p.name]: String(bad.value) }, point: p.name === 'limit' ? ('limit' as const) : ('status' as const) })));
}

export const generatedListRules: Rule[] = [
  {
    id: 'list-generated-pages',
    title: 'listPets with generated valid limit and status: 200, pages of min(limit, animals that exist), only the status asked',
    operation: 'listPets',
    writes: false,
    severity: 'contract',
    statement: STATEMENTS.limitRange,
    async run(context) {
      const known = await knownCounts(context);
      if (!known) return { skipped: 'listPets with limit=100 gives no list (a finding of the other rules)' };
      return searchAndRecord(context, this.id, {
        arbitrary: queries,
        examples: boundaryQueries,
        runs: context.examples,
        check: (query) => judgePageTwice(context, query, known),
        describe: (query) => `listPets with ${JSON.stringify(query)}`,
      });
    },
  },
  {
    id: 'list-generated-bad-parameters',
    title: 'listPets with each parameter outside the document (not an integer, out of range, wrongly cased): a 4xx Error or a 200 page that keeps the limits, never a 5xx',
    operation: 'listPets',
    writes: false,
    severity: 'contract',
    statement: STATEMENTS.limitSilent,
    run: (context) =>
      sweep(
        context,
        badQueries(listQuery),
        (bad) => context.probe({ method: 'GET', path: toPath(bad.query) }),
        (bad, { exchange }) => {
          context.observe(bad.point, answerOf(exchange), exchange);
          const status = exchange.response?.status;
          return status === undefined || status === 200 || (status >= 400 && status < 500) ? [] : [finding(exchange, `answered ${status} to ${bad.label}`, `a 4xx Error body, or 200 (${cite(STATEMENTS.limitSilent)})`, '$.status')];
        },
      ),
  },
];
