import { readFileSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import {
  CHROMIUM,
  COMPOSE,
  checkRequiredServers,
  missingServersReporter,
  needsSystemServer,
  NGINX,
  PODMAN,
  REDIS,
  serverCommand,
  SYSTEM_SERVERS,
  testFiles,
  type SystemServer,
} from './test/support/system-servers.js';

// Tests that need a real server (Redis, nginx) or a browser (Chromium) are named *.<project>.test.ts and run only in that project (test/support/system-servers.ts).
const installed = (server: SystemServer): boolean => serverCommand(server) !== undefined;
const missing = SYSTEM_SERVERS.filter((server) => !installed(server));
// CI sets MOCK_REQUIRE_SERVERS (.ci/run): a run without a server's tests must fail there, not pass the rest.
checkRequiredServers(missing);

// One redis-server for the run (test/support/redis-global-setup.ts); its URL is inject('redisUrl').
const redisProject: TestProjectInlineConfiguration = {
  extends: true,
  test: { name: REDIS.project, include: testFiles(REDIS), globalSetup: ['test/support/redis-global-setup.ts'] },
};
// Each nginx test file starts its own nginx.
const nginxProject: TestProjectInlineConfiguration = { extends: true, test: { name: NGINX.project, include: testFiles(NGINX) } };
// Each browser test file launches its own headless Chromium (test/support/browser.ts); a launch takes about a second.
const browserProject: TestProjectInlineConfiguration = {
  extends: true,
  test: { name: CHROMIUM.project, include: testFiles(CHROMIUM), testTimeout: 30_000, hookTimeout: 30_000 },
};
// The image test builds the Dockerfile (the stand-in base too, the first time on a machine: test/docker/podman.ts) before its tests.
const podmanProject: TestProjectInlineConfiguration = {
  extends: true,
  test: { name: PODMAN.project, include: testFiles(PODMAN), testTimeout: 60_000, hookTimeout: 15 * 60_000 },
};
// compose.yaml run by Docker Compose on podman: the same images, so as long a first set-up.
const composeProject: TestProjectInlineConfiguration = {
  extends: true,
  test: { name: COMPOSE.project, include: testFiles(COMPOSE), testTimeout: 60_000, hookTimeout: 20 * 60_000 },
};

/**
 * The mock's HTTP suite: every test file that starts the mock with useMock
 * (auth, validation, scenarios, sessions, Prefer, the admin API, the
 * fidelity check). The same files, not copies, run once on each store, as
 * Hono runs one router suite against every router: `unit` on memory, and
 * `redis-store` on the Redis global setup's server (MOCK_TEST_STORE=redis;
 * useMock gives each file its own key prefix).
 */
const mockSuite = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts') && !needsSystemServer(file))
    .map((file) => join(dir, file))
    .filter((file) => readFileSync(file, 'utf8').includes('useMock(') && !BELOW_THE_STORE.includes(file));
/**
 * Files about connections, not about what is stored: their requests are
 * answered by the transport (a 413 before the body, a 408 for a stalled
 * request, a 503 past the bound), or are plain reads other files make on
 * Redis too. On Redis they would wait out the same timers again and test
 * nothing new.
 */
const BELOW_THE_STORE = ['src/mock/http/transport/lingering-close.test.ts', 'src/mock/http/transport/connection-bounds.test.ts'];
const onRedis: TestProjectInlineConfiguration = {
  extends: true,
  test: { name: 'redis-store', include: mockSuite('src/mock'), env: { MOCK_TEST_STORE: 'redis' }, globalSetup: ['test/support/redis-global-setup.ts'] },
};

export default defineConfig({
  test: {
    testTimeout: 15_000,
    // A guard against a hook that never ends, not a speed test: hooks start servers, install packages or run
    // whole suites, and on a loaded machine (load 10 on two cores) vitest's 10 s default cut some that pass alone.
    hookTimeout: 60_000,
    // At least two test files at a time (vitest's default is one fewer than the cores: one on two cores). Most
    // files spend their time waiting on the processes and servers they start, and on a busy machine two files
    // get a larger share of the cores than one (docs/contributing.md, "On a busy machine").
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A server's project is left out without its command (not collected, so never counted as passed), and one line per server says so.
    ...(missing.length === 0 ? {} : { reporters: ['default', missingServersReporter(missing)] }),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SYSTEM_SERVERS.flatMap(testFiles)],
        },
      },
      {
        // The contract rules as tests, one per rule:
        //   CONTRACT_BASE_URL=… CONTRACT_API_KEY=… npx vitest run --project contract
        // Without CONTRACT_BASE_URL the suite runs against the mock, started on a free port.
        extends: true,
        test: { name: 'contract', include: ['src/contract-tests/contract.suite.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
      },
      ...(installed(REDIS) ? [redisProject, onRedis] : []),
      ...(installed(NGINX) ? [nginxProject] : []),
      ...(installed(CHROMIUM) ? [browserProject] : []),
      ...(installed(PODMAN) ? [podmanProject] : []),
      ...(installed(COMPOSE) ? [composeProject] : []),
    ],
  },
});
