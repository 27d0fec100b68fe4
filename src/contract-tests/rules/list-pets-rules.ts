import type { Pet, Rule, RuleContext } from '../types.js';
import type { Statement } from '../../verdict/report.js';
import { expectStatus, petsOf } from './expect.js';
import { cite, STATEMENTS } from './statements.js';
import { stringifyExactJson } from '../../shared/exact-json/stringify-exact-json.js';
import { answerOf } from '../silent-log.js';
import { AS_WITHOUT_IT, repeatedNote } from '../../shared/profile/learn/noted-answers.js';

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
    await checkLimit(context, limit);
  });

/** Asks for `limit` animals and checks the page: never more, and not fewer while the catalogue has more. */
async function checkLimit(context: RuleContext, limit: number): Promise<'checked' | 'small-catalogue' | 'unreadable'> {
  const exchange = await list(context, `?limit=${limit}`);
  if (!expectStatus(context, exchange, [200], STATEMENTS.listSuccess)) return 'unreadable';
  const pets = petsOf(context, exchange, STATEMENTS.listSuccess);
  if (!pets) return 'unreadable';
  if (pets.length > limit) {
    context.fail({ message: `${pets.length} animals for limit=${limit}`, expected: `at most ${limit} (${cite(STATEMENTS.limitRange)})`, path: '$.body.length', exchange });
  } else if (pets.length < limit && (await expectFullPage(context, `?limit=${limit}`, limit)) === 'small-catalogue') {
    return 'small-catalogue';
  }
  return 'checked';
}

/**
 * A short page is right only when the catalogue has no more animals. Other
 * rules create animals at the same time, and the interface has no delete, so
 * the catalogue only grows: its size is counted first, as a lower bound, and
 * the page asked for again after, so a concurrent create cannot make a right
 * answer look short.
 */
async function expectFullPage(context: RuleContext, query: string, limit: number): Promise<'full' | 'small-catalogue' | 'unknown'> {
  const known = await countCatalogue(context);
  const again = await list(context, query);
  const pets = petsOf(context, again, STATEMENTS.listSuccess);
  if (known === undefined || pets === undefined) return 'unknown';
  const expected = Math.min(limit, known);
  if (pets.length < expected) {
    context.fail({ message: `${pets.length} animals for ${query.slice(1)}, while the catalogue has at least ${known}`, expected: cite(STATEMENTS.limitRange), path: '$.body.length', exchange: again });
  }
  return known < limit ? 'small-catalogue' : 'full';
}

