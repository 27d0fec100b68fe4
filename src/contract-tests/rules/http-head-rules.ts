import type { ApiRequest, Rule, RuleContext } from '../types.js';
import type { RecordedExchange } from '../../verdict/exchange.js';
import { curlLine } from '../../verdict/curl-line.js';
import { cite } from './statements.js';
import { HTTP_STATEMENTS } from './http-statements.js';
import { DOCUMENTED_PATHS, listed, type DocumentedPath } from './http-method-rules.js';
import { carriesPet } from './operation-data.js';

/** Fields whose value comes from the content, which an answer to HEAD MAY leave out (RFC 9110 §9.3.2), or from the moment and the connection. */
const FROM_CONTENT = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'etag', 'last-modified', 'date', 'connection', 'keep-alive']);

/** Judges an answer to HEAD against the GET beside it: the same status, no content, a connection that still answers. */
function judgeHead(context: RuleContext, head: RecordedExchange, get: RecordedExchange, what: string): void {
  const [headed, got] = [head.response, get.response];
  if (!headed || !got) return;
  const expected = cite(HTTP_STATEMENTS.head);
  // A 5xx to either is a finding of its own, the checks of every exchange's.
  // Both requests replay the difference: the GET as sent beside it, then the HEAD (without the key, a HEAD let in where GET got 401).
  const reproduce = { curl: [curlLine(get.request), curlLine(head.request)].join('\n'), seed: context.seed, case: `GET ${what}, then HEAD`, tried: 1, shrinks: 0 };
  if (headed.status !== got.status && headed.status < 500 && got.status < 500) context.fail({ message: `HEAD ${what} answered ${headed.status}, GET ${got.status}`, expected, path: '$.status', exchange: head, reproduce });
  const afterward = headed.afterward;
  const content = afterward ? afterward.content : headed.body;
  if (content !== '') context.fail({ message: `the answer to HEAD ${what} sent ${Buffer.byteLength(content, 'latin1')} bytes of content`, expected, path: '$.body', exchange: head });
  if (afterward && !afterward.closes && afterward.next === undefined) {
    context.fail({ message: `after its answer to HEAD ${what}, the connection answered no other request (${afterward.broken}), without Connection: close`, expected, path: '$', exchange: head });
  }
}

const headRule = (path: DocumentedPath): Rule => ({
  id: `method-head-${path.slug}`,
  title: `HEAD ${path.path(undefined).replace(/\d+$/, '{petId}')}, with the key and without: GET's status, no content, and the connection answers again`,
  operation: path.operation,
  writes: false,
  severity: 'contract',
  statement: HTTP_STATEMENTS.head,
  async run(context) {
    const target = path.path(await context.existingPet());
    for (const auth of ['key', 'none'] as const) {
      const get = await context.send({ method: 'GET', path: target, auth });
      const head = await context.send({ method: 'HEAD', path: target, auth, connection: 'reused' });
      judgeHead(context, head, get, `${target}${auth === 'none' ? ' without the key' : ''}`);
    }
  },
});

const headFieldsRule: Rule = {
  id: 'method-head-fields',
  title: "HEAD answers carry GET's fields (those a server may leave out as they come from the content aside), on /pets and /pets/{petId}",
  operation: 'listPets',
  writes: false,
  severity: 'advisory',
  statement: HTTP_STATEMENTS.headFields,
  async run(context) {
    const pet = await context.existingPet();
    for (const path of DOCUMENTED_PATHS) {
      const get = await context.send({ method: 'GET', path: path.path(pet) });
      const head = await context.send({ method: 'HEAD', path: path.path(pet) });
      if (!get.response || !head.response || get.response.status !== head.response.status) continue;
      const missing = Object.keys(get.response.headers).filter((name) => !FROM_CONTENT.has(name) && !(name in (head.response?.headers ?? {})));
      if (missing.length) context.fail({ message: `HEAD ${path.path(pet)} leaves out ${missing.join(', ')}, which GET sends`, expected: cite(HTTP_STATEMENTS.headFields), path: '$.headers', exchange: head });
    }
  },
};

/** A page's origin, as a browser sends it: no target allows it by name, so only an answer to any origin (or one reflecting it) shows CORS. */
const ORIGIN = 'https://contract-test.example';
/** The headers a browser's request to the API carries that are not CORS-safelisted: the key, and a JSON body's type. */
const REQUEST_HEADERS = ['authorization', 'content-type'];
const SAFELISTED = new Set(['GET', 'HEAD', 'POST']);

