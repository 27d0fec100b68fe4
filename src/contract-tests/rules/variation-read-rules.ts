import fc from 'fast-check';
import { arbitraryFor, harmlessValue } from '../generate/positive-values.js';
import { variedPath } from '../generate/query-spelling.js';
import { describeVariation, everyForm, notComparedOf, silentFormOf, LIST_DIMENSIONS, EVERY_OPERATION_DIMENSIONS, targetOf, variationArbitrary, type Variation } from '../generate/variations.js';
import type { ApiRequest, Probe, Rule, RuleContext } from '../types.js';
import type { RecordedExchange } from '../../verdict/exchange.js';
import { finding, searchAndRecord, verdictOf } from './generated.js';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE, withinUrl } from './list-query.js';
import { UNLIKELY_ID } from './get-pet-rules.js';
import { STATEMENTS } from './statements.js';
import { withoutTheKey } from './variation-key.js';
import { VARIATION_SHRINK_BUDGET, firstDifference, formOf, observeExtraQuery, observeUriForm, refusalExcused, refusedForItsForm, sameAs, sameStatus } from './variation-judge.js';

/** A getPet case: an animal listPets shows, or an id none has, asked in a variation's form. */
interface GetCase {
  variation: Variation;
  id: 'known' | 'unknown';
}

/** A listPets case: each documented parameter a value its schema allows or left out, written in a variation's form. */
interface ListCase {
  query: Record<string, unknown>;
  variation: Variation;
}

const asQuery = (query: Record<string, unknown>): Record<string, string> => Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));

/**
 * Sends the request unvaried (unless its answer is given), then in the
 * variation's form; when the latter gets another status that may be
 * excused, its excusing forms alone too. Then the varied request without
 * the key and with a wrong one (variation-key.ts).
 */
async function both(context: RuleContext, path: string, query: Record<string, string>, variation: Variation, unvaried?: Probe) {
  const send = (v: Variation, auth?: ApiRequest['auth']) => context.probe({ method: 'GET', path: variedPath(context.basePath, path, query, v), target: targetOf(v), ...(silentFormOf(v) ? { otherPath: true as const } : {}), ...formOf(v), ...(auth ? { auth } : {}) });
  const probes = [unvaried ?? (await send({})), await send(variation)] as [Probe, Probe];
  const [plain, varied] = probes.map((p) => p.exchange) as [RecordedExchange, RecordedExchange];
  observeExtraQuery(context, plain, varied, variation);
  const status = varied.response?.status;
  const excused =
    status !== undefined &&
    status !== plain.response?.status &&
    (await refusalExcused(variation, varied, async (only) => {
      const alone = await send(only);
      probes.push(alone);
      return alone.exchange;
    }));
  observeUriForm(context, plain, varied, variation, excused);
  const keyless = await withoutTheKey((auth) => send(variation, auth), (auth) => send({}, auth), status, refusedForItsForm(variation, varied), silentFormOf(variation));
  probes.push(...keyless.probes);
  return { probes, plain, varied, excused, keyFindings: keyless.findings };
}

/**
 * Two listPets pages asked the same way: the same status; the varied page
 * at least as long (the catalogue only grows: the interface has no delete),
 * and, when the first page was complete (shorter than the limit), holding
 * every animal it held.
 */
function samePage({ plain, varied, excused, keyFindings }: Awaited<ReturnType<typeof both>>, query: Record<string, string>, variation: Variation) {
  const findings = sameStatus(plain, varied, variation, STATEMENTS.listSuccess, excused);
  if (keyFindings.length) return [...findings, ...keyFindings];
  const first = plain.response?.json;
  const second = varied.response?.json;
  // A target in a form RFC 3986 does not call the same is another request: a server reads it its own way (`status=available#x` as a status no animal has); another Host may reach another virtual host.
  if (notComparedOf(variation)) return findings;
  if (findings.length || varied.response?.status !== 200 || !Array.isArray(first) || !Array.isArray(second)) return findings;
  const limit = query[PAGE_SIZE] === undefined ? DEFAULT_PAGE_SIZE : Number(query[PAGE_SIZE]);
  if (second.length < first.length) return [finding(varied, `${second.length} animals, where the same request written as the harness always writes it got ${first.length}`, sameAs(variation, STATEMENTS.limitRange), '$.body.length')];
  const ids = new Set(second.map((pet) => JSON.stringify((pet as { id?: unknown } | null)?.id)));
  const missing = first.length < limit ? first.find((pet) => !ids.has(JSON.stringify((pet as { id?: unknown } | null)?.id))) : undefined;
  if (missing === undefined) return [];
  return [finding(varied, `animal ${JSON.stringify((missing as { id?: unknown }).id)} is missing, though the same request written as the harness always writes it listed it`, sameAs(variation, STATEMENTS.listSuccess), '$.body')];
}

