import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dump } from 'js-yaml';
import { DEFAULT_API_KEY } from '../../src/shared/default-api-key.js';
import { packageRoot } from '../../src/shared/package-root.js';
import { parseYaml } from '../../src/shared/parse-yaml.js';
import { freePort } from '../support/built-cli.js';
import { childEnv, Processes } from '../support/processes.js';
import { tempFolder } from '../support/temp-folder.js';
import { baseImage, buildImage, ensureBaseImage, podman, podmanOk, preparePodman, type Podman } from './podman.js';

/**
 * compose.yaml run by Docker Compose: Debian's docker-compose (1.29) driving
 * Podman's Docker-compatible API, as a developer with Podman runs it. Two
 * mock replicas on one Redis behind nginx, through real HTTP on the port
 * nginx publishes.
 *
 * What differs from `docker compose up --build` on Docker, and why:
 * - `redis:7` and `nginx:stable` are stand-ins built here once per machine
 *   (test/docker/stand-ins/, on the stand-in for the Dockerfile's base), as no
 *   registry is reached; the mock's image is the Dockerfile's, built by podman
 *   as image.podman.test.ts builds it, and named in a copy of compose.yaml
 *   (Compose would build it through the API, which cannot give the build what
 *   this machine needs);
 * - that copy publishes nginx on a free port instead of 4010;
 * - without systemd, podman runs no health check on its interval: this file
 *   runs each due one every 2 s, as podman's timer would, and Compose reads
 *   their results for `depends_on: condition: service_healthy`.
 */

const IMAGE = 'localhost/animal-store-mock:compose';
const PROJECT = `animalstorecompose${process.pid}`;
const ADMIN_KEY = 'compose-test-admin-key-7d1e';
const processes = new Processes();

let engine: Podman;
let dir: string;
let port: number;
let service: ChildProcess | undefined;
let healthTimer: NodeJS.Timeout | undefined;

const composeEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => childEnv({ ...engine.env, DOCKER_HOST: `unix://${join(dir, 'podman.sock')}`, MOCK_ADMIN_KEY: ADMIN_KEY, ...extra });
const compose = (args: string[], extra: Record<string, string> = {}) => processes.run('docker-compose', ['-p', PROJECT, '-f', join(dir, 'compose.yaml'), ...args], { env: composeEnv(extra), cwd: dir });

/** The stand-ins for the images Compose names, built once per machine. */
async function ensureStandIn(name: 'redis' | 'nginx', tag: string): Promise<void> {
  if ((await podman(engine, ['image', 'exists', tag])).code === 0) return;
  const folder = join(packageRoot(), 'test', 'docker', 'stand-ins', name);
  await podmanOk(engine, ['build', '--format', 'docker', '--pull=never', '--build-arg', `BASE=docker.io/library/${baseImage().tag}`, '--tag', tag, folder]);
}

/** compose.yaml as it is, but for the mock's image and the port nginx publishes. */
function writeComposeCopy(): void {
  const file = parseYaml(readFileSync(join(packageRoot(), 'compose.yaml'), 'utf8')) as { services: Record<string, Record<string, unknown>> };
  const { mock, proxy } = file.services as { mock: Record<string, unknown>; proxy: Record<string, unknown> };
  delete mock.build;
  mock.image = IMAGE;
  proxy.ports = [`127.0.0.1:${port}:4010`];
  writeFileSync(join(dir, 'compose.yaml'), dump(file));
  cpSync(join(packageRoot(), 'deploy'), join(dir, 'deploy'), { recursive: true });
}

/** Runs the health check of every container of the project that has one, as podman's systemd timer would. */
function runHealthChecks(): void {
  healthTimer = setInterval(() => {
    void podman(engine, ['ps', '--filter', `name=${PROJECT}`, '--format', '{{.Names}} {{.Status}}']).then(async (listed) => {
      const due = listed.stdout.split('\n').filter((line) => /\((starting|healthy|unhealthy)\)/.test(line)).map((line) => line.split(' ')[0] as string);
      await Promise.all(due.map((name) => podman(engine, ['healthcheck', 'run', name])));
    });
  }, 2000);
}

const api = (path: string, init: RequestInit = {}) => fetch(`http://127.0.0.1:${port}${path}`, init);
const keyed = { authorization: `Bearer ${DEFAULT_API_KEY}` };

