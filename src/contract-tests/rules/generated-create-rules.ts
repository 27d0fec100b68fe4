import fc from 'fast-check';
import { CREATED_NAME_PREFIX } from '../catalogue-fill.js';
import { jsonText } from '../generate/json-text.js';
import { badValues } from '../generate/negative-values.js';
import { arbitraryFor, boundaryObjects, describeValue, harmlessValue } from '../generate/positive-values.js';
import { inputModel } from '../generate/schema-model.js';
import type { RefusalAllowance } from '../allow-refusal.js';
import { acceptedSpace } from '../generate/accepted-space.js';
import { answerOf } from '../silent-log.js';
import type { Pet, Probe, Rule, RuleContext } from '../types.js';
import type { RecordedExchange } from '../../verdict/exchange.js';
import { ACCEPTANCE } from './acceptance-statements.js';
import { JSON_BODY } from './expect.js';
import { judgeValidRefusal, nothingAccepted, rememberAccepted, type Accepted } from './refusal-boundary.js';
import { finding, recordFailure, searchAndRecord, verdictOf, type Verdict } from './generated.js';
import { cite, STATEMENTS } from './statements.js';
import { stringifyExactJson } from '../../shared/exact-json/stringify-exact-json.js';
import { isExactInteger } from '../../shared/exact-json/int64.js';
import { defaultStatusNote, locationNote, PAST_INT64 } from '../../shared/profile/learn/noted-answers.js';
import { codePoints } from '../../shared/code-points.js';
import { noNameLengths, observeLengths, probeNameBoundary, type NameLengths } from './name-boundary.js';

const model = inputModel();
const body = model.createBody;
type NewPet = Record<string, unknown>;

const post = (context: RuleContext, text: string, headers: Record<string, string> = JSON_BODY) => context.probe({ method: 'POST', path: '/pets', headers, body: text });

/**
 * One positive case: the body as generated, then getPet of the assigned id,
 * then the page of its status when that page shows every animal of the
 * status. Each must give back exactly what was sent; a field left out must
 * read the same in all three. A refusal passes only inside the boundary of
 * what a server may refuse (refusal-boundary.ts: a long name or body, a
 * category, a rate limit, or what the target's owner declared) and is reported.
 */
async function roundTrip(context: RuleContext, sent: NewPet, lengths: NameLengths, accepted: Accepted): Promise<Verdict> {
  const text = stringifyExactJson(sent);
  const created = await post(context, text);
  const response = created.exchange.response;
  const name = typeof sent.name === 'string' ? codePoints(sent.name) : 0;
  lengths.sent = Math.max(lengths.sent, name);
  if (response !== undefined && response.status >= 400 && response.status < 500 && !response.unread) {
    const refusal = judgeValidRefusal(sent, text, created.exchange, context.allowance, accepted);
    // Only a refusal the length may explain says how long a name may be (not an empty name, nor one already taken): the boundary probe checks it.
    if (refusal.byLength && name < lengths.refused) Object.assign(lengths, { refused: name, refusedBy: created.exchange });
    if (!refusal.inside) {
      return verdictOf([created], [finding(created.exchange, `refused a valid NewPet with ${answerOf(created.exchange)}: ${refusal.why}`, `201 (${cite(ACCEPTANCE.validAccepted)})`, '$.status', refusal.byLength && 'name-length')]);
    }
    context.observe('valid-refused', `${answerOf(created.exchange)}: ${refusal.how}, ${refusal.point}`, created.exchange);
    return verdictOf([created]);
  }
  if (response?.status !== 201) {
    return verdictOf([created], [finding(created.exchange, `answered ${response?.status ?? 'nothing'} to a valid NewPet`, `201, or a clear 400 where the interface is silent (${cite(STATEMENTS.createSuccess)})`, '$.status')]);
  }
  rememberAccepted(accepted, sent);
  if (name > lengths.accepted) Object.assign(lengths, { accepted: name, acceptedBy: created.exchange });
  context.observe('location', locationNote.say(response.headers.location), created.exchange);
  const pet = (response.json ?? undefined) as Pet | undefined;
  const problems = differences(created.exchange, sent, pet, undefined, STATEMENTS.createSuccess.text);
  if (!isExactInteger(pet?.id)) return verdictOf([created], problems);
  if (!('status' in sent)) context.observe('default-status', defaultStatusNote.say(pet.status), created.exchange);
  const read = await context.probe({ method: 'GET', path: `/pets/${pet.id}` });
  const got = read.exchange.response?.status === 200 ? (read.exchange.response.json as Pet) : undefined;
  if (!got) problems.push(finding(read.exchange, `getPet of the created id ${pet.id} answered ${read.exchange.response?.status ?? 'nothing'}`, cite(STATEMENTS.getSuccess), '$.status'));
  else problems.push(...differences(read.exchange, sent, got, pet, STATEMENTS.getSuccess.text));
  const probes = [created, read];
  if (typeof pet.status === 'string') {
    const page = await context.probe({ method: 'GET', path: `/pets?status=${encodeURIComponent(pet.status)}&limit=100` });
    probes.push(page);
    const pets = Array.isArray(page.exchange.response?.json) ? (page.exchange.response.json as Pet[]) : undefined;
    const listed = pets?.find((p) => p?.id === pet.id);
    if (listed) problems.push(...differences(page.exchange, sent, listed, pet, STATEMENTS.statusFilter.text));
    else if (pets && pets.length < 100) problems.push(finding(page.exchange, `animal ${pet.id} is missing from the ${pets.length} ${pet.status} animals listed`, cite(STATEMENTS.statusFilter), '$.body'));
  }
  return verdictOf(probes, problems);
}

