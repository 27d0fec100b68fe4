import { stringifyExactJson } from '../../shared/exact-json/stringify-exact-json.js';
import type { ExactInteger } from '../../shared/exact-json/int64.js';
import fc from 'fast-check';
import { CREATED_NAME_PREFIX } from '../catalogue-fill.js';
import { jsonText } from '../generate/json-text.js';
import { arbitraryFor, boundaryObjects, boundaryValues, describeValue, harmlessValue } from '../generate/positive-values.js';
import { inputModel } from '../generate/schema-model.js';
import { ruleSeed } from '../generate/search.js';
import type { ApiRequest, Rule, RuleContext } from '../types.js';
import type { RecordedExchange, OperationId } from '../../verdict/exchange.js';
import { CREDENTIALS } from './auth-rules.js';
import { JSON_BODY } from './expect.js';
import { finding, searchAndRecord, verdictOf } from './generated.js';
import { checkNothingStored, keepRefused, noneRefused, type Refused } from './refused-creates.js';
import { queriesOf, toPath } from './generated-list-rules.js';
import type { Query } from './list-query.js';
import { cite, STATEMENTS } from './statements.js';

/**
 * Schemathesis' `ignored_auth`: a key check that is skipped for one
 * parameter combination (a filter value, a page size, a range of ids, a
 * body with some field) passes the fixed auth rules, which send one request
 * per operation. These re-send the generated requests of each operation
 * with bad credentials: none, a wrong key, the key under Basic (the fixed
 * rules' three) and an empty bearer token. Each must get 401 with an Error
 * body (the checks of every exchange judge the body). The interface does
 * not mention WWW-Authenticate, so, as in the fixed rules, it is not required.
 */
type Credentials = { what: string; auth: ApiRequest['auth'] };
const BAD: readonly Credentials[] = [...CREDENTIALS, { what: 'an empty bearer token ("Bearer" alone)', auth: { authorization: 'Bearer' } }];

const model = inputModel();
const NEW_PET = model.createBody;
const petId = model.getPath.find((p) => p.name === 'petId');
if (!petId) throw new Error('getPet has no petId path parameter in the contract document');

/** createPet bodies sent per run besides the random ones: a seeded sample of the boundary NewPets. */
const CREATE_SAMPLE = 8;

/**
 * An operation's generated space: the plain cases, sent with every kind of
 * bad credentials, the cases tried on every run (each with the next
 * credentials in turn) and the random ones.
 */
interface Space<T> {
  operation: OperationId;
  slug: string;
  what: string;
  arbitrary: (context: RuleContext) => fc.Arbitrary<T>;
  /**
   * A check skipped for one kind of credentials and one shape of request (no
   * header, and a body with a status) is met on every seed only if each kind
   * meets each shape: the plain shapes go out with all of them.
   */
  plain: (context: RuleContext) => Promise<readonly T[]>;
  cases: (context: RuleContext, seed: number) => Promise<readonly T[]>;
  describe: (value: T) => string;
}

const listSpace: Space<Query> = {
  operation: 'listPets',
  slug: 'list-pets',
  what: 'query parameters',
  arbitrary: (context) => queriesOf(context.inputs.listQuery),
  plain: async () => [{}],
  // Each boundary value of each parameter alone.
  cases: async (context) => [...context.inputs.listQuery.flatMap((p) => boundaryValues(p.schema).map((v) => ({ [p.name]: String(v) })))],
  describe: (query) => `listPets with ${stringifyExactJson(query)}`,
};

const getSpace: Space<ExactInteger> = {
  operation: 'getPet',
  slug: 'get-pet',
  what: 'ids',
  arbitrary: () => arbitraryFor(petId.schema) as fc.Arbitrary<ExactInteger>,
  // An id that exists: a check skipped only where there is an animal to give.
  plain: async (context) => [(await context.existingPet())?.id ?? 1],
  cases: async () => boundaryValues(petId.schema) as ExactInteger[],
  describe: (id) => `getPet ${id}`,
};

type NewPet = Record<string, unknown>;

