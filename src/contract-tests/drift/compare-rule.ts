import { isExactInteger } from '../../shared/exact-json/int64.js';
import { stringifyExactJson } from '../../shared/exact-json/stringify-exact-json.js';
import { keyOf, questionOf } from '../silent-log.js';
import type { ApiRequest } from '../types.js';
import type { RecordedExchange } from '../../verdict/exchange.js';
import { facetsOf, shapeOf } from './answer-facets.js';
import type { RuleTraffic } from './pair-recorder.js';

/** One case answered differently by the two targets, at one facet or one silent point. */
export interface Difference {
  kind: 'silent' | 'answer';
  cause: string;
  a: string;
  b: string;
  /** The case on each target; undefined for a silent answer noted without one request that shows it. */
  pair?: { a: Paired; b: Paired };
  /** The note of a silent answer without one request that shows it. */
  notes?: { a: string; b: string };
  /** An answer's facet (`status`, `code`, `body`, a header's name). */
  facet?: string;
  /** For an answer difference: the silent difference of the same exchange that names its cause. */
  explainedBy?: Difference;
}

export interface Paired {
  request: ApiRequest;
  exchange: RecordedExchange;
}

export interface RuleComparison {
  differences: Difference[];
  /** Pairs of exchanges compared. */
  compared: number;
  /** Where the two targets' cases stopped being the same request, after an earlier difference took the rule another way. */
  outOfStep?: string;
}

interface Side {
  requests: ApiRequest[];
  exchanges: RecordedExchange[];
  /** Each animal created in the case: its id → the create's place among the case's creates, and the request's. */
  created: Map<string, { ordinal: number; at: number }>;
  /** The create's place of each createPet request. */
  createOf: Map<number, number>;
  base: string;
}

