import type { FieldErrors, NewPetField, ProfiledError } from '../profile-choice-types.js';
import { PAST_INT64 } from './noted-answers.js';
import { errorAnswer, inconsistent, learned, listed, unlearned, untagged, type Answers, type Learned } from './learned.js';

const PAST_INT64_TAG = new RegExp(` ${PAST_INT64}$`);

/**
 * One Error for every field, and each field whose Error differs under
 * `fields` (an integer past int64 under `past-int64` when it differs from
 * its field's): learned from answers the harness noted by field
 * (`400 missing_name (name)`). The Error most fields got is the one for all.
 */
export function learnByField(allowed: readonly number[], answers: Answers, fields: readonly NewPetField[]): Learned<FieldErrors & { 'past-int64'?: ProfiledError }> {
  const byTag = new Map<string, Answers>();
  for (const a of answers) {
    const { answer, tag = '' } = untagged(a.answer);
    byTag.set(tag, [...(byTag.get(tag) ?? []), { ...a, answer }]);
  }
  const chosen = new Map<string, string>();
  for (const [tag, given] of byTag) {
    if (given.length > 1) return inconsistent(given.map((a) => ({ ...a, answer: `${a.answer} (${tag})` })));
    const field = tag.replace(PAST_INT64_TAG, '');
    if (!fields.includes(field as NewPetField)) return unlearned(`answered ${listed(answers)}: no field the mock tells apart`);
    chosen.set(tag, (given[0] as Answers[number]).answer);
  }
  // In the document's field order, so that a tie goes to the first field's Error, whatever order the answers came in.
  const fieldAnswers = [...chosen].filter(([tag]) => !PAST_INT64_TAG.test(tag)).sort(([a], [b]) => fields.indexOf(a as NewPetField) - fields.indexOf(b as NewPetField));
  // The Error most fields got stands for all; the others are each field's own.
  const votes = new Map<string, number>();
  for (const [, answer] of fieldAnswers) votes.set(answer, (votes.get(answer) ?? 0) + 1);
  const common = [...votes].sort((a, b) => b[1] - a[1])[0]?.[0] ?? (chosen.values().next().value as string | undefined);
  if (common === undefined) return unlearned('not reached by this run');
  const all = errorAnswer(allowed, common);
  if (!all.ok) return all;
  const own: Partial<Record<NewPetField, ProfiledError>> = {};
  for (const [tag, answer] of fieldAnswers) {
    if (answer === common) continue;
    const error = errorAnswer(allowed, answer);
    if (!error.ok) return error;
    own[tag as NewPetField] = error.value;
  }
  const result: FieldErrors & { 'past-int64'?: ProfiledError } = { ...all.value, ...(Object.keys(own).length > 0 && { fields: own }) };
  for (const [tag, answer] of chosen) {
    // Told apart only where it differs from what its field's value gets.
    if (!PAST_INT64_TAG.test(tag) || answer === (chosen.get(tag.replace(PAST_INT64_TAG, '')) ?? common)) continue;
    const error = errorAnswer(allowed, answer);
    if (!error.ok) return error;
    result['past-int64'] = error.value;
  }
  return learned(result);
}
