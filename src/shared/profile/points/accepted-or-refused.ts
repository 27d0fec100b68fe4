import { errorAnswer, inconsistent, learned, type Answers, type Learned } from '../learn/learned.js';
import { ACCEPTED } from '../learn/noted-answers.js';
import type { AcceptedOr, ProfiledError } from '../profile-choice-types.js';
import { profilePoint, type ProfilePointSpec } from '../profile-point.js';
import { shown, wordOrErrorSchema } from './schema-parts.js';

interface Refusable<Key extends string> {
  key: Key;
  question: string;
  learnedFrom: string;
  /** The statuses the contract allows for the refusal. */
  statuses: readonly number[];
  /** The schema's description of the refusal. */
  refusal: string;
  about: string;
  example: ProfiledError;
}

/**
 * A request the mock accepts by default and a server may refuse (an empty
 * name, a chunked body): `accepted`, or one Error, learned from one answer
 * for every request of the point.
 */
export const acceptedOrRefused = <const Key extends string>({ key, question, learnedFrom, statuses, refusal, about, example }: Refusable<Key>): ProfilePointSpec<Key, AcceptedOr, 'fixed'> =>
  profilePoint<Key, AcceptedOr>({
    key,
    question,
    learnedFrom,
    about,
    schema: wordOrErrorSchema('accepted', statuses, refusal),
    own: 'accepted',
    example,
    inWords: (choice) => (choice === 'accepted' ? 'Accepted' : `Refused: ${shown(choice)}`),
    learn: (answers: Answers): Learned<AcceptedOr> => {
      if (answers.length !== 1) return inconsistent(answers);
      const answer = (answers[0] as Answers[number]).answer;
      return answer === ACCEPTED ? learned('accepted') : errorAnswer(statuses, answer);
    },
    noted: 'fixed',
  });
