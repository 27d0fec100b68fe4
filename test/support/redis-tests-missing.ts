/**
 * What a test run says when the Redis tests cannot run: redis-server is not
 * on PATH, so vitest.config.ts leaves the `redis` project out (its tests are
 * not collected, so never counted as passed or skipped). The line is printed
 * once, after vitest's summary, where it is seen; with MOCK_REQUIRE_REDIS
 * set (CI does) the run fails before any test instead.
 */
import type { Reporter } from 'vitest/node';

export const REDIS_INSTALL_HINT = 'Debian: apt-get install redis-server';

export const REDIS_TESTS_MISSING = `Redis tests did not run: redis-server is not installed (${REDIS_INSTALL_HINT}). They are not counted as passed.`;

/** MOCK_REQUIRE_REDIS is on unless unset, empty or `0`: a CI that writes `true` or `yes` means it too. */
export function redisRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.MOCK_REQUIRE_REDIS;
  return value !== undefined && value !== '' && value !== '0';
}

/** A reporter that prints the line when the run ends, below the default reporter's summary. */
export const redisTestsMissingReporter: Reporter = {
  onTestRunEnd() {
    process.stdout.write(`${REDIS_TESTS_MISSING}\n`);
  },
};
