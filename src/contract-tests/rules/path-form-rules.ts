import { stringifyExactJson } from '../../shared/exact-json/stringify-exact-json.js';
import { answerOf } from '../silent-log.js';
import type { PetIdForm } from '../../shared/profile/profile-choice-types.js';
import type { Pet, Rule, RuleContext } from '../types.js';
import type { Statement } from '../../verdict/report.js';
import type { RecordedExchange, Finding } from '../../verdict/exchange.js';
import { finding, sweep } from './generated.js';
import { samePet } from './same-pet.js';
import { cite, STATEMENTS } from './statements.js';
import { BAD_CREDENTIALS } from './variation-key.js';

const PET_ID: Statement = {
  section: 'Endpoints > Get an animal (deprecated)',
  text: 'petId (integer, int64) is the identifier of the animal to retrieve. 200: Pet, the animal exists; 404: Error, the requested resource could not be found.',
};

/**
 * How a path form of a known id must be answered:
 * - `same`: the same resource as the plain decimal. RFC 3986 §2.3 and
 *   §6.2.2.2: a percent-encoded unreserved character (`%37`) is equivalent
 *   to the character (`7`), so `/pets/%37` is `/pets/7` and must get its answer.
 * - `reading`: a text that some reading of an integer takes as the id (a
 *   leading zero, a plus sign, `.0`, an exponent, a space, hexadecimal).
 *   The interface says petId is an integer and does not say how one is
 *   written in a path: reading it as the id and refusing it as not an
 *   integer are both defensible. So: the same animal, or a 400 or 404
 *   Error; never another animal, never a 5xx.
 * - `none`: a text that is no integer, or another number (`7.5`, `7abc`,
 *   the text `%37` itself): no animal has it as its id, so a 400 or 404
 *   Error. A 200 shows a reading that stops at the first non-digit, drops
 *   the non-digits, or decodes twice.
 */
type Expectation = 'same' | 'reading' | 'none';

export interface PathForm {
  label: string;
  /** For a `reading`: the profile's name of the form, under which a target's reading (or refusal) of it is noted. */
  form?: PetIdForm;
  /** The path segment as sent, already percent-encoded where it must be. */
  segment: string;
  expect: Expectation;
}

const percentEncoded = (digits: string) => [...digits].map((d) => `%3${d}`).join('');
const fullwidth = (digits: string) => [...digits].map((d) => encodeURIComponent(String.fromCharCode(0xff10 + Number(d)))).join('');

/** The forms of a positive id, each with what its answer must be. */
export function pathForms(id: number): PathForm[] {
  const digits = String(id);
  const [first = '', rest = ''] = [digits.slice(0, 1), digits.slice(1)];
  return [
    { label: 'every digit percent-encoded', segment: percentEncoded(digits), expect: 'same' },
    { label: 'the first digit percent-encoded', segment: `${percentEncoded(first)}${rest}`, expect: 'same' },
    { label: 'a leading zero', form: 'leading-zeros', segment: `0${digits}`, expect: 'reading' },
    { label: 'two leading zeros', form: 'leading-zeros', segment: `00${digits}`, expect: 'reading' },
    { label: 'leading zeros past 19 digits', form: 'leading-zeros', segment: `${'0'.repeat(20)}${digits}`, expect: 'reading' },
    { label: 'leading zeros percent-encoded', form: 'leading-zeros', segment: `%30%30${digits}`, expect: 'reading' },
    { label: 'a plus sign', form: 'plus-sign', segment: `+${digits}`, expect: 'reading' },
    { label: 'a decimal point and a zero', form: 'decimal-zero', segment: `${digits}.0`, expect: 'reading' },
    { label: 'an exponent of zero', form: 'exponent', segment: `${digits}e0`, expect: 'reading' },
    { label: 'a leading space (%20)', form: 'leading-space', segment: `%20${digits}`, expect: 'reading' },
    { label: 'hexadecimal', form: 'hexadecimal', segment: `0x${id.toString(16)}`, expect: 'reading' },
    { label: 'a fraction', segment: `${digits}.5`, expect: 'none' },
    { label: 'letters after the digits', segment: `${digits}abc`, expect: 'none' },
    // `%25` is `%`: the text is "%3…", which names no animal unless decoded twice.
    { label: 'the percent-encoding itself percent-encoded', segment: `%25${percentEncoded(first).slice(1)}${rest}`, expect: 'none' },
    // Reserved characters percent-encoded are data, not delimiters (RFC 3986 §2.2): "7?" is no id, unless the path is
    // decoded before the query is split off.
    { label: 'a percent-encoded question mark after the digits', segment: `${digits}%3F`, expect: 'none' },
    // A NUL octet ends a C string: a reading that stops there sees the id.
    { label: 'a NUL octet (%00) after the digits', segment: `${digits}%00`, expect: 'none' },
    // An overlong UTF-8 "/" is no character (RFC 3629 §3): a lenient decoder reads `/pets/7/`.
    { label: 'an overlong UTF-8 slash (%C0%AF) after the digits', segment: `${digits}%C0%AF`, expect: 'none' },
    // An integer path parameter is written in ASCII digits (OpenAPI's integer is JSON Schema's); a reading of other
    // scripts' digits (Python's int(), NFKC) takes "７" for 7.
    { label: 'fullwidth digits', segment: fullwidth(digits), expect: 'none' },
  ];
}

/**
 * The id to write in other forms: a positive one with two digits or more
 * where the page has one (so that encoding only its first digit differs
 * from encoding all of them, and a leading zero read as octal names
 * another number), the smallest such: the target's own animals come
 * before those the run created, so a curl line pasted after the run (out
 * of its mock session) still names an animal that exists.
 */
