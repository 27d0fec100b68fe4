import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import pLimit from 'p-limit';
import { afterAll, describe, it } from 'vitest';
import { createResponseValidator } from '../../src/document/response-validator.js';
import { runSuite } from '../../src/contract-tests/run-suite.js';
import { runDrift } from '../../src/contract-tests/drift/run-drift.js';
import { profileFromSilent } from '../../src/contract-tests/profile/profile-from-silent.js';
import { profileStatuses } from '../support/profile-statuses.js';
import { loadDefaultProfile, type LoadedProfile } from '../../src/mock/core/profile/checked-profile.js';
import { loadProfile } from '../../src/mock/core/profile/load-profile.js';
import { PET_ID_FORMS, type FieldErrors, type NewPetField, type ProfiledError } from '../../src/shared/profile/profile-choice-types.js';
import { profileSchemaPath } from '../../src/shared/profile/profile-paths.js';
import type { ProfileChoices, ProfilePoint } from '../../src/shared/profile/profile-points.js';
import { startApiServer } from '../support/contract-cli.js';
import { differingPoints, namedPoints } from '../support/profile-drift.js';

/**
 * Any profile the schema accepts keeps the contract: the mock under
 * generated profiles passes every rule of the harness, over real HTTP. And
 * the harness reads each choice back from what the mock answered: the
 * profile it writes holds, at every point it learns, the choice generated.
 * Names up to 9,999 characters: the harness sends names of up to 10,000, so
 * it meets each limit. And two mocks, one under a generated profile, drift
 * exactly where the profile differs from the mock's own choices.
 */
const KEY = 'generated-profiles-key';
const validator = createResponseValidator();
const dir = mkdtempSync(join(tmpdir(), 'animal-store-generated-profiles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Node = { properties: Record<string, { enum?: string[] }> };
const points = (JSON.parse(readFileSync(profileSchemaPath(), 'utf8')) as { properties: { choices: Node } }).properties.choices.properties;
/** A point's values as the schema lists them. */
const values = (point: ProfilePoint) => fc.constantFrom(...(points[point]?.enum ?? []));
const error = (point: ProfilePoint) => fc.record({ status: fc.constantFrom(...profileStatuses(point)), code: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_.:-]{0,15}$/) });

const acceptedOr = (point: ProfilePoint) => fc.oneof(fc.constant('accepted' as const), error(point));
const fields = <F extends string>(point: ProfilePoint, names: readonly F[]) => fc.record(Object.fromEntries(names.map((name) => [name, error(point)])) as Record<F, ReturnType<typeof error>>, { requiredKeys: [] });
const byField = (point: 'missing-field' | 'invalid-value', names: readonly NewPetField[]) =>
  fc.record({ status: fc.constantFrom(...profileStatuses(point)), code: error(point).map((e) => e.code), fields: fields(point, names), ...(point === 'invalid-value' && { 'past-int64': error(point) }) }, { requiredKeys: ['status', 'code'] });

/** The Error a field's refusal gets under a choice given per field: the one a client sees, however the profile writes it. */
const effective = (choice: unknown, point: 'missing-field' | 'invalid-value') => {
  const given = choice as FieldErrors & { 'past-int64'?: ProfiledError };
  const of = (e: ProfiledError) => `${e.status} ${e.code}`;
  const names: NewPetField[] = point === 'missing-field' ? ['name', 'categoryId'] : ['name', 'categoryId', 'status'];
  const answers = Object.fromEntries(names.map((name) => [name, of(given.fields?.[name] ?? given)]));
  return point === 'invalid-value' ? { ...answers, 'past-int64': of(given['past-int64'] ?? given.fields?.categoryId ?? given) } : answers;
};

/** Every point's choices as the schema allows them: a point the profile points add and this leaves out does not compile. */
const everyPoint: { [P in ProfilePoint]: fc.Arbitrary<ProfileChoices[P]> } = {
  'missing-key': error('missing-key'),
  'wrong-key': error('wrong-key'),
  'empty-authorization': fc.constantFrom('missing-key' as const, 'wrong-key' as const),
  challenge: fc.stringMatching(/^Bearer(?: [a-z]{1,8}="[a-z0-9 ]{0,12}")?$/),
  order: values('order') as fc.Arbitrary<ProfileChoices['order']>,
  'default-status': values('default-status') as fc.Arbitrary<ProfileChoices['default-status']>,
  'name-length': fc.oneof(fc.constant('unlimited' as const), fc.record({ max: fc.integer({ min: 1000, max: 9999 }), refused: error('name-length') })),
  // From 64 KiB: the longest names generated (9,999 characters, escaped) fit, so a name's refusal is never the body's.
  'body-size': fc.record({ max: fc.integer({ min: 65536, max: 1048576 }), refused: error('body-size') }),
  'empty-name': acceptedOr('empty-name'),
  'control-characters': acceptedOr('control-characters'),
  'taken-name': acceptedOr('taken-name'),
  'chunked-body': acceptedOr('chunked-body'),
  'extra-member': acceptedOr('extra-member'),
  'duplicate-member': fc.oneof(fc.constant('last-wins' as const), fc.constant('first-wins' as const), error('duplicate-member')),
  location: values('location') as fc.Arbitrary<ProfileChoices['location']>,
  'missing-body': error('missing-body'),
  'malformed-json': error('malformed-json'),
  'body-not-object': error('body-not-object'),
  'media-type': error('media-type'),
  'content-coding': fc.oneof(fc.constant('ignored' as const), error('content-coding')),
  'missing-field': byField('missing-field', ['name', 'categoryId']),
  'invalid-value': byField('invalid-value', ['name', 'categoryId', 'status']),
  'unknown-id': error('unknown-id'),
  'pet-id': fc.record({ status: fc.constantFrom(...profileStatuses('pet-id')), code: error('pet-id').map((e) => e.code), reads: fc.subarray([...PET_ID_FORMS]), 'past-int64': error('pet-id') }, { requiredKeys: ['status', 'code'] }),
  'unknown-query-parameter': fc.oneof(fc.constant('ignored' as const), error('unknown-query-parameter')),
  'unknown-path': error('unknown-path'),
  'accept-without-json': fc.oneof(fc.constant('ignored' as const), error('accept-without-json')),
  limit: fc.record({ refused: fc.oneof(fc.constant('ignored' as const), error('limit')), 'above-maximum': fc.constantFrom('refused' as const, 'clamped' as const) }),
  status: fc.oneof(fc.constant('ignored' as const), fc.constant('empty' as const), error('status')),
  'repeated-parameter': values('repeated-parameter') as fc.Arbitrary<ProfileChoices['repeated-parameter']>,
  // With no signals, no Link either: `none` is learned with `not-sent`.
  deprecation: fc.oneof(fc.record({ answers: fc.constantFrom('every' as const, 'success' as const), link: fc.constantFrom('sent' as const, 'not-sent' as const) }), fc.constant({ answers: 'none' as const, link: 'not-sent' as const })),
};
const choices: fc.Arbitrary<Partial<ProfileChoices>> = fc.record(everyPoint, { requiredKeys: [] });

