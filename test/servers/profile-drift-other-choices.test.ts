import { describe, it } from 'vitest';
import { startApiServer } from '../support/contract-cli.js';
import { otherChoices } from './other-choices.js';
import { KEY, OPTIONS_ANSWER, OTHER_TARGET_FORMS, useProfileDriftProof } from './profile-drift-proof.js';

const prove = useProfileDriftProof('other-choices');

describe('a profile learned by the harness, served by the mock, on 20 seeds', () => {
  it('the mock with other choices', { timeout: 600_000 }, async ({ expect }) => {
    // Its choices read a path percent-decoded (`/v1%2Fpets?_=1` as createPet's), where the mock's router does not: on the seeds that draw such a case.
    await prove(() => startApiServer({ apiKey: KEY, wrap: otherChoices(KEY) }), expect, { mayNotCopy: [OTHER_TARGET_FORMS, OPTIONS_ANSWER] });
  });
});
