import { stringify } from 'lossless-json';

/**
 * JSON text of a value whose integers may be bigints (see int64.ts), each
 * written as its exact digits. JSON.stringify refuses a bigint (TypeError),
 * so only such values take lossless-json's slower writer. Like
 * JSON.stringify, undefined (or a function) gives undefined.
 */
export function stringifyExactJson(value: object): string;
export function stringifyExactJson(value: unknown): string | undefined;
export function stringifyExactJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError) || !/BigInt/i.test(error.message)) throw error;
  }
  return stringify(value);
}