export const variationReadRules: Rule[] = [
  {
    id: 'vary-list-pets',
    title: 'listPets written another way a client may write it (negotiation fields, proxy fields, field names and order, whitespace, the scheme, the path and query\'s spelling, an undocumented parameter, Host, an Upgrade) gets the same answer, and without the key or with a wrong one 401',
    operation: 'listPets',
    writes: false,
    severity: 'contract',
    statement: STATEMENTS.listSuccess,
    async run(context) {
      const parameters = context.inputs.listQuery;
      const filled = Object.fromEntries(parameters.map((p) => [p.name, harmlessValue(p.schema, p.name)]));
      return searchAndRecord<ListCase>(context, this.id, {
        arbitrary: fc.record({ query: fc.record(Object.fromEntries(parameters.map((p) => [p.name, fc.option(arbitraryFor(withinUrl(p.schema)), { nil: undefined })]))), variation: variationArbitrary(LIST_DIMENSIONS) }),
        // Every parameter named, left out as undefined, so that fast-check can shrink an example (it shrinks only values its arbitrary can make).
        examples: everyForm(LIST_DIMENSIONS).map((variation, i) => ({ query: i % 2 ? filled : Object.fromEntries(parameters.map((p) => [p.name, undefined])), variation })),
        runs: context.examples,
        async check({ query, variation }) {
          const asked = asQuery(query);
          const sent = await both(context, '/pets', asked, variation);
          return verdictOf(sent.probes, samePage(sent, asked, variation));
        },
        describe: ({ query, variation }) => `listPets with ${JSON.stringify(asQuery(query))}, ${describeVariation(variation)}`,
        shrinkBudget: VARIATION_SHRINK_BUDGET,
      });
    },
  },
  {
    id: 'vary-get-pet',
    title: 'getPet of an existing animal and of an unknown id written another way a client may write it (negotiation fields, proxy fields, field names and order, whitespace, the scheme, the path\'s spelling, an undocumented parameter, Host, an Upgrade) gets the same Pet or 404, and without the key or with a wrong one 401',
    operation: 'getPet',
    writes: false,
    severity: 'contract',
    statement: STATEMENTS.getSuccess,
    async run(context) {
      const pet = await context.existingPet();
      if (!pet) return { skipped: (await context.noPetReason()) ?? 'no id is known' };
      // An unknown id too: an error answer (404) is an answer of the operation, and must not change with the spelling either.
      const paths: Record<GetCase['id'], string> = { known: `/pets/${pet.id}`, unknown: `/pets/${UNLIKELY_ID}` };
      // Each asked once: an animal does not change (the interface has no update or delete).
      const unvaried = { known: await context.probe({ method: 'GET', path: paths.known }), unknown: await context.probe({ method: 'GET', path: paths.unknown }) };
      return searchAndRecord<GetCase>(context, this.id, {
        arbitrary: fc.record({ variation: variationArbitrary(EVERY_OPERATION_DIMENSIONS), id: fc.constantFrom('known' as const, 'unknown' as const) }),
        examples: everyForm(EVERY_OPERATION_DIMENSIONS).flatMap((variation) => [{ variation, id: 'known' as const }, { variation, id: 'unknown' as const }]),
        runs: context.examples,
        async check({ variation, id }) {
          const { probes, plain, varied, excused, keyFindings } = await both(context, paths[id], {}, variation, unvaried[id]);
          const findings = [...sameStatus(plain, varied, variation, id === 'known' ? STATEMENTS.getSuccess : STATEMENTS.getNotFound, excused), ...keyFindings];
          const at = varied.response?.status === 200 && plain.response?.status === 200 && !notComparedOf(variation) ? firstDifference(varied.response.json, plain.response.json) : undefined;
          if (at) findings.push(finding(varied, `the Pet differs at ${at} from the one the same request written as the harness always writes it got`, sameAs(variation, STATEMENTS.getSuccess), at));
          return verdictOf(probes, findings);
        },
        describe: ({ variation, id }) => `getPet ${id === 'known' ? pet.id : UNLIKELY_ID}, ${describeVariation(variation)}`,
        shrinkBudget: VARIATION_SHRINK_BUDGET,
      });
    },
  },
];
