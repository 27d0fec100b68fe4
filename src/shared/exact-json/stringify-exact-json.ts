import { stringify } from 'lossless-json';

/**
 * JSON text of a value whose integers may be bigints (see int64.ts), each
 * written as its exact digits. JSON.stringify refuses a bigint (TypeError),
 * so only such values take lossless-json's slower writer.
 */
export function stringifyExactJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError) || !/BigInt/i.test(error.message)) throw error;
  }
  return stringify(value) as string;
}
