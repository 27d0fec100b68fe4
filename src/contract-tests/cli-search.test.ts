import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, it } from 'vitest';
import { CONTRACT_BIN, startApiServer, startRawServer, type AppFetch } from '../../test/support/contract-cli.js';
import { childEnv, Processes, requireBuilt } from '../../test/support/processes.js';
import type { SuiteReport } from '../verdict/report.js';

/**
 * The search as a CI owner meets it, through the built CLI: a server whose
 * fault shows only on some names fails the run with a shrunk, replayable
 * curl line and its seed; the seed replays the same case; every reporter
 * carries the seed; and a read-only run writes nothing even to a server
 * that accepts everything.
 */
const KEY = 'contract-search-key';
const processes = new Processes();
let tmp: string;

beforeAll(() => {
  requireBuilt(CONTRACT_BIN);
  tmp = mkdtempSync(join(tmpdir(), 'animal-store-contract-search-'));
});
afterEach(() => processes.killAll());
afterAll(() => tmp && rmSync(tmp, { recursive: true, force: true }));

const contract = (args: string[]) => processes.node([CONTRACT_BIN, '--api-key', KEY, ...args], { env: childEnv(), cwd: tmp });

/** The mock, except that names with letters outside ASCII come back NFD-decomposed from getPet. */
const decomposesNames = (fetch: AppFetch): AppFetch => async (request) => {
  const response = await fetch(request);
  if (request.method !== 'GET' || !/\/pets\/\d+$/.test(new URL(request.url).pathname) || response.status !== 200) return response;
  const pet = (await response.json()) as { name: string };
  return new Response(JSON.stringify({ ...pet, name: pet.name.normalize('NFD') }), { status: 200, headers: { 'content-type': 'application/json' } });
};

describe('a fault that shows only under a condition', () => {
  it('fails the run with a shrunk curl line and the seed, and the seed replays the same case', { timeout: 60_000 }, async ({ expect }) => {
    const server = await startApiServer({ apiKey: KEY, wrap: decomposesNames });
    try {
      const first = await contract(['--base-url', server.url, '--only', 'create-generated-round-trip']);
      expect(first.code, first.stdout + first.stderr).toBe(1);
      expect(first.stdout).toMatch(/✗ create-generated-round-trip/);
      const seed = /^Seed (\d+),/m.exec(first.stdout)?.[1];
      expect(seed).toMatch(/^\d+$/);
      const replay = (stdout: string) => /replay: +(curl .*)$/m.exec(stdout)?.[1];
      const curl = replay(first.stdout);
      // The POST that created it, key redacted, ready to paste.
      expect(curl).toMatch(/^curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:\d+\/v1\/pets' -H 'accept: application\/json' -H 'content-type: application\/json' -H 'authorization: Bearer <API key>' --data-raw '\{"name":/);
      expect(first.stdout).toContain(`seed:     ${seed} (--seed ${seed} sends the same cases)`);
      expect(first.stdout).toMatch(/name is ".*", sent ".*"/);
      // Shrunk: the name is short, not one of the long generated ones.
      const name = /"name":"((?:[^"\\]|\\.)*)"/.exec(curl ?? '')?.[1] ?? '';
      expect(name.length).toBeLessThan(60);

      const again = await contract(['--base-url', server.url, '--only', 'create-generated-round-trip', '--seed', seed as string]);
      expect(again.code).toBe(1);
      // The same case, on another run: the same body (ids differ, the server keeps its animals).
      expect(/--data-raw '(.*)'$/m.exec(replay(again.stdout) ?? '')?.[1]).toBe(/--data-raw '(.*)'$/m.exec(curl ?? '')?.[1]);

      // Pasted into a shell with the key put back, the line creates the same animal: the fault shows again.
      // Not execFileSync: the server answering it runs in this process.
      const { stdout: pasted } = await promisify(execFile)('bash', ['-c', (curl ?? '').replace('<API key>', KEY)], { encoding: 'utf8' });
      expect(pasted).toMatch(/^HTTP\/1\.1 201/);
      const created = JSON.parse(pasted.slice(pasted.indexOf('\r\n\r\n') + 4)) as { id: number; name: string };
      expect(created.name).toBe(JSON.parse(/--data-raw '(.*)'$/.exec(curl ?? '')?.[1] ?? '{}').name);
    } finally {
      await server.close();
    }
  });

  it('passes the same rule against the unchanged mock on that seed', { timeout: 60_000 }, async ({ expect }) => {
    const server = await startApiServer({ apiKey: KEY });
    try {
      const run = await contract(['--base-url', server.url, '--only', 'create-generated-round-trip', '--seed', '12345']);
      expect(run.code, run.stdout).toBe(0);
      expect(run.stdout).toMatch(/✓ create-generated-round-trip: .* \d+ cases, \d+ ms/);
    } finally {
      await server.close();
    }
  });
});

