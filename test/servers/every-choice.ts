import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadedProfile } from '../../src/mock/core/profile/checked-profile.js';
import { loadProfile } from '../../src/mock/core/profile/load-profile.js';
import { PROFILE_POINTS, type ProfileChoices } from '../../src/shared/profile/profile-points.js';
import { startApiServer, type ApiServer } from '../support/contract-cli.js';

/**
 * A correct server that chooses otherwise than the mock at every point a
 * profile covers: each a choice the interface leaves open (and the
 * contract harness passes), none the mock's own (profiles/default.yaml):
 * each point's `example` in src/shared/profile/profile-points.ts.
 * Served by the mock's own code under these choices, so it is correct
 * wherever the mock is; what it proves is that the harness learns every
 * point back, exactly as given, and the mock under the learned profile
 * answers alike. The reference server's `every-point` variant
 * (reference-server.ts) is the independent one that differs everywhere.
 */
export const EVERY_CHOICE = Object.fromEntries(PROFILE_POINTS.map((point) => [point.key, point.example])) as ProfileChoices;

let loaded: LoadedProfile | undefined;

/** The server on a free port, answering with `key` only. */
export function startEveryChoice(key: string): Promise<ApiServer> {
  if (!loaded) {
    const dir = mkdtempSync(join(tmpdir(), 'animal-store-every-choice-'));
    const file = join(dir, 'every-choice.json');
    writeFileSync(file, JSON.stringify({ version: 1, name: 'every-choice', choices: EVERY_CHOICE }));
    const read = loadProfile(file);
    rmSync(dir, { recursive: true, force: true });
    if (!read.ok) throw new Error(read.error);
    loaded = read.value;
  }
  return startApiServer({ apiKey: key, profile: loaded });
}
