import { describe, it } from 'vitest';
import { startApiServer } from '../support/contract-cli.js';
import { otherChoices } from './other-choices.js';
import { KEY, useProfileDriftProof } from './profile-drift-proof.js';

const prove = useProfileDriftProof('other-choices');

describe('a profile learned by the harness, served by the mock, on 20 seeds', () => {
  it('the mock with other choices', { timeout: 600_000 }, async ({ expect }) => {
    await prove(() => startApiServer({ apiKey: KEY, wrap: otherChoices(KEY) }), expect);
  });
});
