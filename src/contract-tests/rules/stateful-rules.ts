import { petStatuses } from '../generate/schema-model.js';
import fc from 'fast-check';
import { CREATED_NAME_PREFIX } from '../catalogue-fill.js';
import { ruleSeed } from '../generate/search.js';
import type { Pet, Probe, Rule, RuleContext } from '../types.js';
import type { RecordedExchange } from '../../verdict/exchange.js';
import { JSON_BODY } from './expect.js';
import { finding, recordFailure, searchAndRecord, verdictOf, type Verdict } from './generated.js';
import { samePet } from './same-pet.js';
import { cite, STATEMENTS } from './statements.js';
import { stringifyExactJson } from '../../shared/exact-json/stringify-exact-json.js';
import { isExactInteger } from '../../shared/exact-json/int64.js';
import type { ExactInteger } from '../../shared/exact-json/int64.js';

const STATUSES = petStatuses();
const CONCURRENT = 20;

const newPet = (i: number, seed: number) => ({ name: `${CREATED_NAME_PREFIX} concurrent ${seed} ${i} ✓`, categoryId: 1000 + i, status: STATUSES[i % STATUSES.length] });

export const create = (context: RuleContext, pet: object) => context.probe({ method: 'POST', path: '/pets', headers: JSON_BODY, body: stringifyExactJson(pet) });

type Step = { kind: 'create'; status: string | undefined; name: string } | { kind: 'get'; index: number } | { kind: 'list'; status: string | undefined };

/** A short sequence of creates, gets of what was created, and listings, some sent at once. */
const steps = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('create' as const), status: fc.constantFrom(...STATUSES, undefined), name: fc.string({ unit: 'grapheme', maxLength: 12 }) }),
    fc.record({ kind: fc.constant('get' as const), index: fc.nat(20) }),
    fc.record({ kind: fc.constant('list' as const), status: fc.constantFrom(...STATUSES, undefined) }),
  ),
  { minLength: 3, maxLength: 10 },
);

/**
 * Runs the steps in batches sent at once (each batch a random size), then
 * checks that everything answered agrees with a model of what was created:
 * every created animal is readable as created, appears in a complete page of
 * its status, and no two got the same id.
 */
async function interleave(context: RuleContext, plan: readonly Step[], batches: readonly number[]): Promise<Verdict> {
  const created: Pet[] = [];
  const probes: Probe[] = [];
  const problems = [];
  let at = 0;
  for (const size of batches) {
    const batch = plan.slice(at, at + size);
    at += size;
    if (batch.length === 0) break;
    const answers = await Promise.all(
      batch.map(async (step) => {
        if (step.kind === 'create') return { step, probe: await create(context, { name: `${CREATED_NAME_PREFIX} ${step.name}`, categoryId: 7, ...(step.status ? { status: step.status } : {}) }) };
        if (step.kind === 'get') {
          const target = created[step.index % Math.max(1, created.length)];
          return target ? { step, probe: await context.probe({ method: 'GET', path: `/pets/${target.id}` }), target } : undefined;
        }
        return { step, probe: await context.probe({ method: 'GET', path: `/pets?limit=100${step.status ? `&status=${step.status}` : ''}` }) };
      }),
    );
    for (const answer of answers) {
      if (!answer) continue;
      probes.push(answer.probe);
      const { exchange } = answer.probe;
      const json = exchange.response?.json;
      if (answer.step.kind === 'create' && exchange.response?.status === 201 && isExactInteger((json as Pet)?.id)) {
        if (created.some((p) => p.id === (json as Pet).id)) problems.push(finding(exchange, `id ${(json as Pet).id} given twice`, cite(STATEMENTS.idAssigned), '$.body.id'));
        created.push(json as Pet);
      } else if ('target' in answer && answer.target) {
        if (exchange.response?.status !== 200 || !samePet(json, answer.target)) problems.push(finding(exchange, `getPet ${answer.target.id} answers ${exchange.response?.status} ${stringifyExactJson(json)}, created as ${stringifyExactJson(answer.target)}`, cite(STATEMENTS.getSuccess), '$.body'));
      }
    }
  }
  // After the last batch: each animal created before a complete page was asked must be on it.
  for (const status of [...STATUSES, undefined]) {
    const probe = await context.probe({ method: 'GET', path: `/pets?limit=100${status ? `&status=${status}` : ''}` });
    probes.push(probe);
    const pets = Array.isArray(probe.exchange.response?.json) ? (probe.exchange.response.json as Pet[]) : undefined;
    if (!pets || pets.length >= 100) continue;
    for (const pet of created.filter((p) => status === undefined || p.status === status)) {
      const listed = pets.find((p) => p.id === pet.id);
      if (!listed) problems.push(finding(probe.exchange, `created animal ${pet.id} is not in the complete ${status ?? 'unfiltered'} page of ${pets.length}`, cite(STATEMENTS.statusFilter), '$.body'));
      else if (!samePet(listed, pet)) problems.push(finding(probe.exchange, `animal ${pet.id} is listed as ${stringifyExactJson(listed)}, created as ${stringifyExactJson(pet)}`, cite(STATEMENTS.listSuccess), '$.body'));
    }
  }
  return verdictOf(probes, problems);
}

