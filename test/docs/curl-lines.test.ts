import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMock, stop, useBuiltCli, type RunningMock } from '../support/built-cli.js';
import { Processes } from '../support/processes.js';
import { codeBlocks, readDoc, userDocs } from '../support/markdown.js';

/**
 * The curl lines of README.md and the guides, run as a reader pastes them,
 * against the real mock (the built command, default flags and key) on a
 * free port: none may get a 5xx or no answer at all.
 *
 * What is run: every command line of a `sh` block that calls curl on the
 * mock (`localhost:4010`, written out or through a variable the block sets),
 * with the block's variable assignments before it, in bash with `set -u` (a
 * variable the block never sets is an error: the block would not run as
 * written). The port is replaced by the test mock's.
 *
 * Rules by kind, instead of skipped lines:
 * - Each line starts from a mock as started: before it, every session is
 *   ended and the shared default's scenario activated afresh. So a line
 *   that activates `flaky` cannot turn the lines after it into 503s.
 * - Every curl call is cut after 2 s (a journal stream, `curl -N`, never
 *   ends) and piping into `head` may cut it sooner: a call counts by the
 *   status line it received, whatever ended it.
 * - Lines against another port (a second process on 4011, a container
 *   behind a proxy) need a deployment this test does not build; they are
 *   not lines against the mock on 4010, and are not picked.
 * - A line that asks for an error on purpose (`Prefer: code=500`) says so in
 *   its comment (`# 500 internal_error`): the 5xx statuses its comment names
 *   are what the reader was told to expect, so it may get those, and no
 *   other.
 * - A line runs in a scratch folder, so a file it saves (`curl -OJ`) is not
 *   left in the repository.
 */
useBuiltCli();
const KEY = 'animal-store-dev-key';
const MOCK_ADDRESS = /\b(?:localhost|127\.0\.0\.1):4010\b/g;
const ON_MOCK = new RegExp(MOCK_ADDRESS.source);
const processes = new Processes();

interface CurlLine {
  doc: string;
  /** The line of the doc it starts on. */
  line: number;
  /** The block's assignments (`KEY=…`), then the line. */
  script: string;
  /** The 5xx statuses the line's own comment announces (`# 503, Retry-After: 1`). */
  announced: number[];
}

/** The 5xx statuses named in a command line's trailing comment (after ` # `, outside quotes as docs write them). */
function announced5xx(text: string): number[] {
  const comment = /\s#\s(.*)$/.exec(text.split('\n').at(-1) ?? '')?.[1] ?? '';
  return [...comment.matchAll(/\b(5\d\d)\b/g)].map((m) => Number(m[1]));
}

/** A command line, with its `\` continuations joined, and where it starts. */
function commandLines(text: string): Array<{ offset: number; text: string }> {
  const lines: Array<{ offset: number; text: string }> = [];
  let current: { offset: number; text: string } | undefined;
  text.split('\n').forEach((line, index) => {
    if (current) current.text += `\n${line}`;
    else current = { offset: index, text: line };
    if (!line.endsWith('\\')) {
      lines.push(current);
      current = undefined;
    }
  });
  return lines;
}

