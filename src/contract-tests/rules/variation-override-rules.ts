import { CREATED_NAME_PREFIX } from '../catalogue-fill.js';
import { jsonText } from '../generate/json-text.js';
import { METHOD_OVERRIDES, overrideMethod, REWRITE_FIELDS } from '../generate/proxy-fields.js';
import type { ApiRequest, Method, Probe, Rule, RuleContext } from '../types.js';
import { JSON_BODY } from './expect.js';
import { finding, recordFailure, verdictOf } from './generated.js';
import { checkNothingStored, keepRefused, noneRefused } from './refused-creates.js';
import { cite, STATEMENTS } from './statements.js';
import { BAD_CREDENTIALS, withoutTheKey } from './variation-key.js';

/**
 * Fields that name another request than the request line's
 * (generate/proxy-fields.ts): the URL before a front end's rewrite
 * (X-Original-URL, X-Rewrite-URL, X-Envoy-Original-Path, …) and a method override (X-HTTP-Method-
 * Override, X-HTTP-Method, X-Method-Override, or `_method` in the query, as
 * HTML forms of Rails, Laravel and Symfony write it). The interface names none: a
 * server may ignore them or refuse them, with the key and alike without it,
 * but a request that carries one without the key is still without the key.
 * A key check that reads the request line while the router reads the field
 * (the IIS and Symfony X-Original-URL class; an OPTIONS exempt for CORS
 * preflights and a router honouring the override) lets it in.
 */

interface FieldCase {
  label: string;
  request: Omit<ApiRequest, 'auth'>;
  /** The request as the harness always writes it, which without the key gets 401: the report's first curl line. */
  plain: Omit<ApiRequest, 'auth'>;
}

/** Each rewrite field naming the other documented path on the two GETs, and each override field on listPets. */
function readCases(id: string): FieldCase[] {
  const [list, get] = ['/pets', `/pets/${id}`];
  const rewrites = REWRITE_FIELDS.flatMap((field) => [
    { label: `getPet ${id} with ${field}: (the base path)/pets`, request: { method: 'GET' as const, path: get, pathFields: { [field]: list } }, plain: { method: 'GET' as const, path: get } },
    { label: `listPets with ${field}: (the base path)/pets/${id}`, request: { method: 'GET' as const, path: list, pathFields: { [field]: get } }, plain: { method: 'GET' as const, path: list } },
  ]);
  // The request's own method: a server that honours the field answers as without it; one that skips the key for it shows.
  const overrides = METHOD_OVERRIDES.map((override) => {
    const { path, headers, label } = overrideMethod(override, 'GET', list);
    return { label: `listPets with ${label}`, request: { method: 'GET' as const, path, headers }, plain: { method: 'GET' as const, path: list } };
  });
  return [...rewrites, ...overrides];
}

/** Sent with the key, then without it and with a wrong one: 401, or the refusal the key got (the field refused before the key is read). */
async function judgeRead(context: RuleContext, c: FieldCase, tried: number): Promise<void> {
  const keyed = await context.probe({ ...c.request, auth: 'key' });
  const keyless = await withoutTheKey((auth) => context.probe({ ...c.request, auth }), (auth) => context.probe({ ...c.plain, auth }), keyed.exchange.response?.status, true);
  // With the key the field may be honoured (another operation's answer) or refused: only the answers without the key are judged.
  const verdict = verdictOf(keyless.probes, keyless.findings);
  if (!verdict.ok) recordFailure(context, verdict.failure, { case: `${c.label} (with the key: ${keyed.exchange.response?.status ?? 'no answer'})`, tried, shrinks: 0 });
}

const readRule: Rule = {
  id: 'vary-rewrite-fields',
  title: 'listPets and getPet with a rewrite field (X-Original-URL, X-Rewrite-URL, X-Envoy-Original-Path, X-Forwarded-Uri, X-Original-URI, X-Forwarded-Path) naming the other path, or a method override (a field or `_method`): with the key answered or refused, without the key or with a wrong one 401 (or the same refusal)',
  operation: 'getPet',
  writes: false,
  severity: 'contract',
  statement: STATEMENTS.authRequired,
  async run(context) {
    const pet = await context.existingPet();
    const cases = readCases(String(pet?.id ?? 1));
    for (const [i, c] of cases.entries()) await judgeRead(context, c, i + 1);
    return { cases: cases.length };
  },
};

/** What a request may get without the key that lets nothing in: 401, a refusal, or an answer with no content (a preflight's 204). */
const letIn = (probe: Probe): boolean => {
  const response = probe.exchange.response;
  return response !== undefined && response.status >= 200 && response.status < 300 && (response.status === 201 || response.body.trim() !== '');
};

const createRule: Rule = {
  id: 'vary-method-override-create-pet',
  title: 'OPTIONS and GET /pets with a method override (a field or `_method`) naming POST and a NewPet, without the key or with a wrong one: refused (401 or another refusal), nothing stored',
  operation: 'createPet',
  writes: true,
  severity: 'contract',
  statement: STATEMENTS.authRequired,
  async run(context) {
    const run = `${CREATED_NAME_PREFIX} refused-override ${Date.now().toString(36)}`;
    const refused = noneRefused();
    let made = 0;
    const cases = (['OPTIONS', 'GET'] as Method[]).flatMap((method) => METHOD_OVERRIDES.flatMap((override) => BAD_CREDENTIALS.map((credentials) => ({ method, override, credentials }))));
    let shown = false;
    for (const [i, { method, override, credentials }] of cases.entries()) {
      const body = jsonText({ name: `${run} ${made++}`, categoryId: 1, status: 'available' });
      const { path, headers, label } = overrideMethod(override, 'POST', '/pets');
      const probe = await context.probe({ method, path, headers: { ...JSON_BODY, ...headers }, body, auth: credentials.auth });
      // Whatever it was answered, the animal must not be stored: read back afterwards.
      if (probe.exchange.response) keepRefused(refused, body, probe.exchange);
      // One failing case is enough to show: the others are still read back.
      if (shown || !letIn(probe)) continue;
      shown = true;
      const plain = await context.probe({ method: 'POST', path: '/pets', headers: JSON_BODY, body: jsonText({ name: `${run} ${made++}`, categoryId: 1, status: 'available' }), auth: credentials.auth });
      if (plain.exchange.response) keepRefused(refused, plain.exchange.request.body as string, plain.exchange);
      const status = probe.exchange.response?.status;
      const failure = verdictOf([plain, probe], [finding(probe.exchange, `answered ${status} to ${method} /pets with ${label} and a NewPet, with ${credentials.what}, where POST without it got ${plain.exchange.response?.status}`, `401 or a refusal, and nothing stored (${cite(STATEMENTS.authRequired)})`, '$.status')]);
      if (!failure.ok) recordFailure(context, failure.failure, { case: `${method} /pets with ${label} and a NewPet, with ${credentials.what}`, tried: i + 1, shrinks: 0 });
    }
    return { cases: cases.length + (refused.names.size ? await checkNothingStored(context, refused, 'a request with a method override sent without the key') : 0) };
  },
};

export const overrideRules: Rule[] = [readRule, createRule];
