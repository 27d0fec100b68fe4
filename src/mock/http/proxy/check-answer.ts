import { checkExchange, pathBelowBase } from '../../../verdict/exchange-checks.js';
import { checkStatement } from '../../../verdict/exchange-check-ids.js';
import { decodeBody } from '../../../verdict/decode-body.js';
import type { OperationId, RecordedExchange } from '../../../verdict/exchange.js';
import type { ResponseValidator } from '../../../document/response-validator.js';
import { parseExactJson } from '../../../shared/exact-json/parse-exact-json.js';
import { ownCopy } from '../../core/own-copy.js';
import type { TargetAnswer } from './forward.js';
import type { CleanAnswers } from './clean-answers.js';
import type { ProxyOutcome } from './proxy-outcome.js';

/** Violations an entry keeps, and the characters of each detail: a broken page may break the same statement a hundred times. */
export const MAX_ENTRY_VIOLATIONS = 20;
export const MAX_DETAIL_CHARS = 512;

export interface CheckedRequest {
  method: string;
  /** The URL as the client sent it to the mock. */
  url: string;
  /** Whether the request went to the target with a key (the client's Authorization, or `--upstream-key`'s). */
  keyed: boolean;
}

export interface AnswerCheckerOptions {
  /** The harness's response validator for the contract document the mock serves. */
  validator: ResponseValidator;
  /** The mock's base path (`/v1`), under which the document's paths are. */
  basePath: string;
  /** Clean verdicts remembered (clean-answers.ts): an answer seen before is not checked again. */
  clean: CleanAnswers;
}

/** Checks one proxied answer, once it has ended; `redact` takes every secret out of what a detail quotes of it. */
export type AnswerChecker = (request: CheckedRequest, answer: TargetAnswer, redact: (text: string) => string) => ProxyOutcome;

/**
 * The harness's checks of every exchange (exchange-checks.ts and
 * invariants.ts: the same functions, ids and statements) run on one
 * proxied answer, once it has ended.
 */
export function answerChecker({ validator, basePath, clean }: AnswerCheckerOptions): AnswerChecker {
  return (request, answer, redact) => {
    if (answer.upstream === 'dropped') {
      const detail = `the target dropped the connection after ${answer.body.total} bytes of the body`;
      return { upstream: 'dropped', violations: [{ rule: 'exchange-body-read', statement: checkStatement('exchange-body-read'), detail }] };
    }
    const bytes = answer.body.bytes();
    if (bytes === undefined) return { upstream: 'answered', unchecked: 'too large', violations: [] };
    const digest = clean.digest({ method: request.method, url: request.url, keyed: request.keyed, status: answer.status, headers: answer.headers, body: bytes });
    if (clean.has(digest)) return { upstream: 'answered', violations: [] };
    const violations = check(validator, basePath, request, answer, bytes).map((finding) => {
      // Every finding of these checks names its check; a schema finding's statement is the check's.
      const rule = finding.check ?? 'exchange-response-schema';
      const detail = redact(`${finding.path ? `${finding.path}: ` : ''}${finding.message}`);
      // Its own copy: a slice would keep the whole finding alive in the journal (a 16 KiB Content-Type it quotes).
      return { rule, statement: checkStatement(rule), detail: detail.length > MAX_DETAIL_CHARS ? ownCopy(`${detail.slice(0, MAX_DETAIL_CHARS)}…`) : detail };
    });
    if (violations.length === 0) clean.add(digest);
    return { upstream: 'answered', violations };
  };
}

/** The harness's error findings for one whole answer, at most MAX_ENTRY_VIOLATIONS. */
function check(validator: ResponseValidator, basePath: string, request: CheckedRequest, answer: TargetAnswer, bytes: Buffer) {
  const decoded = decodeBody(bytes, answer.headers['content-encoding'], 4 * bytes.length + 1024 * 1024);
  const body = decoded.ok ? decoded.body.toString('utf8') : '';
  const operation = validator.operationFor(request.method, pathBelowBase(request.url, basePath));
  const exchange: RecordedExchange = {
    operation: operation?.iid as OperationId | undefined,
    // The key itself is never read by the checks: only whether there was one (a shared cache may not reuse its answer).
    request: { method: request.method, url: request.url, headers: request.keyed ? { authorization: 'Bearer <API key>' } : {} },
    response: {
      status: answer.status,
      headers: answer.headers,
      body,
      ...(decoded.ok ? readJson(body, answer.headers['content-type']) : { json: undefined }),
      ...(decoded.ok ? {} : { unread: { reason: decoded.reason, expected: 'a body the client can decode' } }),
    },
    ms: 0,
  };
  return checkExchange(validator, operation, exchange)
    .filter((finding) => finding.level === 'error')
    .slice(0, MAX_ENTRY_VIOLATIONS);
}

/** The body read once, as the checks compare it (`json`) and as the validator judges it (`view`). */
function readJson(body: string, contentType: string | undefined): { json: unknown; view?: unknown } {
  if (!/[/+]json\b/i.test(contentType ?? '')) return { json: undefined };
  try {
    const { value, view } = parseExactJson(body);
    return { json: value, view };
  } catch {
    return { json: undefined };
  }
}
