import { FAULT_KINDS } from '../src/mock/core/faults/fault-kinds.js';
import { thenSchema } from '../src/mock/core/faults/then-schema.js';

/** A value's one-line JSON as the schema file writes it: `{ "a": 1 }`, `[1, 2]`. */
function oneLine(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(oneLine).join(', ')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const entries = Object.entries(value).map(([key, inner]) => `${JSON.stringify(key)}: ${oneLine(inner)}`);
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
}

/** The file's layout: a value on one line when that takes at most 80 characters, else one key a line. */
function formatted(value: unknown, indent: string): string {
  const line = oneLine(value);
  if (line.length <= 80 || typeof value !== 'object' || value === null) return line;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((item) => `${inner}${formatted(item, inner)}`).join(',\n')}\n${indent}]`;
  return `{\n${Object.entries(value).map(([key, item]) => `${inner}${JSON.stringify(key)}: ${formatted(item, inner)}`).join(',\n')}\n${indent}}`;
}

/**
 * scenarios/scenario.schema.json's text with its `then` definition written
 * from the fault kinds, the rest of the file as it is. The file is committed
 * for editors' completion; `then` is its last definition, so the rest is
 * kept byte for byte.
 */
export function withFaultKinds(fileText: string): string {
  const definitions = Object.keys((JSON.parse(fileText) as { definitions: object }).definitions);
  const start = fileText.indexOf('\n    "then": ');
  const end = fileText.lastIndexOf('\n  }\n}');
  if (definitions.at(-1) !== 'then' || start < 0 || end < start) throw new Error('scenario.schema.json: expected "then" as the last entry of "definitions"');
  return `${fileText.slice(0, start)}\n    "then": ${formatted(thenSchema(FAULT_KINDS), '    ')}${fileText.slice(end)}`;
}
