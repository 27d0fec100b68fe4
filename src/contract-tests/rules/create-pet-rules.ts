import { AS_WITHOUT_IT, defaultStatusNote } from '../../shared/profile/learn/noted-answers.js';
import { answerOf } from '../silent-log.js';
import { petStatuses } from '../generate/schema-model.js';
import { randomUUID } from 'node:crypto';
import type { Pet, Rule, RuleContext } from '../types.js';
import type { Statement } from '../../verdict/report.js';
import type { RecordedExchange } from '../../verdict/exchange.js';
import { expectField, expectStatus, JSON_BODY, petOf, petsOf } from './expect.js';
import { cite, STATEMENTS } from './statements.js';
import { CREATED_NAME_PREFIX } from '../catalogue-fill.js';
import { stringifyExactJson } from '../../shared/exact-json/stringify-exact-json.js';

const STATUSES = petStatuses();


const newPet = (fields: Partial<Omit<Pet, 'status'>> & { status?: string } = {}) => ({ name: `${CREATED_NAME_PREFIX} ${randomUUID().slice(0, 8)}`, categoryId: 2, status: 'pending', ...fields });

const post = (context: RuleContext, body: string, headers: Record<string, string> = JSON_BODY) =>
  context.send({ method: 'POST', path: '/pets', headers, body });

/** Creates an animal and checks the 201 answer carries it as sent, with an assigned id. */
async function create(context: RuleContext, sent: Record<string, unknown>): Promise<{ pet: Pet; exchange: RecordedExchange } | undefined> {
  const exchange = await post(context, stringifyExactJson(sent));
  if (!expectStatus(context, exchange, [201], STATEMENTS.createSuccess)) return undefined;
  const pet = petOf(context, exchange, STATEMENTS.createSuccess);
  if (!pet) return undefined;
  for (const field of ['name', 'categoryId', 'status'] as const) {
    if (field in sent) expectField(context, exchange, `$.body.${field}`, pet[field], sent[field], STATEMENTS.createSuccess);
  }
  return { pet, exchange };
}

const writing = (id: string, title: string, statement: Statement, run: Rule['run'], severity: Rule['severity'] = 'contract'): Rule => ({
  id,
  title,
  operation: 'createPet',
  writes: true,
  severity,
  statement,
  run,
});

const rejected = (slug: string, what: string, body: string): Rule =>
  writing(`create-rejects-${slug}`, `createPet with ${what} gets 400`, STATEMENTS.createBadRequest, async (context) => {
    expectStatus(context, await post(context, body), [400], STATEMENTS.createBadRequest);
  });

