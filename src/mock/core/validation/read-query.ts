import type { ParameterSpec } from '../../../document/operations.js';
import { fail, ok, type Result } from '../result.js';
import { readParameter } from './read-parameter.js';

/**
 * Reads an operation's documented query parameters. Defaults come from the
 * document; parameters it does not document are ignored, as most HTTP
 * services do. A documented parameter given twice is refused: the document
 * describes single values, and silently taking one of them would hide a
 * client bug. `query` is every parameter of the request at once, each with
 * all its values, parsed once per request by the caller.
 */
export function readQuery(specs: readonly ParameterSpec[], query: Readonly<Record<string, string[] | undefined>>): Result<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  for (const spec of specs) {
    const raw = Object.hasOwn(query, spec.name) ? query[spec.name] : undefined;
    if (raw === undefined || raw.length === 0) {
      if (spec.required) return fail('invalid_parameter', `query parameter ${spec.name} is required`);
      if (spec.default !== undefined) values[spec.name] = spec.default;
      continue;
    }
    if (raw.length > 1) return fail('invalid_parameter', `query parameter ${spec.name} must be given once, got ${raw.length} values`);
    const text = raw[0] as string;
    const read = readParameter(spec, text);
    if (!read.ok) return fail('invalid_parameter', `query parameter ${spec.name} ${read.error} (got ${JSON.stringify(text)})`);
    values[spec.name] = read.value;
  }
  return ok(values);
}
