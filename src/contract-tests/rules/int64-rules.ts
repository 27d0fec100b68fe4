import { isExactInteger } from '../../shared/exact-json/int64.js';
import { stringifyExactJson } from '../../shared/exact-json/stringify-exact-json.js';
import { CREATED_NAME_PREFIX } from '../catalogue-fill.js';
import { integerEdges } from '../generate/integer-values.js';
import { inputModel } from '../generate/schema-model.js';
import type { Pet, Probe, Rule, RuleContext } from '../types.js';
import type { RecordedExchange, Finding } from '../../verdict/exchange.js';
import { JSON_BODY } from './expect.js';
import { finding, recordFailure, verdictOf } from './generated.js';
import { cite, STATEMENTS } from './statements.js';

const body = inputModel().createBody;

/** NewPet's integer fields of int64 range (the document's `format: int64`, or no format), and their values past 32 bits. */
const CASES = Object.entries(body.properties).flatMap(([field, schema]) =>
  schema.kind === 'integer' && schema.format !== 'int32' ? integerEdges(schema).filter((value) => typeof value === 'bigint' || Math.abs(value) > 2 ** 32).map((value) => ({ field, value })) : [],
);

/** The status every case is created with: its page is where the listing is read. */
const STATUS = 'sold';

type Case = (typeof CASES)[number];

/**
 * Each int64 field of NewPet at each edge past 32 bits (±2^53 and either
 * side, ±2^62, the ends of int64), in an otherwise plain NewPet. The
 * interface says int64, so refusing one of these is refusing valid data,
 * and storing, answering or listing it as another number (a double's
 * rounding, a string, a clamp) changes the animal. The cases are created at
 * once, then read at once, then found in one page of their status.
 */
async function int64Cases(context: RuleContext): Promise<Array<{ probes: Probe[]; findings: Finding[] }>> {
  const created = await Promise.all(CASES.map((c, index) => create(context, index, c)));
  const reads = await Promise.all(created.map(({ pet }) => (pet ? context.probe({ method: 'GET', path: `/pets/${pet.id}` }) : undefined)));
  const page = created.some(({ pet }) => pet) ? await context.probe({ method: 'GET', path: `/pets?status=${STATUS}&limit=100` }) : undefined;
  const listed = page && Array.isArray(page.exchange.response?.json) ? (page.exchange.response.json as Pet[]) : undefined;
  return created.map(({ probe, pet, findings }, index) => {
    const read = reads[index];
    const { field, value } = CASES[index] as Case;
    if (!pet || !read || !page) return { probes: [probe], findings };
    findings.push(...differs(read.exchange, field, value, read.exchange.response?.status === 200 ? (read.exchange.response.json as Pet) : undefined, 'getPet'));
    const found = listed?.find((p) => p?.id === pet.id);
    // A page of 100 other animals may hide it: only a shorter page must show it.
    if (found || (listed && listed.length < 100)) findings.push(...differs(page.exchange, field, value, found, `the ${STATUS} page`));
    return { probes: [probe, read, page], findings };
  });
}

/** One case's createPet: a 201 with the exact value, or a finding. */
async function create(context: RuleContext, index: number, { field, value }: Case): Promise<{ probe: Probe; pet?: Pet; findings: Finding[] }> {
  const sent: Record<string, unknown> = { name: `${CREATED_NAME_PREFIX} int64 ${context.seed} ${index}`, categoryId: 1, status: STATUS, [field]: value };
  const probe = await context.probe({ method: 'POST', path: '/pets', headers: JSON_BODY, body: stringifyExactJson(sent) });
  const answered = probe.exchange.response;
  if (answered?.status !== 201) {
    return { probe, findings: [finding(probe.exchange, `answered ${answered?.status ?? 'nothing'} to a NewPet whose ${field} is ${value}, a valid int64`, `201 (${cite(STATEMENTS.petShape)} ${cite(STATEMENTS.createSuccess)})`, '$.status')] };
  }
  const pet = answered.json as Pet | undefined;
  const findings = differs(probe.exchange, field, value, pet, 'the 201');
  return isExactInteger(pet?.id) ? { probe, pet, findings } : { probe, findings };
}

function differs(exchange: RecordedExchange, field: string, value: number | bigint, pet: Pet | undefined, where: string): Finding[] {
  const got = (pet as Record<string, unknown> | undefined)?.[field];
  if (pet !== undefined && Object.is(got, value)) return [];
  const shown = pet === undefined ? 'no such animal' : `${field} ${stringifyExactJson(got) ?? 'absent'}`;
  return [finding(exchange, `${where} shows ${shown}, created with ${field} ${value}`, `the exact int64 sent, digit for digit (${cite(STATEMENTS.petShape)})`, `$.body`)];
}

export const int64Rules: Rule[] = [
  {
    id: 'create-int64-round-trip',
    title: 'createPet with int64 values past 32 bits and past 2^53 (up to 2^63−1 and −2^63): 201, and the 201, getPet and the listing give back the exact digits',
    operation: 'createPet',
    writes: true,
    severity: 'contract',
    statement: STATEMENTS.petShape,
    async run(context) {
      for (const [index, { probes, findings }] of (await int64Cases(context)).entries()) {
        const verdict = verdictOf(probes, findings);
        const { field, value } = CASES[index] as Case;
        if (!verdict.ok) recordFailure(context, verdict.failure, { case: `createPet with ${field} ${value}`, tried: index + 1, shrinks: 0 });
      }
      return { cases: CASES.length };
    },
  },
];