function curlLines(doc: string): CurlLine[] {
  const found: CurlLine[] = [];
  for (const block of codeBlocks(readDoc(doc)).filter((b) => ['sh', 'bash', 'shell'].includes(b.info))) {
    const lines = commandLines(block.text);
    const assignments = lines.filter((l) => /^[A-Z_][A-Z0-9_]*=\S/.test(l.text) && !/\s(&&|;|\|)\s/.test(l.text));
    const mockVariables = assignments.filter((a) => ON_MOCK.test(a.text)).map((a) => a.text.split('=')[0]);
    for (const { offset, text } of lines) {
      if (!/(^|[;&|(]\s*|\bdo\s+)curl\s/.test(text)) continue;
      const targetsMock = ON_MOCK.test(text) || mockVariables.some((name) => new RegExp(`\\$\\{?${name}\\b`).test(text));
      if (!targetsMock) continue;
      const before = assignments.filter((a) => a.offset < offset).map((a) => a.text);
      found.push({ doc, line: block.line + 1 + offset, script: [...before, text].join('\n'), announced: announced5xx(text) });
    }
  }
  return found;
}

/** Ends every session and activates the start-up scenario afresh in the shared default: the mock as started. */
async function restart(mock: RunningMock): Promise<void> {
  const admin = `${new URL(mock.url).origin}/__mock`;
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  expect((await fetch(`${admin}/sessions`, { method: 'DELETE', headers })).status).toBe(200);
  expect((await fetch(`${admin}/scenarios/active`, { method: 'PUT', headers, body: JSON.stringify({ name: 'default' }) })).status).toBe(200);
}

/** Runs one line in bash; the status line each curl call received, in the order of the calls' files. */
async function run(line: CurlLine, port: number): Promise<{ statuses: Array<number | null>; stderr: string }> {
  const out = mkdtempSync(join(tmpdir(), 'animal-store-curl-'));
  try {
    const script = [
      'set -u',
      // Each call dumps the answer's head to a file of its own (a call in a pipe runs in a subshell, so no counter would do).
      `curl() { command curl --max-time 2 -D "$(mktemp '${out}/answer.XXXXXX')" "$@"; }`,
      line.script.replace(MOCK_ADDRESS, `127.0.0.1:${port}`),
    ].join('\n');
    const done = await processes.run('bash', ['-c', script], { cwd: out });
    const files = readdirSync(out).filter((file) => file.startsWith('answer.'));
    // The last status line of a head: an interim 100 Continue comes before the answer's.
    const statuses = files.map((file) => [...readFileSync(join(out, file), 'utf8').matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].map((m) => Number(m[1])).at(-1) ?? null);
    return { statuses, stderr: done.stderr };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

afterAll(() => processes.killAll());

describe('the 5xx a curl line announces', () => {
  it('is read from its trailing comment only', () => {
    expect(announced5xx("curl -s -H 'Prefer: code=500' http://localhost:4010/v1/pets/1   # 500 internal_error")).toEqual([500]);
    expect(announced5xx('for i in 1 2 3; do curl -s http://localhost:4010/v1/pets; done   # 200, 200, 503')).toEqual([503]);
    expect(announced5xx("curl -s -H 'Prefer: code=503' http://localhost:4010/v1/pets")).toEqual([]);
    expect(announced5xx('curl -s http://localhost:4010/v1/pets    # 200: the shared default')).toEqual([]);
  });
});

describe('the curl lines of README.md and the guides, against a live mock', () => {
  const docs = userDocs();
  const all = docs.flatMap(curlLines);

  it('are found where the readers need them', () => {
    const perDoc = new Set(all.map((line) => line.doc));
    expect([...perDoc]).toEqual(expect.arrayContaining(['README.md', 'docs/mock.md', 'docs/scenarios-and-faults.md', 'docs/admin-and-console.md', 'docs/sessions.md']));
    expect(all.length).toBeGreaterThan(40);
  });

  for (const doc of docs) {
    const lines = curlLines(doc);
    if (lines.length === 0) continue;
    it(`${doc}: each runs as written, and none gets a 5xx or no answer`, { timeout: 120_000 }, async () => {
      const mock = await startMock(['--no-watch']);
      try {
        const port = Number(new URL(mock.url).port);
        const wrong: string[] = [];
        for (const line of lines) {
          await restart(mock);
          const { statuses, stderr } = await run(line, port);
          const where = `${line.doc}:${line.line}`;
          if (/unbound variable|command not found|syntax error/.test(stderr)) wrong.push(`${where}: does not run as written: ${stderr.trim()}`);
          else if (statuses.length === 0) wrong.push(`${where}: called no curl`);
          for (const status of statuses) {
            if (status === null) wrong.push(`${where}: no answer (${stderr.trim() || 'connection failed'})`);
            else if (status >= 500 && !line.announced.includes(status)) wrong.push(`${where}: answered ${status}`);
          }
        }
        expect(wrong).toEqual([]);
      } finally {
        await stop(mock);
      }
    });
  }
});
