import type { ApiRequest, Rule, RuleContext } from '../types.js';
import type { ReceivedResponse } from '../../verdict/exchange.js';
import { cite, STATEMENTS } from './statements.js';
import { expectStatus } from './expect.js';
import { curlLine } from '../../verdict/curl-line.js';
import { HTTP_STATEMENTS } from './http-statements.js';
import { DOCUMENTED_PATHS, listed, type DocumentedPath } from './http-method-rules.js';
import { cacheDirectives, sharedWithoutKey } from '../../verdict/exchange-checks.js';

/** The field names a Vary lists, in lower case (`*` for any). */
export const varied = (response: ReceivedResponse): string[] => listed(response.headers.vary).map((name) => name.toLowerCase());

const sharedRule = (path: DocumentedPath): Rule => ({
  id: `cache-shared-${path.slug}`,
  title: `${path.operation} with the key: its answer is not made storable by a shared cache (public, s-maxage, must-revalidate while fresh) unless Vary names Authorization`,
  operation: path.operation,
  writes: false,
  severity: 'contract',
  statement: HTTP_STATEMENTS.sharedCache,
  async run(context) {
    const pet = await context.existingPet();
    const targets = path.operation === 'listPets' ? ['/pets', '/pets?limit=5'] : [path.path(pet), path.path(undefined)];
    for (const target of targets) {
      const exchange = await context.send({ method: 'GET', path: target });
      const shared = exchange.response && sharedWithoutKey(exchange.response);
      if (shared) context.fail({ message: `the answer to GET ${target} with the key has ${shared}: a shared cache gives it to a request without the key`, expected: cite(HTTP_STATEMENTS.sharedCache), path: '$.headers.cache-control', exchange });
    }
  },
});

/**
 * Request directives (RFC 9111 §5.2.1) a client sends to a cache: an
 * origin answers as always, but a cache that accepts a stale or stored
 * answer for them (max-stale, only-if-cached: OkHttp's FORCE_CACHE sends
 * both) may give the keyed answer it holds without asking the origin.
 */
const REQUEST_DIRECTIVES: readonly string[] = ['max-age=600', 'max-stale', 'max-stale=600', 'min-fresh=1', 'only-if-cached', 'only-if-cached, max-stale=2147483647', 'no-store', 'no-transform'];

/**
 * 504 to only-if-cached: "a cache SHOULD either respond using a stored
 * response … or respond with a 504 (Gateway Timeout)" (RFC 9111 §5.2.1.7),
 * which a cache holding nothing for a request without the key answers.
 */
const allowedWith = (directive: string): number[] => (directive.startsWith('only-if-cached') ? [401, 504] : [401]);

/**
 * Every request carries the fields a cache keys its copies on (Accept, and
 * Accept-Encoding, which fetch adds unseen), so each curl line of a failure,
 * pasted, asks the same copy the run did.
 */
const CACHE_KEYED: Record<string, string> = { 'accept-encoding': 'gzip, deflate' };

/** A query no other rule sends, so the keyed answer this rule asks first is the only one a cache in front may hold for it. */
const keylessRule = (path: DocumentedPath): Rule => ({
  id: `cache-keyless-${path.slug}`,
  title: `${path.operation} with the key, then at once the same URL without it, with no cache directive and with each a client may send (max-stale, only-if-cached, …): 401 (no cache in front gives the first answer to the second)`,
  operation: path.operation,
  writes: false,
  severity: 'contract',
  statement: HTTP_STATEMENTS.keylessAfterKeyed,
  async run(context) {
    const target = path.operation === 'listPets' ? '/pets?limit=7' : path.path(await context.existingPet());
    for (const auth of ['none', { authorization: 'Bearer contract-test-wrong-key' }] as const) {
      const keyed = await context.send({ method: 'GET', path: target, headers: CACHE_KEYED });
      const plain = await context.send({ method: 'GET', path: target, auth, headers: CACHE_KEYED });
      // Expected as the auth rules expect it: a key not checked is one cause, whichever rule met it.
      if (!expectStatus(context, plain, [401], STATEMENTS.authRequired)) continue;
      for (const directive of REQUEST_DIRECTIVES) {
        const asked = await context.send({ method: 'GET', path: target, auth, headers: { ...CACHE_KEYED, 'cache-control': directive } });
        const status = asked.response?.status;
        if (status === undefined || asked.response?.unread || allowedWith(directive).includes(status)) continue;
        // The keyed request that may have filled a cache, the same request without the key that got 401, then the one with the directive.
        const reproduce = { curl: [keyed, plain, asked].map((exchange) => curlLine(exchange.request)).join('\n'), seed: context.seed, case: `GET ${target} with the key, then without it, then without it with Cache-Control: ${directive}`, tried: 1, shrinks: 0 };
        context.fail({ message: `answered ${status} with Cache-Control: ${directive} and ${auth === 'none' ? 'no key' : 'a wrong key'}, where the same request without the directive got 401`, expected: `${allowedWith(directive).join(' or ')} (${cite(STATEMENTS.authRequired)}); request directives are for caches, an origin answers as always (RFC 9111 §5.2.1)`, path: '$.status', exchange: asked, reproduce });
      }
    }
  },
});

/** Two requests for the same URL that differ in one field, and what shows the target chose its answer by it. */
interface Negotiation {
  field: string;
  requests: [ApiRequest, ApiRequest];
  differ(a: ReceivedResponse, b: ReceivedResponse): boolean;
}

const NEGOTIATIONS: readonly Negotiation[] = [
  {
    field: 'accept-encoding',
    requests: [
      { method: 'GET', path: '/pets?limit=3', headers: { 'accept-encoding': 'gzip' } },
      { method: 'GET', path: '/pets?limit=3', headers: { 'accept-encoding': 'identity' } },
    ],
    differ: (a, b) => (a.headers['content-encoding'] ?? 'identity') !== (b.headers['content-encoding'] ?? 'identity'),
  },
  {
    field: 'origin',
    requests: [
      { method: 'GET', path: '/pets?limit=3', headers: { origin: 'https://one.contract-test.example' } },
      { method: 'GET', path: '/pets?limit=3', headers: { origin: 'https://two.contract-test.example' } },
    ],
    differ: (a, b) => a.headers['access-control-allow-origin'] !== b.headers['access-control-allow-origin'],
  },
];

const varyRule: Rule = {
  id: 'cache-vary',
  title: 'where listPets chooses its answer by Accept-Encoding or Origin, a storable answer says so in Vary',
  operation: 'listPets',
  writes: false,
  severity: 'advisory',
  statement: HTTP_STATEMENTS.vary,
  async run(context: RuleContext) {
    for (const { field, requests, differ } of NEGOTIATIONS) {
      const [a, b] = [await context.send(requests[0]), await context.send(requests[1])];
      if (!a.response || !b.response || !differ(a.response, b.response)) continue;
      for (const exchange of [a, b]) {
        const response = exchange.response as ReceivedResponse;
        if (cacheDirectives(response.headers['cache-control']).has('no-store')) continue;
        const vary = varied(response);
        if (!vary.includes(field) && !vary.includes('*')) {
          context.fail({ message: `the answer depends on ${field}, and its Vary (${response.headers.vary ?? 'none'}) does not name it`, expected: cite(HTTP_STATEMENTS.vary), path: '$.headers.vary', exchange });
        }
      }
    }
  },
};

export const cacheRules: Rule[] = [...DOCUMENTED_PATHS.map(sharedRule), ...DOCUMENTED_PATHS.map(keylessRule), varyRule];
