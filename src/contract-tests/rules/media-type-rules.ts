import { CREATED_NAME_PREFIX } from '../catalogue-fill.js';
import { answerOf } from '../silent-log.js';
import type { Rule } from '../types.js';
import { ACCEPTANCE } from './acceptance-statements.js';
import { createdAsSent } from './created-as-sent.js';
import { finding, sweep } from './generated.js';
import { cite } from './statements.js';

/**
 * Ways of writing `application/json` that RFC 9110 makes the same media
 * type (§8.3.1: type and subtype are case-insensitive; §5.6.6: parameter
 * names are case-insensitive, a value may be a token or a quoted-string,
 * whitespace may surround the `;`, and an empty parameter is allowed).
 * `charset=utf-8` is what JSON is anyway (RFC 8259 §8.1); RFC 8259 §11
 * defines no charset parameter, and "adding one has no effect".
 */
export const JSON_MEDIA_TYPE_FORMS: readonly string[] = [
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'Application/JSON',
  'APPLICATION/JSON; CHARSET="utf-8"',
  'application/json ; charset=utf-8',
  'application/json;',
];

export const mediaTypeRules: Rule[] = [
  {
    id: 'create-accepts-json-media-types',
    title: 'createPet accepts a valid NewPet sent as application/json in each form RFC 9110 makes the same media type (case, charset, spacing)',
    operation: 'createPet',
    writes: true,
    severity: 'contract',
    statement: ACCEPTANCE.mediaType,
    async run(context) {
      const cases = JSON_MEDIA_TYPE_FORMS.map((type, index) => ({
        label: `a NewPet sent as Content-Type: ${type}`,
        type,
        // Letters outside ASCII: a server that reads the charset wrongly changes them.
        pet: { name: `${CREATED_NAME_PREFIX} média ${context.seed} ${index} ✓`, categoryId: 1, status: 'available' },
      }));
      return sweep(
        context,
        cases,
        (c) => context.probe({ method: 'POST', path: '/pets', headers: { 'content-type': c.type }, body: JSON.stringify(c.pet) }),
        (c, probe) =>
          probe.exchange.response?.status === 201
            ? createdAsSent(probe, c.pet, ACCEPTANCE.mediaType.text)
            : [finding(probe.exchange, `answered ${answerOf(probe.exchange)} to a valid NewPet sent as ${c.type}`, `201 (${cite(ACCEPTANCE.mediaType)})`, '$.status')],
      );
    },
  },
];