beforeAll(async () => {
  engine = await preparePodman();
  // On podman's CNI networks, containers find each other by name only through the dnsname plugin.
  const backend = (await podmanOk(engine, ['info', '--format', '{{.Host.NetworkBackend}}'])).trim();
  if (backend === 'cni' && !existsSync('/usr/lib/cni/dnsname')) throw new Error("podman's CNI networks need the dnsname plugin for Compose's service names (Debian: apt-get install golang-github-containernetworking-plugin-dnsname)");
  dir = tempFolder('animal-store-compose-');
  await ensureBaseImage(engine);
  await ensureStandIn('redis', 'docker.io/library/redis:7');
  await ensureStandIn('nginx', 'docker.io/library/nginx:stable');
  await buildImage(engine, IMAGE);
  port = await freePort();
  writeComposeCopy();
  service = spawn(engine.command, ['system', 'service', '--time=0', `unix://${join(dir, 'podman.sock')}`], { env: engine.env, stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  runHealthChecks();
  const up = await compose(['up', '-d', '--no-build']);
  if (up.code !== 0) throw new Error(`docker-compose up exited ${up.code}: ${up.stderr.slice(-2000)}`);
}, 20 * 60_000);

afterAll(async () => {
  clearInterval(healthTimer);
  if (dir !== undefined && service !== undefined) await compose(['down', '-v', '--timeout', '20']);
  service?.kill();
  engine?.dispose();
}, 120_000);

const containers = async (): Promise<string[]> => (await podmanOk(engine, ['ps', '--filter', `name=${PROJECT}`, '--format', '{{.Names}} {{.Status}}'])).trim().split('\n').sort();

describe('compose.yaml, run by Docker Compose on Podman', () => {
  it('starts Redis, two healthy mock replicas after it, and nginx after them', async () => {
    const running = await containers();
    expect(running.filter((line) => line.includes('_mock_') && line.includes('(healthy)'))).toHaveLength(2);
    expect(running.filter((line) => line.includes('_redis_') && line.includes('(healthy)'))).toHaveLength(1);
    expect(running.filter((line) => line.includes('_proxy_'))).toHaveLength(1);
  });

  it('answers through nginx on its port: 401 without a key, 200 with one, and the admin API asks for the admin key', async () => {
    expect((await api('/v1/pets')).status).toBe(401);
    expect((await api('/v1/pets', { headers: keyed })).status).toBe(200);
    expect((await api('/__mock/health')).status).toBe(401);
    expect((await api('/__mock/health', { headers: { authorization: `Bearer ${ADMIN_KEY}` } })).status).toBe(200);
  });

  it('spreads requests over both replicas, which share one Redis: an animal one creates, every read finds', async () => {
    const created = await api('/v1/pets', { method: 'POST', headers: { ...keyed, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Compose', categoryId: 2 }) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const reads = await Promise.all(Array.from({ length: 12 }, () => api(`/v1/pets/${id}`, { headers: keyed }).then((r) => r.status)));
    expect(reads).toEqual(Array(12).fill(200));
    const mocks = (await containers()).filter((line) => line.includes('_mock_')).map((line) => line.split(' ')[0] as string);
    const served = await Promise.all(mocks.map(async (name) => ((await podman(engine, ['logs', name])).stdout.match(new RegExp(`/v1/pets/${id}\\b`, 'g')) ?? []).length));
    expect(served.every((count) => count > 0), `reads per replica: ${served.join(', ')}`).toBe(true);
  });

  it('refuses to start without MOCK_ADMIN_KEY, saying which variable to set', async () => {
    const refused = await processes.run('docker-compose', ['-p', PROJECT, '-f', join(dir, 'compose.yaml'), 'config'], { env: { ...composeEnv(), MOCK_ADMIN_KEY: '' }, cwd: dir });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('set MOCK_ADMIN_KEY');
  });

  it('stops with a request in flight: the request is answered, and every mock exits 0 within its stop_grace_period', async () => {
    const inFlight = api('/v1/pets?limit=1', { headers: { ...keyed, prefer: 'delay=3000' } }).then((r) => r.status, (error: Error) => error.message);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stopped = await compose(['stop']);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(await inFlight).toBe(200);
    // Exit 0 is the mock's own shutdown: a SIGKILL at the end of stop_grace_period would be 137.
    const exits = await podmanOk(engine, ['ps', '-a', '--filter', `name=${PROJECT}_mock`, '--format', '{{.Names}} {{.ExitCode}}']);
    expect(exits.trim().split('\n').map((line) => line.split(' ')[1])).toEqual(['0', '0']);
  });
});
