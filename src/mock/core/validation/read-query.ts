import type { ParameterSpec } from '../../../document/operations.js';
import { errorBody, type ErrorBody } from '../errors.js';
import { failed, ok, type Result } from '../result.js';
import { queryValues } from './query-string.js';
import { readParameter } from './read-parameter.js';

/**
 * Reads an operation's documented query parameters. Defaults come from the
 * document; parameters it does not document are ignored, as most HTTP
 * services do. A documented parameter given twice is refused, as its values
 * the document refuses are (the document describes single values, and
 * silently taking one of them would hide a client bug), unless the profile
 * reads its first or its last value. `search` is the request's query string (query-string.ts):
 * only the documented names are looked for in it.
 */
export function readQuery(specs: readonly ParameterSpec[], search: string, choices: QueryChoices = {}): Result<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  const fail = (name: string, message: string) => failed(choices.refused?.(name, message) ?? errorBody('invalid_parameter', message));
  const absent = (spec: ParameterSpec) => {
    if (spec.default !== undefined) values[spec.name] = spec.default;
  };
  for (const spec of specs) {
    const raw = queryValues(search, spec.name);
    if (raw.count === 0) {
      if (spec.required) return fail(spec.name, `query parameter ${spec.name} is required`);
      absent(spec);
      continue;
    }
    // Ignored where the profile says so: read as if not given, its default then.
    const ignored = choices.ignore?.has(spec.name) === true && !spec.required;
    if (raw.count > 1 && choices.repeated === undefined) {
      if (ignored) absent(spec);
      else return fail(spec.name, `query parameter ${spec.name} must be given once, got ${raw.count} values`);
      continue;
    }
    const text = (choices.repeated === 'last' ? raw.last : raw.first) as string;
    const read = readParameter(spec, text);
    const clamped = read.ok ? undefined : clampedValue(spec, text, choices);
    if (read.ok || clamped !== undefined) values[spec.name] = read.ok ? read.value : clamped;
    else if (ignored) absent(spec);
    else return fail(spec.name, `query parameter ${spec.name} ${read.error} (got ${JSON.stringify(text)})`);
  }
  return ok(values);
}

/** Where a profile (src/shared/profile/profile.ts) answers otherwise than the mock's own choice. */
export interface QueryChoices {
  /** The Error a refused parameter gets; undefined: 400 `invalid_parameter`. */
  refused?: (name: string, message: string) => ErrorBody | undefined;
  /** Parameters whose integers past the document's `maximum` are read as that maximum, not refused. */
  clamp?: ReadonlySet<string>;
  /** Parameters whose refused values (given twice too) are read as if not given: their default, or nothing. */
  ignore?: ReadonlySet<string>;
  /** A parameter given more than once is read as its first or its last value; undefined: refused, as a refused value is. */
  repeated?: 'first' | 'last';
}

/** An integer past its documented maximum, as the maximum, when `choices` clamps it; else undefined. */
function clampedValue(spec: ParameterSpec, text: string, choices: QueryChoices): number | undefined {
  const max = spec.schema.maximum;
  if (!choices.clamp?.has(spec.name) || typeof max !== 'number' || !/^\d+$/.test(text)) return undefined;
  return BigInt(text) > BigInt(max) ? max : undefined;
}
