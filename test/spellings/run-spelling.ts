import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContract } from '../../src/document/load-contract.js';
import { loadFixtureCatalogue } from '../../src/mock/core/fixtures/load-catalogue.js';
import { CONTRACT_BIN } from '../support/contract-cli.js';
import { childEnv, Processes, requireBuilt } from '../support/processes.js';
import { FAULTY_SERVER_KEY } from '../faulty-servers/defect.js';
import { startSpellingServer, type SpellingServerSpec } from './spelling-server.js';

/**
 * Runs the built harness (the CLI, as a user does) against one spelling
 * server, and reads back what it reported: the contract rules that
 * failed, and, for a rule that let a spelling in without the key, the two
 * curl lines the report printed for it (the plain request and the spelled
 * one, both without the key), each pasted into bash while the server still
 * runs. The key is passed to the child and never printed: the report
 * redacts it, and only the lines without it are run.
 */

const contract = loadContract();
const catalogue = loadFixtureCatalogue(contract);
if (!catalogue.ok) throw new Error(catalogue.error);
const pets = catalogue.value.pets;

export interface SpellingRunResult {
  exitCode: number | null;
  /** Contract rules that failed. */
  failed: string[];
  /** The pretty report (the key redacted). */
  pretty: string;
  /** For each failed rule: the replay curl lines the pretty report printed with the first cause naming it. */
  replays: Map<string, string[]>;
  /**
   * The keyless curl lines of `rule`'s report, each pasted into bash against the running server: its status. With
   * `fillKey`, the lines that show `<API key>` outside Authorization too, pasted with the key in its place, as a
   * reader fills it in by hand (the line as printed is kept).
   */
  pasted: Map<string, Array<{ line: string; status: number | undefined }>>;
}

/** Runs `line` (a curl line from the report) in bash; the status line of what it printed. */
async function paste(line: string): Promise<number | undefined> {
  const out = await new Promise<string>((resolve) => {
    const child = spawn('bash', ['-c', `${line} --max-time 10 2>/dev/null | head -1`], { stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    child.on('close', () => resolve(text));
  });
  const match = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(out);
  return match ? Number(match[1]) : undefined;
}

/** The replay lines in the pretty report under each failing rule's cause: `replay:` and the curl lines that follow it. */
function replayBlocks(pretty: string): Map<string, string[]> {
  const blocks = new Map<string, string[]>();
  const lines = pretty.split('\n');
  let rules: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const named = /^ {4}rules: (.+)$/.exec(line);
    if (named) rules = (named[1] as string).split(', ');
    if (!/^ {9}replay: +curl /.test(line)) continue;
    const curls = [line.replace(/^ {9}replay: +/, '')];
    while (/^ {19}curl /.test(lines[i + 1] ?? '')) curls.push((lines[++i] as string).trim());
    for (const rule of rules) if (!blocks.has(rule)) blocks.set(rule, curls);
  }
  return blocks;
}

const AUTHORIZATION = /-H '[Aa][Uu][Tt][Hh][Oo][Rr][Ii][Zz][Aa][Tt][Ii][Oo][Nn]:/;
const keyless = (line: string) => !AUTHORIZATION.test(line) && !line.includes('<API key>');

export async function runSpelling(spec: SpellingServerSpec | undefined, seed = 1, { fillKey = false } = {}): Promise<SpellingRunResult> {
  requireBuilt(CONTRACT_BIN);
  const processes = new Processes();
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-spellings-'));
  const server = await startSpellingServer(spec, { contract, pets });
  try {
    const json = join(dir, 'report.json');
    const run = await processes.node([CONTRACT_BIN, '--base-url', server.url, '--seed', String(seed), '--reporter', 'pretty', '--reporter', 'json', '--output', json], {
      env: childEnv({ CONTRACT_API_KEY: FAULTY_SERVER_KEY }),
      cwd: dir,
    });
    const report = JSON.parse(readFileSync(json, 'utf8')) as { results: Array<{ id: string; severity: string; status: string }> };
    const failed = report.results.filter((r) => r.severity === 'contract' && r.status === 'failed').map((r) => r.id);
    const replays = replayBlocks(run.stdout);
    const pasted = new Map<string, Array<{ line: string; status: number | undefined }>>();
    for (const [rule, curls] of replays) {
      const lines = curls.filter((line) => keyless(line) || (fillKey && !AUTHORIZATION.test(line)));
      pasted.set(rule, await Promise.all(lines.map(async (line) => ({ line, status: await paste(line.replaceAll('<API key>', FAULTY_SERVER_KEY)) }))));
    }
    return { exitCode: run.code, failed, pretty: run.stdout, replays, pasted };
  } finally {
    await server.close();
    await processes.killAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Whether the report names a key bypass with both curl lines: among the
 * keyless lines printed for `rule`, one the server answered 401 when pasted
 * (the plain request) and one it let in (the spelled one).
 */
export function bothCurlLinesReproduce(result: SpellingRunResult, rule: string): boolean {
  const lines = result.pasted.get(rule) ?? [];
  return lines.some((l) => l.status === 401) && lines.some((l) => l.status !== undefined && l.status !== 401 && l.status < 300);
}
