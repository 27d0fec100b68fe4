import type { AcceptedOr, FieldErrors, ProfileChoices, ProfiledError, ProfilePoint } from './profile.js';

/** An Error answer as the documentation writes it: 400 `invalid_body`. */
const shown = ({ status, code }: ProfiledError): string => `${status} \`${code}\``;
const orIgnored = (choice: ProfiledError | 'ignored'): string => (choice === 'ignored' ? 'Ignored: answered as without it' : shown(choice));
const acceptedOr = (choice: AcceptedOr): string => (choice === 'accepted' ? 'Accepted' : `Refused: ${shown(choice)}`);
/** One Error, then the fields with their own. */
const byField = (choice: FieldErrors & { 'past-int64'?: ProfiledError }): string =>
  [shown(choice), ...Object.entries(choice.fields ?? {}).map(([field, error]) => `\`${field}\`: ${shown(error)}`), ...(choice['past-int64'] ? [`past int64: ${shown(choice['past-int64'])}`] : [])].join('; ');

/** Each point's row: what is asked, and the choice in words. */
const ROWS: { [P in ProfilePoint]: { question: string; choice: (choice: ProfileChoices[P]) => string } } = {
  'missing-key': { question: 'Every operation: no `Authorization` header', choice: shown },
  'wrong-key': { question: 'Every operation: `Authorization` without an accepted key', choice: shown },
  challenge: { question: 'Every operation: the `WWW-Authenticate` challenge of a 401', choice: (challenge) => `\`${challenge}\`` },
  order: { question: 'listPets: the order of results', choice: (order) => `By id, ${order}` },
  'default-status': { question: 'createPet: the `status` of an animal created without one', choice: (status) => (status === 'none' ? 'None: a `status` left out stays absent' : `\`${status}\``) },
  'name-length': {
    question: 'createPet: the longest `name` accepted',
    choice: (limit) => (limit === 'unlimited' ? 'Any length (within the 1 MiB body)' : `${limit.max} characters (code points); a longer one gets ${shown(limit.refused)}`),
  },
  'body-size': { question: 'createPet: the largest body accepted', choice: (size) => `${size.max.toLocaleString('en-US')} bytes; a larger one gets ${shown(size.refused)}` },
  'empty-name': { question: 'createPet: an empty `name`', choice: acceptedOr },
  'control-characters': { question: 'createPet: a `name` with a control character', choice: acceptedOr },
  'taken-name': { question: 'createPet: a `name` an animal of the session already has', choice: acceptedOr },
  'chunked-body': { question: 'createPet: a body sent chunked', choice: acceptedOr },
  location: { question: 'createPet: `Location` with 201', choice: (location) => (location === 'sent' ? 'Sent: `/v1/pets/{id}`' : 'Not sent') },
  'missing-body': { question: 'createPet: an empty body', choice: shown },
  'malformed-json': { question: 'createPet: a body that is not JSON, or is nested more than 512 levels deep', choice: shown },
  'body-not-object': { question: 'createPet: JSON that is not an object', choice: shown },
  'media-type': { question: 'createPet: a NewPet not sent as `application/json`', choice: shown },
  'missing-field': { question: 'createPet: a NewPet without a field it requires', choice: byField },
  'invalid-value': { question: 'createPet: a NewPet with a field of the wrong type or out of range', choice: byField },
  'unknown-id': { question: 'getPet: an id no animal has', choice: shown },
  'pet-id': {
    question: 'getPet: a `petId` that is not an int64, and the other ways of writing an id read as that id',
    choice: (choice) => `${shown(choice)}; read as the id: ${choice.reads?.length ? choice.reads.join(', ') : 'plain digits only'}`,
  },
  'unknown-query-parameter': { question: 'A query parameter the document does not name', choice: (choice) => (choice === 'ignored' ? 'Ignored' : `Refused: ${shown(choice)}`) },
  limit: {
    question: 'listPets: a `limit` the document refuses',
    choice: (limit) => `${orIgnored(limit.refused)}${limit['above-maximum'] === 'clamped' ? '; past 100, a page of 100' : ', past 100 too'}`,
  },
  status: { question: 'listPets: a `status` the document refuses', choice: orIgnored },
};

/**
 * The profile's choices as a Markdown table (profile key, question,
 * choice), in the order of the schema: the documentation's table of the
 * mock's own choices is this table of profiles/default.yaml, and a test
 * checks the two agree.
 */
export function profileTable(choices: ProfileChoices): string {
  const rows = (Object.keys(ROWS) as ProfilePoint[]).map((point) => {
    const row = ROWS[point] as { question: string; choice: (choice: unknown) => string };
    return `| \`${point}\` | ${row.question} | ${row.choice(choices[point])} |`;
  });
  return ['| Profile key | Question | Choice |', '|---|---|---|', ...rows].join('\n');
}