/** A generated profile, loaded as `--profile` loads it. */
function loaded(generated: Partial<ProfileChoices>, name: string): LoadedProfile {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ version: 1, name, choices: generated }));
  const profile = loadProfile(file);
  if (!profile.ok) throw new Error(`a generated profile the schema refuses: ${profile.error}`);
  return profile.value;
}

describe('the mock under generated profiles', () => {
  const profiles = fc.sample(choices, { seed: 20261126, numRuns: 4 });

  it('drifts from the mock without a profile exactly at the points the profile changes', { timeout: 300_000 }, async ({ expect }) => {
    const own = loadDefaultProfile().profile.choices;
    const limit = pLimit(2);
    await Promise.all(
      profiles.map((generated, i) =>
        limit(async () => {
          const profile = loaded(generated, `drift-${i}`).profile.choices;
          const [a, b] = await Promise.all([startApiServer({ apiKey: KEY }), startApiServer({ apiKey: KEY, profile: loaded(generated, `drift-${i}`) })]);
          try {
            const run = await runDrift({ baseUrl: a.url, apiKey: KEY, seed: 900 + i, examples: 10, validator: await validator, compareWith: { baseUrl: b.url, apiKey: KEY } });
            if (!run.ok) throw new Error(run.error.message);
            const { groups, inconsistent, failedOnB } = run.report.drift;
            expect(inconsistent).toEqual([]);
            expect(failedOnB).toEqual([]);
            // An empty header read otherwise changes nothing where a missing key and a wrong one are answered alike.
          const alike = JSON.stringify(profile['missing-key']) === JSON.stringify(profile['wrong-key']);
          const changed = differingPoints(profile, own).filter((point) => !(point === 'empty-authorization' && alike));
            // Each group is a changed point's, by its cause, or a changed choice showing elsewhere (one of the profile's answers, what a changed order or Location makes of a page or a 201).
            const { named, unexplained } = namedPoints(groups, changed, profile);
            expect(unexplained, JSON.stringify(generated)).toEqual([]);
            expect(named, JSON.stringify(generated)).toEqual([...changed].sort());
          } finally {
            await Promise.all([a.close(), b.close()]);
          }
        }),
      ),
    );
  });

  it('passes every rule, and the harness learns back each choice it reaches', { timeout: 300_000 }, async ({ expect }) => {
    const limit = pLimit(2);
    await Promise.all(
      profiles.map((generated, i) =>
        limit(async () => {
          const profile = loaded(generated, `generated-${i}`);
          const server = await startApiServer({ apiKey: KEY, profile });
          try {
            const run = await runSuite({ baseUrl: server.url, apiKey: KEY, seed: 500 + i, examples: 10, validator: await validator });
            if (!run.ok) throw new Error(run.error.message);
            const failed = run.report.results.filter((r) => r.status === 'failed').map((r) => `${r.id}: ${r.findings[0]?.message}`);
            expect(failed, `profile ${JSON.stringify(generated)}`).toEqual([]);

            const learned = profileFromSilent(run.report.silent, 'learned').choices;
            const served = profile.profile.choices;
            let compared = 0;
            for (const [point, choice] of Object.entries(learned) as Array<[ProfilePoint, unknown]>) {
              const expected = served[point];
              // The longest name accepted is the longest the run sent within the limit, not the limit itself.
              if (point === 'name-length' && typeof expected === 'object') {
                const limit = expected as { max: number; refused: unknown };
                expect(choice).toMatchObject({ refused: limit.refused });
                expect((choice as { max: number }).max).toBeLessThanOrEqual(limit.max);
              } else if (point === 'empty-authorization' && JSON.stringify(served['missing-key']) === JSON.stringify(served['wrong-key'])) {
                // A missing key and a wrong one answered alike: either reading of an empty header gives the same answer.
                expect(choice).toBe('wrong-key');
              } else if (point === 'missing-field' || point === 'invalid-value') {
                // Learned as the Error most fields get, then each other field's: the same answers, perhaps written otherwise.
                expect(effective(choice, point), `${point} of ${JSON.stringify(generated)}`).toEqual(effective(expected, point));
              } else expect(choice, `${point} of ${JSON.stringify(generated)}`).toEqual(expected);
              compared++;
            }
            expect(compared, JSON.stringify(learned)).toBeGreaterThanOrEqual(19);
          } finally {
            await server.close();
          }
        }),
      ),
    );
  });
});
