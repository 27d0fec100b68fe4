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