const statusRule = (status: 'available' | 'pending' | 'sold'): Rule =>
  listing(`list-status-${status}`, `listPets with status=${status} returns only ${status} animals`, STATEMENTS.statusFilter, async (context) => {
    const exchange = await list(context, `?status=${status}&limit=100`);
    if (!expectStatus(context, exchange, [200], STATEMENTS.listSuccess)) return;
    const pets = petsOf(context, exchange, STATEMENTS.listSuccess);
    if (!pets) return;
    pets.forEach((pet, index) => {
      if (pet?.status !== status) {
        context.fail({ message: `item ${index} has status ${stringifyExactJson(pet?.status)}`, expected: `${status} only (${cite(STATEMENTS.statusFilter)})`, path: `$.body[${index}].status`, exchange });
      }
    });
    if (pets.length > 0) return;
    // An empty answer is right only when no animal has that status. The
    // unfiltered list is read first and the filter asked again after, since
    // concurrent rules may add animals in between (the catalogue only grows).
    const shown = (petsOf(context, await list(context, '?limit=100'), STATEMENTS.listSuccess) ?? []).filter((pet) => pet?.status === status).length;
    if (shown === 0) return;
    const again = await list(context, `?status=${status}&limit=100`);
    if ((petsOf(context, again, STATEMENTS.listSuccess) ?? []).length === 0) {
      context.fail({ message: `no animal for status=${status}, while listPets without the filter shows ${shown}`, expected: cite(STATEMENTS.statusFilter), path: '$.body', exchange: again });
    }
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

/**
 * How many animals the catalogue has at least, asked once per rule run: the
 * most of limit=100 and of the three status filters together, so a server
 * that cuts every list short (say, at 20) still shows it has more.
 * Undefined when limit=100 gives no list (a finding of its own).
 */
/** A lower bound of the catalogue's size: the largest set of ids that listPets shows, with and without each status filter. */
async function countCatalogue(context: RuleContext): Promise<number | undefined> {
  const all = petsOf(context, await list(context, '?limit=100'), STATEMENTS.listSuccess);
  if (all === undefined) return undefined;
  const ids = new Set(all.map((pet) => pet?.id));
  for (const status of ['available', 'pending', 'sold']) {
    const json = (await list(context, `?status=${status}&limit=100`)).response?.json;
    if (Array.isArray(json)) for (const pet of json as Pet[]) ids.add(pet?.id);
  }
  return Math.max(all.length, ids.size);
}

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
  listing('list-limit-honoured', 'listPets with limit=2, and with limit=21 (above the default), returns that many animals when the catalogue has more', STATEMENTS.limitRange, async (context) => {
    for (const limit of [2, 21]) {
      const checked = await checkLimit(context, limit);
      if (checked === 'unreadable') return;
      if (checked === 'small-catalogue' && limit === 2) return { skipped: 'the catalogue has fewer than 2 animals' };
    }
  }),
  statusRule('available'),
  statusRule('pending'),
  statusRule('sold'),
  listing('list-items-are-pets', 'every listed item is a Pet, with unique ids, in the unfiltered page and in each status page', STATEMENTS.petShape, async (context) => {
    // Each item's schema is checked by the contract validation of every answer; this adds uniqueness.
    // The status pages too: past 100 animals the unfiltered page is full, the status pages may not be.
    for (const query of ['?limit=100', '?status=available&limit=100', '?status=pending&limit=100', '?status=sold&limit=100']) {
      const exchange = await list(context, query);
      if (!expectStatus(context, exchange, [200], STATEMENTS.listSuccess)) return;
      const pets = petsOf(context, exchange, STATEMENTS.listSuccess) ?? [];
      const seen = new Set<unknown>();
      pets.forEach((pet, index) => {
        if (seen.has(pet?.id)) context.fail({ message: `id ${pet?.id} appears twice`, expected: cite(STATEMENTS.petShape), path: `$.body[${index}].id`, exchange });
        seen.add(pet?.id);
      });
    }
  }),
  silentRule('list-limit-above-maximum', '?limit=101', STATEMENTS.limitSilent),
  silentRule('list-limit-below-minimum', '?limit=0', STATEMENTS.limitSilent),
  silentRule('list-limit-not-an-integer', '?limit=abc', STATEMENTS.limitSilent),
  silentRule('list-unknown-status', '?status=lost', STATEMENTS.statusSilent),
  {
    id: 'list-unknown-path',
    title: 'GET /pet, a path the document does not have (listPets misspelt), with the key: a 4xx with an Error body (the interface does not say which)',
    operation: 'listPets',
    writes: false,
    severity: 'advisory',
    statement: STATEMENTS.otherPaths,
    async run(context) {
      const exchange = await context.send({ method: 'GET', path: '/pet' });
      context.observe('unknown-path', answerOf(exchange), exchange);
      // 405 would have to name the methods allowed (RFC 9110 §15.5.6), and a path no operation has has none.
      expectStatus(context, exchange, [400, 403, 404, 410], STATEMENTS.otherPaths);
    },
  },
  {
    id: 'list-repeated-limit',
    title: 'listPets with limit=1&limit=2, limit given twice: a 4xx with an Error body, or a page (the interface does not say which value, if any, counts)',
    operation: 'listPets',
    writes: false,
    severity: 'advisory',
    statement: STATEMENTS.repeatedSilent,
    async run(context) {
      const exchange = await list(context, '?limit=1&limit=2');
      if (!expectStatus(context, exchange, [200, 400, 422], STATEMENTS.repeatedSilent)) return;
      if (exchange.response?.status !== 200) return context.observe('repeated-parameter', answerOf(exchange), exchange);
      const pets = petsOf(context, exchange, STATEMENTS.listSuccess);
      // With three animals listed, a page read as without limit holds more than two: the three answers differ.
      const three = petsOf(context, await list(context, '?limit=3'), STATEMENTS.listSuccess);
      if (!pets || !three || three.length < 3) return { skipped: 'fewer than 3 animals listed: which value was read cannot be told' };
      context.observe('repeated-parameter', repeatedNote.say(pets.length), exchange);
    },
  },
  {
    id: 'list-accept-without-json',
    title: 'listPets with Accept: application/xml, with the key: a page in JSON all the same, or 406 with an Error body (the interface does not say which)',
    operation: 'listPets',
    writes: false,
    severity: 'advisory',
    statement: STATEMENTS.acceptSilent,
    async run(context) {
      const exchange = await context.send({ method: 'GET', path: '/pets', headers: { accept: 'application/xml' } });
      context.observe('accept-without-json', exchange.response?.status === 200 ? AS_WITHOUT_IT : answerOf(exchange), exchange);
      // RFC 9110 §12.5.1: a server may disregard Accept, or refuse with 406 (§15.5.7); never another media type, which every answer's checks refuse.
      expectStatus(context, exchange, [200, 406], STATEMENTS.acceptSilent);
    },
  },
];
