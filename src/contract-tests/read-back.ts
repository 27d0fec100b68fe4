import pLimit from 'p-limit';
import { jsonEqual } from '../shared/json-equal.js';
import { stringifyExactJson } from '../shared/exact-json/stringify-exact-json.js';
import { petStatuses } from './generate/schema-model.js';
import { answerOf } from './silent-log.js';
import { CREATED_NAME_PREFIX } from './catalogue-fill.js';
import { JSON_BODY } from './rules/expect.js';
import type { Rule, RuleContext } from './types.js';

/** What read-back-after-settle checks, in the interface's words. */
const STATEMENT = {
  section: 'Endpoints > Add an animal, Get an animal, List animals',
  text: 'An animal added (201, Pet, with its assigned id) is in the catalogue: getPet answers 200 with that Pet, and listPets with its status filter lists it.',
};

/** A page this long may leave animals out (limit's maximum is 100): only shorter ones are held to holding every animal of their status. */
const PAGE = 100;

/**
 * At the end of a run, after a pause (`--settle`), every animal the run
 * created is read back (getPet) and each status page listed once more: each
 * must still be there, unchanged. A store that forgets after a few seconds
 * reads as the run's own requests did not and passes every rule that looks
 * at once; this looks again, later. Then one animal more is created and its
 * status page, just listed, listed again at once: a list kept in a cache
 * for a few seconds leaves it out, whatever the run's timing was.
 * Only what fails is kept for the report: a run creates hundreds.
 */
export const readBackRules: Rule[] = [
  {
    id: 'read-back-after-settle',
    title: "every animal the writing rules created, read back with getPet and found under its status by listPets after a pause (--settle), unchanged",
    operation: 'getPet',
    // It reads what the writing rules created: a read-only run has nothing for it.
    writes: true,
    severity: 'contract',
    statement: STATEMENT,
    last: true,
    async run(context) {
      const animals = new Map(context.created());
      if (animals.size === 0) return { skipped: 'the run created no animal to read back' };
      await new Promise((resolve) => setTimeout(resolve, context.settleMs));
      const later = `${context.settleMs / 1000} s after the run`;
      const limit = pLimit(8);
      await Promise.all([...animals].map(([id, pet]) => limit(() => readBack(context, id, pet, later))));
      for (const status of petStatuses()) await listedUnder(context, status, animals, later);
      await listedAtOnce(context);
      return { cases: animals.size };
    },
  },
];

/** getPet of one created animal: 200 with the Pet as created. */
async function readBack(context: RuleContext, id: string, pet: unknown, later: string): Promise<void> {
  const probed = await context.probe({ method: 'GET', path: `/pets/${id}` });
  const response = probed.exchange.response;
  const problem =
    response?.status !== 200
      ? `animal ${id}, created by the run (201), answered ${answerOf(probed.exchange)} to getPet ${later}`
      : jsonEqual(response.json, pet)
        ? undefined
        : `animal ${id} reads ${stringifyExactJson(response.json)} ${later}, created as ${stringifyExactJson(pet)}`;
  if (problem === undefined && probed.findings.length === 0) return;
  context.record(probed);
  if (problem) context.fail({ message: problem, expected: `200 with the Pet as created (${STATEMENT.section})`, path: response?.status === 200 ? '$.body' : '$.status' });
}

/** The status page, once more: when it is whole, every created animal of that status in it, as created. */
async function listedUnder(context: RuleContext, status: string, animals: ReadonlyMap<string, unknown>, later: string): Promise<void> {
  const probed = await context.probe({ method: 'GET', path: `/pets?status=${status}&limit=${PAGE}` });
  const page = probed.exchange.response?.json;
  if (probed.findings.length > 0) context.record(probed);
  if (probed.exchange.response?.status !== 200 || !Array.isArray(page) || page.length >= PAGE) return;
  const listed = new Map(page.map((item) => [String((item as { id?: unknown } | null)?.id), item]));
  const expected = [...animals].filter(([, pet]) => (pet as { status?: unknown } | null)?.status === status);
  const missing = expected.filter(([id]) => !listed.has(id)).map(([id]) => id);
  const changed = expected.filter(([id, pet]) => listed.has(id) && !jsonEqual(listed.get(id), pet)).map(([id]) => id);
  if (missing.length === 0 && changed.length === 0) return;
  if (probed.findings.length === 0) context.record(probed);
  const what = [missing.length ? `${missing.length} of the ${expected.length} animals the run created with status ${status} missing (${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''})` : '', changed.length ? `${changed.length} changed (${changed.slice(0, 5).join(', ')})` : ''].filter(Boolean).join(', ');
  context.fail({ message: `the page for status=${status} ${later} has ${page.length} animals: ${what}`, expected: `every animal created with status ${status}, as created (${STATEMENT.section})`, path: '$.body' });
}

/** One animal created now, then the page of its status, listed a moment ago, listed again: it must hold the new animal. */
async function listedAtOnce(context: RuleContext): Promise<void> {
  const status = petStatuses()[0] as string;
  const page = `/pets?status=${status}&limit=${PAGE}`;
  const before = await context.probe({ method: 'GET', path: page });
  const created = await context.probe({ method: 'POST', path: '/pets', headers: JSON_BODY, body: JSON.stringify({ name: `${CREATED_NAME_PREFIX} read-back`, categoryId: 1, status }) });
  const id = (created.exchange.response?.json as { id?: unknown } | undefined)?.id;
  if (created.exchange.response?.status !== 201 || id === undefined) {
    if (created.findings.length > 0) context.record(created);
    return;
  }
  const after = await context.probe({ method: 'GET', path: page });
  const items = after.exchange.response?.json;
  if (after.findings.length > 0) context.record(after);
  if (after.exchange.response?.status !== 200 || !Array.isArray(items) || items.length >= PAGE) return;
  if (items.some((item) => String((item as { id?: unknown } | null)?.id) === String(id))) return;
  if (after.findings.length === 0) context.record(after);
  const same = stringifyExactJson(before.exchange.response?.json) === stringifyExactJson(items) ? ': the same page as just before it was added' : '';
  context.fail({ message: `animal ${String(id)}, added with status ${status} (201), is not in the page for status=${status} listed right after${same}`, expected: `every animal with status ${status}, the one just added included (${STATEMENT.section})`, path: '$.body' });
}
