import fc from 'fast-check';
import { badTexts } from '../generate/negative-values.js';
import { arbitraryFor, boundaryValues } from '../generate/positive-values.js';
import { inputModel } from '../generate/schema-model.js';
import { answerOf } from '../silent-log.js';
import { MAY_BE_READ, PAST_INT64 } from '../../shared/profile/learn/noted-answers.js';
import { isPastInt64Text } from '../../shared/exact-json/int64.js';
import type { Rule } from '../types.js';
import { finding, searchAndRecord, sweep, verdictOf } from './generated.js';
import { cite, STATEMENTS } from './statements.js';

const petId = inputModel().getPath.find((p) => p.name === 'petId');
if (!petId) throw new Error('getPet has no petId path parameter in the contract document');

export const generatedGetRules: Rule[] = [
  {
    id: 'get-generated-ids',
    title: 'getPet with generated int64 ids: the Pet with that id (200) or 404, an Error body',
    operation: 'getPet',
    writes: false,
    severity: 'contract',
    statement: STATEMENTS.getSuccess,
    async run(context) {
      return searchAndRecord(context, this.id, {
        arbitrary: arbitraryFor(petId.schema) as fc.Arbitrary<number>,
        examples: boundaryValues(petId.schema) as number[],
        runs: context.examples,
        async check(id) {
          const probe = await context.probe({ method: 'GET', path: `/pets/${id}` });
          const status = probe.exchange.response?.status;
          return verdictOf([probe], status === 200 || status === 404 ? [] : [finding(probe.exchange, `answered ${status ?? 'nothing'} for id ${id}`, `200 or 404 (${cite(STATEMENTS.getNotFound)})`, '$.status')]);
        },
        describe: (id) => `getPet ${id}`,
      });
    },
  },
  {
    id: 'get-generated-bad-ids',
    title: 'getPet with petIds that are not int64 (text, decimals, exponents, past the range): a 4xx Error or the Pet a lenient reading names, never a 5xx',
    operation: 'getPet',
    writes: false,
    severity: 'contract',
    statement: STATEMENTS.getNotFound,
    run: (context) =>
      sweep(
        context,
        // `/pets/` is listPets' path, not a petId.
        badTexts(petId.schema).filter((bad) => bad.value !== ''),
        (bad) => context.probe({ method: 'GET', path: `/pets/${encodeURIComponent(String(bad.value))}` }),
        (bad, { exchange }) => {
          context.observe('pet-id', petIdNote(answerOf(exchange), String(bad.value)), exchange);
          const status = exchange.response?.status;
          // The interface is silent on these: a server that reads " 5" or "+5" as 5 and answers that animal is defensible.
          return status === undefined || status === 200 || (status >= 400 && status < 500) ? [] : [finding(exchange, `answered ${status} for petId ${bad.label}`, `a 4xx Error body, or 200 (${cite(STATEMENTS.getNotFound)})`, '$.status')];
        },
      ),
  },
];

/**
 * A refused petId's answer as the silent log notes it. An integer past the
 * int64 range is told apart: a server may read it as an id no animal has.
 * Another text with a digit in it (`+5`, `5abc`) is an id to some
 * readings: a 404 then says no animal has it, not that it is no id.
 */
function petIdNote(answer: string, text: string): string {
  if (isPastInt64Text(text)) return `${answer} (${PAST_INT64})`;
  return /\p{Nd}/u.test(text) ? `${answer} (${MAY_BE_READ})` : answer;
}