const FULL_PET = harmlessValue(NEW_PET) as NewPet;

const createSpace: Space<NewPet> = {
  operation: 'createPet',
  slug: 'create-pet',
  what: 'valid NewPets',
  arbitrary: () => arbitraryFor(NEW_PET) as fc.Arbitrary<NewPet>,
  // Every field given, and only the required ones.
  plain: async () => [FULL_PET, Object.fromEntries(Object.entries(FULL_PET).filter(([k]) => NEW_PET.required.includes(k)))],
  cases: async (_, seed) => fc.sample(fc.shuffledSubarray(boundaryObjects(NEW_PET, FULL_PET), { minLength: CREATE_SAMPLE, maxLength: CREATE_SAMPLE }), { seed, numRuns: 1 })[0] ?? [],
  describe: (pet) => `createPet with {${Object.entries(pet).map(([k, v]) => `${k}: ${describeValue(v)}`).join(', ')}}`,
};

/**
 * The request of a case. A createPet body gets a name of its own, marked as
 * the harness's, so that one stored in spite of its 401 is found afterwards.
 */
function requestOf(space: Space<unknown>, value: unknown, mark: () => string): Omit<ApiRequest, 'auth'> {
  if (space.operation === 'listPets') return { method: 'GET', path: toPath(value as Query) };
  if (space.operation === 'getPet') return { method: 'GET', path: `/pets/${String(value)}` };
  const pet = value as NewPet;
  return { method: 'POST', path: '/pets', headers: JSON_BODY, body: jsonText({ ...pet, name: `${mark()} ${String(pet.name)}` }) };
}

const ruleFor = <T>(space: Space<T>): Rule => ({
  id: `auth-generated-${space.slug}`,
  title: `${space.operation} with generated ${space.what}, each re-sent without a key, with a wrong key, the key under Basic or an empty bearer token: 401 every time${space.operation === 'createPet' ? ', and nothing stored' : ''}`,
  operation: space.operation,
  writes: space.operation === 'createPet',
  severity: 'contract',
  statement: STATEMENTS.authRequired,
  async run(context) {
    const seed = ruleSeed(context.seed, this.id);
    const cases = await space.cases(context, seed);
    // Each case with the next credentials in turn, starting where the seed says: over a run every kind meets many cases.
    const offset = Math.abs(seed) % BAD.length;
    const everyKind = (await space.plain(context)).flatMap((value) => BAD.map((credentials) => [value, credentials] as [T, Credentials]));
    const examples = [...everyKind, ...cases.map((value, i) => [value, BAD[(i + offset) % BAD.length] as Credentials] as [T, Credentials])];
    // A name unique to this run, so that animals of earlier runs are not taken for this one's.
    const run = `${CREATED_NAME_PREFIX} refused-auth ${Date.now().toString(36)}`;
    let made = 0;
    const refused: Refused = noneRefused();
    const outcome = await searchAndRecord(context, this.id, {
      arbitrary: fc.tuple(space.arbitrary(context), fc.constantFrom(...BAD)),
      examples,
      runs: Math.max(2, Math.ceil(context.examples / 5)),
      async check([value, credentials]) {
        const request = requestOf(space as Space<unknown>, value, () => `${run} ${made++}`);
        const probe = await context.probe({ ...request, auth: credentials.auth });
        const status = probe.exchange.response?.status;
        if (status === 401 && request.body !== undefined) keepRefused(refused, request.body, probe.exchange);
        if (status === 401 || status === undefined) return verdictOf([probe]);
        return verdictOf([probe], [finding(probe.exchange, `answered ${status} to ${credentials.what}`, `401 (${cite(STATEMENTS.authRequired)})`, '$.status')]);
      },
      describe: ([value, credentials]) => `${space.describe(value)}, with ${credentials.what}`,
    });
    if (space.operation !== 'createPet' || refused.names.size === 0) return outcome;
    return { cases: outcome.cases + (await checkNothingStored(context, refused)) };
  },
});

export const authGeneratedRules: Rule[] = [ruleFor(listSpace), ruleFor(getSpace), ruleFor(createSpace)];
