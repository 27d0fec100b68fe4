import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { curlLine } from '../../../verdict/curl-line.js';
import { keyRedactor } from '../../../verdict/redact-key.js';
import type { ResponseValidator } from '../../../document/response-validator.js';
import { violationTally, type ViolationTally } from '../../core/proxy/violation-tally.js';
import type { Exchange, Next } from '../exchange.js';
import { nodeBindings } from '../node-bindings.js';
import { answerChecker } from './check-answer.js';
import { cleanAnswers } from './clean-answers.js';
import { forward, type TargetAnswer } from './forward.js';
import type { ProxyOutcome } from './proxy-outcome.js';
import { proxyReport, writeProxyReport, type ProxyReportFormat } from './proxy-report.js';
import { reportCauses } from '../../core/proxy/report-causes.js';
import { pathBelowBase } from '../../../verdict/exchange-checks.js';
import { packageVersion } from '../../../shared/package-root.js';
import { endToEnd } from './hop-by-hop.js';
import { journalHeaders } from '../../core/journal/journal-headers.js';
import type { Contract } from '../../../document/contract.js';
import { recorder, type Recorder } from './recorder.js';
import { traceProxy } from '../exchange-trace.js';

/** The defaults of proxy mode's bounds, documented in docs/mock.md ("Proxy mode"). */
export const DEFAULT_PROXY_TIMEOUT_MS = 30_000;
/** Connections to the target at once; requests past it wait in node's queue for a free one. */
export const PROXY_MAX_SOCKETS = 64;
/** Bytes of an answer's body copied for the check; a longer body is passed on unchecked. */
export const PROXY_CHECK_CAP = 1024 * 1024;

export interface ProxyModeOptions {
  /** `--proxy URL`: the target's base, ending in its version segment. */
  target: URL;
  basePath: string;
  timeoutMs: number;
  upstreamKey: string | undefined;
  /** `--proxy-fallback mock`: the mock answers itself while the target is away. */
  fallback?: 'mock' | undefined;
  /** The harness's response validator for the contract document the mock serves. */
  validator: ResponseValidator;
  checkCap?: number;
  /** `--record DIR`: what the target answers, written into DIR as a scenario. */
  record?: { dir: string; contract: Contract; tell(level: 'info' | 'warn' | 'error', message: string): void } | undefined;
  /** `--proxy-report FILE`: the violations, written there when the mock stops. */
  report?: { file: string; tell(level: 'info' | 'error', message: string): void } | undefined;
}

export interface ProxyMode {
  /**
   * The last step of every request under the API's base path that no stub
   * or preference answered, given what the mock itself would answer (used
   * only with `--proxy-fallback mock`, while the target is away).
   */
  forward(mock: Next): Next;
  /** `--upstream-key` given: clients then authenticate to the mock with its own keys. */
  ownKeys: boolean;
  /** The target's base as `--proxy` gave it: no credentials (start-up refuses a URL with them), so it may be shown. */
  target: string;
  violations: ViolationTally;
  /** `--record DIR`'s recording; undefined without the flag. */
  recording: Recorder | undefined;
  /** The violations seen, by operation and statement, as the harness's report in `format` (proxy-report.ts). */
  report(format: ProxyReportFormat): string;
  /** Lets the pool go, and writes the recording's last changes and the report (`--proxy-report`). */
  close(): void;
}

/**
 * Proxy mode: forwarding through one pool of keep-alive connections
 * (at most PROXY_MAX_SOCKETS to the target), every answer checked by the
 * harness's checks once it has ended, and what broke tallied by statement.
 */
