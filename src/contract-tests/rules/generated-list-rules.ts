import fc from 'fast-check';
import { countShown } from '../catalogue-fill.js';
import { badTexts } from '../generate/negative-values.js';
import { arbitraryFor, boundaryValues } from '../generate/positive-values.js';
import type { ParameterModel } from '../generate/schema-model.js';
import { answerOf, pageAnswerOf } from '../silent-log.js';
import type { Probe, Rule, RuleContext } from '../types.js';
import type { QueryParameterPoint } from '../../verdict/report.js';
import type { Finding } from '../../verdict/exchange.js';
import { finding, searchAndRecord, sweep, verdictOf, type Verdict } from './generated.js';
import { allows, askedFilters, askedUnjudged, DEFAULT_PAGE_SIZE, matchesAll, PAGE_SIZE, queryRoles, type AskedFilter, type Query, type QueryRole, withinUrl } from './list-query.js';
import { cite, STATEMENTS } from './statements.js';
import { stringifyExactJson } from '../../shared/exact-json/stringify-exact-json.js';

export const toPath = (query: Query) => {
  const text = new URLSearchParams(query).toString();
  return `/pets${text ? `?${text}` : ''}`;
};

/** Each documented parameter present (a value its schema allows, within a URL's length) or left out. */
export const queriesOf = (parameters: readonly ParameterModel[]): fc.Arbitrary<Query> =>
  fc
    .record(Object.fromEntries(parameters.map((p) => [p.name, fc.option(arbitraryFor(withinUrl(p.schema)).map(String), { nil: undefined })])))
    .map((q) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as Query);

/**
 * Every boundary value of each parameter, alone; then each filter at a
 * value an animal seen has, so that its count is checked on a page that
 * must not be empty (a drawn value seldom names an animal).
 */
function exampleQueries(roles: readonly QueryRole[], seen: readonly unknown[]): Query[] {
  const boundaries = roles.flatMap(({ parameter }) => boundaryValues(withinUrl(parameter.schema)).map((v) => ({ [parameter.name]: String(v) })));
  const held = roles.flatMap((role) => {
    if (role.kind !== 'filter') return [];
    const value = seen.map((item) => (item as Record<string, unknown>)[role.parameter.name]).find((v) => allows(role.parameter.schema, v));
    return value === undefined ? [] : [{ [role.parameter.name]: String(value) }];
  });
  return [{}, ...boundaries, ...held];
}

/**
 * What is known to exist, from pages taken before the case (the catalogue
 * only grows): how many animals listPets shows, and the animals seen in the
 * page of 100 and in the page of 100 of each value of each enum filter
 * (each kept only where it matches that filter). A filtered page must hold
 * min(limit, animals seen that match): a lower bound, the whole count when
 * the pages seen are complete.
 */
interface Known {
  all: number;
  seen: readonly unknown[];
}

async function knownCounts(context: RuleContext, roles: readonly QueryRole[]): Promise<Known | undefined> {
  const all = await countShown((request) => context.probe(request).then((p) => p.exchange));
  if (all === undefined) return undefined;
  const pages: Query[] = [{ [PAGE_SIZE]: '100' }];
  for (const role of roles) {
    const schema = role.parameter.schema;
    if (role.kind === 'filter' && schema.kind === 'string') for (const value of schema.enum ?? []) pages.push({ [role.parameter.name]: value, [PAGE_SIZE]: '100' });
  }
  const seen = new Map<string, unknown>();
  for (const query of pages) {
    const page = (await context.probe({ method: 'GET', path: toPath(query) })).exchange.response?.json;
    const filters = askedFilters(roles, query);
    for (const item of Array.isArray(page) ? (page as unknown[]) : []) if (typeof item === 'object' && item !== null && matchesAll(item, filters)) seen.set(stringifyExactJson((item as { id?: unknown }).id ?? item), item);
  }
  return { all, seen: [...seen.values()] };
}

/**
 * A page must hold min(limit, animals that exist). A short page is asked
 * again with the counts taken afresh before it fails: on a shared service
 * someone else may have removed animals (the interface has no delete, a
 * staging service may). A parameter the harness cannot judge is reported
 * with what it got.
 */
async function judgePageTwice(context: RuleContext, roles: readonly QueryRole[], query: Query, known: Known): Promise<Verdict> {
  const probe = await context.probe({ method: 'GET', path: toPath(query) });
  for (const name of askedUnjudged(roles, query)) context.observe({ kind: 'query-parameter', name, values: 'unjudged' }, answerOf(probe.exchange), probe.exchange);
  const first = judgePage(probe, roles, query, known);
  if (first.ok || first.failure.findings.some((f) => f.hard)) return first;
  const again = await knownCounts(context, roles);
  return again ? judgePage(await context.probe({ method: 'GET', path: toPath(query) }), roles, query, again) : first;
}