export const createPetRules: Rule[] = [
  writing('create-returns-pet', 'createPet answers 201 with the Pet as sent and an assigned id', STATEMENTS.createSuccess, async (context) => {
    await create(context, newPet());
  }),
  writing('create-readable-via-get-pet', 'a created animal is returned by getPet', STATEMENTS.getSuccess, async (context) => {
    const created = await create(context, newPet());
    if (!created) return;
    const exchange = await context.send({ method: 'GET', path: `/pets/${created.pet.id}` });
    if (!expectStatus(context, exchange, [200], STATEMENTS.getSuccess)) return;
    const pet = petOf(context, exchange, STATEMENTS.getSuccess);
    for (const field of ['id', 'name', 'categoryId', 'status'] as const) {
      if (pet) expectField(context, exchange, `$.body.${field}`, pet[field], created.pet[field], STATEMENTS.getSuccess);
    }
  }),
  writing('create-listed-under-status', 'a created animal is listed by listPets under its status', STATEMENTS.statusFilter, async (context) => {
    // The interface gives no way to a following page, so the animal is created
    // under the status with the fewest animals: on a long-lived environment,
    // where every run adds one, the rule keeps a status with room on one page.
    const counts = await Promise.all(STATUSES.map(async (status) => ({ status, count: petsOf(context, await context.send({ method: 'GET', path: `/pets?status=${status}&limit=100` }), STATEMENTS.listSuccess)?.length })));
    const roomy = counts.filter((c): c is { status: string; count: number } => c.count !== undefined && c.count < 100).sort((a, b) => a.count - b.count)[0];
    if (!roomy) return { skipped: 'every status already lists 100 animals: a new one may be past the first page, which the interface does not let a client reach' };
    const created = await create(context, newPet({ status: roomy.status }));
    if (!created) return;
    const exchange = await context.send({ method: 'GET', path: `/pets?status=${roomy.status}&limit=100` });
    if (!expectStatus(context, exchange, [200], STATEMENTS.listSuccess)) return;
    const pets = petsOf(context, exchange, STATEMENTS.listSuccess);
    if (!pets || pets.some((p) => p?.id === created.pet.id)) return;
    context.fail({ message: `animal ${created.pet.id} is not among the ${pets.length} ${roomy.status} animals listed`, expected: cite(STATEMENTS.statusFilter), path: '$.body', exchange });
  }),
  writing('create-assigns-unique-ids', 'two created animals get different ids', STATEMENTS.idAssigned, async (context) => {
    const first = await create(context, newPet());
    const second = await create(context, newPet());
    if (first && second && first.pet.id === second.pet.id) {
      context.fail({ message: `both got id ${first.pet.id}`, expected: cite(STATEMENTS.idAssigned), path: '$.body.id', exchange: second.exchange });
    }
  }),
  writing('create-ignores-client-id', 'an id sent by the client is not the one assigned', STATEMENTS.idAssigned, async (context) => {
    const sentId = 900_000_000 + Math.floor(Math.random() * 99_999_999);
    const exchange = await post(context, stringifyExactJson({ ...newPet(), id: sentId }));
    // Refusing the unknown field is defensible too.
    if (!expectStatus(context, exchange, [201, 400], STATEMENTS.idAssigned) || exchange.response?.status === 400) return;
    const pet = petOf(context, exchange, STATEMENTS.createSuccess);
    if (pet?.id === sentId) context.fail({ message: `the id sent (${sentId}) was used`, expected: cite(STATEMENTS.idAssigned), path: '$.body.id', exchange });
  }),
  writing('create-without-status', 'createPet without status answers 201', STATEMENTS.statusOptional, async (context) => {
    const { status: _, ...withoutStatus } = newPet();
    const created = await create(context, withoutStatus);
    // What the target made of the missing status: noted here too, as a run whose generated cases fail early creates no other animal without one.
    if (created) context.observe('default-status', defaultStatusNote.say(created.pet.status), created.exchange);
  }),
  rejected('missing-name', 'no name', stringifyExactJson({ categoryId: 2 })),
  rejected('missing-category-id', 'no categoryId', stringifyExactJson({ name: `${CREATED_NAME_PREFIX} no category` })),
  rejected('empty-object', 'an empty object', '{}'),
  rejected('name-not-a-string', 'a numeric name', stringifyExactJson({ name: 42, categoryId: 2 })),
  // A numeric string, so a server that coerces types ("2" → 2) is caught too.
  rejected('category-id-not-an-integer', 'a string categoryId', stringifyExactJson({ name: `${CREATED_NAME_PREFIX} bad category`, categoryId: '2' })),
  rejected('category-id-fractional', 'a fractional categoryId', stringifyExactJson({ name: `${CREATED_NAME_PREFIX} fraction`, categoryId: 1.5 })),
  rejected('unknown-status', 'a status outside PetStatus', stringifyExactJson({ name: `${CREATED_NAME_PREFIX} lost`, categoryId: 2, status: 'lost' })),
  rejected('array-body', 'an array instead of an object', stringifyExactJson([newPet()])),
  writing('create-malformed-json', 'createPet with malformed JSON (the interface does not say)', STATEMENTS.createBadRequest, async (context) => {
    expectStatus(context, await post(context, '{"name": "contract-test'), [400], STATEMENTS.createBadRequest);
  }, 'advisory'),
  writing('create-wrong-media-type', 'createPet with text/plain (the interface does not say)', STATEMENTS.createMediaType, async (context) => {
    expectStatus(context, await post(context, stringifyExactJson(newPet()), { 'content-type': 'text/plain' }), [400, 415], STATEMENTS.createMediaType);
  }, 'advisory'),
  writing('create-unknown-content-coding', 'createPet with a NewPet under Content-Encoding: x-unknown, its JSON as it is: 201 with the animal as sent, or 400 or 415 with an Error body (the interface does not say which)', STATEMENTS.contentCodingSilent, async (context) => {
    const sent = newPet();
    const exchange = await post(context, stringifyExactJson(sent), { ...JSON_BODY, 'content-encoding': 'x-unknown' });
    context.observe('content-coding', exchange.response?.status === 201 ? AS_WITHOUT_IT : answerOf(exchange), exchange);
    // RFC 9110 §8.4, §15.5.16: a server may refuse a coding it cannot undo (415), or never look at it and read the JSON.
    if (!expectStatus(context, exchange, [201, 400, 415], STATEMENTS.contentCodingSilent) || exchange.response?.status !== 201) return;
    const pet = petOf(context, exchange, STATEMENTS.createSuccess);
    for (const field of ['name', 'categoryId', 'status'] as const) {
      if (pet) expectField(context, exchange, `$.body.${field}`, pet[field], sent[field], STATEMENTS.createSuccess);
    }
  }, 'advisory'),
];
