import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { proxyReportFormat } from './http/proxy/proxy-report.js';
import { kernelFileSystem, makeFolder } from './core/files/make-folder.js';
import { failed, ok, type Result } from './core/result.js';
import { DEFAULT_PROXY_TIMEOUT_MS, PROXY_MAX_SOCKETS } from './http/proxy/proxy-mode.js';
import type { ProxyOptions } from './http/proxy/start-proxy-mode.js';

/** Proxy mode as the command line asks for it: the server's options but the document, which the command line gives apart. */
export type ProxyFlags = Omit<ProxyOptions, 'documentPath'>;

export const PROXY_HELP = `  --proxy URL        send every request under /v1 that no stub answers to this target, e.g.
                     https://staging.example.com/v1, and check every answer (env MOCK_PROXY;
                     at most ${PROXY_MAX_SOCKETS} connections to it); GET /__mock/violations shows what broke
  --proxy-timeout MS how long the target may take to start answering; then 504 (default ${DEFAULT_PROXY_TIMEOUT_MS})
  --upstream-key KEY with --proxy: clients use the mock's API keys, and the target gets
                     Authorization: Bearer KEY (env MOCK_UPSTREAM_KEY)
  --proxy-fallback mock
                     with --proxy: while the target cannot be reached or is too slow, answer
                     bodiless requests from the mock's own catalogue, marked X-Mock-Fallback
                     (env MOCK_PROXY_FALLBACK)
  --record DIR       with --proxy: write what the target answers into DIR as a scenario,
                     recorded.yaml and its catalogue recorded.pets.json (env MOCK_RECORD)
  --proxy-report FILE
                     with --proxy: when the mock stops, write the violations seen, by operation
                     and statement, as JSON, JUnit XML or HTML by FILE's extension (env MOCK_PROXY_REPORT)
`;

/**
 * `--proxy URL` (else MOCK_PROXY), `--proxy-timeout MS`, `--upstream-key
 * KEY` (else MOCK_UPSTREAM_KEY) and `--proxy-fallback mock` (else
 * MOCK_PROXY_FALLBACK). The URL is http or https with a path (its
 * version segment) and no credentials, query or fragment: a key goes in
 * `--upstream-key`, which is never printed.
 */
export function readProxyFlags(
  values: { proxy?: string | undefined; 'proxy-timeout'?: string | undefined; 'upstream-key'?: string | undefined; 'proxy-fallback'?: string | undefined; record?: string | undefined; 'proxy-report'?: string | undefined },
  env: NodeJS.ProcessEnv,
  tokenProblem: (what: string, key: string) => string | undefined,
): Result<ProxyFlags | undefined, string> {
  const [text, from] = values.proxy !== undefined ? [values.proxy, '--proxy'] : [env.MOCK_PROXY || undefined, 'MOCK_PROXY'];
  const [key, keyFrom] = values['upstream-key'] !== undefined ? [values['upstream-key'], '--upstream-key'] : [env.MOCK_UPSTREAM_KEY || undefined, 'MOCK_UPSTREAM_KEY'];
  const [fallbackText, fallbackFrom] = values['proxy-fallback'] !== undefined ? [values['proxy-fallback'], '--proxy-fallback'] : [env.MOCK_PROXY_FALLBACK || undefined, 'MOCK_PROXY_FALLBACK'];
  if (text === undefined) {
    const lone = (['upstream-key', 'proxy-timeout', 'proxy-fallback', 'record', 'proxy-report'] as const).find((name) => values[name] !== undefined);
    if (lone !== undefined) return failed(`--${lone} needs --proxy URL`);
    return ok(undefined);
  }
  // A word, not a switch: another source of fallback answers can come without another flag.
  if (fallbackText !== undefined && fallbackText !== 'mock') return failed(`${fallbackFrom} must be mock (answer from the mock's own catalogue), got ${JSON.stringify(fallbackText)}`);
  const target = URL.canParse(text) ? new URL(text) : undefined;
  if (!target || (target.protocol !== 'http:' && target.protocol !== 'https:')) return failed(`${from} must be an http or https URL such as https://staging.example.com/v1`);
  if (target.username !== '' || target.password !== '') return failed(`${from} must not hold credentials: give the target's key with --upstream-key`);
  if (target.search !== '' || target.hash !== '' || target.pathname.replace(/\/$/, '') === '') {
    return failed(`${from} must be the target's base, ending in its version segment (such as /v1), with no query or fragment`);
  }
  const timeoutText = values['proxy-timeout'];
  const timeoutMs = timeoutText === undefined ? DEFAULT_PROXY_TIMEOUT_MS : /^\d+$/.test(timeoutText) ? Number(timeoutText) : NaN;
  if (!(timeoutMs >= 1 && timeoutMs <= 600_000)) return failed(`--proxy-timeout must be a whole number of ms from 1 to 600000, got ${JSON.stringify(timeoutText)}`);
  const problem = key === undefined ? undefined : tokenProblem(keyFrom, key);
  if (problem !== undefined) return failed(problem);
  const recordDir = readRecordDir(values.record ?? (env.MOCK_RECORD || undefined));
  if (!recordDir.ok) return recordDir;
  const reportFile = readReportFile(values['proxy-report'] ?? (env.MOCK_PROXY_REPORT || undefined));
  if (!reportFile.ok) return reportFile;
  return ok({ target, timeoutMs, upstreamKey: key, fallback: fallbackText, recordDir: recordDir.value, reportFile: reportFile.value });
}

/** `--proxy-report FILE`: a format by its extension, in a folder that exists, or refused at start-up rather than at the stop. */
function readReportFile(file: string | undefined): Result<string | undefined, string> {
  if (file === undefined) return ok(undefined);
  if (proxyReportFormat(file) === undefined) return failed(`--proxy-report ${file}: name a .json, .xml (JUnit) or .html file`);
  const absolute = resolve(file);
  const kernel = kernelFileSystem(dirname(absolute));
  if (kernel !== undefined) return failed(`--proxy-report ${file}: ${kernel} is a kernel file system, where no report can be written`);
  try {
    if (!statSync(dirname(absolute)).isDirectory()) return failed(`--proxy-report ${file}: its folder is not a folder`);
    accessSync(dirname(absolute), constants.W_OK);
  } catch (error) {
    return failed(`--proxy-report ${file}: cannot write in its folder (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return ok(absolute);
}

/** `--record DIR`: made if missing, and writable, or refused at start-up rather than at the first write. */
function readRecordDir(dir: string | undefined): Result<string | undefined, string> {
  if (dir === undefined) return ok(undefined);
  if (dir.trim() === '') return failed('--record needs a folder');
  const absolute = resolve(dir);
  const made = makeFolder(absolute);
  return made.ok ? ok(absolute) : failed(`--record ${dir}: cannot record there: ${made.error}`);
}
