import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { dump as stringify } from 'js-yaml';

/**
 * A temporary scenarios folder for one test file, removed after it.
 * `write` takes a scenario as an object (written as YAML) or as raw text.
 */
export function scenarioFolder() {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-scenarios-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    write(fileName: string, content: object | string): string {
      const file = join(dir, fileName);
      writeFileSync(file, typeof content === 'string' ? content : stringify(content));
      return file;
    },
  };
}

/** The smallest valid scenario named `name`, with these stubs. */
export const scenarioWith = (name: string, stubs: unknown[], extra: Record<string, unknown> = {}) => ({
  name,
  description: `test scenario ${name}`,
  catalogue: { fixture: 'fixtures/pets.json' },
  ...extra,
  stubs,
});
