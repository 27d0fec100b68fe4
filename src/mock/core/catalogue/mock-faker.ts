import { Faker } from '@faker-js/faker';
import { FAKER_WORDS } from '../../../generated/faker-words.js';

/**
 * A faker instance with only the words the mock draws from (pet names,
 * lorem words), never the global one with every locale: the same draws
 * for a seed, at a fraction of the size a browser would load.
 */
export const mockFaker = (seed?: number): Faker => new Faker({ locale: [FAKER_WORDS], ...(seed === undefined ? {} : { seed }) });
