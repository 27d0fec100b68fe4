import type { FaultKind, JsonSchema } from './fault-kind.js';

/**
 * The `then` definition of scenarios/scenario.schema.json, built from the
 * fault kinds: a string is one of the words; a mapping has the properties
 * of the mapping kinds and exactly one of their names.
 */
export function thenSchema(kinds: readonly FaultKind[]): JsonSchema {
  const words = kinds.filter((k) => k.schema.form === 'word').map((k) => k.name);
  const mappings = kinds.flatMap((k) => (k.schema.form === 'mapping' ? [{ name: k.name, ...k.schema }] : []));
  const dependencies = Object.assign({}, ...mappings.map((m) => m.dependencies ?? {})) as Record<string, readonly string[]>;
  return {
    type: ['string', 'object'],
    if: { type: 'string' },
    then: { enum: words },
    else: {
      additionalProperties: false,
      properties: Object.assign({}, ...mappings.map((m) => m.properties)) as Record<string, JsonSchema>,
      ...(Object.keys(dependencies).length > 0 ? { dependencies } : {}),
      oneOf: mappings.map((m) => ({ required: [m.name] })),
    },
  };
}
