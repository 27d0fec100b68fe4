import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProfile, type LoadedProfile } from '../../src/mock/core/profile/load-profile.js';
import type { ProfileChoices } from '../../src/shared/profile/profile.js';
import { startApiServer, type ApiServer } from '../support/contract-cli.js';

/**
 * A correct server that chooses otherwise than the mock at every point a
 * profile covers: each a choice the interface leaves open (and the
 * contract harness passes), none the mock's own (profiles/default.yaml).
 * Served by the mock's own code under these choices, so it is correct
 * wherever the mock is; what it proves is that the harness learns every
 * point back, exactly as given, and the mock under the learned profile
 * answers alike. The reference server's `every-point` variant
 * (reference-server.ts) is the independent one that differs everywhere.
 */
export const EVERY_CHOICE: ProfileChoices = {
  'missing-key': { status: 401, code: 'no_credentials' },
  'wrong-key': { status: 401, code: 'bad_credentials' },
  challenge: 'Bearer realm="every-choice", scope="pets"',
  order: 'descending',
  'default-status': 'pending',
  'name-length': { max: 1000, refused: { status: 400, code: 'name_too_long' } },
  'body-size': { max: 65536, refused: { status: 400, code: 'body_too_big' } },
  'empty-name': { status: 400, code: 'name_empty' },
  'control-characters': { status: 400, code: 'name_has_control' },
  'taken-name': { status: 400, code: 'name_in_use' },
  'chunked-body': { status: 411, code: 'length_required' },
  location: 'not-sent',
  'missing-body': { status: 400, code: 'empty_body' },
  'malformed-json': { status: 400, code: 'bad_json' },
  'body-not-object': { status: 400, code: 'not_an_object' },
  'media-type': { status: 415, code: 'unsupported_media_type' },
  'missing-field': { status: 400, code: 'field_required', fields: { categoryId: { status: 400, code: 'category_required' } } },
  'invalid-value': { status: 400, code: 'bad_value', fields: { status: { status: 400, code: 'bad_status_value' } }, 'past-int64': { status: 400, code: 'out_of_range' } },
  'unknown-id': { status: 404, code: 'no_such_pet' },
  'pet-id': { status: 400, code: 'bad_pet_id', reads: ['plus-sign', 'leading-space', 'decimal-zero', 'exponent', 'hexadecimal'] },
  'unknown-query-parameter': { status: 400, code: 'unknown_parameter' },
  limit: { refused: { status: 400, code: 'bad_limit' }, 'above-maximum': 'clamped' },
  status: 'ignored',
};

let loaded: LoadedProfile | undefined;

/** The server on a free port, answering with `key` only. */
export function startEveryChoice(key: string): Promise<ApiServer> {
  if (!loaded) {
    const file = join(mkdtempSync(join(tmpdir(), 'animal-store-every-choice-')), 'every-choice.json');
    writeFileSync(file, JSON.stringify({ version: 1, name: 'every-choice', choices: EVERY_CHOICE }));
    const read = loadProfile(file);
    if (!read.ok) throw new Error(read.error);
    loaded = read.value;
  }
  return startApiServer({ apiKey: key, profile: loaded });
}
