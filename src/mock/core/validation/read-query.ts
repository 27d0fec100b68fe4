import type { ParameterSpec } from '../../../document/operations.js';
import { fail, ok, type Result } from '../result.js';
import { queryValues } from './query-string.js';
import { readParameter } from './read-parameter.js';

/**
 * Reads an operation's documented query parameters. Defaults come from the
 * document; parameters it does not document are ignored, as most HTTP
 * services do. A documented parameter given twice is refused: the document
 * describes single values, and silently taking one of them would hide a
 * client bug. `search` is the request's query string (query-string.ts):
 * only the documented names are looked for in it.
 */
export function readQuery(specs: readonly ParameterSpec[], search: string): Result<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  for (const spec of specs) {
    const raw = queryValues(search, spec.name);
    if (raw.count === 0) {
      if (spec.required) return fail('invalid_parameter', `query parameter ${spec.name} is required`);
      if (spec.default !== undefined) values[spec.name] = spec.default;
      continue;
    }
    if (raw.count > 1) return fail('invalid_parameter', `query parameter ${spec.name} must be given once, got ${raw.count} values`);
    const text = raw.first as string;
    const read = readParameter(spec, text);
    if (!read.ok) return fail('invalid_parameter', `query parameter ${spec.name} ${read.error} (got ${JSON.stringify(text)})`);
    values[spec.name] = read.value;
  }
  return ok(values);
}
