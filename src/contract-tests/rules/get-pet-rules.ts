import type { Rule } from '../types.js';
import { expectField, expectStatus, petOf } from './expect.js';
import { cite, STATEMENTS } from './statements.js';
import { answerOf } from '../silent-log.js';
import { stringifyExactJson } from '../../shared/exact-json/stringify-exact-json.js';
import { deprecationNote } from '../../shared/profile/learn/noted-answers.js';

/** The largest id JSON numbers carry exactly: an id no catalogue is likely to have reached. */
/** An id no animal has (every rule that reads an unknown id reads this one). */
export const UNLIKELY_ID = Number.MAX_SAFE_INTEGER;
const SUNSET = Date.UTC(2030, 11, 5);

export const getPetRules: Rule[] = [
  {
    id: 'get-known-id',
    title: 'getPet answers 200 with the Pet for an id listPets returns',
    operation: 'getPet',
    writes: false,
    severity: 'contract',
    statement: STATEMENTS.getSuccess,
    async run(context) {
      const listed = await context.existingPet();
      if (!listed) return { skipped: (await context.noPetReason()) ?? 'no id is known' };
      const exchange = await context.send({ method: 'GET', path: `/pets/${listed.id}` });
      if (!expectStatus(context, exchange, [200], STATEMENTS.getSuccess)) return;
      const pet = petOf(context, exchange, STATEMENTS.getSuccess);
      for (const field of ['id', 'name', 'categoryId', 'status'] as const) {
        if (pet) expectField(context, exchange, `$.body.${field}`, pet[field], listed[field], STATEMENTS.getSuccess);
      }
    },
  },
  {
    id: 'get-unknown-id',
    title: 'getPet answers 404 with an Error body for an unknown id',
    operation: 'getPet',
    writes: false,
    severity: 'contract',
    statement: STATEMENTS.getNotFound,
    async run(context) {
      const exchange = await context.send({ method: 'GET', path: `/pets/${UNLIKELY_ID}` });
      if (exchange.response?.status === 200 && (exchange.response.json as { id?: unknown })?.id === UNLIKELY_ID) {
        return { skipped: `an animal with id ${UNLIKELY_ID} exists` };
      }
      context.observe('unknown-id', answerOf(exchange), exchange);
      expectStatus(context, exchange, [404], STATEMENTS.getNotFound);
    },
  },
  {
    id: 'get-not-an-id',
    title: 'getPet with a petId that is not an integer (the interface does not say)',
    operation: 'getPet',
    writes: false,
    severity: 'advisory',
    statement: STATEMENTS.getNotFound,
    async run(context) {
      expectStatus(context, await context.send({ method: 'GET', path: '/pets/not-a-number' }), [400, 404], STATEMENTS.getNotFound);
    },
  },
  {
    id: 'get-deprecation-headers',
    title: 'getPet signals its deprecation: Deprecation, Sunset 5 December 2030, Link to the replacement',
    operation: 'getPet',
    writes: false,
    severity: 'advisory',
    statement: STATEMENTS.deprecation,
    async run(context) {
      const listed = await context.existingPet();
      const exchange = await context.send({ method: 'GET', path: `/pets/${listed?.id ?? UNLIKELY_ID}` });
      // Which answers carry the signals is the target's choice (the interface does not say how it is signalled): an error's and a 401's are noted too.
      const errors = [await context.send({ method: 'GET', path: `/pets/${UNLIKELY_ID}` }), await context.send({ method: 'GET', path: `/pets/${listed?.id ?? UNLIKELY_ID}`, auth: 'none' })];
      for (const answered of [exchange, ...errors]) {
        if (answered.response) context.observe('deprecation', deprecationNote.say(answered.response.status, answered.response.headers), answered);
      }
      const headers = exchange.response?.headers;
      if (!headers) return;
      const expected = cite(STATEMENTS.deprecation);
      // RFC 9745: a structured-field date, `@<seconds>`.
      if (!/^@-?\d+$/.test(headers.deprecation ?? '')) {
        context.fail({ message: `Deprecation is ${stringifyExactJson(headers.deprecation)}`, expected: `Deprecation: @<unix time> (RFC 9745); ${expected}`, path: '$.headers.deprecation', exchange });
      }
      // RFC 8594: an HTTP-date, the removal date.
      if (Date.parse(headers.sunset ?? '') !== SUNSET) {
        context.fail({ message: `Sunset is ${stringifyExactJson(headers.sunset)}`, expected: `Sunset: Thu, 05 Dec 2030 00:00:00 GMT (RFC 8594); ${expected}`, path: '$.headers.sunset', exchange });
      }
      if (!/\/pets>/.test(headers.link ?? '')) {
        context.fail({ message: `Link is ${stringifyExactJson(headers.link)}`, expected: `a Link to GET /pets; ${expected}`, path: '$.headers.link', exchange });
      }
    },
  },
];
