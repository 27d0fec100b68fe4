import { clip } from '../errors.js';

/**
 * Why a create was refused: it asked that a name be refused when another
 * animal of the same catalogue (the scenario state's start animals and its
 * additions) already has it, and one has. Nothing was stored.
 */
export interface NameTaken {
  taken: true;
}

/**
 * The message of a create refused for its name (its status and code are
 * the profile's `taken-name`). The interface does not say whether names
 * are unique; a mock asked to refuse a taken one says which name, and the
 * reset that frees the names of the animals created.
 */
export const nameTakenMessage = (name: string): string =>
  `an animal of this catalogue is already named ${JSON.stringify(clip(name))}; POST /__mock/reset frees the names of the animals created (the start catalogue's stay)`;
