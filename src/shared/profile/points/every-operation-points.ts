import { learned, listed, oneError, oneOf, unlearned } from '../learn/learned.js';
import { AS_WITHOUT_IT, emptyAuthorizationNote, NO_CHALLENGE } from '../learn/noted-answers.js';
import type { IgnoredOr, ProfiledError } from '../profile-choice-types.js';
import { profilePoint } from '../profile-point.js';
import { errorSchema, shown, wordOrErrorSchema } from './schema-parts.js';

const UNAUTHORIZED = [401] as const;

/** A 401's Error: the interface fixes an Error's shape, not its codes, so each condition a client may tell apart is a point. */
const unauthorized = <const Key extends string>(key: Key, question: string, learnedFrom: string, example: ProfiledError) =>
  profilePoint<Key, ProfiledError>({
    key,
    question,
    learnedFrom,
    schema: errorSchema(UNAUTHORIZED),
    own: { status: 401, code: 'unauthorized' },
    example,
    inWords: shown,
    learn: (answers) => oneError(UNAUTHORIZED, answers),
    noted: 'fixed',
  });

const missingKey = unauthorized('missing-key', 'Every operation: no `Authorization` header', "the one `401 code` of the auth rules' requests without `Authorization`", { status: 401, code: 'no_credentials' });
const wrongKey = unauthorized('wrong-key', 'Every operation: `Authorization` without an accepted key', "the one `401 code` of the auth rules' requests with another key or scheme", { status: 401, code: 'bad_credentials' });

/** RFC 9110 §11.6.1 and RFC 6750 §3: the Bearer scheme, then any auth-params; printable ASCII, as a header value the mock sends. */
const CHALLENGE = /^[Bb][Ee][Aa][Rr][Ee][Rr](?:[ ]+[!-~][ -~]{0,510})?$/;

const challenge = profilePoint<'challenge', string>({
  key: 'challenge',
  question: 'Every operation: the `WWW-Authenticate` challenge of a 401',
  learnedFrom: 'the one `WWW-Authenticate` value of those 401s, exactly as sent',
  about: 'the Bearer scheme (RFC 9110 §11.6.1, RFC 6750 §3), then any auth-params, printable ASCII only',
  schema: { type: 'string', pattern: CHALLENGE.source },
  own: 'Bearer realm="animal-store"',
  example: 'Bearer realm="every-choice", scope="pets"',
  inWords: (value) => `\`${value}\``,
  learn: (answers) =>
    answers.some((a) => a.answer === NO_CHALLENGE)
      ? unlearned(`the target's 401s carry no WWW-Authenticate (${listed(answers)}): not copied, as RFC 9110 §11.6.1 requires a challenge with every 401`)
      : oneOf(answers, (answer) => (CHALLENGE.test(answer) ? answer : undefined)),
  noted: 'fixed',
});

const unknownQueryParameter = profilePoint<'unknown-query-parameter', IgnoredOr>({
  key: 'unknown-query-parameter',
  question: 'Every operation: a query parameter the document does not name',
  learnedFrom: '`answered as without it` → ignored, else the one `400 code`',
  about: 'ignored, or refused',
  schema: wordOrErrorSchema('ignored', [400], 'Refused with this answer.'),
  own: 'ignored',
  example: { status: 400, code: 'unknown_parameter' },
  inWords: (choice) => (choice === 'ignored' ? 'Ignored' : `Refused: ${shown(choice)}`),
  learn: (answers) => (answers.length === 1 && answers[0]?.answer === AS_WITHOUT_IT ? learned('ignored') : oneError([400], answers)),
  noted: 'fixed',
});

const emptyAuthorization = profilePoint<'empty-authorization', 'missing-key' | 'wrong-key'>({
  key: 'empty-authorization',
  question: 'Every operation: an empty `Authorization` header, answered as a missing key or as a wrong one',
  learnedFrom: '`auth-missing-key-list-pets` sends an empty header beside none and a wrong key: `as without the header` → missing-key, `as a wrong key` → wrong-key',
  about: 'which 401 it gets, when the two are told apart',
  schema: { enum: ['missing-key', 'wrong-key'] },
  own: 'wrong-key',
  example: 'missing-key',
  inWords: (choice) => (choice === 'missing-key' ? 'As a missing key' : 'As a wrong key (the header is there)'),
  learn: (answers) => oneOf(answers, emptyAuthorizationNote.read),
  noted: 'fixed',
});

/**
 * What a path the document does not have may get: a refusal, never a
 * success nor a 5xx (the interface lists none); not 405, which must name
 * the methods allowed (RFC 9110 §15.5.6) where there are none.
 */
const UNKNOWN_PATH_STATUSES = [400, 403, 404, 410] as const;

const unknownPath = profilePoint<'unknown-path', ProfiledError>({
  key: 'unknown-path',
  question: 'A path under the base address that the document does not have (`GET /pet`), with an accepted key',
  learnedFrom: 'the `STATUS code` of `unknown-path` (`GET /pet` with the key)',
  about: 'every method, on every path under the base that no operation, nor the store orders area, has',
  schema: errorSchema(UNKNOWN_PATH_STATUSES),
  own: { status: 404, code: 'route_not_found' },
  example: { status: 404, code: 'not_found' },
  inWords: shown,
  learn: (answers) => oneError(UNKNOWN_PATH_STATUSES, answers),
  noted: 'fixed',
});

/** RFC 9110 §12.5.1: a server may disregard an Accept it cannot satisfy, or refuse the request with 406 Not Acceptable (§15.5.7). */
const NOT_ACCEPTABLE = [406] as const;

const acceptWithoutJson = profilePoint<'accept-without-json', IgnoredOr>({
  key: 'accept-without-json',
  question: 'Every operation: an `Accept` that does not accept application/json (`Accept: application/xml`), with an accepted key',
  learnedFrom: '`list-accept-without-json` (`GET /pets` with `Accept: application/xml`): `answered as without it` → ignored, else the one `406 code`',
  about: 'ignored (answered in JSON all the same), or refused with 406 Not Acceptable; an Accept that names application/json, application/* or */* with a weight above 0 is never refused',
  schema: wordOrErrorSchema('ignored', NOT_ACCEPTABLE, 'Refused with this answer.'),
  own: 'ignored',
  example: { status: 406, code: 'not_acceptable' },
  inWords: (choice) => (choice === 'ignored' ? 'Ignored: answered in JSON' : `Refused: ${shown(choice)}`),
  learn: (answers) => (answers.length === 1 && answers[0]?.answer === AS_WITHOUT_IT ? learned('ignored') : oneError(NOT_ACCEPTABLE, answers)),
  noted: 'fixed',
});

/** The points every operation has, in the schema's order. */
export const EVERY_OPERATION_POINTS = [missingKey, wrongKey, emptyAuthorization, challenge, unknownQueryParameter, unknownPath, acceptWithoutJson] as const;
