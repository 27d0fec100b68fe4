import type { Method, Pet, Rule, RuleContext } from '../types.js';
import type { RecordedExchange } from '../../verdict/exchange.js';
import { expectField, JSON_BODY, petOf, petsOf } from './expect.js';
import { cite, STATEMENTS } from './statements.js';
import { HTTP_STATEMENTS } from './http-statements.js';
import { stringifyExactJson } from '../../shared/exact-json/stringify-exact-json.js';
import { CREATED_NAME_PREFIX } from '../catalogue-fill.js';
import { UNLIKELY_ID } from './get-pet-rules.js';
import { carriesPet } from './operation-data.js';
import { curlLine } from '../../verdict/curl-line.js';

/** A documented path: the methods and statuses the document gives it. */
export interface DocumentedPath {
  operation: 'listPets' | 'getPet';
  /** As rule ids end: `list-pets`, `get-pet`. */
  slug: string;
  methods: readonly string[];
  statuses: readonly number[];
  /** The path to send, for the animal the rule reads (getPet). */
  path(pet: Pet | undefined): string;
}

export const DOCUMENTED_PATHS: readonly DocumentedPath[] = [
  { operation: 'listPets', slug: 'list-pets', methods: ['GET', 'POST'], statuses: [200, 201, 400, 401], path: () => '/pets' },
  { operation: 'getPet', slug: 'get-pet', methods: ['GET'], statuses: [200, 401, 404], path: (pet) => `/pets/${pet?.id ?? UNLIKELY_ID}` },
];

/**
 * Methods a client may send that the document does not list: `FROB` is a
 * token no registry holds; QUERY (draft-ietf-httpbis-safe-method-w-body),
 * SEARCH, PROPFIND and REPORT (WebDAV, RFC 4918, RFC 3253) are safe methods
 * a handler written as "everything but POST is a read" serves as GET.
 */
const OTHER_METHODS: readonly Method[] = ['PUT', 'PATCH', 'DELETE', 'FROB', 'QUERY', 'SEARCH', 'PROPFIND', 'REPORT'];

/** The methods an `Allow` (or `Access-Control-Allow-Methods`) lists; method names are case-sensitive (RFC 9110 §9.1). */
export const listed = (value: string | undefined): string[] => (value ?? '').split(',').map((token) => token.trim()).filter(Boolean);

/** What a changed animal would read as: another name and status, in the body a client would send. */
function replacementBody(method: Method, path: DocumentedPath, pet: Pet | undefined): string | undefined {
  if (method !== 'PUT' && method !== 'PATCH') return undefined;
  const animal = { name: `${CREATED_NAME_PREFIX} ${method} replacing`, categoryId: pet?.categoryId ?? 1, status: pet?.status === 'sold' ? 'available' : 'sold' };
  return stringifyExactJson(path.operation === 'listPets' && method === 'PUT' ? [animal] : animal) as string;
}

/** Judges one answer to a method the document does not list for the path. */
function judgeOtherMethod(context: RuleContext, exchange: RecordedExchange, method: Method, path: DocumentedPath): void {
  const response = exchange.response;
  // No answer, a body not read, a 5xx: the checks of every exchange already say so.
  if (!response || response.unread || (response.status >= 500 && response.status !== 501)) return;
  const { status } = response;
  const expected = cite(HTTP_STATEMENTS.methodNotAllowed);
  if (status === 405) {
    const allow = response.headers.allow;
    if (allow === undefined) return context.fail({ message: `405 to ${method} without an Allow field`, expected, path: '$.headers.allow', exchange });
    const methods = listed(allow);
    if (methods.includes(method)) context.fail({ message: `405 to ${method}, whose Allow (${allow}) lists ${method}`, expected, path: '$.headers.allow', exchange });
    const missing = path.methods.filter((one) => !methods.includes(one));
    if (missing.length) context.fail({ message: `405 to ${method}, whose Allow (${allow}) leaves out ${missing.join(' and ')}, which the path serves`, expected, path: '$.headers.allow', exchange });
    return;
  }
  // 501: the method is not implemented (RFC 9110 §9.1). 400 to a method but PUT, PATCH, DELETE: node's HTTP parser, and others, refuse a method outside their list before any route.
  if (status === 501 || path.statuses.includes(status) || (status === 400 && !['PUT', 'PATCH', 'DELETE'].includes(method))) return;
  context.fail({ message: `answered ${status} to ${method} ${path.path(undefined).replace(/\d+$/, '{petId}')}`, expected: `405 with Allow, 501, or a status the document gives the path (${path.statuses.join(', ')}) (${expected})`, path: '$.status', exchange });
}

