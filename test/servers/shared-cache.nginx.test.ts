import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResponseValidator } from '../../src/document/response-validator.js';
import { runSuite } from '../../src/contract-tests/run-suite.js';
import { freePort } from '../support/built-cli.js';
import { startApiServer, type ApiServer, type AppFetch } from '../support/contract-cli.js';
import { Processes } from '../support/processes.js';
import { NGINX, requireServerCommand } from '../support/system-servers.js';
import type { SuiteReport } from '../../src/verdict/report.js';

/**
 * A real caching layer: Debian's nginx with proxy_cache in front of the
 * mock answering listPets and getPet with `Cache-Control: max-age=60`. The
 * answer is right for a browser's own cache, and RFC 9111 §3.5 keeps a
 * shared cache from giving it to another request; nginx keys its cache on
 * the URL alone and does. A default run of the harness against nginx fails
 * naming what a client sees: an answer given without the key, a stale list
 * after a create. Runs in the `nginx` project only, left out (and said so in
 * one line) when the command is missing.
 */
const KEY = 'shared-cache-key';
const processes = new Processes();
const folder = mkdtempSync(join(tmpdir(), 'shared-cache-'));
// nginx's workers run as another user (nobody) when the tests run as root: they keep the cache in this folder.
chmodSync(folder, 0o777);
const validator = createResponseValidator();

/** The mock's answers to reads (200) with `Cache-Control: max-age=60`, as an origin meaning its clients' own caches may keep them. */
const maxAge60 =
  (fetch: AppFetch): AppFetch =>
  async (request) => {
    const response = await fetch(request);
    if (request.method !== 'GET' || response.status !== 200 || !/\/v1\/pets(\/[^/]+)?$/.test(new URL(request.url).pathname)) return response;
    const headers = new Headers(response.headers);
    headers.set('cache-control', 'max-age=60');
    return new Response(response.body, { status: response.status, headers });
  };

function nginxConf(listen: number, upstream: number): string {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${folder}/${kind};`).join('\n');
  const file = join(folder, 'nginx.conf');
  writeFileSync(
    file,
    `events {}
http {
${temp}
  access_log off;
  proxy_cache_path ${folder}/cache levels=1:2 keys_zone=api:1m max_size=10m inactive=10m use_temp_path=off;
  server {
    listen 127.0.0.1:${listen};
    location / {
      proxy_pass http://127.0.0.1:${upstream};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_cache api;
    }
  }
}
`,
  );
  return file;
}

describe('the harness against nginx caching the mock (proxy_cache, Cache-Control: max-age=60)', () => {
  let nginx: string;
  let args: string[];
  let upstream: ApiServer;
  let url: string;
  let exited: Promise<unknown>;

  beforeAll(async () => {
    nginx = requireServerCommand(NGINX);
    upstream = await startApiServer({ apiKey: KEY, wrap: maxAge60 });
    const port = await freePort();
    args = ['-e', 'stderr', '-p', folder, '-c', nginxConf(port, upstream.port), '-g', `daemon off; pid ${folder}/nginx.pid;`];
    exited = processes.run(nginx, args);
    url = `http://127.0.0.1:${port}/v1`;
    // nginx prints nothing once it listens: wait until it answers, 10 s at most.
    for (let i = 0; i < 100; i++) {
      if (await fetch(`${url}/pets`).then(() => true, () => false)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('nginx did not answer within 10 s');
  });

  afterAll(async () => {
    // `-s stop` sends the master SIGTERM, which ends its workers too.
    if (args) await processes.run(nginx, ['-s', 'stop', ...args]);
    await exited;
    await processes.killAll();
    await upstream?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const run = async (baseUrl: string, only?: string[]): Promise<SuiteReport> => {
    const done = await runSuite({ baseUrl, apiKey: KEY, seed: 1, validator: await validator, ...(only ? { only } : {}) });
    if (!done.ok) throw new Error(done.error.message);
    return done.report;
  };
  const failedIds = (report: SuiteReport) => report.results.filter((r) => r.status === 'failed').map((r) => r.id);
  const messages = (report: SuiteReport, id: string) => report.results.find((r) => r.id === id)?.findings.map((f) => f.message) ?? [];
  const CACHE_RULES = ['cache-shared-list-pets', 'cache-shared-get-pet', 'cache-keyless-list-pets', 'cache-keyless-get-pet', 'revalidate-list-after-create'];

  it('the mock answering max-age=60, asked directly, passes the cache rules', async () => {
    const report = await run(upstream.url, CACHE_RULES);
    expect(failedIds(report)).toEqual([]);
  });

  it('through nginx, a default run fails: an answer given without the key, a stale list after a create', { timeout: 60_000 }, async () => {
    const report = await run(url);
    expect(report.ok).toBe(false);
    expect(failedIds(report)).toEqual(expect.arrayContaining(['cache-keyless-list-pets', 'cache-keyless-get-pet', 'revalidate-list-after-create']));
    // The origin's header is right for a browser: the rule on what it says passes, the probe of what the cache does fails.
    expect(failedIds(report)).not.toContain('cache-shared-get-pet');
    expect(messages(report, 'cache-keyless-get-pet')).toContain('answered 200');
    expect(messages(report, 'revalidate-list-after-create').join('\n')).toMatch(/^stale list after a create: GET \/pets\?status=\w+&limit=99 holds \d+ animals, not animal \d+ created just before$/m);
  });
});