/** Fields that differ from what was sent (or, for fields not sent, from the 201 answer). */
function differences(exchange: RecordedExchange, sent: NewPet, got: Pet | undefined, answered: Pet | undefined, statement: string) {
  if (got === undefined || got === null || typeof got !== 'object') return [finding(exchange, 'no Pet in the answer', statement, '$.body')];
  const out = [];
  for (const field of Object.keys(body.properties)) {
    const expected = field in sent ? sent[field] : answered?.[field as keyof Pet];
    if (field in sent || answered) {
      const actual = got[field as keyof Pet];
      if (!Object.is(actual, expected)) out.push(finding(exchange, `${field} is ${describeDifference(actual, expected)}`, `the animal exactly as sent (${statement})`, `$.body.${field}`));
    }
  }
  if (answered && got.id !== answered.id) out.push(finding(exchange, `id is ${got.id}, created ${answered.id}`, statement, '$.body.id'));
  return out;
}

/**
 * The valid NewPet each boundary and negative case changes one field of:
 * plain values from the document's schema, whose name marks it as the
 * harness's should a server store a case it should have refused.
 */
const HARMLESS = harmlessValue(body) as NewPet;

/**
 * A name one code point past a declared limit: the boundaries no longer go
 * past it (what is declared refused is not searched), but a refusal there
 * must still be a clear one, and an acceptance still exact.
 */
const pastDeclaredLimit = (allowance: RefusalAllowance, base: NewPet): NewPet[] => (allowance.nameMaxLength === undefined ? [] : [{ ...base, name: 'x'.repeat(allowance.nameMaxLength + 1) }]);

/**
 * Two values that differ, in words. Strings that print alike (NFC against
 * NFD, a lost BOM or zero-width joiner) are shown with their code points
 * outside ASCII escaped, so the difference can be seen.
 */
function describeDifference(actual: unknown, sent: unknown): string {
  const alike = typeof actual === 'string' && typeof sent === 'string' && actual.normalize('NFKC').replace(/[\u200b-\u200d\ufeff]/g, '') === sent.normalize('NFKC').replace(/[\u200b-\u200d\ufeff]/g, '');
  const show = (value: unknown) => (alike ? escapeNonAscii(describeValue(value)) : describeValue(value));
  return `${show(actual)}, sent ${show(sent)}`;
}

