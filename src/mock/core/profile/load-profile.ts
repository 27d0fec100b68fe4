import { readFileSync } from 'node:fs';
import { displayPath } from '../files/display-path.js';
import { failed, type Result } from '../result.js';
import { checkProfile, parseProfileText, type LoadedProfile } from './checked-profile.js';

/**
 * Reads a profile file (YAML, or JSON) and checks it (checked-profile.ts).
 * A file that fails is refused with `<file>: <JSONPath> <reason>`, every
 * problem joined with `; `.
 */
export function loadProfile(file: string): Result<LoadedProfile, string> {
  const shown = displayPath(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return failed(`${shown}: cannot be read: ${(error as Error).message}`);
  }
  const parsed = parseProfileText(text, shown);
  return parsed.ok ? checkProfile(parsed.value, shown) : parsed;
}
