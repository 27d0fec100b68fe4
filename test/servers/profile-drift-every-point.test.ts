import { describe, it } from 'vitest';
import { loadDefaultProfile } from '../../src/mock/core/profile/checked-profile.js';
import { differingPoints } from '../support/profile-drift.js';
import { KEY, OPTIONS_ANSWER, OTHER_TARGET_FORMS, useProfileDriftProof } from './profile-drift-proof.js';
import { startReferenceServer } from './reference-server.js';

const prove = useProfileDriftProof('every-point');

describe('a profile learned by the harness, served by the mock, on 20 seeds', () => {
  it('an independent server that differs from the mock at every point', { timeout: 600_000 }, async ({ expect }) => {
    const file = await prove(() => startReferenceServer({ apiKey: KEY, variant: 'every-point' }), expect, { notCopied: [OTHER_TARGET_FORMS], mayNotCopy: [OPTIONS_ANSWER] });
    const own = loadDefaultProfile().profile.choices;
    expect(differingPoints(file.choices as typeof own, own).sort()).toEqual(Object.keys(own).sort());
  });
});
