import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { dump } from 'js-yaml';
import type { SilentEntry } from '../../verdict/report.js';
import type { ProfileFile } from '../../shared/profile/profile.js';
import { profileFromSilent } from './profile-from-silent.js';

/** A profile's name from its file's: `staging.profile.yaml` → `staging.profile`, cut to what the schema allows. */
export function profileName(file: string): string {
  const stem = basename(file).replace(/\.(ya?ml|json)$/i, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return (stem || 'profile').slice(0, 64);
}

/** What `--write-profile` did: the profile written, or why it could not be. */
export type WrittenProfile = { ok: true; profile: ProfileFile } | { ok: false; problem: string };

/**
 * `--write-profile FILE`: the run's silent log as a profile for
 * `animal-store-mock --profile` (YAML, or JSON for a `.json` file), with
 * a first line that gives editors its schema.
 */
export function writeProfile(file: string, silent: readonly SilentEntry[], seed: number): WrittenProfile {
  const profile = profileFromSilent(silent, profileName(file));
  const text = /\.json$/i.test(file)
    ? `${JSON.stringify(profile, null, 2)}\n`
    : `# What the target chose where the interface is silent, seen by animal-store-contract (seed ${seed}).\n# Read by animal-store-mock --profile; schema: profiles/profile.schema.json of the package.\n${dump(profile, { lineWidth: 120, noRefs: true })}`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return { ok: true, profile };
  } catch (error) {
    return { ok: false, problem: `cannot write the profile to ${file}: ${(error as Error).message}` };
  }
}
