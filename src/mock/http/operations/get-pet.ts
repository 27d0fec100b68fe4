import { generatePet } from '../../core/catalogue/generate-pets.js';
import { clip, profiledError, type ErrorBody } from '../../core/errors.js';
import { failed, ok } from '../../core/result.js';
import { readParameter } from '../../core/validation/read-parameter.js';
import { petIdText } from '../../core/validation/pet-id-forms.js';
import { isPastInt64Text } from '../../../shared/exact-json/int64.js';
import { andThen } from '../../core/store/maybe-promise.js';
import { servingState } from '../exchange.js';
import { respond, sendError } from '../respond.js';
import type { OperationFactory } from './served-operation.js';

/** `GET /pets/{petId}`: one animal, or 404; an unknown id and a `petId` that is not an int64 get the active profile's answers. */
export const getPet: OperationFactory<{ id: number; raw: string }> = (operation, { profile }) => {
  const petId = operation.pathParams.find((p) => p.name === 'petId');
  if (!petId) throw new Error('getPet has no petId path parameter in the document');
  return {
    read(x) {
      const raw = x.c.req.param('petId') ?? '';
      const choice = profile.choices['pet-id'];
      const text = petIdText(raw, choice.reads ?? []);
      const read = text === undefined ? failed('not a form read as an id') : readParameter(petId, text);
      // A petId that is not an int64 names no animal: by default 404, like an unknown id (the
      // interface does not say). One past 2^53 (read as a bigint) is an int64 naming no animal:
      // the mock assigns its ids, all safe integers. One past int64 gets the profile's answer to it, when it has one.
      if (!read.ok) return failed(notAnId(text !== undefined && isPastInt64Text(text) ? (choice['past-int64'] ?? choice) : choice, raw));
      return typeof read.value === 'number' ? ok({ id: read.value, raw }) : failed(notFound(profile.choices['unknown-id'], raw));
    },
    serve: (x, { id, raw }) =>
      andThen(servingState(x), (state) =>
        andThen(state.catalogue.getJson(id), (pet) => (pet === undefined ? sendError(x, notFound(profile.choices['unknown-id'], raw)) : respond(x, 200, pet))),
      ),
    generate: (faker, { id }) => generatePet(faker, { id }),
  };
};

type Answer = { status: number; code: string };

const notFoundMessage = (raw: string): string => `No animal has the id ${raw}.`;
const notFound = (answer: Answer, raw: string): ErrorBody => profiledError(answer, notFoundMessage(raw));

/** A petId that is not an int64: the profile's status and code; a 404 says what any unknown id's does. */
const notAnId = (answer: Answer, raw: string): ErrorBody =>
  profiledError(answer, answer.status === 404 ? notFoundMessage(raw) : `petId must be a 64-bit integer, got ${JSON.stringify(clip(raw))}`);
