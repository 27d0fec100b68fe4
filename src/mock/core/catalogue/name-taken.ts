import { clip, errorBody, type ErrorBody } from '../errors.js';

/**
 * Why a create was refused: it asked that a name be refused when another
 * animal of the same catalogue (the scenario state's start animals and its
 * additions) already has it, and one has. Nothing was stored.
 */
export interface NameTaken {
  taken: true;
}

/**
 * The answer to a create refused for its name: 400, the client's request
 * is what must change (RFC 9110 §15.5.1). The interface does not say
 * whether names are unique; a mock asked to refuse a taken one says which
 * name, and the reset that frees the names of the animals created.
 */
export const nameTakenError = (name: string): ErrorBody =>
  errorBody('name_taken', `an animal of this catalogue is already named ${JSON.stringify(clip(name))}; POST /__mock/reset frees the names of the animals created (the start catalogue's stay)`);