export function proxyMode(options: ProxyModeOptions): ProxyMode {
  // As many idle connections kept as may be open: past a lower bound, each answer's connection would be closed
  // and the next request would open a new one (a connect here and an accept at the target, per request, under load).
  const agentOptions = { keepAlive: true, maxSockets: PROXY_MAX_SOCKETS, maxFreeSockets: PROXY_MAX_SOCKETS };
  const agent = options.target.protocol === 'https:' ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
  const violations = violationTally();
  const check = answerChecker({ validator: options.validator, basePath: options.basePath, clean: cleanAnswers() });
  const secrets = options.upstreamKey === undefined ? [] : [options.upstreamKey];
  // A redactor is a few regular expressions, made once per client key: the last few are kept.
  const redactors = new Map<string, Redact>();
  const redactor = (x: Exchange): Redact => {
    const client = bearerToken(x) ?? '';
    let made = redactors.get(client);
    if (made === undefined) {
      made = keyRedactor(client === '' ? secrets : [...secrets, client], '<API key>');
      if (redactors.size >= 32) redactors.delete(redactors.keys().next().value as string);
      redactors.set(client, made);
    }
    return made;
  };
  const record = options.record && recorder({ ...options.record, validator: options.validator, basePath: options.basePath, upstreamKey: options.upstreamKey });
  const causes = reportCauses();
  const startedAt = new Date();
  const onAnswered = (x: Exchange, answer: TargetAnswer): void => {
    const redact = redactor(x);
    const request = { method: x.c.req.method, url: x.c.req.url, keyed: options.upstreamKey !== undefined || x.c.req.header('authorization') !== undefined };
    const outcome = check(request, answer, (text) => redact(text));
    traceProxy(x, outcome);
    record?.record(x, answer, outcome);
    if (outcome.violations.length === 0) return;
    const curl = redact(curlOf(x));
    // Counted once per exchange and statement: a page of 100 animals without names is one answer that broke it.
    const firsts = new Map(outcome.violations.map((violation) => [violation.statement, violation] as const).reverse());
    for (const violation of firsts.values()) violations.add(violation, { curl, status: answer.status });
    const operation = options.validator.operationFor(request.method, pathBelowBase(request.url, options.basePath))?.iid;
    if (operation === 'listPets' || operation === 'createPet' || operation === 'getPet') for (const violation of firsts.values()) causes.add(operation, violation, { curl, status: answer.status });
  };
  return {
    forward: forward({ ...options, agent, checkCap: options.checkCap ?? PROXY_CHECK_CAP, fallback: options.fallback, onAnswered, redactor }),
    ownKeys: options.upstreamKey !== undefined,
    target: options.target.href,
    violations,
    recording: record,
    report: (format) => proxyReport(causes.all(), { target: options.target.href, startedAt, version: packageVersion() }, format),
    close: () => {
      agent.destroy();
      record?.flush();
      if (options.report) {
        const { file, tell } = options.report;
        try {
          writeProxyReport(file, causes.all(), { target: options.target.href, startedAt, version: packageVersion() });
          tell('info', `proxy report written to ${file} (${causes.all().length} causes)`);
        } catch (error) {
          // The folder was checked at start-up, but may be gone or full by the stop: the stop goes on, and says so.
          tell('error', `the proxy report was not written to ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
        }
      }
    },
  };
}

type Redact = (text: string, cut?: boolean) => string;

/** The client's bearer token, to be redacted wherever an answer echoes it. */
function bearerToken(x: Exchange): string | undefined {
  const match = /^\s*bearer\s+(\S+)/i.exec(x.c.req.header('authorization') ?? '');
  return match?.[1];
}

/**
 * The request as a curl line to the mock: its end-to-end fields, the key as
 * `<API key>` and every other credential-like field left out, and the
 * start of its body (forward.ts keeps up to REQUEST_BODY_KEPT bytes).
 */
function curlOf(x: Exchange): string {
  const raw = nodeBindings(x.c)?.incoming.rawHeaders ?? [];
  // The journal's redaction (journal-headers.ts): a credential-like field shows `***`, and is left out here.
  const { headers } = journalHeaders(endToEnd(raw, CURL_DROPPED));
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== '***') shown[name] = value;
  if (headers.authorization !== undefined) shown.authorization = 'Bearer <API key>';
  const body = x.trace.body === undefined ? undefined : Buffer.from(x.trace.body.subarray(0, 2048)).toString('utf8');
  return curlLine({ method: x.c.req.method, url: x.c.req.url, headers: shown, body });
}

const CURL_DROPPED = new Set(['host', 'content-length', 'cookie', 'proxy-authorization']);
