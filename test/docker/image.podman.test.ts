import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY } from '../../src/shared/default-api-key.js';
import { packageRoot } from '../../src/shared/package-root.js';
import { freePort } from '../support/built-cli.js';
import { baseImage, buildImage, ensureBaseImage, podman, podmanOk, preparePodman, type Podman } from './podman.js';

/**
 * The Dockerfile, unchanged, built by podman and run: what a user of the
 * image gets, through real HTTP on a real port. The base image is a
 * stand-in (test/docker/podman.ts; docs/deployment.md says what that
 * proves and what not). Needs podman and debootstrap (.ci/run installs
 * them): the file runs in the `podman` project only, left out when podman
 * is missing.
 */

/** The image this test builds; kept after the run, so the next build reuses its layers. */
const IMAGE = 'localhost/animal-store-mock:test';
const CONTAINER = `animal-store-image-test-${process.pid}`;
/** A fresh admin key: given to podman through its environment, never on a command line, and never printed. */
const ADMIN_KEY = randomBytes(18).toString('base64url');
const PACKAGE = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as Record<string, string>;
/** docker stop's and podman stop's default: SIGKILL after it. */
const STOP_TIMEOUT_MS = 10_000;

let engine: Podman;
let port: number;
const timings: Record<string, string> = {};
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** A request through node:http with its own connection; resolves with the status, or with the error that cut it. */
function send(path: string, headers: Record<string, string>): { written: Promise<void>; answer: Promise<{ status?: number; error?: string; at: number }> } {
  let written!: () => void;
  const onWritten = new Promise<void>((resolve) => (written = resolve));
  const answer = new Promise<{ status?: number; error?: string; at: number }>((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, at: Date.now() }));
      res.on('error', (error) => resolve({ error: error.message, at: Date.now() }));
    });
    req.on('error', (error) => resolve({ error: error.message, at: Date.now() }));
    req.end(() => written());
  });
  return { written: onWritten, answer };
}

const status = async (path: string, key?: string): Promise<number> =>
  (await fetch(`http://127.0.0.1:${port}${path}`, { headers: key === undefined ? {} : { authorization: `Bearer ${key}` } })).status;

/** The container's log, checked to hold no admin key before anything prints it. */
async function logs(): Promise<string> {
  const run = await podman(engine, ['logs', CONTAINER]);
  const text = run.stdout + run.stderr;
  if (text.includes(ADMIN_KEY)) throw new Error("the container's log holds the admin key");
  return text;
}