const escapeNonAscii = (text: string) => text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A NewPet in words: long strings by their length. */
const describeBody = (pet: NewPet): string => `{${Object.entries(pet).map(([k, v]) => `${k}: ${describeValue(v)}`).join(', ')}}`;

/**
 * The cases whose name is the base's, each given a name of its own: a
 * server may refuse a name it already holds (refusal-boundary.ts), which
 * would otherwise excuse any refusal of the second case on, whatever else
 * it was refused for.
 */
const ownNames = (cases: Array<Record<string, unknown>>, name: unknown): Array<Record<string, unknown>> =>
  cases.map((pet, index) => (pet.name === name && typeof name === 'string' ? { ...pet, name: `${name} ${index + 1}` } : pet));

export const generatedCreateRules: Rule[] = [
  {
    id: 'create-generated-round-trip',
    title: 'generated valid NewPets (boundaries and random) come back exactly from createPet, getPet and the listing',
    operation: 'createPet',
    writes: true,
    severity: 'contract',
    statement: STATEMENTS.createSuccess,
    async run(context) {
      const lengths = noNameLengths();
      const accepted = nothingAccepted();
      // A category the target holds: never one it may call unknown, and the one cases use when categoryId.known is declared.
      const held = (await context.existingPet())?.categoryId;
      if (typeof held === 'number') accepted.categoryIds.add(held);
      const space = acceptedSpace(body, context.allowance, typeof held === 'number' ? held : undefined);
      const base = { ...HARMLESS, ...(context.allowance.categoryKnown && typeof held === 'number' ? { categoryId: held } : {}) };
      const outcome = await searchAndRecord(context, this.id, {
        arbitrary: arbitraryFor(space) as fc.Arbitrary<NewPet>,
        examples: ownNames([...boundaryObjects(space, base), ...pastDeclaredLimit(context.allowance, base)], (base as Record<string, unknown>).name),
        runs: context.examples,
        check: (pet) => roundTrip(context, pet, lengths, accepted),
        describe: (pet) => `createPet with ${describeBody(pet)}`,
      });
      const probed = await probeNameBoundary(context, lengths, base);
      observeLengths(context, lengths);
      return { ...outcome, cases: outcome.cases + probed };
    },
  },
  {
    id: 'create-generated-rejects',
    title: 'createPet answers 400 with an Error body to each broken constraint of NewPet (wrong types, out of range, wrong case, missing, not JSON)',
    operation: 'createPet',
    writes: true,
    severity: 'contract',
    statement: STATEMENTS.createBadRequest,
    async run(context) {
      let sent = 0;
      let shrunk = false;
      for (const [index, bad] of negativeCases(context.seed).entries()) {
        const probe = await post(context, bad.text, bad.headers);
        sent++;
        const verdict = judgeRefusal(context, probe, bad);
        if (verdict.ok) continue;
        // The first failure of one field is shrunk (the rest of the body made smaller); the others are shown as sent.
        if (!shrunk && !verdict.final && bad.field !== undefined) {
          shrunk = true;
          const field = bad.field;
          const before = context.failures();
          const outcome = await searchAndRecord(context, `${this.id} ${index}`, {
            arbitrary: arbitraryFor(body).map((pet) => ({ ...(pet as NewPet), [field]: bad.value })) as fc.Arbitrary<NewPet>,
            examples: [{ ...HARMLESS, name: nameOf(context.seed, index), [field]: bad.value }],
            runs: 0,
            check: async (pet) => judgeRefusal(context, await post(context, jsonText(pet)), bad),
            describe: (pet) => `${bad.label}: ${describeBody(pet)}`,
          });
          sent += outcome.cases;
          // Sent again, the case may pass (a server that refuses a name it has seen): the first answer still stands.
          if (context.failures() > before) continue;
        }
        recordFailure(context, verdict.failure, { case: bad.label, tried: sent, shrinks: 0 });
        // No answer: the target stopped answering, and each further case would wait out the time limit.
        if (verdict.final) break;
      }
      return { cases: sent };
    },
  },
];

