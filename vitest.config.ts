import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { redisServerCommand } from './test/support/redis-server-command.js';
import { REDIS_TESTS_MISSING, redisRequired, redisTestsMissingReporter } from './test/support/redis-tests-missing.js';

// Tests that need a real Redis are named *.redis.test.ts and run only in the `redis` project.
const REDIS_TESTS = ['src/**/*.redis.test.ts', 'test/**/*.redis.test.ts'];
const redisInstalled = redisServerCommand() !== undefined;
// CI sets MOCK_REQUIRE_REDIS (.ci/run): a run without the Redis tests must fail there, not pass the rest.
if (!redisInstalled && redisRequired()) throw new Error(`${REDIS_TESTS_MISSING} MOCK_REQUIRE_REDIS is set, so this run fails.`);

// One redis-server for the run (test/support/redis-global-setup.ts); its URL is inject('redisUrl').
const redisProject: TestProjectInlineConfiguration = {
  extends: true,
  test: { name: 'redis', include: REDIS_TESTS, globalSetup: ['test/support/redis-global-setup.ts'] },
};

export default defineConfig({
  test: {
    testTimeout: 15_000,
    // Without redis-server the `redis` project is left out (not collected, so never counted as passed) and one line says so.
    ...(redisInstalled ? {} : { reporters: ['default', redisTestsMissingReporter] }),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...REDIS_TESTS],
        },
      },
      {
        // The contract rules as tests, one per rule:
        //   CONTRACT_BASE_URL=… CONTRACT_API_KEY=… npx vitest run --project contract
        // Without CONTRACT_BASE_URL the suite runs against the mock, started on a free port.
        extends: true,
        test: { name: 'contract', include: ['src/contract-tests/contract.suite.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
      },
      ...(redisInstalled ? [redisProject] : []),
    ],
  },
});
