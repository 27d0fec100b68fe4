import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { parseYaml } from '../shared/parse-yaml.js';

export interface Environment {
  baseUrl?: string;
  baseUrlFrom?: string;
  apiKey?: string;
  apiKeyFrom?: string;
  readOnly?: boolean;
  allowRefusal?: string[];
}

export interface ResolvedEnvironment {
  name: string;
  /** Undefined when the variable it comes from is not set (`baseUrlFrom` names it). */
  baseUrl: string | undefined;
  baseUrlFrom: string | undefined;
  apiKey: string | undefined;
  readOnly: boolean;
  /** The limits the service documents (`--allow-refusal`'s grammar), declared once for the environment. */
  allowRefusal: string[];
}

export type ConfigResult<T> = { ok: true; value: T } | { ok: false; error: string };

const SCHEMA = {
  type: 'object',
  required: ['environments'],
  additionalProperties: false,
  properties: {
    environments: {
      type: 'object',
      minProperties: 1,
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          baseUrl: { type: 'string', pattern: '^https?://' },
          baseUrlFrom: { type: 'string', pattern: '^[A-Z_][A-Z0-9_]*$' },
          apiKey: { type: 'string' },
          apiKeyFrom: { type: 'string', pattern: '^[A-Z_][A-Z0-9_]*$' },
          readOnly: { type: 'boolean' },
          allowRefusal: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
} as const;

const validate = new Ajv({ allErrors: true }).compile(SCHEMA);

/**
 * Reads the environments file and resolves one environment: its base URL and
 * key come from the file or from the environment variables it names.
 */
export function resolveEnvironment(file: string, name: string, env: NodeJS.ProcessEnv): ConfigResult<ResolvedEnvironment> {
  let config: unknown;
  try {
    config = parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    return { ok: false, error: `cannot read the config ${file}: ${(error as Error).message}` };
  }
  if (!validate(config)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
    return { ok: false, error: `invalid config ${file}: ${problems}` };
  }
  const environments = (config as { environments: Record<string, Environment> }).environments;
  const chosen = environments[name];
  if (!chosen) return { ok: false, error: `no environment ${JSON.stringify(name)} in ${file} (there are: ${Object.keys(environments).join(', ')})` };
  const fromEnv = (variable: string | undefined): string | undefined => (variable ? env[variable] || undefined : undefined);
  return {
    ok: true,
    value: {
      name,
      baseUrl: chosen.baseUrl ?? fromEnv(chosen.baseUrlFrom),
      baseUrlFrom: chosen.baseUrlFrom,
      apiKey: chosen.apiKey ?? fromEnv(chosen.apiKeyFrom),
      readOnly: chosen.readOnly === true,
      allowRefusal: chosen.allowRefusal ?? [],
    },
  };
}