interface NegativeCase {
  label: string;
  text: string;
  /** Where the interface is silent on the answer (its Error code, or its status too for a body that is not a JSON object), the point the report lists it under. */
  silent: 'missing-body' | 'malformed-json' | 'body-not-object' | 'media-type' | 'missing-field' | 'invalid-value';
  headers?: Record<string, string>;
  /** The field broken, and its bad value, when the case is one field of an object body. */
  field?: string;
  /** What the silent log notes with the answer: the field (`name`), or an integer field past int64 (`categoryId past int64`). */
  tag?: string;
  value?: unknown;
  /** Statuses that are a right refusal: 400, and 415 for a media type (RFC 9110 §15.5.16). */
  expected: readonly number[];
}

/** Each case's own name, so that a server refusing a name it has already stored cannot hide a case. */
const nameOf = (seed: number, index: number) => `${CREATED_NAME_PREFIX} refused ${seed} ${index}`;

/** Every constraint of NewPet broken once, on the harmless NewPet, and bodies that are not a JSON object. */
function negativeCases(seed: number): NegativeCase[] {
  const cases: Array<Omit<NegativeCase, 'text'> & { body?: NewPet; text?: string }> = [];
  for (const [field, schema] of Object.entries(body.properties)) {
    for (const bad of badValues(schema)) {
      // The int64 range is told apart: a server may answer a number past it with a code of its own.
      const tag = /past the int64 range/.test(bad.label) ? `${field} ${PAST_INT64}` : field;
      cases.push({ label: `${field}: ${bad.label}`, body: { ...HARMLESS, [field]: bad.value }, field, tag, value: bad.value, expected: [400], silent: 'invalid-value' });
    }
  }
  for (const field of body.required) {
    const { [field]: _, ...without } = HARMLESS;
    cases.push({ label: `${field} missing`, body: without, field, tag: field, expected: [400], silent: 'missing-field' });
  }
  const valid = jsonText(HARMLESS);
  for (const [label, text, silent] of [
    ['an empty body', '', 'missing-body'],
    ['JSON null', 'null', 'body-not-object'],
    ['a JSON array of the NewPet', `[${valid}]`, 'body-not-object'],
    ['a JSON string', stringifyExactJson(valid), 'body-not-object'],
    ['a JSON number', '42', 'body-not-object'],
    ['JSON true', 'true', 'body-not-object'],
    ['malformed JSON (cut short)', valid.slice(0, -1), 'malformed-json'],
    ['malformed JSON (trailing comma)', `${valid.slice(0, -1)},}`, 'malformed-json'],
    ['malformed JSON (single quotes)', valid.replaceAll('"', "'"), 'malformed-json'],
  ] as const) {
    cases.push({ label: `the body is ${label}`, text, expected: [400], silent });
  }
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x']) {
    cases.push({ label: `a NewPet sent as ${type}`, body: HARMLESS, headers: { 'content-type': type }, expected: [400, 415], silent: 'media-type' });
  }
  return cases.map(({ body: pet, text, ...c }, index) => ({ ...c, text: text ?? jsonText(pet && 'name' in pet && pet.name === HARMLESS.name ? { ...pet, name: nameOf(seed, index) } : pet) }));
}

/** A negative case must be refused (and never stored): a 400 (or 415) Error, nothing else. */
function judgeRefusal(context: RuleContext, probe: Probe, bad: NegativeCase): Verdict {
  const status = probe.exchange.response?.status;
  // By field: a server may give each field's refusal its own code, and a profile follows it field by field.
  context.observe(bad.silent, bad.tag === undefined ? answerOf(probe.exchange) : `${answerOf(probe.exchange)} (${bad.tag})`, probe.exchange);
  if (status !== undefined && bad.expected.includes(status)) return verdictOf([probe]);
  return verdictOf([probe], [finding(probe.exchange, `answered ${status ?? 'nothing'} to a body with ${bad.label}`, `${bad.expected.join(' or ')} with an Error body (${cite(STATEMENTS.createBadRequest)})`, '$.status')]);
}