function judgePage(probe: Probe, roles: readonly QueryRole[], query: Query, known: Known): Verdict {
  const response = probe.exchange.response;
  if (response?.status !== 200) return verdictOf([probe], [finding(probe.exchange, `answered ${response?.status ?? 'nothing'} to valid parameters`, cite(STATEMENTS.listSuccess), '$.status')]);
  const items = Array.isArray(response.json) ? (response.json as unknown[]) : undefined;
  if (!items) return verdictOf([probe]);
  const filters = askedFilters(roles, query);
  return verdictOf([probe], [...strays(probe, items, filters), ...shortPage(probe, items, query, known, filters, askedUnjudged(roles, query))]);
}

/** Items that do not match a filter asked: one finding per filter, naming the first. */
function strays(probe: Probe, items: readonly unknown[], filters: readonly AskedFilter[]): Finding[] {
  return filters.flatMap((filter) => {
    const off = items.map((item, index) => ({ item, index })).filter(({ item }) => !matchesAll(item, [filter]));
    const first = off[0];
    if (!first) return [];
    const path = `$.body[${first.index}].${filter.name}`;
    // The listing invariants check `status` on every answer: one finding per place.
    if (probe.findings.some((f) => f.path === path)) return [];
    const actual = stringifyExactJson((first.item as Record<string, unknown> | null)?.[filter.name]) ?? 'nothing';
    return [
      finding(
        probe.exchange,
        `${off.length} of ${items.length} items have another ${filter.name} than the ${stringifyExactJson(filter.value)} asked (item ${first.index}: ${actual})`,
        `only animals whose ${filter.name} is ${stringifyExactJson(filter.value)}: a documented parameter named after a Pet field is read as a filter on it, as \`status\` is (${cite(STATEMENTS.statusFilter)})`,
        path,
      ),
    ];
  });
}

/**
 * Fewer items than min(limit, animals known to match). Not judged when an
 * unjudged parameter is asked: what it leaves out is not stated anywhere.
 */
function shortPage(probe: Probe, items: readonly unknown[], query: Query, known: Known, filters: readonly AskedFilter[], unjudged: readonly string[]): Finding[] {
  if (unjudged.length > 0) return [];
  const limit = query[PAGE_SIZE] === undefined ? DEFAULT_PAGE_SIZE : Number(query[PAGE_SIZE]);
  const exists = filters.length === 0 ? known.all : known.seen.filter((item) => matchesAll(item, filters)).length;
  const expected = Math.min(limit, exists);
  if (items.length >= expected) return [];
  const which = filters.map((f) => `${f.name} ${stringifyExactJson(f.value)}`).join(' and ');
  return [finding(probe.exchange, `${items.length} animals, while at least ${exists} exist${which ? ` with ${which}` : ''}`, `min(limit, animals that exist) = ${expected} (${cite(STATEMENTS.limitRange)})`, '$.body.length')];
}

/** Values the document refuses, one parameter at a time, each reported under its own parameter; the interface documents no 400 for listPets, so any 4xx Error or a 200 is fine. */
function badQueries(parameters: readonly ParameterModel[]): Array<{ label: string; query: Query; point: QueryParameterPoint }> {
  return parameters.flatMap((p) =>
    badTexts(p.schema).map((bad) => ({ label: `${p.name}: ${bad.label}`, query: { [p.name]: String(bad.value) }, point: { kind: 'query-parameter' as const, name: p.name, values: 'refused' as const } })),
  );
}

export const generatedListRules: Rule[] = [
  {
    id: 'list-generated-pages',
    title: "listPets with generated valid values of the document's query parameters: 200, pages of min(limit, animals that exist), only items that match each filter (a parameter named after a Pet field)",
    operation: 'listPets',
    writes: false,
    severity: 'contract',
    statement: STATEMENTS.limitRange,
    async run(context) {
      const roles = queryRoles(context.inputs);
      const known = await knownCounts(context, roles);
      if (!known) return { skipped: 'listPets with limit=100 gives no list (a finding of the other rules)' };
      return searchAndRecord(context, this.id, {
        arbitrary: queriesOf(context.inputs.listQuery),
        examples: exampleQueries(roles, known.seen),
        runs: context.examples,
        check: (query) => judgePageTwice(context, roles, query, known),
        describe: (query) => `listPets with ${stringifyExactJson(query)}`,
      });
    },
  },
  {
    id: 'list-generated-bad-parameters',
    title: 'listPets with each documented parameter outside the document (not an integer, out of range, wrongly cased): a 4xx Error or a 200 page that keeps the limits, never a 5xx',
    operation: 'listPets',
    writes: false,
    severity: 'contract',
    statement: STATEMENTS.limitSilent,
    run: (context) =>
      sweep(
        context,
        badQueries(context.inputs.listQuery),
        (bad) => context.probe({ method: 'GET', path: toPath(bad.query) }),
        (bad, { exchange }) => {
          context.observe(bad.point, pageAnswerOf(exchange), exchange);
          const status = exchange.response?.status;
          return status === undefined || status === 200 || (status >= 400 && status < 500) ? [] : [finding(exchange, `answered ${status} to ${bad.label}`, `a 4xx Error body, or 200 (${cite(STATEMENTS.limitSilent)})`, '$.status')];
        },
      ),
  },
];
