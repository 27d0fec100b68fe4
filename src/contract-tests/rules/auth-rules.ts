import { emptyAuthorizationNote, NO_CHALLENGE } from '../../shared/profile/learn/noted-answers.js';
import type { ApiRequest, Rule, RuleContext } from '../types.js';
import type { OperationId, RecordedExchange } from '../../verdict/exchange.js';
import { expectStatus, JSON_BODY } from './expect.js';
import { STATEMENTS } from './statements.js';
import { answerOf } from '../silent-log.js';

/**
 * createPet is probed with an empty object: a server that wrongly took the
 * credentials would still have no animal to store, and they show that 401
 * wins over 400. They still count as writing: a server that accepts
 * everything would store even that, and a read-only run sends no POST.
 */
const PROBES: Record<OperationId, { slug: string; request: Omit<ApiRequest, 'auth'> }> = {
  listPets: { slug: 'list-pets', request: { method: 'GET', path: '/pets' } },
  createPet: { slug: 'create-pet', request: { method: 'POST', path: '/pets', headers: JSON_BODY, body: '{}' } },
  getPet: { slug: 'get-pet', request: { method: 'GET', path: '/pets/1' } },
};

export const CREDENTIALS: Array<{ slug: string; what: string; auth: ApiRequest['auth'] }> = [
  { slug: 'missing-key', what: 'no Authorization header', auth: 'none' },
  { slug: 'wrong-key', what: 'a wrong key', auth: { authorization: 'Bearer contract-test-wrong-key' } },
  // The configured key itself, so a server that checks the key but not the scheme is caught.
  { slug: 'non-bearer', what: 'the key in another scheme (Basic)', auth: { scheme: 'Basic' } },
];

const rejects = (operation: OperationId, credentials: (typeof CREDENTIALS)[number]): Rule => ({
  id: `auth-${credentials.slug}-${PROBES[operation].slug}`,
  title: `${operation} with ${credentials.what} gets 401`,
  operation,
  writes: operation === 'createPet',
  severity: 'contract',
  statement: STATEMENTS.authRequired,
  async run(context) {
    const exchange = await context.send({ ...PROBES[operation].request, auth: credentials.auth });
    // Without the header, or with one that carries no accepted key: what the mock tells apart.
    context.observe(credentials.auth === 'none' ? 'missing-key' : 'wrong-key', answerOf(exchange), exchange);
    if (credentials.slug === 'missing-key' && operation === 'listPets') await observeEmptyHeader(context, exchange);
    if (exchange.response?.status === 401) context.observe('challenge', challengeOf(exchange.response.headers), exchange);
    expectStatus(context, exchange, [401], STATEMENTS.authRequired);
  },
});

/** An empty `Authorization` header beside none and a wrong key: which of the two it is answered as (it must be refused either way). */
async function observeEmptyHeader(context: RuleContext, missing: RecordedExchange): Promise<void> {
  const empty = await context.send({ ...PROBES.listPets.request, auth: { authorization: '' } });
  const wrong = await context.send({ ...PROBES.listPets.request, auth: (CREDENTIALS[1] as (typeof CREDENTIALS)[number]).auth });
  context.observe('empty-authorization', emptyAuthorizationNote.say(answerOf(empty), answerOf(missing), answerOf(wrong)), empty);
  expectStatus(context, empty, [401], STATEMENTS.authRequired);
}

/** The 401's challenge as sent (RFC 9110 §11.6.1), or `none`: what a profile copies, realm and all. */
const challengeOf = (headers: Record<string, string>): string => Object.entries(headers).find(([name]) => name.toLowerCase() === 'www-authenticate')?.[1] ?? NO_CHALLENGE;

/** 401 must win over the 400 or 404 the same request would get with a key. */
const precedence = (id: string, operation: OperationId, what: string, request: Omit<ApiRequest, 'auth'>): Rule => ({
  id,
  title: `${operation} without a key gets 401 even when ${what}`,
  operation,
  writes: false,
  severity: 'contract',
  statement: STATEMENTS.authRequired,
  async run(context) {
    expectStatus(context, await context.send({ ...request, auth: 'none' }), [401], STATEMENTS.authRequired);
  },
});

export const authRules: Rule[] = [
  ...(['listPets', 'createPet', 'getPet'] as const).flatMap((operation) => CREDENTIALS.map((credentials) => rejects(operation, credentials))),
  precedence('auth-before-validation-list-pets', 'listPets', 'limit is invalid', { method: 'GET', path: '/pets?limit=0' }),
  precedence('auth-before-not-found-get-pet', 'getPet', 'the animal does not exist', { method: 'GET', path: '/pets/9007199254740991' }),
  {
    id: 'auth-scheme-case-insensitive',
    title: 'the scheme name "bearer" in lower case is accepted (RFC 9110 §11.1)',
    operation: 'listPets',
    writes: false,
    // The interface names an HTTP authentication scheme, and RFC 9110 §11.1 makes its name case-insensitive.
    severity: 'contract',
    statement: STATEMENTS.authScheme,
    async run(context) {
      const probe = await context.send({ method: 'GET', path: '/pets?limit=1' });
      // Only meaningful when the key itself is accepted.
      if (probe.response?.status !== 200) return { skipped: `the configured key is not accepted (listPets answered ${probe.response?.status ?? 'nothing'})` };
      const lower = await context.send({ method: 'GET', path: '/pets?limit=1', auth: { scheme: 'bearer' } });
      expectStatus(context, lower, [200], STATEMENTS.authScheme);
    },
  },
];
