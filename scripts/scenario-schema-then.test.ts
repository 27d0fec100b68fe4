import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FAULT_KINDS } from '../src/mock/core/faults/fault-kinds.js';
import { thenSchema } from '../src/mock/core/faults/then-schema.js';
import { scenarioSchemaPath } from '../src/mock/core/scenarios/scenario-schema-path.js';
import { withFaultKinds } from './scenario-schema-then.js';

/** The schema file is committed for editors; its `then` must be the fault kinds'. */
describe('scenarios/scenario.schema.json and the fault kinds', () => {
  const text = readFileSync(scenarioSchemaPath(), 'utf8');

  it('has the `then` the fault kinds give (else: npm run scenario-schema)', () => {
    expect((JSON.parse(text) as { definitions: { then: unknown } }).definitions.then).toEqual(thenSchema(FAULT_KINDS));
  });

  it('is the file npm run scenario-schema writes, byte for byte', () => {
    expect(withFaultKinds(text)).toBe(text);
  });

  it('writes a new kind into `then`, the rest of the file untouched', () => {
    const changed = withFaultKinds(text.replace('"malformed-json", ', ''));
    expect(changed).toBe(text);
    const edited = text.replace('"maxLength": 64', '"maxLength": 65');
    expect(withFaultKinds(edited)).toBe(edited);
  });
});
