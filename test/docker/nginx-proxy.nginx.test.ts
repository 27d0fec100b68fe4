import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { packageRoot } from '../../src/shared/package-root.js';
import { DEFAULT_API_KEY } from '../../src/shared/default-api-key.js';
import { freePort, requestLines, startMock, stop, tmpDir, useBuiltCli, type RunningMock } from '../support/built-cli.js';
import { Processes } from '../support/processes.js';
import { NGINX, requireServerCommand } from '../support/system-servers.js';
import { openStream } from '../support/event-stream.js';
import { startDnsStub, type DnsStub } from './dns-stub.js';

/**
 * deploy/nginx.conf.template for real: Debian's nginx with
 * the file as the nginx image writes it from the template compose.yaml mounts, in front of two mock processes, on
 * the loopback. Docker's DNS is played by a stub that answers `mock` with
 * both replicas' addresses (127.0.0.1 and 127.0.0.2, one port), so the
 * copy nginx runs differs from the file only in the resolver's address,
 * the ports and where nginx keeps its files and access log (the `copy` function below).
 * Needs the `nginx` command (`apt-get install nginx-light`, .ci/run does):
 * the file runs in the `nginx` project only, left out when it is missing.
 */

useBuiltCli();
const processes = new Processes();
const CONF = join(packageRoot(), 'deploy', 'nginx.conf.template');
const KEY = { authorization: `Bearer ${DEFAULT_API_KEY}` };

/** `text` with `from` replaced by `to`, which must occur exactly once (so the copy cannot silently drift from the file). */
function replaceOnce(text: string, from: string, to: string): string {
  const parts = text.split(from);
  if (parts.length !== 2) throw new Error(`deploy/nginx.conf.template should hold ${JSON.stringify(from)} once, holds it ${parts.length - 1} times`);
  return parts.join(to);
}

/**
 * The template as the nginx image's entrypoint writes it: envsubst of the
 * variables it defines, NGINX_LOCAL_RESOLVERS being the nameservers of the
 * container's /etc/resolv.conf, separated by spaces: without a space after
 * the last since the image's 15-local-resolvers.envsh of August 2024 (a copy
 * is in test/docker/stand-ins/nginx/), with one before it.
 */
function rendered(resolvers: string): string {
  return replaceOnce(readFileSync(CONF, 'utf8'), '${NGINX_LOCAL_RESOLVERS}', resolvers);
}

