import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { displayPath } from '../files/display-path.js';
import { packageRoot } from '../../../shared/package-root.js';
import { clip } from '../errors.js';
import type { Result } from '../result.js';

/** The shipped scenarios, and the default of `--scenarios`. */
export const defaultScenariosDir = (): string => join(packageRoot(), 'scenarios');

const SCENARIO_FILE = /^(.+)\.(ya?ml|json)$/;

/**
 * The scenario files in a folder, by name (the file name without `.yaml`,
 * `.yml` or `.json`). `*.schema.json` files are the schema, not scenarios.
 * Two files for one name are refused rather than one picked.
 */
export function listScenarios(dir: string): Result<Map<string, string>, string> {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch (error) {
    return { ok: false, error: `cannot read the scenarios folder ${displayPath(dir)}: ${(error as Error).message}` };
  }
  const files = new Map<string, string>();
  for (const entry of entries) {
    const match = SCENARIO_FILE.exec(entry);
    if (!match || entry.endsWith('.schema.json')) continue;
    const name = match[1] as string;
    const previous = files.get(name);
    if (previous) return { ok: false, error: `${displayPath(join(dir, entry))}: scenario ${name} is also defined by ${displayPath(previous)}; keep one file per scenario` };
    files.set(name, join(dir, entry));
  }
  return { ok: true, value: files };
}

/** The file of scenario `name` in `dir`. Names are looked up in the listing, never joined into a path. */
export function findScenario(dir: string, name: string): Result<string, string> {
  const listed = listScenarios(dir);
  if (!listed.ok) return listed;
  const file = listed.value.get(name);
  if (file) return { ok: true, value: file };
  const known = [...listed.value.keys()];
  return { ok: false, error: `unknown scenario ${JSON.stringify(clip(name))} in ${displayPath(dir)} (known: ${known.join(', ') || 'none'})` };
}