const PET_PATH = /^\/pets\/(-?\d+)(?=$|[?#])/;

/**
 * Compares one rule's exchanges on two targets in the order the rule sent
 * them: the seed fixes the cases, so the n-th request of each is the same
 * case. Ids are mapped by the order of creates: an animal created on A and
 * its twin on B are read as one; a read of a twin whose create already
 * differed is that difference again, not a new one.
 */
export async function compareRule(a: RuleTraffic, b: RuleTraffic, bases: { a: string; b: string }): Promise<RuleComparison> {
  const sides = { a: await sideOf(a, bases.a), b: await sideOf(b, bases.b) };
  if (!sides.a || !sides.b) return { differences: [], compared: 0, outOfStep: 'a request of the rule did not finish' };
  const [sa, sb] = [sides.a, sides.b];
  const differences: Difference[] = [];
  const differingCreates = new Set<number>();
  const { pairs, outOfStep } = align(sa, sb);
  let compared = 0;
  const explained = new Map<number, Difference[]>();
  for (const [ia, ib] of pairs) {
    const ra = sa.requests[ia] as ApiRequest;
    const twin = twinOf(sa, ra, ia);
    if (twin !== undefined && differingCreates.has(twin)) continue;
    compared++;
    const found = compareExchanges(sa, sb, ia, ib, twin !== undefined || ra.method === 'POST');
    if (found.length > 0 && sa.createOf.has(ia)) differingCreates.add(sa.createOf.get(ia) as number);
    differences.push(...found);
  }
  const silent = compareSilent(a, b, sa, sb, new Map(pairs.map(([ia, ib]) => [ib, ia])), outOfStep === undefined, explained);
  for (const d of differences) d.explainedBy = (explained.get(sa.exchanges.indexOf(d.pair?.a.exchange as RecordedExchange)) ?? []).find((s) => explains(s, d));
  return { differences: [...silent, ...differences], compared, ...(outOfStep ? { outOfStep } : {}) };
}

/**
 * The requests of the two sides that are the same case, as index pairs.
 * In step, the n-th of each. A create one target accepted and the other
 * refused takes the rule down two paths (a create refused is not read
 * back): both sides go on from their next create, the reads between left
 * unpaired, so one refusal does not leave the rest of the rule
 * uncompared, nor pair one side's read-back with another read. Reads left
 * over at the end on one side are such reads. Where requests differ
 * otherwise, the cases part there.
 */
function align(sa: Side, sb: Side): { pairs: Array<[number, number]>; outOfStep?: string } {
  const [ra, rb] = [sa.requests, sb.requests];
  const pairs: Array<[number, number]> = [];
  let [i, j] = [0, 0];
  while (i < ra.length && j < rb.length) {
    const [qa, qb] = [ra[i] as ApiRequest, rb[j] as ApiRequest];
    if (stepKey(qa) !== stepKey(qb)) return { pairs, outOfStep: `request ${i + 1}: ${qa.method} ${qa.path} on A, ${qb.method} ${qb.path} on B` };
    pairs.push([i, j]);
    const parted = qa.method === 'POST' && accepted(sa.exchanges[i]) !== accepted(sb.exchanges[j]);
    [i, j] = parted ? [nextCreate(ra, i + 1), nextCreate(rb, j + 1)] : [i + 1, j + 1];
  }
  const readsOnly = (requests: readonly ApiRequest[], from: number) => requests.slice(from).every((r) => r.method !== 'POST');
  if (!readsOnly(ra, i) || !readsOnly(rb, j)) return { pairs, outOfStep: `${ra.length} requests on A, ${rb.length} on B` };
  return { pairs };
}

/** Whether a create stored something: a 2xx. */
const accepted = (exchange: RecordedExchange | undefined): boolean => {
  const status = exchange?.response?.status;
  return status !== undefined && status >= 200 && status < 300;
};

/** The index of the first create at or after `from` (past the end when none is left). */
function nextCreate(requests: readonly ApiRequest[], from: number): number {
  for (let k = from; k < requests.length; k++) if (requests[k]?.method === 'POST') return k;
  return requests.length;
}

async function sideOf(traffic: RuleTraffic, base: string): Promise<Side | undefined> {
  const settled = await Promise.allSettled(traffic.probes.map((p) => p.probed));
  if (settled.some((s) => s.status === 'rejected')) return undefined;
  const exchanges = settled.map((s) => (s as PromiseFulfilledResult<{ exchange: RecordedExchange }>).value.exchange);
  const created = new Map<string, { ordinal: number; at: number }>();
  const createOf = new Map<number, number>();
  exchanges.forEach((exchange, i) => {
    if (traffic.probes[i]?.request.method !== 'POST') return;
    createOf.set(i, createOf.size);
    const id = (exchange.response?.json as { id?: unknown } | undefined)?.id;
    if (exchange.response?.status === 201 && isExactInteger(id)) created.set(String(id), { ordinal: createOf.size - 1, at: i });
  });
  return { requests: traffic.probes.map((p) => p.request), exchanges, created, createOf, base };
}

/**
 * The case a request is, without the ids that differ between targets. The
 * body is left out: fixed rules name their animals uniquely per run, so
 * twins' names differ though they are the same case.
 */
const stepKey = (request: ApiRequest): string => `${request.method} ${request.path.replace(/\/pets\/-?\d+(?=$|[?#/])/, '/pets/{id}')}${request.case === undefined ? '' : ` (${request.case})`}`;

/**
 * The place among the case's creates of the animal a read asks for, when
 * the case created it before the read. A read of an id before its create
 * (asked ahead) is not a twin's: which id comes next depends on what other
 * rules create meanwhile.
 */
function twinOf(side: Side, request: ApiRequest, at: number): number | undefined {
  const id = PET_PATH.exec(request.path)?.[1];
  const created = id === undefined ? undefined : side.created.get(id);
  return created !== undefined && created.at < at ? created.ordinal : undefined;
}

/**
 * The facets that differ. A body is compared member by member only for the
 * twins a case created; an animal it did not create, or a page, may hold
 * other animals on each target, so only the members both hold are compared.
 */
function compareExchanges(sa: Side, sb: Side, i: number, j: number, strict: boolean): Difference[] {
  const [ea, eb] = [sa.exchanges[i] as RecordedExchange, sb.exchanges[j] as RecordedExchange];
  const fa = facetsOf(ea, sa.base);
  const fb = facetsOf(eb, sb.base);
  if (!strict) [fa.body, fb.body] = commonShapes(ea.response?.json, eb.response?.json, fa.body as string, fb.body as string);
  // A target in a form the interface is silent on names no operation (`GET /v1\\pets`), even where a URL parser reads it as one.
  const operation = (sa.requests[i]?.otherPath ? undefined : ea.operation) ?? `${ea.request.method} ${sa.requests[i]?.path}`;
  const pair = { a: { request: sa.requests[i] as ApiRequest, exchange: ea }, b: { request: sb.requests[j] as ApiRequest, exchange: eb } };
  const answer = (f: Record<string, string>) => (f.code === undefined ? f.status : `${f.status} ${f.code}`) as string;
  // An id the case did not create may exist on one target and not the other (other rules create at the same time): which animals exist.
  if (!strict && PET_PATH.test(pair.a.request.path) && [fa.status, fb.status].sort().join() === '200,404') return [];
  // Another status: its headers and body follow from it, so the status (with the Error code) is the one difference.
  if (fa.status !== fb.status) return [{ kind: 'answer', cause: `${operation}: status`, a: answer(fa), b: answer(fb), pair }];
  const defaulted = fa.status === '201' && fa.body !== fb.body ? defaultStatusOf(pair) : undefined;
  if (defaulted && defaulted.a !== defaulted.b) return [{ kind: 'silent', cause: questionOf('default-status'), ...defaulted, pair }];
  return [...new Set([...Object.keys(fa), ...Object.keys(fb)])]
    .filter((facet) => (fa[facet] ?? 'absent') !== (fb[facet] ?? 'absent'))
    .map((facet) => ({ kind: 'answer' as const, facet, cause: `${operation} ${fa.status}: ${FACET_NAMES[facet] ?? `header ${facet}`}`, a: fa[facet] ?? 'absent', b: fb[facet] ?? 'absent', pair }));
}

/**
 * A created animal's status, in the silent log's words, when the case sent
 * none: whichever rule created it, a difference there is the default status,
 * the point the interface leaves open.
 */
function defaultStatusOf(pair: { a: Paired; b: Paired }): { a: string; b: string } | undefined {
  let sent: unknown;
  try {
    sent = JSON.parse(pair.a.request.body ?? '');
  } catch {
    return undefined;
  }
  if (sent === null || typeof sent !== 'object' || 'status' in sent) return undefined;
  const statusOf = (p: Paired) => {
    const status = (p.exchange.response?.json as { status?: unknown } | undefined)?.status;
    return status === undefined ? 'left out' : `status ${stringifyExactJson(status)}`;
  };
  return { a: statusOf(pair.a), b: statusOf(pair.b) };
}

const FACET_NAMES: Record<string, string> = { code: 'Error code', body: 'body shape' };

/** Two bodies' shapes over the members both hold (objects), or as they are; a page with no animals fits any page. */
function commonShapes(ja: unknown, jb: unknown, sa: string, sb: string): [string, string] {
  if ((sa === '[]' && sb.startsWith('[')) || (sb === '[]' && sa.startsWith('['))) return ['[]', '[]'];
  const object = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!object(ja) || !object(jb)) return [sa, sb];
  const pick = (o: Record<string, unknown>, other: object) => Object.fromEntries(Object.entries(o).filter(([name]) => name in other));
  return [shapeOf(pick(ja, jb)), shapeOf(pick(jb, ja))];
}

/**
 * Whether a silent difference names the cause of an answer's difference on
 * the same exchange: `Location` is its own point, the status of an animal
 * created without one shows in the body, and every other point is about
 * the status and the Error that came back.
 */
function explains(silent: Difference, answer: Difference): boolean {
  if (silent.cause === questionOf('location')) return answer.facet === 'Location';
  if (silent.cause === questionOf('default-status')) return answer.facet === 'body';
  return answer.facet === undefined || answer.facet === 'code' || answer.facet === 'body';
}

/**
 * The silent points each target noted, paired by the request that showed
 * them (or, for a note without one, by the order of the point's notes). A
 * differing answer explains the other facets of its exchange: the point
 * names the cause.
 */
function compareSilent(a: RuleTraffic, b: RuleTraffic, sa: Side, sb: Side, bToA: ReadonlyMap<number, number>, inStep: boolean, explained: Map<number, Difference[]>): Difference[] {
  // B's notes are keyed by the place of A's request of the same case: an exchange of B no A's pairs with is left out.
  const keyed = (traffic: RuleTraffic, side: Side, place: (index: number) => number | undefined) => {
    const notes = new Map<string, number>();
    const out = new Map<string, { answer: string; index: number | undefined; note: string | undefined; point: RuleTraffic['observations'][number]['point'] }>();
    for (const { point, answer, example } of traffic.observations) {
      const index = typeof example === 'string' ? undefined : side.exchanges.indexOf(example);
      const paired = index === undefined ? undefined : place(index);
      if (index !== undefined && paired === undefined) continue;
      const at = paired ?? `note ${notes.set(keyOf(point), (notes.get(keyOf(point)) ?? 0) + 1).get(keyOf(point))}`;
      out.set(`${keyOf(point)} ${at}`, { answer, index, point, note: typeof example === 'string' ? example : undefined });
    }
    return out;
  };
  const pairedOnA = new Set(bToA.values());
  const [ka, kb] = [keyed(a, sa, (i) => (pairedOnA.has(i) ? i : undefined)), keyed(b, sb, (j) => bToA.get(j))];
  const differences: Difference[] = [];
  for (const [key, oa] of ka) {
    const ob = kb.get(key);
    if (!ob || ob.answer === oa.answer) continue;
    const difference: Difference = { kind: 'silent', cause: questionOf(oa.point), a: oa.answer, b: ob.answer };
    if (oa.index === undefined || ob.index === undefined) {
      // A note without a request is the whole rule's: comparable only when the rule stayed in step to its end.
      if (!inStep) continue;
      differences.push({ ...difference, notes: { a: oa.note ?? '', b: ob.note ?? '' } });
      continue;
    }
    const at = (side: Side, index: number): Paired => ({ request: side.requests[index] as ApiRequest, exchange: side.exchanges[index] as RecordedExchange });
    const found: Difference = { ...difference, pair: { a: at(sa, oa.index), b: at(sb, ob.index) } };
    explained.set(oa.index, [...(explained.get(oa.index) ?? []), found]);
    differences.push(found);
  }
  return differences;
}
