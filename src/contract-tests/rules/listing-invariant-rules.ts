import { petStatuses } from '../generate/schema-model.js';
import { FULL_CATALOGUE } from '../catalogue-fill.js';
import { pageAnswerOf } from '../silent-log.js';
import type { Pet, Rule, RuleContext } from '../types.js';
import { expectStatus, petsOf } from './expect.js';
import { cite, STATEMENTS } from './statements.js';
import { orderNote } from '../../shared/profile/learn/noted-answers.js';

const STATUSES = petStatuses();

const page = async (context: RuleContext, query: string) => {
  const exchange = await context.send({ method: 'GET', path: `/pets${query}` });
  return { exchange, pets: expectStatus(context, exchange, [200], STATEMENTS.listSuccess) ? petsOf(context, exchange, STATEMENTS.listSuccess) : undefined };
};

/** Orders the target's pages follow, for the report: the interface does not say. */
function observeOrder(context: RuleContext, pets: readonly Pet[], exchange: Parameters<RuleContext['observe']>[2]): void {
  if (pets.length < 2) return;
  const ids = pets.map((p) => p.id);
  const ascending = ids.every((id, i) => i === 0 || id > (ids[i - 1] as number));
  const descending = ids.every((id, i) => i === 0 || id < (ids[i - 1] as number));
  context.observe('order', orderNote.say(ascending ? 'ascending' : descending ? 'descending' : undefined), exchange);
}

/**
 * The first of `missing` that getPet still finds as it was listed, or
 * undefined. The interface has no update or delete, but a shared staging
 * service may: an animal changed or removed by someone else between two
 * pages is not the target's fault.
 */
async function stillThere(context: RuleContext, missing: readonly Pet[]): Promise<Pet | undefined> {
  const first = missing[0];
  if (!first) return undefined;
  const read = await context.send({ method: 'GET', path: `/pets/${first.id}` });
  const now = read.response?.status === 200 ? (read.response.json as Pet) : undefined;
  return now && now.status === first.status ? first : undefined;
}

export const listingInvariantRules: Rule[] = [
  {
    id: 'list-limit-boundaries',
    title: 'listPets at limit 1, 99, 100 and past 100 (101, 1000): pages of min(limit, 100, animals that exist), never more than 100',
    operation: 'listPets',
    writes: false,
    severity: 'contract',
    statement: STATEMENTS.limitRange,
    async run(context) {
      // A writing run creates animals until there are more than 100, so 100 and past 100 are told apart.
      const known = await context.ensureCatalogue(FULL_CATALOGUE);
      if (known === undefined) return { skipped: 'listPets with limit=100 gives no list (a finding of the other rules)' };
      for (const limit of [1, 99, 100]) {
        const { pets, exchange } = await page(context, `?limit=${limit}`);
        if (pets && pets.length < Math.min(limit, known)) {
          context.fail({ message: `${pets.length} animals for limit=${limit}, while at least ${known} exist`, expected: cite(STATEMENTS.limitRange), path: '$.body.length', exchange });
        }
        if (pets && limit === 100) observeOrder(context, pets, exchange);
      }
      // Past the maximum, the answer is the server's choice (a 4xx Error, or a page); a page keeps at most 100 (checked on every answer).
      for (const limit of [101, 1000, 2 ** 31]) {
        const exchange = await context.send({ method: 'GET', path: `/pets?limit=${limit}` });
        context.observe({ kind: 'query-parameter', name: 'limit', values: 'refused' }, pageAnswerOf(exchange), exchange);
      }
    },
  },
  {
    id: 'list-pages-agree',
    title: 'a complete page (fewer than asked) holds every animal the other pages show of it: the unfiltered page every status, a status page every animal of that status',
    operation: 'listPets',
    writes: false,
    severity: 'contract',
    statement: STATEMENTS.statusFilter,
    async run(context) {
      // Status pages first, the unfiltered page after, then the status pages again: the catalogue only grows,
      // so an animal seen in an earlier page must be in a later complete one.
      const before = await Promise.all(STATUSES.map((status) => page(context, `?status=${status}&limit=100`)));
      const all = await page(context, '?limit=100');
      if (!all.pets) return;
      if (all.pets.length < 100) {
        const shown = new Set(all.pets.map((p) => p.id));
        for (const [i, { pets }] of before.entries()) {
          const missing = await stillThere(context, (pets ?? []).filter((p) => !shown.has(p.id)));
          if (missing) context.fail({ message: `the unfiltered page of ${all.pets.length} (all there is) lacks ${STATUSES[i]} animal ${missing.id}, which getPet still finds`, expected: `every animal that exists (${cite(STATEMENTS.limitRange)})`, path: '$.body', exchange: all.exchange });
        }
      }
      for (const status of STATUSES) {
        const after = await page(context, `?status=${status}&limit=100`);
        if (!after.pets || after.pets.length >= 100) continue;
        const listed = new Set(after.pets.map((p) => p.id));
        const missing = await stillThere(context, all.pets.filter((p) => p.status === status && !listed.has(p.id)));
        if (missing) context.fail({ message: `the ${status} page of ${after.pets.length} (all there is) lacks animal ${missing.id}, which getPet still finds ${status}`, expected: cite(STATEMENTS.statusFilter), path: '$.body', exchange: after.exchange });
      }
    },
  },
];