/**
 * The same method without the key: another method is no spelling of an
 * operation (RFC 9110 §9.1), but "the requirement applies to every
 * operation", and a key check written as a list of methods lets the others
 * by. Any refusal passes (401, 405, 400, 501, …); a 2xx, whatever it holds,
 * or an animal's data in any answer, fails.
 */
async function judgeWithoutKey(context: RuleContext, exchange: RecordedExchange, method: Method, target: string): Promise<void> {
  const response = exchange.response;
  if (!response || response.unread) return;
  if ((response.status < 200 || response.status > 299) && !carriesPet(response)) return;
  // Beside it, GET of the same path without the key: 401 there, not here.
  const plain = await context.send({ method: 'GET', path: target, auth: 'none' });
  const reproduce = { curl: [curlLine(plain.request), curlLine(exchange.request)].join('\n'), seed: context.seed, case: `GET without the key, then ${method} without the key`, tried: 1, shrinks: 0 };
  context.fail({ message: `answered ${response.status} to ${method} without the key${carriesPet(response) ? ", with an animal's data" : ''}, where GET without the key got ${plain.response?.status}`, expected: `401 or another refusal, never a 2xx nor an animal's data (${cite(STATEMENTS.authRequired)})`, path: '$.status', exchange, reproduce });
}

/** What a method must not have changed: the animal read before (getPet), and no fewer animals listed (the interface has no delete). */
async function readBack(context: RuleContext, pet: Pet): Promise<{ pet: Pet | undefined; read: RecordedExchange; listed: number | undefined; page: RecordedExchange }> {
  const read = await context.send({ method: 'GET', path: `/pets/${pet.id}` });
  const page = await context.send({ method: 'GET', path: '/pets?limit=100' });
  return { pet: read.response?.status === 200 ? petOf(context, read, STATEMENTS.getSuccess) : undefined, read, listed: petsOf(context, page, STATEMENTS.listSuccess)?.length, page };
}

const otherMethodsRule = (path: DocumentedPath): Rule => ({
  id: `method-others-${path.slug}`,
  title: `${path.path(undefined).replace(/\d+$/, '{petId}')} with PUT, PATCH, DELETE, FROB, QUERY, SEARCH, PROPFIND and REPORT (methods the document does not list): 405 with an Allow naming the path's methods and not the one sent, 501, or a status the document gives the path; without the key a refusal; never a change`,
  operation: path.operation,
  // A server that accepts them would store (or delete) what they say: a read-only run sends none.
  writes: true,
  severity: 'contract',
  statement: HTTP_STATEMENTS.methodNotAllowed,
  async run(context) {
    const pet = await context.existingPet();
    if (!pet) return { skipped: (await context.noPetReason()) ?? 'no id is known' };
    const before = await readBack(context, pet);
    for (const method of OTHER_METHODS) {
      const body = replacementBody(method, path, pet);
      const request = { method, path: path.path(pet), ...(body === undefined ? {} : { headers: JSON_BODY, body }) };
      judgeOtherMethod(context, await context.send(request), method, path);
      await judgeWithoutKey(context, await context.send({ ...request, auth: 'none' }), method, path.path(pet));
    }
    const after = await readBack(context, pet);
    const expected = cite(HTTP_STATEMENTS.methodNotAllowed);
    if (!after.pet) return context.fail({ message: `animal ${pet.id} is gone after ${OTHER_METHODS.join(', ')}`, expected, path: '$.status', exchange: after.read });
    for (const field of ['id', 'name', 'categoryId', 'status'] as const) expectField(context, after.read, `$.body.${field}`, after.pet[field], before.pet?.[field] ?? pet[field], HTTP_STATEMENTS.methodNotAllowed);
    if (before.listed !== undefined && after.listed !== undefined && after.listed < before.listed) {
      context.fail({ message: `listPets?limit=100 shows ${after.listed} animals after ${OTHER_METHODS.join(', ')}, ${before.listed} before`, expected, path: '$.body.length', exchange: after.page });
    }
  },
});

export const methodRules: Rule[] = DOCUMENTED_PATHS.map(otherMethodsRule);
