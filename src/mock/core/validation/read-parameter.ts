import type { ParameterSpec } from '../../../document/operations.js';
import { readNumberLiteral } from '../../../shared/exact-json/number-literal.js';
import { failed, ok, type Result } from '../result.js';

/** A parameter's value, or why it is refused: a phrase that follows its name ("must be an integer"). */
export type ReadResult = Result<unknown, string>;

// Whole decimal numbers only: `Number()` would also take '1e1', '0x10', ' 5'
// and '', which no client means as an integer.
const INTEGER = /^-?\d+$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/**
 * Turns the raw text of a query or path parameter into the JSON value its
 * schema describes, then validates it with the validator compiled from the
 * document. The schema's `type` decides how the text is read; its
 * constraints (minimum, maximum, enum…) are checked by the validator.
 */
export function readParameter(spec: ParameterSpec, raw: string): ReadResult {
  let value: unknown = raw;
  // What the validator judges: an integer past 2^53 is shown as its
  // int64 stand-in, the value keeps its digits (shared/exact-json/).
  let view: unknown;
  switch (spec.schema.type) {
    case 'integer': {
      if (!INTEGER.test(raw)) return failed('must be an integer');
      const read = readNumberLiteral(raw);
      value = read.value;
      view = read.view;
      break;
    }
    case 'number':
      if (!NUMBER.test(raw)) return failed('must be a number');
      value = Number(raw);
      break;
    case 'boolean':
      if (raw !== 'true' && raw !== 'false') return failed('must be true or false');
      value = raw === 'true';
      break;
  }
  if (spec.validate(view ?? value)) return ok(value);
  return failed(describeSchemaError(spec));
}

function describeSchemaError(spec: ParameterSpec): string {
  const error = spec.validate.errors?.[0];
  if (!error) return 'is invalid';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'minimum':
    case 'maximum':
      return describeRange(spec);
    default:
      return error.message ?? 'is invalid';
  }
}

function describeRange(spec: ParameterSpec): string {
  const { minimum, maximum, type } = spec.schema as { minimum?: number; maximum?: number; type?: string };
  const kind = type === 'integer' ? 'an integer' : 'a number';
  if (minimum !== undefined && maximum !== undefined) return `must be ${kind} from ${minimum} to ${maximum}`;
  if (minimum !== undefined) return `must be ${kind} of at least ${minimum}`;
  return `must be ${kind} of at most ${maximum}`;
}
