import fc from 'fast-check';
import { CREATED_NAME_PREFIX } from '../catalogue-fill.js';
import { jsonText } from '../generate/json-text.js';
import { spellJson } from '../generate/json-spelling.js';
import { arbitraryFor, describeValue } from '../generate/positive-values.js';
import { variedPath } from '../generate/query-spelling.js';
import { inputModel } from '../generate/schema-model.js';
import { CREATE_DIMENSIONS, describeVariation, everyForm, silentFormOf, jsonSpellingOf, simpleBodyOf, targetOf, variationArbitrary, type Variation } from '../generate/variations.js';
import { formDataBody, isFormData } from '../generate/form-data.js';
import type { ApiRequest, Probe, Rule, RuleContext } from '../types.js';
import type { RecordedExchange, Finding } from '../../verdict/exchange.js';
import { JSON_BODY } from './expect.js';
import { finding, searchAndRecord, verdictOf, type Verdict } from './generated.js';
import { cite, STATEMENTS } from './statements.js';
import { checkNothingStored, keepRefused, noneRefused, type Refused } from './refused-creates.js';
import { withoutTheKey } from './variation-key.js';
import { VARIATION_SHRINK_BUDGET, codingFindings, firstDifference, formOf, observeExtraQuery, observeUriForm, refusalExcused, refusedForItsForm, sameAs } from './variation-judge.js';

const body = inputModel().createBody;
type NewPet = Record<string, unknown>;

interface CreateCase {
  pet: NewPet;
  variation: Variation;
  /** 0: the NewPet as drawn; k: with SHAPES[k - 1]'s field given a value of another type shaped like its own. */
  shape: number;
}

/**
 * Values of another JSON type shaped like a field's, from the document's
 * NewPet: a string and a number are different JSON values whatever their
 * characters (RFC 8259 §3). A string field (not an enum) gets a string of
 * digits, which must stay a string; an integer field its digits as a
 * string, an invalid value the interface answers with 400 ("Body is
 * missing required fields or contains invalid values").
 */
interface Shape {
  field: string;
  as: 'digits' | 'string';
}
const SHAPES: readonly Shape[] = Object.entries(body.properties).flatMap(([field, schema]): Shape[] => (schema.kind === 'string' && !schema.enum ? [{ field, as: 'digits' }] : schema.kind === 'integer' ? [{ field, as: 'string' }] : []));

let digitsMade = 0;
/**
 * The NewPet with its shape: a string of digits its own per case, or the
 * integer's digits quoted beside a short name of its own. Nothing else in
 * it may be refused: a server may refuse a name it holds or a long one,
 * and which of two refusals comes first is its choice.
 */
function shaped(pet: NewPet, shape: number): NewPet {
  const one = SHAPES[shape - 1];
  if (!one) return pet;
  const own = `${Date.now()}${digitsMade++}`;
  return { ...pet, name: `${CREATED_NAME_PREFIX} variation ${own}`, [one.field]: one.as === 'digits' ? own : jsonText(pet[one.field]) };
}

const refusedAsInvalid = (shape: number) => SHAPES[shape - 1]?.as === 'string';

/**
 * The NewPet of the cases tried on every run: a name with what the JSON
 * spellings change (a quote, a backslash, a solidus, letters past ASCII,
 * a character past the BMP), its own per case, so a server refusing a name
 * it has stored cannot hide one.
 */
const examplePet = (seed: number, index: number): NewPet => ({ name: `${CREATED_NAME_PREFIX} variation ${seed} ${index}: Zoë "Ñandú" \\ a/b 🐕`, categoryId: 3, status: 'pending' });

/**
 * A drawn NewPet with a name of this rule's own: the same special strings
 * are create-generated-round-trip's, and on a server refusing a name it has
 * stored, which rule sent one first would decide both answers.
 */
const ownName = (pet: NewPet): NewPet => (typeof pet.name === 'string' ? { ...pet, name: `${pet.name} (${CREATED_NAME_PREFIX} variation)` } : pet);

/**
 * One case: the NewPet written in the variation's form. A 201 must hold
 * what was sent, and getPet of its id must give it back. Any other answer
 * is compared with the same NewPet written as the harness always writes
 * it: a refusal of the value itself is not this rule's to judge, a refusal
 * of only its other spelling is a failure.
 */