beforeAll(async () => {
  engine = await preparePodman();
  let started = Date.now();
  timings.base = `${await ensureBaseImage(engine)} in ${seconds(Date.now() - started)}`;
  started = Date.now();
  await buildImage(engine, IMAGE);
  timings.build = seconds(Date.now() - started);
  port = await freePort();
  started = Date.now();
  // `-e MOCK_ADMIN_KEY` without a value: podman takes it from its own environment, so the key is on no command line.
  await podmanOk(engine, ['run', '--detach', '--name', CONTAINER, '--publish', `127.0.0.1:${port}:4010`, '--env', 'MOCK_ADMIN_KEY', IMAGE], { MOCK_ADMIN_KEY: ADMIN_KEY });
  // No systemd here to run the HEALTHCHECK on its interval: the test runs it, as the timer would, until it passes.
  for (;;) {
    if ((await podman(engine, ['healthcheck', 'run', CONTAINER])).code === 0) break;
    if (Date.now() - started > 60_000) throw new Error(`not healthy 60 s after podman run:\n${await logs()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  timings['start to healthy'] = seconds(Date.now() - started);
});

afterAll(async () => {
  if (engine === undefined) return;
  await podman(engine, ['rm', '--force', '--time', '0', CONTAINER]);
  const size = await podman(engine, ['image', 'inspect', '--format', '{{.Size}}', IMAGE]);
  if (size.code === 0) timings.size = `${(Number(size.stdout) / 1e6).toFixed(0)} MB`;
  engine.dispose();
  // What the machine needed and how long each step took, for docs/deployment.md and BENCHMARKS.md.
  console.log(`image test: ${[...engine.needs, ...Object.entries(timings).map(([name, value]) => `${name}: ${value}`)].join('; ')}`);
});

describe('the image, built from the Dockerfile by podman and run', () => {
  it('is healthy by its own HEALTHCHECK, which the docker format kept', async () => {
    const check = JSON.parse(await podmanOk(engine, ['image', 'inspect', '--format', '{{json .Config.Healthcheck}}', IMAGE])) as { Test: string[] } | null;
    expect(check?.Test.slice(0, 2)).toEqual(['CMD', 'node']);
    expect((await podman(engine, ['healthcheck', 'run', CONTAINER])).code).toBe(0);
    expect((await podmanOk(engine, ['inspect', '--format', '{{.State.Healthcheck.Status}}', CONTAINER])).trim()).toBe('healthy');
  });

  it('says at start-up that it listens on every interface, on the image port', async () => {
    expect(await logs()).toMatch(/Animal Store mock listening on http:\/\/localhost:4010\/v1 \(every interface, 0\.0\.0\.0:4010/);
  });

  it('answers the API on the published port: 401 without a key, 200 with the default key', async () => {
    expect(await status('/v1/pets')).toBe(401);
    expect(await status('/v1/pets', DEFAULT_API_KEY)).toBe(200);
  });

  it('requires the admin key given as MOCK_ADMIN_KEY on the admin API', async () => {
    expect(await status('/__mock/health')).toBe(401);
    expect(await status('/__mock/health', DEFAULT_API_KEY)).toBe(401);
    expect(await status('/__mock/health', ADMIN_KEY)).toBe(200);
  });

  it('runs the mock as uid 1000 (the node user), not root', async () => {
    const status1 = await podmanOk(engine, ['exec', CONTAINER, 'cat', '/proc/1/status']);
    expect(/^Uid:\s+(\d+)\s+(\d+)/m.exec(status1)?.slice(1, 3)).toEqual(['1000', '1000']);
    expect(/^Gid:\s+(\d+)/m.exec(status1)?.[1]).toBe('1000');
    expect(await podmanOk(engine, ['exec', CONTAINER, 'cat', '/proc/1/cmdline'])).toBe('node\0dist/src/mock/bin.js\0--log-format\0json\0');
  });

  it("carries the five OCI labels, as package.json and the Dockerfile's base say", async () => {
    const labels = JSON.parse(await podmanOk(engine, ['image', 'inspect', '--format', '{{json .Labels}}', IMAGE])) as Record<string, string>;
    const oci = Object.fromEntries(Object.entries(labels).filter(([name]) => name.startsWith('org.opencontainers.')));
    expect(oci).toEqual({
      'org.opencontainers.image.title': PACKAGE.name,
      'org.opencontainers.image.description': PACKAGE.description,
      'org.opencontainers.image.licenses': PACKAGE.license,
      'org.opencontainers.image.version': PACKAGE.version,
      'org.opencontainers.image.base.name': `docker.io/library/${baseImage().tag}`,
    });
  });

  it('holds nothing of the build stage: no sources, build scripts, tests, source maps, npm cache or logs', async () => {
    // Outside node_modules (its packages ship what they ship); *.ts outside dist/ (dist/ holds the package's .d.ts).
    const script = [
      "find /app -path /app/node_modules -prune -o \\( -name '*.test.js' -o -name '*.suite.js' -o -name '*.map' -o -name 'tsconfig*.json' \\) -print",
      "find /app -path /app/node_modules -prune -o -path /app/dist -prune -o -name '*.ts' -print",
      'ls -d /app/src /app/scripts /app/test /app/dist/scripts /root/.npm /home/node/.npm 2>/dev/null',
      // What a build on a machine that re-signs HTTPS mounts for npm (test/docker/podman.ts) must not be left in a layer.
      'ls -A /usr/local/etc',
      'true',
    ].join('; ');
    const found = await podmanOk(engine, ['run', '--rm', '--entrypoint', 'sh', IMAGE, '-c', script]);
    expect(found.trim().split('\n').filter(Boolean)).toEqual([]);
    const app = await podmanOk(engine, ['run', '--rm', '--entrypoint', 'ls', IMAGE, '/app', '/app/dist']);
    expect(app).toMatch(/^dist\/?$/m);
    expect(app).toMatch(/^src\/?$/m); // dist/src, the built mock
  });

  it('stops on podman stop within its timeout, exit 0 from its own shutdown, after answering what it could', async () => {
    const pets = '/v1/pets';
    const auth = `Bearer ${DEFAULT_API_KEY}`;
    // Longer than the shutdown grace (8 s): cut at its end. Shorter than it: answered while the stop waits.
    const held = send(pets, { authorization: auth, prefer: 'delay=30000' });
    const short = send(pets, { authorization: auth, prefer: 'delay=5000' });
    await Promise.all([held.written, short.written]);
    // Answered only after both connections above, accepted before it, were read: both are in flight now.
    expect(await status(pets, DEFAULT_API_KEY)).toBe(200);
    const stopping = Date.now();
    const stop = await podman(engine, ['stop', CONTAINER]);
    const stopMs = Date.now() - stopping;
    timings.stop = seconds(stopMs);
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stderr).not.toMatch(/SIGKILL/i);
    expect(stopMs).toBeLessThan(STOP_TIMEOUT_MS);
    const state = JSON.parse(await podmanOk(engine, ['inspect', '--format', '{{json .State}}', CONTAINER])) as { ExitCode: number; Status: string };
    expect(state).toMatchObject({ ExitCode: 0, Status: 'exited' });
    const answered = await short.answer;
    expect(answered.status).toBe(200);
    expect(answered.at).toBeGreaterThan(stopping);
    const cut = await held.answer;
    expect(cut.status).toBeUndefined();
    const log = await logs();
    expect(log).toContain('SIGTERM received: finishing requests in flight, then stopping.');
    expect(log).toContain('the shutdown grace period of 8 s is over');
    expect(log).not.toMatch(/stopping now, requests still in flight are not answered/);
  });
});
