import { PET_ID_FORMS, type PetIdForm, type ProfiledError } from '../profile-choice-types.js';
import { MAY_BE_READ } from './noted-answers.js';
import { learned, listed, oneError, unlearned, untagged, withoutTags, type Answers, type Learned } from './learned.js';

/**
 * getPet's answer to a petId that is no int64, and which ways of writing a
 * known id the target read as that id: its Error is the one answer that is
 * no 200 to a text no reading takes as an id (`abc`), or to a known id's
 * form the target refused; `reads` comes from the known id written in each
 * form (`200 (read: plus-sign)`, `404 … (refused: plus-sign)`). A form both
 * read and refused leaves `reads` out: the mock keeps its own reading.
 */
export function learnPetId(allowed: readonly number[], answers: Answers): Learned<ProfiledError & { reads?: PetIdForm[] }> {
  // A text some reading takes as an id (`+5`) may get the unknown id's 404: not this point's answer.
  const refused = withoutTags(answers.filter((a) => untagged(a.answer).tag !== MAY_BE_READ)).filter((a) => !a.answer.startsWith('200'));
  if (refused.length === 0) return unlearned(`read every such petId as an id (${listed(answers)})`);
  const error = oneError(allowed, refused);
  if (!error.ok) return error;
  const seen = new Map<PetIdForm, Set<string>>();
  for (const a of answers) {
    const tag = /^(read|refused): (.+)$/.exec(untagged(a.answer).tag ?? '');
    if (tag && (PET_ID_FORMS as readonly string[]).includes(tag[2] as string)) seen.set(tag[2] as PetIdForm, (seen.get(tag[2] as PetIdForm) ?? new Set()).add(tag[1] as string));
  }
  if (seen.size === 0 || [...seen.values()].some((ways) => ways.size > 1)) return error;
  return learned({ ...error.value, reads: PET_ID_FORMS.filter((form) => seen.get(form)?.has('read')) });
}