/** What a preflight for `method` was answered that a browser would refuse (Fetch standard, CORS-preflight fetch). */
function refusedPreflight(answer: RecordedExchange, method: string): string | undefined {
  const response = answer.response;
  if (!response) return undefined;
  if (response.status < 200 || response.status > 299) return `answered ${response.status}, not an ok status`;
  const { headers } = response;
  const origin = headers['access-control-allow-origin'];
  if (origin !== '*' && origin !== ORIGIN) return `Access-Control-Allow-Origin is ${origin === undefined ? 'missing' : JSON.stringify(origin)}`;
  const methods = listed(headers['access-control-allow-methods']);
  if (!SAFELISTED.has(method) && !methods.includes(method) && !methods.includes('*')) return `Access-Control-Allow-Methods (${headers['access-control-allow-methods'] ?? 'none'}) leaves out ${method}`;
  const allowed = listed(headers['access-control-allow-headers']).map((name) => name.toLowerCase());
  // A * covers every header but Authorization, which must be named (a CORS non-wildcard request-header name).
  const left = REQUEST_HEADERS.filter((name) => !allowed.includes(name) && !(name !== 'authorization' && allowed.includes('*')));
  return left.length ? `Access-Control-Allow-Headers (${headers['access-control-allow-headers'] ?? 'none'}) leaves out ${left.join(' and ')}` : undefined;
}

/** A browser's preflight for `method` on `target`: OPTIONS with Origin and the Access-Control-Request-* fields, never the key (Fetch standard). */
const preflightRequest = (target: string, method: string): ApiRequest => ({ method: 'OPTIONS', path: target, auth: 'none', headers: { origin: ORIGIN, 'access-control-request-method': method, 'access-control-request-headers': REQUEST_HEADERS.join(', ') } });

const preflightRule: Rule = {
  id: 'cors-preflight',
  title: 'where a GET with Origin is answered for CORS, a preflight without the key allows the documented methods with Authorization and Content-Type (the interface says nothing of browsers)',
  operation: 'listPets',
  writes: false,
  severity: 'advisory',
  statement: HTTP_STATEMENTS.preflight,
  async run(context) {
    const pet = await context.existingPet();
    let judged = false;
    for (const path of DOCUMENTED_PATHS) {
      const target = path.path(pet);
      // Judged where the GET with the key is answered for CORS, as a browser's would be: a 2xx (with a wrong key, no preflight is judged).
      const get = await context.send({ method: 'GET', path: target, headers: { origin: ORIGIN } });
      const status = get.response?.status ?? 0;
      if (status < 200 || status > 299 || get.response?.headers['access-control-allow-origin'] === undefined) continue;
      judged = true;
      for (const method of path.methods) {
        const answer = await context.send(preflightRequest(target, method));
        const refused = refusedPreflight(answer, method);
        if (refused) context.fail({ message: `the preflight for ${method} ${target} ${refused}`, expected: cite(HTTP_STATEMENTS.preflight), path: '$', exchange: answer });
      }
    }
    if (!judged) return { skipped: `not judged: no 2xx with Access-Control-Allow-Origin to a GET with the key and Origin: ${ORIGIN} (the target answers no CORS)` };
  },
};

/**
 * The preflight a browser sends before every cross-origin call with the
 * key is answered without the key, as it must be; but its answer is no
 * operation's: a server whose key check exempts it and whose handler then
 * serves it as GET gives the catalogue to anyone. Judged on every target,
 * CORS or not: the CORS fields stay the advisory rule's.
 */
const preflightWithoutDataRule: Rule = {
  id: 'cors-preflight-no-data',
  title: "a browser's CORS preflight (OPTIONS with Origin and Access-Control-Request-Method, without the key) on /pets and /pets/{petId} is answered without an animal's data",
  operation: 'listPets',
  writes: false,
  severity: 'contract',
  statement: HTTP_STATEMENTS.preflightWithoutData,
  async run(context) {
    const pet = await context.existingPet();
    for (const path of DOCUMENTED_PATHS) {
      const target = path.path(pet);
      for (const method of path.methods) {
        const answer = await context.send(preflightRequest(target, method));
        if (!carriesPet(answer.response)) continue;
        // Beside it, the request it prepares without the key, as a browser would send it next: 401 there, the data here.
        const plain = await context.send({ method: 'GET', path: target, auth: 'none', headers: { origin: ORIGIN } });
        const reproduce = { curl: [curlLine(plain.request), curlLine(answer.request)].join('\n'), seed: context.seed, case: `GET ${target} without the key, then the preflight for ${method}`, tried: 1, shrinks: 0 };
        context.fail({ message: `the preflight for ${method} ${target}, without the key, answered ${answer.response?.status} with an animal's data, where GET without the key got ${plain.response?.status}`, expected: `401, or an answer without an operation's data (a 204, CORS fields) (${cite(HTTP_STATEMENTS.preflightWithoutData)})`, path: '$.body', exchange: answer, reproduce });
      }
    }
  },
};

export const headRules: Rule[] = [...DOCUMENTED_PATHS.map(headRule), headFieldsRule, preflightRule, preflightWithoutDataRule];