async function createCase(context: RuleContext, { pet: drawn, variation, shape }: CreateCase, refused: RefusedCreates): Promise<Verdict> {
  const probes: Probe[] = [];
  const pet = shaped(drawn, shape);
  const send = async (v: Variation, auth?: ApiRequest['auth']) => {
    // Without the key, a name of its own, so that one stored in spite of its 401 is found afterwards.
    const sent = auth === undefined || typeof pet.name !== 'string' ? pet : { ...pet, name: `${refused.mark()} ${pet.name}` };
    const json = spellJson(sent, jsonSpellingOf(v));
    // As multipart/form-data the members go as parts, not as a JSON text.
    const body = isFormData(simpleBodyOf(v)) ? formDataBody(sent) : json;
    const probe = await context.probe({ method: 'POST', path: variedPath(context.basePath, '/pets', {}, v), target: targetOf(v), ...(silentFormOf(v) ? { otherPath: true as const } : {}), headers: JSON_BODY, body, ...formOf(v), ...(auth ? { auth } : {}) });
    // Refused without the key (401, or the refusal it got with the key), or switched to another protocol (101): it must have stored nothing.
    const status = probe.exchange.response?.status;
    if (auth !== undefined && status !== undefined && (status < 200 || (status >= 300 && status < 500))) keepRefused(refused.kept, json, probe.exchange);
    if (auth === undefined) probes.push(probe);
    return probe;
  };
  const varied = await send(variation);
  const keyless = await withoutTheKey((auth) => send(variation, auth), (auth) => send({}, auth), varied.exchange.response?.status, refusedForItsForm(variation, varied.exchange), silentFormOf(variation));
  const findings = [...codingFindings(varied.exchange), ...keyless.findings];
  probes.push(...keyless.probes);
  const status = varied.exchange.response?.status;
  if (status === undefined) return verdictOf(probes, findings);
  if (refusedAsInvalid(shape)) {
    const field = SHAPES[shape - 1]?.field as string;
    if (status !== 400 && !(await refusalExcused(variation, varied.exchange, async (only) => (await send(only)).exchange))) findings.push(finding(varied.exchange, `answered ${status} to ${field} ${describeValue(pet[field])}, a string where the interface says integer`, `400 (${cite(STATEMENTS.createBadRequest)}), however the body is written`, '$.status'));
    return verdictOf(probes, findings);
  }
  if (status === 201) {
    observeUriForm(context, varied.exchange, varied.exchange, variation, false);
    // The requests without the key stay in the case: a spelling let in without the key is replayed beside the plain one.
    const [read, judged] = await readBack(context, varied, pet, variation, findings);
    return verdictOf([...read, ...keyless.probes], judged);
  }
  if (await refusalExcused(variation, varied.exchange, async (only) => (await send(only)).exchange)) {
    observeExtraQuery(context, varied.exchange, varied.exchange, variation);
    observeUriForm(context, undefined, varied.exchange, variation, true);
    return verdictOf(probes, findings);
  }
  // Sent as always (the unvaried spelling is jsonText's, which spellJson writes for no variation).
  const plain = await send({});
  observeExtraQuery(context, plain.exchange, varied.exchange, variation);
  observeUriForm(context, plain.exchange, varied.exchange, variation, false);
  const plainStatus = plain.exchange.response?.status;
  if (plainStatus === 201) {
    findings.push(finding(varied.exchange, `answered ${status} to a NewPet that, written as the harness always writes it, got 201`, sameAs(variation, STATEMENTS.createSuccess), '$.status'));
  } else if (plainStatus !== undefined && plainStatus !== status) {
    // A refusal too must not depend on the spelling: the Error answers of the operation are its answers as well.
    findings.push(finding(varied.exchange, `answered ${status} to a NewPet that, written as the harness always writes it, got ${plainStatus}`, sameAs(variation, STATEMENTS.createBadRequest), '$.status'));
  }
  return verdictOf(probes, findings);
}