/** The copy nginx runs here: the stub's resolver, free ports, its files in the test's folder. */
function copy(dns: number, listen: number, mockPort: number, folder: string): string {
  let text = rendered(`127.0.0.1:${dns} `);
  text = replaceOnce(text, 'listen 4010;', `listen 127.0.0.1:${listen};`);
  text = replaceOnce(text, ':4010;', `:${mockPort};`);
  // /dev/stdout is a socket under node's spawn, which nginx cannot open() (a pipe under Docker).
  text = replaceOnce(text, 'access_log /dev/stdout;', `access_log ${folder}/access.log;`);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${folder}/${kind};`).join('\n');
  text = replaceOnce(text, 'http {\n', `http {\n${temp}\n`);
  const file = join(folder, 'nginx.conf');
  writeFileSync(file, text);
  return file;
}

/** A request through the proxy with node:http, which (unlike fetch) sends any header, however large. */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: Buffer, host = '127.0.0.1'): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host, port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('deploy/nginx.conf.template in front of two mocks', () => {
  let nginx: string;
  let dns: DnsStub;
  let proxyPort: number;
  let mockPort: number;
  let conf: string;
  let nginxExited: Promise<unknown>;
  let replicas: RunningMock[] = [];
  const nginxArgs = (): string[] => ['-e', 'stderr', '-p', tmpDir(), '-c', conf, '-g', `daemon off; pid ${tmpDir()}/nginx.pid;`];

  beforeAll(async () => {
    nginx = requireServerCommand(NGINX);
    dns = await startDnsStub({ mock: ['127.0.0.1', '127.0.0.2'] });
    [mockPort, proxyPort] = [await freePort(), await freePort()];
    conf = copy(dns.port, proxyPort, mockPort, tmpDir());
    nginxExited = processes.run(nginx, nginxArgs());
    // nginx prints nothing once it listens: wait until it answers (502 with no replica yet), 10 s at most.
    for (let i = 0; i < 100; i++) {
      if (await send(proxyPort, 'GET', '/', {}).then(() => true, () => false)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('nginx did not answer within 10 s');
  });

  // Fresh replicas for each test, on the port the copy names (useBuiltCli stops them after it).
  beforeEach(async () => {
    replicas = [];
    for (const host of ['127.0.0.1', '127.0.0.2']) replicas.push(await startMock(['--host', host, '--port', String(mockPort), '--log-format', 'json']));
  });

  afterAll(async () => {
    // Not SIGKILL: nginx's workers would outlive their master. `-s stop` sends the master SIGTERM, which ends them too.
    if (conf) await processes.run(nginx, ['-s', 'stop', ...nginxArgs()]);
    await nginxExited;
    await processes.killAll();
    await dns?.close();
  });

  it('passes nginx -t, as the image writes it under Docker (127.0.0.11) and Podman (the network gateway), and as the copy run here', () => {
    // stdout a file, not node's socket, so that `access_log /dev/stdout` opens as under Docker.
    const stdout = openSync(join(tmpDir(), 'nginx-t.out'), 'w');
    const asWritten = ['127.0.0.11', '10.89.0.1', '10.89.0.1 192.168.1.1', '127.0.0.11 '].map((resolvers, i) => {
      const file = join(tmpDir(), `as-written-${i}.conf`);
      writeFileSync(file, rendered(resolvers));
      return file;
    });
    for (const file of [...asWritten, conf]) {
      const run = spawnSync(nginx, ['-t', ...nginxArgs().slice(0, 4), '-c', file, '-g', `pid ${tmpDir()}/nginx-t.pid;`], { stdio: ['ignore', stdout, 'pipe'], encoding: 'utf8' });
      expect(run.stderr).toContain('test is successful');
      expect(run.status).toBe(0);
    }
    closeSync(stdout);
  });

  it('spreads requests over both replicas', async () => {
    const before = replicas.map((r) => requestLines(r.stdout()).length);
    const sent = 40;
    for (let i = 0; i < sent; i++) expect((await send(proxyPort, 'GET', '/v1/pets?limit=1', KEY)).status).toBe(200);
    // A replica logs a request once it has answered it: wait for the lines (5 s at most).
    const served = await vi.waitFor(
      () => {
        const counts = replicas.map((r, i) => requestLines(r.stdout()).length - (before[i] as number));
        expect(counts[0]! + counts[1]!).toBe(sent);
        return counts;
      },
      { timeout: 5000 },
    );
    // nginx's resolver hands out the cached addresses from a random one on, so each request picks a
    // replica at random: 5 or fewer of 40 for either has a chance of 2 in 10 million.
    expect(Math.min(...served)).toBeGreaterThan(5);
  });

  it("passes the client's Host: the admin API on a loopback bind answers only a loopback Host", async () => {
    // nginx's default Host would be the upstream's name, `mock:<port>`, which the mock refuses (403 host_not_allowed).
    const health = await send(proxyPort, 'GET', '/__mock/health', { host: `localhost:${proxyPort}` });
    expect(health.status).toBe(200);
    const foreign = await send(proxyPort, 'GET', '/__mock/health', { host: 'evil.example' });
    expect(JSON.parse(foreign.body)).toMatchObject({ code: 'host_not_allowed', status: 403 });
  });

  it("leaves bodies and headers to the mock's own limits, with its Error body (413, 431)", async () => {
    const big = Buffer.alloc(1536 * 1024, 'a');
    const body = await send(proxyPort, 'POST', '/v1/pets', { ...KEY, 'content-type': 'application/json', 'content-length': String(big.length) }, big);
    expect(JSON.parse(body.body)).toMatchObject({ code: 'payload_too_large', status: 413 });
    const header = await send(proxyPort, 'GET', '/v1/pets?limit=1', { ...KEY, 'x-pad': 'p'.repeat(20 * 1024) });
    expect(JSON.parse(header.body)).toMatchObject({ code: 'headers_too_large', status: 431 });
  });

  it('passes a journal stream through as it is sent: an entry arrives within a second, not when a buffer fills', async () => {
    const stream = await openStream(`http://127.0.0.1:${proxyPort}/__mock/journal/stream`);
    expect(stream.status).toBe(200);
    expect((await stream.next()).event).toBe('hello');
    await stream.next();
    // Each replica (memory store) has a journal of its own: one request to each, so the one streaming sees it.
    for (const host of ['127.0.0.1', '127.0.0.2']) expect((await send(mockPort, 'GET', '/v1/pets?limit=1', { ...KEY, host: `${host}:${mockPort}` }, undefined, host)).status).toBe(200);
    expect((await stream.next(1000)).data).toMatchObject([{ path: '/v1/pets?limit=1', status: 200 }]);
    stream.close();
  });

  it('serves every request from the other replica while one is down', async () => {
    await stop(replicas[1] as RunningMock);
    for (let i = 0; i < 4; i++) expect((await send(proxyPort, 'GET', '/v1/pets?limit=1', KEY)).status).toBe(200);
    await vi.waitFor(() => expect(requestLines((replicas[0] as RunningMock).stdout())).toHaveLength(4), { timeout: 5000 });
  });

  it('answers with an Error body (502) when no replica can be reached', async () => {
    for (const replica of replicas) await stop(replica);
    const answer = await send(proxyPort, 'GET', '/v1/pets?limit=1', KEY);
    expect(answer.status).toBe(502);
    expect(answer.type).toBe('application/json');
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'bad_gateway', status: 502 });
  });
});
