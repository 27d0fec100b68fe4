import { oneOf } from '../learn/learned.js';
import { defaultStatusNote, locationNote } from '../learn/noted-answers.js';
import { profilePoint } from '../profile-point.js';

const defaultStatus = profilePoint<'default-status', 'none' | 'available' | 'pending' | 'sold'>({
  key: 'default-status',
  question: 'createPet: the `status` of an animal created without one',
  learnedFrom: '`left out` → none, `status "…"` → that status',
  about: '`none` leaves it out',
  schema: { enum: ['none', 'available', 'pending', 'sold'] },
  own: 'none',
  example: 'pending',
  inWords: (status) => (status === 'none' ? 'None: a `status` left out stays absent' : `\`${status}\``),
  learn: (answers) => oneOf(answers, defaultStatusNote.read),
  noted: 'fixed',
});

const location = profilePoint<'location', 'sent' | 'not-sent'>({
  key: 'location',
  question: 'createPet: whether `Location` is sent with 201',
  learnedFrom: '`not sent`, or `sent (…)`',
  about: 'sent (`/v1/pets/{id}`), or not',
  schema: { enum: ['sent', 'not-sent'] },
  own: 'sent',
  example: 'not-sent',
  inWords: (choice) => (choice === 'sent' ? 'Sent: `/v1/pets/{id}`' : 'Not sent'),
  learn: (answers) => oneOf(answers, locationNote.read),
  noted: 'fixed',
});

/** What createPet's 201 holds where the interface is silent, in the schema's order. */
export const CREATE_PET_ANSWER_POINTS = [defaultStatus, location] as const;
