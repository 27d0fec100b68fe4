import type { Rule, RuleContext, Statement } from '../types.js';
import { expectStatus, petsOf } from './expect.js';
import { cite, STATEMENTS } from './statements.js';

const list = (context: RuleContext, query: string) => context.send({ method: 'GET', path: `/pets${query}` });

/** A listPets rule that reads the list and checks it. */
const listing = (
  id: string,
  title: string,
  statement: Statement,
  check: (context: RuleContext) => Promise<void | { skipped: string }>,
): Rule => ({ id, title, operation: 'listPets', writes: false, severity: 'contract', statement, run: check });

const limitRule = (limit: number): Rule =>
  listing(`list-limit-${limit}`, `listPets with limit=${limit} answers 200 with at most ${limit} animals`, STATEMENTS.limitRange, async (context) => {
    const exchange = await list(context, `?limit=${limit}`);
    if (!expectStatus(context, exchange, [200], STATEMENTS.listSuccess)) return;
    const pets = petsOf(context, exchange, STATEMENTS.listSuccess);
    if (pets && pets.length > limit) {
      context.fail({ message: `${pets.length} animals for limit=${limit}`, expected: `at most ${limit} (${cite(STATEMENTS.limitRange)})`, path: '$.body.length', exchange });
    }
  });

const statusRule = (status: 'available' | 'pending' | 'sold'): Rule =>
  listing(`list-status-${status}`, `listPets with status=${status} returns only ${status} animals`, STATEMENTS.statusFilter, async (context) => {
    const exchange = await list(context, `?status=${status}&limit=100`);
    if (!expectStatus(context, exchange, [200], STATEMENTS.listSuccess)) return;
    const pets = petsOf(context, exchange, STATEMENTS.listSuccess) ?? [];
    pets.forEach((pet, index) => {
      if (pet?.status !== status) {
        context.fail({ message: `item ${index} has status ${JSON.stringify(pet?.status)}`, expected: `${status} only (${cite(STATEMENTS.statusFilter)})`, path: `$.body[${index}].status`, exchange });
      }
    });
  });

/** Where the interface is silent: reported, failing only on a 5xx, a dropped connection or a non-Error error. */
const silentRule = (id: string, query: string, statement: Statement): Rule => ({
  id,
  title: `listPets with ${query.slice(1)} (the interface does not say what it answers)`,
  operation: 'listPets',
  writes: false,
  severity: 'advisory',
  statement,
  async run(context) {
    const exchange = await list(context, query);
    // A 200 or a 4xx Error are both defensible; anything else is reported.
    expectStatus(context, exchange, [200, 400, 422], statement);
  },
});

export const listPetsRules: Rule[] = [
  listing('list-default-limit', 'listPets without limit returns at most 20 animals, and 20 when there are more', STATEMENTS.limitDefault, async (context) => {
    const exchange = await list(context, '');
    if (!expectStatus(context, exchange, [200], STATEMENTS.listSuccess)) return;
    const pets = petsOf(context, exchange, STATEMENTS.listSuccess);
    if (!pets) return;
    if (pets.length > 20) {
      context.fail({ message: `${pets.length} animals without limit`, expected: `at most 20 (${cite(STATEMENTS.limitDefault)})`, path: '$.body.length', exchange });
      return;
    }
    if (pets.length === 20) return;
    // Fewer than 20: right only if the catalogue has no more.
    const more = await list(context, '?limit=21');
    const all = expectStatus(context, more, [200], STATEMENTS.listSuccess) ? petsOf(context, more, STATEMENTS.listSuccess) : undefined;
    if (all && all.length > pets.length) {
      context.fail({ message: `${pets.length} animals without limit, but ${all.length} with limit=21`, expected: `20 (${cite(STATEMENTS.limitDefault)})`, path: '$.body.length', exchange });
    }
  }),
  limitRule(1),
  limitRule(100),
  listing('list-limit-honoured', 'listPets with limit=2 returns 2 animals when the catalogue has more', STATEMENTS.limitRange, async (context) => {
    const exchange = await list(context, '?limit=2');
    if (!expectStatus(context, exchange, [200], STATEMENTS.listSuccess)) return;
    const pets = petsOf(context, exchange, STATEMENTS.listSuccess);
    if (!pets) return;
    if (pets.length > 2) {
      context.fail({ message: `${pets.length} animals for limit=2`, expected: `at most 2 (${cite(STATEMENTS.limitRange)})`, path: '$.body.length', exchange });
    } else if (pets.length < 2) {
      const all = await list(context, '?limit=100');
      const many = petsOf(context, all, STATEMENTS.listSuccess);
      if (many === undefined) return;
      if (many.length >= 2) context.fail({ message: `${pets.length} animals for limit=2, while the catalogue has ${many.length}`, expected: cite(STATEMENTS.limitRange), path: '$.body.length', exchange });
      else return { skipped: 'the catalogue has fewer than 2 animals' };
    }
  }),
  statusRule('available'),
  statusRule('pending'),
  statusRule('sold'),
  listing('list-items-are-pets', 'every listed item is a Pet, with unique ids', STATEMENTS.petShape, async (context) => {
    // Each item's schema is checked by the contract validation of every answer; this adds uniqueness.
    const exchange = await list(context, '?limit=100');
    if (!expectStatus(context, exchange, [200], STATEMENTS.listSuccess)) return;
    const pets = petsOf(context, exchange, STATEMENTS.listSuccess) ?? [];
    const seen = new Set<unknown>();
    pets.forEach((pet, index) => {
      if (seen.has(pet?.id)) context.fail({ message: `id ${pet?.id} appears twice`, expected: cite(STATEMENTS.petShape), path: `$.body[${index}].id`, exchange });
      seen.add(pet?.id);
    });
  }),
  silentRule('list-limit-above-maximum', '?limit=101', STATEMENTS.limitSilent),
  silentRule('list-limit-below-minimum', '?limit=0', STATEMENTS.limitSilent),
  silentRule('list-limit-not-an-integer', '?limit=abc', STATEMENTS.limitSilent),
  silentRule('list-unknown-status', '?status=lost', STATEMENTS.statusSilent),
];
