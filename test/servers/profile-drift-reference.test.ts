import { describe, it } from 'vitest';
import { KEY, OPTIONS_ANSWER, OTHER_TARGET_FORMS, useProfileDriftProof } from './profile-drift-proof.js';
import { startReferenceServer } from './reference-server.js';

const prove = useProfileDriftProof('reference');

describe('a profile learned by the harness, served by the mock, on 20 seeds', () => {
  it('the reference server', { timeout: 600_000 }, async ({ expect }) => {
    // Its own router answers some targets the interface does not name otherwise than the mock's (`/v1\\pets`, `//v1/pets`).
    await prove(() => startReferenceServer({ apiKey: KEY }), expect, { notCopied: [OTHER_TARGET_FORMS], mayNotCopy: [OPTIONS_ANSWER] });
  });
});
