import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 15_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'test/**/*.test.ts'] },
      },
      {
        // The contract rules as tests, one per rule:
        //   CONTRACT_BASE_URL=… CONTRACT_API_KEY=… npx vitest run --project contract
        // Without CONTRACT_BASE_URL the suite runs against the mock, started on a free port.
        extends: true,
        test: { name: 'contract', include: ['src/contract-tests/contract.suite.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
      },
    ],
  },
});
