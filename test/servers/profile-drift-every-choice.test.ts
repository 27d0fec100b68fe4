import { describe, it } from 'vitest';
import { loadDefaultProfile } from '../../src/mock/core/profile/checked-profile.js';
import { differingPoints } from '../support/profile-drift.js';
import { EVERY_CHOICE, startEveryChoice } from './every-choice.js';
import { KEY, useProfileDriftProof } from './profile-drift-proof.js';

const prove = useProfileDriftProof('every-choice');

describe('a profile learned by the harness, served by the mock, on 20 seeds', () => {
  it('the mock under choices other than its own at every point: learned whole, exactly as given', { timeout: 600_000 }, async ({ expect }) => {
    const file = await prove(() => startEveryChoice(KEY), expect);
    expect(file.choices).toEqual(EVERY_CHOICE);
    expect(differingPoints(EVERY_CHOICE, loadDefaultProfile().profile.choices)).toEqual(Object.keys(loadDefaultProfile().profile.choices));
  });
});
