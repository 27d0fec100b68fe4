import { randomUUID } from 'node:crypto';
import type { ApiRequest, Pet, Rule, RuleContext } from '../types.js';
import type { RecordedExchange, ReceivedResponse } from '../../verdict/exchange.js';
import { cite, STATEMENTS } from './statements.js';
import { expectStatus, JSON_BODY, petOf, petsOf } from './expect.js';
import { finding, recordFailure, verdictOf } from './generated.js';
import { HTTP_STATEMENTS } from './http-statements.js';
import { DOCUMENTED_PATHS, type DocumentedPath } from './http-method-rules.js';
import { petStatuses } from '../generate/schema-model.js';
import { CREATED_NAME_PREFIX } from '../catalogue-fill.js';

/** The preconditions a GET's validators let a client send again: If-None-Match for an ETag, If-Modified-Since for a Last-Modified. */
function preconditions(response: ReceivedResponse | undefined): Array<Record<string, string>> {
  const conditions: Array<Record<string, string>> = [];
  if (response?.headers.etag) conditions.push({ 'if-none-match': response.headers.etag });
  if (response?.headers['last-modified']) conditions.push({ 'if-modified-since': response.headers['last-modified'] });
  return conditions;
}

/** What the validators of an answer are, as the silent section notes them. */
function validatorsNote(operation: string, response: ReceivedResponse | undefined): string {
  const etag = response?.headers.etag;
  const kinds = [...(etag ? [`ETag (${etag.startsWith('W/') ? 'weak' : 'strong'})`] : []), ...(response?.headers['last-modified'] ? ['Last-Modified'] : [])];
  return `${operation}: ${kinds.length ? kinds.join(' and ') : 'none, so revalidation is not judged'}`;
}

/**
 * Preconditions any target gets, validators or not: `*` matches any current
 * representation (RFC 9110 §13.1.2), and nothing was modified after the
 * present moment (§13.1.3). A server that evaluates them answers 304 with
 * the key; without a valid one, 401 all the same.
 */
const anyTarget = (): Array<Record<string, string>> => [{ 'if-none-match': '*' }, { 'if-modified-since': new Date().toUTCString() }];

/** A 304 ends with its header block: content past it (or, over fetch, a body) is a finding. */
function expectNoContent(context: RuleContext, exchange: RecordedExchange): void {
  const response = exchange.response;
  if (response?.status !== 304) return;
  const content = response.afterward ? response.afterward.content : response.body;
  if (content !== '') context.fail({ message: `the 304 sent ${Buffer.byteLength(content, 'latin1')} bytes of content`, expected: cite(HTTP_STATEMENTS.notModified), path: '$.body', exchange });
}

const credentialsRule = (path: DocumentedPath): Rule => ({
  id: `revalidate-credentials-${path.slug}`,
  title: `${path.operation} revalidated with its own ETag or Last-Modified, and with If-None-Match: * and an If-Modified-Since of the present moment: 401 without the key or with a wrong one, never 304; a 304 with the key carries no content`,
  operation: path.operation,
  writes: false,
  severity: 'contract',
  statement: HTTP_STATEMENTS.preconditionsIgnored,
  async run(context) {
    const target = path.path(await context.existingPet());
    const first = await context.send({ method: 'GET', path: target });
    if (first.response) context.observe('validators', validatorsNote(path.operation, first.response), first);
    for (const headers of [...preconditions(first.response), ...anyTarget()]) {
      expectNoContent(context, await context.send({ method: 'GET', path: target, headers, connection: 'reused' }));
      for (const auth of ['none', { authorization: 'Bearer contract-test-wrong-key' }] as const) await withoutTheKey(context, target, headers, auth);
    }
  },
});

/**
 * A conditional GET without the key or with a wrong one: 401, as the auth
 * rules expect it. When it gets anything else, the same GET without the
 * precondition goes too, and the failure shows both curl lines: the plain
 * request's 401 beside the conditional one that got in.
 */