/** The 201's Pet against what was sent, then getPet of its id against the 201. */
async function readBack(context: RuleContext, created: Probe, sent: NewPet, variation: Variation, findings: Finding[]): Promise<[Probe[], Finding[]]> {
  const pet = created.exchange.response?.json as Record<string, unknown> | undefined;
  findings.push(...fieldsDiffer(created.exchange, sent, pet, variation));
  if (typeof pet?.id !== 'number') return [[created], findings];
  const read = await context.probe({ method: 'GET', path: `/pets/${pet.id}` });
  const at = read.exchange.response?.status === 200 ? firstDifference(read.exchange.response.json, pet) : '$.status';
  if (at) findings.push(finding(read.exchange, `getPet of the created id ${pet.id} does not give back the 201's Pet (at ${at})`, sameAs(variation, STATEMENTS.getSuccess), at));
  return [[created, read], findings];
}

function fieldsDiffer(exchange: RecordedExchange, sent: NewPet, pet: Record<string, unknown> | undefined, variation: Variation): Finding[] {
  if (typeof pet !== 'object' || pet === null) return [finding(exchange, 'no Pet in the 201 answer', STATEMENTS.createSuccess.text, '$.body')];
  return Object.keys(sent)
    .filter((field) => jsonText(pet[field]) !== jsonText(sent[field]))
    .map((field) => finding(exchange, `${field} is ${describeValue(pet[field])}, sent ${describeValue(sent[field])}`, sameAs(variation, STATEMENTS.createSuccess), `$.body.${field}`));
}

/** The creates a run sent without the key, to look for afterwards: none may be stored. */
interface RefusedCreates {
  kept: Refused;
  mark: () => string;
}

function refusedCreates(): RefusedCreates {
  // A name unique to this run, so that animals of earlier runs are not taken for this one's.
  const run = `${CREATED_NAME_PREFIX} refused-variation ${Date.now().toString(36)}`;
  let made = 0;
  return { kept: noneRefused(), mark: () => `${run} ${made++}` };
}

const describeBody = (pet: NewPet): string => `{${Object.entries(pet).map(([k, v]) => `${k}: ${describeValue(v)}`).join(', ')}}`;

export const variationCreateRule: Rule = {
  id: 'vary-create-pet',
  title: 'createPet written another way a client may write it (member order, JSON whitespace and escapes, a chunked body, negotiation fields, proxy fields, field names and order, the scheme, the path\'s spelling, an undocumented parameter, Host, an Upgrade) stores the same animal, and without the key or with a wrong one gets 401 and stores nothing',
  operation: 'createPet',
  writes: true,
  severity: 'contract',
  statement: STATEMENTS.createSuccess,
  async run(context) {
    const forms = everyForm(CREATE_DIMENSIONS);
    const pets = forms.map((_, i) => examplePet(context.seed, i));
    const refused = refusedCreates();
    const outcome = await searchAndRecord<CreateCase>(context, this.id, {
      // The example NewPets are among the values drawn, so fast-check can shrink an example's variation (it shrinks only values its arbitrary can make).
      arbitrary: fc.record({ pet: fc.oneof(fc.constantFrom(...pets), (arbitraryFor(body) as fc.Arbitrary<NewPet>).map(ownName)), variation: variationArbitrary(CREATE_DIMENSIONS), shape: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat(SHAPES.length) }) }),
      // Each shape with the forms of the first cases, so an error answer (400) and a string of digits are sent in every spelling.
      examples: forms.map((variation, i) => ({ pet: pets[i] as NewPet, variation, shape: i < SHAPES.length * 2 ? (i % (SHAPES.length + 1)) : 0 })),
      runs: context.examples,
      check: (c) => createCase(context, c, refused),
      describe: ({ pet, variation, shape }) => `createPet with ${describeBody(pet)}${shape ? `, ${SHAPES[shape - 1]?.field} given ${SHAPES[shape - 1]?.as === 'digits' ? 'a string of digits' : 'its digits as a string'}` : ''}, ${describeVariation(variation)}`,
      shrinkBudget: VARIATION_SHRINK_BUDGET,
    });
    if (refused.kept.names.size === 0) return outcome;
    return { cases: outcome.cases + (await checkNothingStored(context, refused.kept)) };
  },
};
