import { PET_ID_FORMS, type PetIdForm, type ProfiledError } from '../profile-choice-types.js';
import { MAY_BE_READ, PAST_INT64 } from './noted-answers.js';
import { learned, listed, oneError, unlearned, untagged, withoutTags, type Answers, type Learned } from './learned.js';

/** What getPet answers a petId that is no int64, as a profile chooses it. */
export type PetIdChoice = ProfiledError & { reads?: PetIdForm[]; 'past-int64'?: ProfiledError };

/**
 * getPet's answer to a petId that is no int64, and which ways of writing a
 * known id the target read as that id: its Error is the one answer that is
 * no 200 to a text no reading takes as an id (`abc`), or to a known id's
 * form the target refused; `reads` comes from the known id written in each
 * form (`200 (read: plus-sign)`, `404 … (refused: plus-sign)`). A form both
 * read and refused leaves `reads` out: the mock keeps its own reading.
 * An integer past int64 (noted `(past int64)`) gets `past-int64` when its
 * one answer is another Error (a server reading it as an id no animal has).
 */
export function learnPetId(allowed: readonly number[], answers: Answers): Learned<PetIdChoice> {
  const tagOf = (a: Answers[number]) => untagged(a.answer).tag;
  // A text some reading takes as an id (`+5`) may get the unknown id's 404: not this point's answer.
  const refused = withoutTags(answers.filter((a) => tagOf(a) !== MAY_BE_READ && tagOf(a) !== PAST_INT64)).filter((a) => !a.answer.startsWith('200'));
  if (refused.length === 0) return unlearned(`read every such petId as an id (${listed(answers)})`);
  const error = oneError(allowed, refused);
  if (!error.ok) return error;
  const past = pastInt64(allowed, answers.filter((a) => tagOf(a) === PAST_INT64), error.value);
  if (!past.ok) return past;
  const choice: PetIdChoice = { ...error.value, ...(past.value && { 'past-int64': past.value }) };
  const seen = new Map<PetIdForm, Set<string>>();
  for (const a of answers) {
    const tag = /^(read|refused): (.+)$/.exec(tagOf(a) ?? '');
    if (tag && (PET_ID_FORMS as readonly string[]).includes(tag[2] as string)) seen.set(tag[2] as PetIdForm, (seen.get(tag[2] as PetIdForm) ?? new Set()).add(tag[1] as string));
  }
  if (seen.size === 0 || [...seen.values()].some((ways) => ways.size > 1)) return learned(choice);
  return learned({ ...choice, reads: PET_ID_FORMS.filter((form) => seen.get(form)?.has('read')) });
}

/** The one answer to integers past int64, when it is not the other refused values' Error; undefined when it is, or none was sent. */
function pastInt64(allowed: readonly number[], answers: Answers, error: ProfiledError): Learned<ProfiledError | undefined> {
  if (answers.length === 0) return learned(undefined);
  const past = oneError(allowed, withoutTags(answers));
  if (!past.ok) return past;
  return learned(past.value.status === error.status && past.value.code === error.code ? undefined : past.value);
}
