import { CORE_SCHEMA, load } from 'js-yaml';

/**
 * Parses YAML (or JSON, a subset) with the YAML 1.2 core schema, so a date
 * or a `yes` stays a string. js-yaml rather than `yaml`: measured here, it
 * loads and parses the contract document markedly faster, a good part of
 * the mock's start-up (BENCHMARKS.md). Duplicate keys are errors.
 */
export function parseYaml(text: string): unknown {
  return load(text, { schema: CORE_SCHEMA });
}

/** YAML (or JSON) read as `parseYaml` reads it, or why not: the parser's first line, which says where (the rest is an excerpt of the text). */
export function readYaml(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: parseYaml(text) };
  } catch (error) {
    return { ok: false, error: `cannot be read as YAML or JSON: ${(error as Error).message.split('\n', 1)[0]}` };
  }
}