async function knownPet(context: RuleContext): Promise<(Pet & { id: number }) | undefined> {
  const page = (await context.probe({ method: 'GET', path: '/pets?limit=100' })).exchange.response?.json;
  // Written forms of a safe integer: an id past 2^53 is the int64 rules' to try.
  const pets = (Array.isArray(page) ? (page as Pet[]) : []).filter((p): p is Pet & { id: number } => typeof p?.id === 'number' && Number.isSafeInteger(p.id) && p.id > 0);
  const best = pets.filter((p) => p.id >= 10).sort((a, b) => a.id - b.id)[0] ?? pets[0];
  const existing = best ?? (await context.existingPet());
  return typeof existing?.id === 'number' ? (existing as Pet & { id: number }) : undefined;
}

function judge(form: PathForm, exchange: RecordedExchange, plain: Pet): Finding[] {
  const status = exchange.response?.status;
  if (status === undefined) return [];
  const json = exchange.response?.json;
  const got = status === 200 ? `200 with ${stringifyExactJson(json)}` : String(status);
  const path = `/pets/${form.segment}`;
  if (form.expect === 'same') {
    if (status === 200 && samePet(json, plain)) return [];
    return [finding(exchange, `${path} (${form.label}) answered ${got}; /pets/${plain.id} answered 200 with animal ${plain.id}`, `the answer to /pets/${plain.id}: RFC 3986 §2.3, percent-encoded digits are the digits (${PET_ID.section}: ${PET_ID.text})`, '$.body')];
  }
  if (status === 400 || status === 404) return [];
  if (form.expect === 'reading' && status === 200 && samePet(json, plain)) return [];
  const allowed = form.expect === 'reading' ? `animal ${plain.id} (a reading of it as ${plain.id}), or a 400 or 404 Error` : 'a 400 or 404 Error: it names no animal';
  return [finding(exchange, `${path} (${form.label}) answered ${got}`, `${allowed} (${PET_ID.section}: ${PET_ID.text})`, status === 200 ? '$.body' : '$.status')];
}

/**
 * What a form may get without the key or with a wrong one: 401, or the 400
 * or 404 Error a path that names no operation may get before any key check
 * (a router that refuses `/pets/30.0` first lets nothing in). The
 * requirement applies to every operation; whether such a path is getPet is
 * what the interface does not say, so either is fine, but never an animal
 * (a key check guarding `/pets/{id:[0-9]+}` while a catch-all reads the id
 * with `Number()` lets it out), never a 5xx.
 */
function judgeKeyless(form: PathForm, exchange: RecordedExchange, what: string, id: number, plain?: RecordedExchange): Finding[] {
  const status = exchange.response?.status;
  if (status === undefined || status === 401 || status === 400 || status === 404) return [];
  const contrast = plain?.response ? `, where /pets/${id} with ${what} got ${plain.response.status}` : '';
  return [finding(exchange, `/pets/${form.segment} (${form.label}) answered ${status} with ${what}${contrast}`, `401, or a 400 or 404 Error to a path that names no operation (${cite(STATEMENTS.authRequired)})`, '$.status')];
}

interface FormCase {
  label: string;
  form: PathForm;
  /** Absent: with the key. */
  credentials?: (typeof BAD_CREDENTIALS)[number];
}

/** Each form with the key, then without it and with a wrong one. */
const formCases = (forms: PathForm[]): FormCase[] =>
  forms.flatMap((form) => [{ label: form.label, form }, ...BAD_CREDENTIALS.map((credentials) => ({ label: `${form.label}, with ${credentials.what}`, form, credentials }))]);

export const pathFormRules: Rule[] = [
  {
    id: 'get-id-path-forms',
    title: 'getPet with a known id written other ways: percent-encoded digits are the same id; leading zeros, a sign, `.0`, an exponent or hexadecimal the same animal or a 400/404; a fraction, trailing letters, an encoded `?`, NUL or overlong `/`, or fullwidth digits a 400/404; each without the key or with a wrong one 401 or a 400/404',
    operation: 'getPet',
    writes: false,
    severity: 'contract',
    statement: PET_ID,
    async run(context) {
      const pet = await knownPet(context);
      if (!pet) return { skipped: (await context.noPetReason()) ?? 'listPets shows no animal with a positive safe-integer id, so no id is known' };
      const plain = await context.probe({ method: 'GET', path: `/pets/${pet.id}` });
      // What the plain id gets is get-known-id's to judge; the other forms are judged against it.
      if (plain.exchange.response?.status !== 200) return { skipped: `getPet ${pet.id} answered ${plain.exchange.response?.status ?? 'nothing'}, so no form of it can be compared` };
      const answered = plain.exchange.response.json as Pet;
      const outcome = await sweep(
        context,
        formCases(pathForms(pet.id)),
        ({ form, credentials }) => context.probe({ method: 'GET', path: `/pets/${form.segment}`, ...(credentials ? { auth: credentials.auth } : {}) }),
        ({ form, credentials }, { exchange }, plain) => {
          if (credentials) return judgeKeyless(form, exchange, credentials.what, pet.id, plain?.exchange);
          if (form.form) context.observe('pet-id', `${answerOf(exchange)} (${exchange.response?.status === 200 ? 'read' : 'refused'}: ${form.form})`, exchange);
          return judge(form, exchange, answered);
        },
        // Without the key, the plain id beside the form that got in: "this got 401, that got the animal".
        ({ credentials }) => (credentials ? context.probe({ method: 'GET', path: `/pets/${pet.id}`, auth: credentials.auth }) : undefined),
      );
      return { cases: outcome.cases + 1 };
    },
  },
];
