import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { CONTRACT_BIN, startApiServer, type TestServer } from '../../test/support/contract-cli.js';
import { childEnv, type Run } from '../../test/support/processes.js';
import { useContractRun } from '../../test/support/contract-run-fixture.js';
import { REPORTER_NAMES } from './cli-options.js';
import { ANSWER_BODY_SHOWN, JSON_ANSWER_BODY_SHOWN, REQUEST_BODY_SHOWN } from '../verdict/shown-body.js';

/**
 * Every report of a run, whatever its reporter, holds no body longer than
 * the guide's cut, also when a server refuses or echoes the body-size
 * search's 1 MiB: the built harness against the mock behind such a
 * server, every reporter written to a file, each read back.
 */
const KEY = 'Zq7Wx9Kp2Lm4Nv8RtY6u';
const MiB = 1024 * 1024;
const { processes, servers, dir } = useContractRun('report-size');

/** A createPet larger than any other rule sends (their longest name is 10,000 characters): the body-size search's. */
const isLarge = (request: IncomingMessage): boolean => request.method === 'POST' && Number(request.headers['content-length'] ?? 0) > 64 * 1024;

/** The mock, with large createPet bodies read whole and then answered by `answer`. */
async function mockAnsweringLarge(answer: (response: ServerResponse, body: string) => void): Promise<TestServer> {
  const server = await startApiServer({
    apiKey: KEY,
    intercept: (request, response) => {
      if (!isLarge(request)) return false;
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => answer(response, Buffer.concat(chunks).toString('utf8')));
      return true;
    },
  });
  servers.push(server);
  return server;
}

const EXTENSION: Record<(typeof REPORTER_NAMES)[number], string> = { pretty: 'txt', summary: 'log', json: 'json', junit: 'xml', html: 'html', github: 'github.txt', markdown: 'md' };

/** A full run with every reporter written to a file of its own; resolves to the run and each report's text. */
async function runWithEveryReporter(server: TestServer, name: string): Promise<{ run: Run; reports: Map<string, string> }> {
  const files = REPORTER_NAMES.map((reporter) => [reporter, join(dir(), `${name}.${EXTENSION[reporter]}`)] as const);
  const run = await processes.node([CONTRACT_BIN, '--base-url', server.url, '--api-key', KEY, '--seed', '1', ...files.flatMap(([reporter, file]) => ['--reporter', reporter, '--output', file])], { env: childEnv(), cwd: dir() });
  const reports = new Map(files.map(([reporter, file]) => [reporter, readFileSync(file, 'utf8')]));
  // A single body of the search, written whole, would be 1 MiB: half of that bounds a report that cut them all.
  for (const [reporter, file] of files) if (statSync(file).size >= MiB / 2) throw new Error(`the ${reporter} report is ${statSync(file).size} bytes`);
  return { run, reports };
}

/** The longest run of `char` in `text`. */
const longestRun = (text: string, char: string): number => Math.max(0, ...[...text.matchAll(new RegExp(`${char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}+`, 'g'))].map((m) => m[0].length));

interface JsonExchange {
  request: { body?: string; bodyChars?: number };
  response?: { body: string; bodyChars?: number };
}

/** Every exchange the JSON report holds, in the rules and in the causes' examples. */
function jsonExchanges(text: string): JsonExchange[] {
  const report = JSON.parse(text) as { results: Array<{ exchanges: JsonExchange[] }> };
  return report.results.flatMap((r) => r.exchanges);
}

describe.concurrent('the size of every report (the built CLI)', { timeout: 90_000 }, () => {
  it('a server answering 503 to a large createPet: the search fails, and no report holds more than 300 characters of its 1 MiB body, the curl lines included', async ({ expect }) => {
    const server = await mockAnsweringLarge((response) => {
      response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      response.end(JSON.stringify({ status: 503, code: 'service_unavailable', message: 'too busy for a large body' }));
    });
    const { run, reports } = await runWithEveryReporter(server, 'refused');
    expect(run.code, run.stderr).toBe(1);
    const json = reports.get('json') ?? '';
    const failed = (JSON.parse(json) as { results: Array<{ id: string; status: string }> }).results.find((r) => r.id === 'create-body-size-limit');
    expect(failed?.status).toBe('failed');
    // The search's body is its NewPet padded with spaces: no report holds a run of them longer than a request's cut.
    for (const [reporter, text] of reports) expect(longestRun(text, ' '), reporter).toBeLessThanOrEqual(REQUEST_BODY_SHOWN);
    const large = jsonExchanges(json).filter((x) => (x.request.bodyChars ?? 0) > 64 * 1024);
    expect(large.length).toBeGreaterThan(0);
    for (const x of large) expect(x.request.body?.length).toBeLessThanOrEqual(REQUEST_BODY_SHOWN);
    // Where the body was cut, the curl line says so, and how long it was.
    expect(reports.get('pretty')).toMatch(/--data-raw '\{[^']*' # the body is cut: its first \d+ of 1048576 characters/);
  });

  it('a server echoing the 1 MiB with the key inside it: every answer body cut (600, the JSON 2,000), and no part of the key, even where a cut falls in it', async ({ expect }) => {
    // The key straddles each cut: a report that cut before hiding it would hold its first half.
    const around = (at: number) => `${'a'.repeat(at - 4 - 'Bearer '.length)}Bearer ${KEY}`;
    const server = await mockAnsweringLarge((response, body) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`${around(ANSWER_BODY_SHOWN)}${around(JSON_ANSWER_BODY_SHOWN - ANSWER_BODY_SHOWN - KEY.length)}\n${body}`);
    });
    const { run, reports } = await runWithEveryReporter(server, 'echoed');
    expect(run.code, run.stderr).toBe(1);
    const json = reports.get('json') ?? '';
    // The harness kept the first 4 KiB of the echo (past --max-body-bytes): more than any report shows.
    const echoed = jsonExchanges(json).filter((x) => (x.response?.bodyChars ?? 0) > JSON_ANSWER_BODY_SHOWN);
    expect(echoed.length).toBeGreaterThan(0);
    for (const x of echoed) expect(x.response?.body.length).toBeLessThanOrEqual(JSON_ANSWER_BODY_SHOWN);
    for (const [reporter, text] of reports) {
      expect(longestRun(text, ' '), reporter).toBeLessThanOrEqual(REQUEST_BODY_SHOWN);
      expect(longestRun(text, 'a'), reporter).toBeLessThanOrEqual(reporter === 'json' ? JSON_ANSWER_BODY_SHOWN : ANSWER_BODY_SHOWN);
      expect(text, reporter).not.toContain(KEY.slice(0, 4));
    }
    expect(reports.get('pretty')).toContain('<API key>');
  });
});
