import { describe, it } from 'vitest';
import { KEY, useProfileDriftProof } from './profile-drift-proof.js';
import { startReferenceServer } from './reference-server.js';

const prove = useProfileDriftProof('reference');

describe('a profile learned by the harness, served by the mock, on 20 seeds', () => {
  it('the reference server', { timeout: 600_000 }, async ({ expect }) => {
    await prove(() => startReferenceServer({ apiKey: KEY }), expect);
  });
});