describe('the seed', () => {
  it('is drawn when not given and printed by every reporter', { timeout: 60_000 }, async ({ expect }) => {
    const server = await startApiServer({ apiKey: KEY });
    try {
      const json = join(tmp, 'report.json');
      const xml = join(tmp, 'report.xml');
      const run = await contract(['--base-url', server.url, '--only', 'list-generated-pages', '--reporter', 'json', '--output', json, '--reporter', 'junit', '--output', xml]);
      expect(run.code, run.stdout).toBe(0);
      const seed = /^Seed (\d+),/m.exec(run.stdout)?.[1];
      expect(seed).toBeDefined();
      const report = JSON.parse(readFileSync(json, 'utf8')) as SuiteReport;
      expect(String(report.seed)).toBe(seed);
      expect(readFileSync(xml, 'utf8')).toContain(`<property name="seed" value="${seed}"/>`);
      expect(run.stdout).toMatch(new RegExp(`; seed ${seed}; \\d+ ms$`, 'm'));
    } finally {
      await server.close();
    }
  });

  it('refuses what is not a 31-bit whole number, with exit 2', async ({ expect }) => {
    for (const bad of ['-1', 'abc', '1.5', String(2 ** 31)]) {
      const run = await contract(['--base-url', 'http://127.0.0.1:1/v1', `--seed=${bad}`]);
      expect(run.code, bad).toBe(2);
      expect(run.stderr).toContain('--seed must be a whole number from 0 to 2147483647');
    }
  });
});

describe('the key', () => {
  it('is never printed, even when a server echoes the near-misses it was sent, in any letter case', { timeout: 60_000 }, async ({ expect }) => {
    const key = 'Zq7-leak-probe-K3y9';
    // The mock, except that a refused request gets 403 (so every near-miss fails and is printed in full)
    // and hears back the credentials it sent, and the key upper-cased.
    const echoes = (fetch: AppFetch): AppFetch => async (request) => {
      const response = await fetch(request);
      if (response.status !== 401) return response;
      const sent = `${request.headers.get('authorization')} ${new URL(request.url).search}`;
      return new Response(JSON.stringify({ code: 'forbidden', message: `refused ${sent}; the key is ${key.toUpperCase()}`, status: 403 }), { status: 403, headers: { 'content-type': 'application/json', 'x-sent': sent } });
    };
    const server = await startApiServer({ apiKey: key, wrap: echoes });
    try {
      const json = join(tmp, 'leak.json');
      const run = await processes.node([CONTRACT_BIN, '--api-key', key, '--base-url', server.url, '--only', 'auth-near-misses-list-pets,auth-near-misses-get-pet', '--reporter', 'json', '--output', json], { env: childEnv(), cwd: tmp });
      expect(run.code, run.stderr).toBe(1);
      const printed = `${run.stdout}${run.stderr}${readFileSync(json, 'utf8')}`.toLowerCase();
      // What the server echoed is there, with each form of the key hidden.
      expect(printed).toContain('refused bearer <api key> ;');
      expect(printed).toContain('authorization: bearer <api key>x');
      expect(printed).toContain('the key is <api key>');
      for (const secret of [key, key.slice(0, Math.ceil(key.length / 2)), key.slice(1), key.slice(0, -1)]) expect(printed, secret).not.toContain(secret.toLowerCase());
    } finally {
      await server.close();
    }
  });
});

describe('--read-only', () => {
  it('sends no POST, even to a server that accepts everything', { timeout: 60_000 }, async ({ expect }) => {
    const methods: string[] = [];
    const server = await startRawServer((request, response) => {
      methods.push(request.method ?? '');
      const created = request.method === 'POST';
      response.writeHead(created ? 201 : 200, { 'content-type': 'application/json' });
      response.end(created ? '{"id":1,"name":"x","categoryId":1}' : '[]');
    });
    try {
      const run = await contract(['--base-url', server.url, '--read-only']);
      // Rules fail (an empty catalogue answers 200 to a missing key), but nothing was written.
      expect(run.code).toBe(1);
      expect(methods.length).toBeGreaterThan(50);
      // Safe methods only (RFC 9110 §9.2.1): GET, HEAD as the HEAD rules send it, and OPTIONS as a browser's preflight.
      expect(methods.filter((m) => m !== 'GET' && m !== 'HEAD' && m !== 'OPTIONS')).toEqual([]);
      expect(run.stdout).toMatch(/○ create-generated-rejects: .*\(skipped: read-only run/);
      expect(run.stdout).toMatch(/○ auth-near-misses-create-pet: .*\(skipped: read-only run/);
    } finally {
      await server.close();
    }
  });
});
