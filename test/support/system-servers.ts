/**
 * The real servers some tests need, from Debian, and what a test run does
 * without them. A test needing one is named `*.<project>.test.ts` and runs
 * only in that vitest project, which vitest.config.ts leaves out when the
 * command is not found: its tests are then not collected, so never counted
 * as passed or skipped, and one line per missing server, printed after
 * vitest's summary where it is seen, says what did not run and how to
 * install it. With MOCK_REQUIRE_SERVERS set (CI does, .ci/run) a missing
 * server fails the run instead, before any test.
 */
import { delimiter } from 'node:path';
import type { Reporter } from 'vitest/node';
import { findCommand } from './find-command.js';

export interface SystemServer {
  /** As the missing line names it. */
  name: string;
  command: string;
  /** Folders looked in after PATH. */
  extraDirs: readonly string[];
  debianPackage: string;
  /** The vitest project, and the middle of its test files' names: `*.<project>.test.ts`. */
  project: string;
  /** A variable of its own that requires it, besides MOCK_REQUIRE_SERVERS. */
  requireVariable?: string;
}

export const REDIS: SystemServer = {
  name: 'Redis',
  command: 'redis-server',
  extraDirs: [],
  debianPackage: 'redis-server',
  project: 'redis',
  // Documented before nginx joined the table; kept so existing CI set-ups keep failing when Redis is missing.
  requireVariable: 'MOCK_REQUIRE_REDIS',
};

export const NGINX: SystemServer = {
  name: 'nginx',
  command: 'nginx',
  // Debian installs nginx in /usr/sbin, which a user's PATH may lack.
  extraDirs: ['/usr/sbin'],
  debianPackage: 'nginx-light',
  project: 'nginx',
};

/** Not a server, but gated the same way: the console, /docs and the HTML report are checked in a real browser (test/support/browser.ts). */
export const CHROMIUM: SystemServer = {
  name: 'Browser',
  command: 'chromium',
  extraDirs: [],
  debianPackage: 'chromium',
  project: 'browser',
};

/** Not a server either: the container engine that builds the Dockerfile and runs the image (test/docker/podman.ts). */
export const PODMAN: SystemServer = {
  name: 'Image',
  command: 'podman',
  extraDirs: [],
  // debootstrap builds the stand-in for the Dockerfile's base image, which no registry is asked for.
  debianPackage: 'podman debootstrap',
  project: 'podman',
};

/**
 * Docker Compose (Debian's docker-compose) on Podman's Docker-compatible API: compose.yaml run for real
 * (test/docker/compose.compose.test.ts). Its containers find each other by name through the dnsname
 * plugin on podman's CNI networks.
 */
export const COMPOSE: SystemServer = {
  name: 'Compose',
  command: 'docker-compose',
  extraDirs: [],
  debianPackage: 'docker-compose golang-github-containernetworking-plugin-dnsname',
  project: 'compose',
};

export const SYSTEM_SERVERS: readonly SystemServer[] = [REDIS, NGINX, CHROMIUM, PODMAN, COMPOSE];

/**
 * Replaces every server's extra folders (a list separated like PATH, empty
 * for none): the gate's own tests set it so that a machine's /usr/sbin/nginx
 * cannot stand in for an nginx they mean to be missing.
 */
const EXTRA_DIRS_VARIABLE = 'MOCK_SERVER_EXTRA_DIRS';

/** Where the server's command is, or undefined when it is not installed. */
export function serverCommand(server: SystemServer, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const override = env[EXTRA_DIRS_VARIABLE];
  return findCommand(server.command, override === undefined ? server.extraDirs : override.split(delimiter));
}

/** For a helper that spawns the server: its command, or an error that says how to install it. */
export function requireServerCommand(server: SystemServer): string {
  const command = serverCommand(server);
  if (command === undefined) throw new Error(`${server.command} is not installed (${installHint(server)})`);
  return command;
}

export const installHint = (server: SystemServer): string => `Debian: apt-get install ${server.debianPackage}`;

/** The server's test files, wherever they live. */
export const testFiles = (server: SystemServer): string[] => [`src/**/*.${server.project}.test.ts`, `test/**/*.${server.project}.test.ts`];

/** Whether `file` is a test file of some server in the table. */
export const needsSystemServer = (file: string): boolean => SYSTEM_SERVERS.some((server) => file.endsWith(`.${server.project}.test.ts`));

export const missingLine = (server: SystemServer): string =>
  `${server.name} tests did not run: ${server.command} is not installed (${installHint(server)}). They are not counted as passed.`;

/** A variable is on unless unset, empty or `0`: a CI that writes `true` or `yes` means it too. */
const isOn = (value: string | undefined): boolean => value !== undefined && value !== '' && value !== '0';

/** MOCK_REQUIRE_SERVERS requires every server; a server's own variable (MOCK_REQUIRE_REDIS) requires that one. */
export function serverRequired(server: SystemServer, env: NodeJS.ProcessEnv = process.env): boolean {
  return isOn(env.MOCK_REQUIRE_SERVERS) || (server.requireVariable !== undefined && isOn(env[server.requireVariable]));
}

/** Throws, with each required missing server's line and the variable that requires it, when any is. */
export function checkRequiredServers(missing: readonly SystemServer[], env: NodeJS.ProcessEnv = process.env): void {
  const lines = missing
    .filter((server) => serverRequired(server, env))
    .map((server) => `${missingLine(server)} ${isOn(env.MOCK_REQUIRE_SERVERS) ? 'MOCK_REQUIRE_SERVERS' : server.requireVariable} is set, so this run fails.`);
  if (lines.length > 0) throw new Error(lines.join('\n'));
}

/** A reporter that prints one line per missing server when the run ends, below the default reporter's summary. */
export function missingServersReporter(missing: readonly SystemServer[]): Reporter {
  return {
    onTestRunEnd() {
      for (const server of missing) process.stdout.write(`${missingLine(server)}\n`);
    },
  };
}