export const statefulRules: Rule[] = [
  {
    id: 'create-concurrent-unique-ids',
    title: `${CONCURRENT} createPets sent at once get distinct ids, and each is readable with the fields sent`,
    operation: 'createPet',
    writes: true,
    severity: 'contract',
    statement: STATEMENTS.idAssigned,
    async run(context) {
      const seed = ruleSeed(context.seed, this.id);
      const sent = Array.from({ length: CONCURRENT }, (_, i) => newPet(i, seed));
      const answers = await Promise.all(sent.map((pet) => create(context, pet)));
      const byId = new Map<ExactInteger, RecordedExchange>();
      const problems = [];
      const pets = answers.map((probe) => (probe.exchange.response?.status === 201 ? (probe.exchange.response.json as Pet) : undefined));
      for (const [i, { exchange }] of answers.entries()) {
        const id = pets[i]?.id;
        if (!isExactInteger(id)) continue;
        if (byId.has(id)) problems.push(finding(exchange, `id ${id} was given to two of the ${CONCURRENT} animals created at once`, cite(STATEMENTS.idAssigned), '$.body.id'));
        byId.set(id, exchange);
      }
      // Read back at once too: a write that is not yet visible to a read sent right after shows here.
      const reads = await Promise.all(pets.map((pet) => (isExactInteger(pet?.id) ? context.probe({ method: 'GET', path: `/pets/${pet.id}` }) : undefined)));
      for (const [i, read] of reads.entries()) {
        if (!read) continue;
        answers.push(read);
        const got = read.exchange.response?.json;
        if (read.exchange.response?.status !== 200 || !samePet(got, { ...sent[i], id: pets[i]?.id })) {
          problems.push(finding(read.exchange, `getPet ${pets[i]?.id} answers ${read.exchange.response?.status} ${stringifyExactJson(got)}, sent ${stringifyExactJson(sent[i])}`, cite(STATEMENTS.getSuccess), '$.body'));
        }
      }
      const verdict = verdictOf(answers, problems);
      if (!verdict.ok) recordFailure(context, verdict.failure, { case: `${CONCURRENT} concurrent creates`, tried: answers.length, shrinks: 0 });
      return { cases: answers.length };
    },
  },
  {
    id: 'create-get-list-interleavings',
    title: 'createPet, getPet and listPets in random interleavings (some sent at once) agree with one another',
    operation: 'createPet',
    writes: true,
    severity: 'contract',
    statement: STATEMENTS.createSuccess,
    async run(context) {
      return searchAndRecord(context, this.id, {
        arbitrary: fc.tuple(steps, fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 10, maxLength: 10 })),
        runs: Math.max(1, Math.ceil(context.examples / 5)),
        check: ([plan, batches]) => interleave(context, plan, batches),
        describe: ([plan, batches]) => `steps ${stringifyExactJson(plan)} in batches of ${batches.join(', ')}`,
        shrinkBudget: 30,
      });
    },
  },
];