async function withoutTheKey(context: RuleContext, target: string, headers: Record<string, string>, auth: NonNullable<ApiRequest['auth']>): Promise<void> {
  const what = auth === 'none' ? 'without the key' : 'with a wrong key';
  const conditions = Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join(', ');
  const about = { case: `GET ${target} with ${conditions}, ${what}`, tried: 1, shrinks: 0 };
  const conditional = await context.probe({ method: 'GET', path: target, headers, auth });
  const status = conditional.exchange.response?.status;
  if (status === undefined || status === 401) {
    const verdict = verdictOf([conditional]);
    if (!verdict.ok) recordFailure(context, verdict.failure, about);
    return;
  }
  const plain = await context.probe({ method: 'GET', path: target, auth });
  const got = plain.exchange.response?.status ?? 'no answer';
  const verdict = verdictOf([plain, conditional], [finding(conditional.exchange, `answered ${status} to a GET ${what} carrying ${conditions}, where the same GET without it got ${got}`, `401 (${cite(STATEMENTS.authRequired)}), whatever precondition the request carries`, '$.status')]);
  if (!verdict.ok) recordFailure(context, verdict.failure, about);
}

/** The status whose page has the fewest animals, with room on it for one more (as create-listed-under-status picks). */
async function roomiest(context: RuleContext, limit: number): Promise<{ status: string; page: RecordedExchange } | undefined> {
  const pages = await Promise.all(petStatuses().map(async (status) => ({ status, page: await context.send({ method: 'GET', path: `/pets?status=${status}&limit=${limit}` }) })));
  const sized = pages.map((one) => ({ ...one, size: petsOf(context, one.page, STATEMENTS.listSuccess)?.length })).filter((one) => one.size !== undefined && one.size < limit);
  return sized.sort((a, b) => (a.size as number) - (b.size as number))[0];
}

/** Whether a page holds the animal; a finding when it does not. */
function expectListed(context: RuleContext, exchange: RecordedExchange, pet: Pet, how: string): void {
  const expected = `${cite(STATEMENTS.statusFilter)} ${cite(HTTP_STATEMENTS.notModified)}`;
  if (exchange.response?.status === 304) return context.fail({ message: `stale list after a create: ${how} answered 304 Not Modified after animal ${pet.id} was created under that status`, expected, path: '$.status', exchange });
  if (!expectStatus(context, exchange, [200], HTTP_STATEMENTS.notModified)) return;
  const pets = petsOf(context, exchange, STATEMENTS.listSuccess);
  if (!pets || pets.some((one) => one?.id === pet.id)) return;
  context.fail({ message: `stale list after a create: ${how} holds ${pets.length} animals, not animal ${pet.id} created just before`, expected, path: '$.body', exchange });
}

const LIMIT = 99;

const afterCreateRule: Rule = {
  id: 'revalidate-list-after-create',
  title: `listPets of a status read, an animal created under it, then the same list again: it holds the animal, plainly and revalidated with the first answer's ETag or Last-Modified (never 304)`,
  operation: 'listPets',
  writes: true,
  severity: 'contract',
  statement: HTTP_STATEMENTS.notModified,
  async run(context) {
    // limit=99, a query no other rule sends: the first answer is the only one a cache in front may hold for it.
    const roomy = await roomiest(context, LIMIT);
    if (!roomy) return { skipped: `every status already lists ${LIMIT} animals: a new one may be past the first page` };
    const target = `/pets?status=${roomy.status}&limit=${LIMIT}`;
    const body = JSON.stringify({ name: `${CREATED_NAME_PREFIX} revalidated ${randomUUID().slice(0, 8)}`, categoryId: 2, status: roomy.status });
    const created = await context.send({ method: 'POST', path: '/pets', headers: JSON_BODY, body });
    if (!expectStatus(context, created, [201], STATEMENTS.createSuccess)) return;
    const pet = petOf(context, created, STATEMENTS.createSuccess);
    if (!pet) return;
    expectListed(context, await context.send({ method: 'GET', path: target }), pet, `GET ${target}`);
    for (const headers of preconditions(roomy.page.response)) {
      const request: ApiRequest = { method: 'GET', path: target, headers, connection: 'reused' };
      const revalidated = await context.send(request);
      expectNoContent(context, revalidated);
      expectListed(context, revalidated, pet, `GET ${target} with ${Object.keys(headers)[0]}: ${Object.values(headers)[0]}`);
    }
  },
};

export const revalidationRules: Rule[] = [...DOCUMENTED_PATHS.map(credentialsRule), afterCreateRule];
