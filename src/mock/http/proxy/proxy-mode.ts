import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { curlLine } from '../../../contract-tests/curl-line.js';
import { keyRedactor } from '../../../contract-tests/redact-key.js';
import type { ResponseValidator } from '../../../document/response-validator.js';
import { violationTally, type ViolationTally } from '../../core/proxy/violation-tally.js';
import type { Exchange, Next } from '../exchange.js';
import { nodeBindings } from '../node-bindings.js';
import { checkAnswer } from './check-answer.js';
import { forward, type TargetAnswer } from './forward.js';
import { endToEnd } from './hop-by-hop.js';
import { journalHeaders } from '../../core/journal/journal-headers.js';

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
  /** The harness's response validator for the contract document the mock serves. */
  validator: ResponseValidator;
  checkCap?: number;
}

export interface ProxyMode {
  /** The last step of every request under the API's base path that no stub or preference answered. */
  forward: Next;
  /** `--upstream-key` given: clients then authenticate to the mock with its own keys. */
  ownKeys: boolean;
  violations: ViolationTally;
  close(): void;
}

/**
 * Proxy mode: forwarding through one pool of keep-alive connections
 * (at most PROXY_MAX_SOCKETS to the target), every answer checked by the
 * harness's checks once it has ended, and what broke tallied by statement.
 */
export function proxyMode(options: ProxyModeOptions): ProxyMode {
  const agentOptions = { keepAlive: true, maxSockets: PROXY_MAX_SOCKETS, maxFreeSockets: 16 };
  const agent = options.target.protocol === 'https:' ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
  const violations = violationTally();
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
  const onAnswered = (x: Exchange, answer: TargetAnswer): void => {
    const redact = redactor(x);
    const request = { method: x.c.req.method, url: x.c.req.url };
    x.proxy = checkAnswer(options.validator, options.basePath, request, answer, (text) => redact(text));
    if (x.proxy.violations.length === 0) return;
    const curl = redact(curlOf(x));
    // Counted once per exchange and statement: a page of 100 animals without names is one answer that broke it.
    const firsts = new Map(x.proxy.violations.map((violation) => [violation.statement, violation] as const).reverse());
    for (const violation of firsts.values()) violations.add(violation, { curl, status: answer.status });
  };
  return {
    forward: forward({ ...options, agent, checkCap: options.checkCap ?? PROXY_CHECK_CAP, onAnswered, redact: (x, text, cut) => redactor(x)(text, cut) }),
    ownKeys: options.upstreamKey !== undefined,
    violations,
    close: () => agent.destroy(),
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
  const body = x.body === undefined ? undefined : Buffer.from(x.body.subarray(0, 2048)).toString('utf8');
  return curlLine({ method: x.c.req.method, url: x.c.req.url, headers: shown, body });
}

const CURL_DROPPED = new Set(['host', 'content-length', 'cookie', 'proxy-authorization']);
