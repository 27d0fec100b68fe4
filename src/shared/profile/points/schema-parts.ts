import type { ProfiledError } from '../profile-choice-types.js';
import type { JsonSchema } from '../profile-point.js';

/** An Error answer's schema: one of `statuses` (those the contract allows at the point), and a code. */
export function errorSchema(statuses: readonly number[], description?: string): JsonSchema {
  return {
    type: 'object',
    ...(description !== undefined && { description }),
    additionalProperties: false,
    required: ['status', 'code'],
    properties: {
      status: { enum: [...statuses], description: `The answer's status: ${statuses.join(' or ')}, what the contract allows here.` },
      code: { $ref: '#/definitions/code' },
    },
  };
}

/** A limit: the largest value accepted (an integer within its bounds), and the answer past it. */
export const limitSchema = (max: { minimum: number; maximum: number; description: string }, refused: JsonSchema): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: ['max', 'refused'],
  properties: { max: { type: 'integer', ...max }, refused },
});

/** A word, or an Error answer. */
export const wordOrErrorSchema = (word: string, statuses: readonly number[], refusal?: string): JsonSchema => ({ oneOf: [{ const: word }, errorSchema(statuses, refusal)] });

/** An Error answer as the documentation writes it: 400 `invalid_body`. */
export const shown = ({ status, code }: ProfiledError): string => `${status} \`${code}\``;
