import pLimit from 'p-limit';
import type { FetchFunction } from './fetch-transport.js';
import { createResponseValidator, type ResponseValidator } from '../document/response-validator.js';
import { documentedPairs, matchCoverage, operationLabels } from './coverage.js';
import { failureCauses } from '../verdict/failure-causes.js';
import { describeAllowance, NO_DECLARATION, type RefusalAllowance } from './allow-refusal.js';
import { baseUrlProblem } from './base-url.js';
import { catalogueFiller, DEEP_CATALOGUE, FULL_CATALOGUE } from './catalogue-fill.js';
import { DEFAULT_EXAMPLES } from './cli-options.js';
import { inputModel, type InputModel } from './generate/schema-model.js';
import { drawSeed } from './generate/search.js';
import { createHttpClient, DEFAULT_MAX_BODY_BYTES, type Send } from './http-client.js';
import { answerTally } from './answer-tally.js';
import { allRules } from './rules/index.js';
import { notRun, runRule, type RuleDependencies } from './run-rule.js';
import { firstPet } from './existing-pet.js';
import { createSilentLog } from './silent-log.js';
import type { ApiRequest, Probe, Rule, SilentLog } from './types.js';
import type { RuleResult, RunSessionFacts, SuiteReport } from '../verdict/report.js';
import { errorCodeOf } from './silent-log.js';
import type { RecordedExchange } from '../verdict/exchange.js';
import { unknownRuleIds } from './unknown-rule-ids.js';
import { wrongTargetVerdict } from './wrong-target.js';

export interface SuiteOptions {
  /** The API's base URL, ending in `/v1`. */
  baseUrl: string;
  apiKey: string;
  readOnly?: boolean;
  /** Run only these rule ids. */
  only?: readonly string[];
  /** Leave these rule ids out (shown as skipped). */
  skip?: readonly string[];
  timeoutMs?: number;
  /** The most bytes of an answer's body read (default DEFAULT_MAX_BODY_BYTES, 1 MiB, as the CLI). */
  maxBodyBytes?: number;
  /** Extra tries after a network error, GET, HEAD and OPTIONS only (default 1, as the CLI). */
  retries?: number;
  concurrency?: number;
  rules?: readonly Rule[];
  /** The contract document the target is checked against (default: the one this package ships). */
  documentPath?: string;
  /** Shared between runs (it takes prism a moment to read the document); made from `documentPath` when not given. */
  validator?: ResponseValidator;
  /** The generated cases' seed; a random one is drawn (and reported) when not given. */
  seed?: number;
  /** Random generated cases per operation, after the boundary cases (default DEFAULT_EXAMPLES). */
  examples?: number;
  /** What the target declares it refuses of valid NewPets (`--allow-refusal`); none by default. */
  allowRefusal?: RefusalAllowance;
  /** Told, per rule, of each probe it sends and each silent answer it notes (drift/pair-recorder.ts). */
  tap?: SuiteTap;
  /** Send through this function instead of the network (fetch-transport.ts): `baseUrl` then only names the requests' URLs. */
  fetch?: FetchFunction | undefined;
  /** The mock session to send every request in (its `id`, as `X-Mock-Session`), as the report names it (run-session.ts); none by default. */
  session?: RunSessionFacts | undefined;
  /** Stops the run: once aborted, nothing more is sent (run-session.ts, on Ctrl-C). */
  signal?: AbortSignal | undefined;
  /** How far a writing run pushes the target (`--depth`): `deep` fills the catalogue to DEEP_CATALOGUE first. */
  depth?: 'standard' | 'deep';
  /** The pause, ms, after the rules before what the run created is read back (`--settle`; read-back.ts); 0 by default. */
  settleMs?: number;
}

export interface SuiteTap {
  probe(ruleId: string, request: ApiRequest, probed: Promise<Probe>): void;
  observe(ruleId: string, ...observation: Parameters<SilentLog['observe']>): void;
  /** The run's own client, to send a request again (drift/flapping.ts). */
  client?(send: Send): void;
}

export type SuiteRun = { ok: true; report: SuiteReport } | { ok: false; error: { kind: 'usage' | 'unreachable' | 'session'; message: string } };

/**
 * Runs the rules against one base URL. First one request tells whether the
 * target answers at all: an unreachable target is an error of its own, not
 * a wall of failed rules.
 */
export async function runSuite(options: SuiteOptions): Promise<SuiteRun> {
  const rules = options.rules ?? allRules;
  const base = checkUsage(options, rules);
  if (typeof base === 'string') return { ok: false, error: { kind: 'usage', message: base } };

  let inputs: InputModel;
  try {
    inputs = inputModel(options.documentPath);
  } catch (error) {
    return { ok: false, error: { kind: 'usage', message: (error as Error).message } };
  }

  const started = performance.now();
  const readOnly = options.readOnly ?? false;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const tally = answerTally(
    createHttpClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, timeoutMs, maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, retries: options.retries ?? 1, fetch: options.fetch, session: options.session?.id ?? undefined, signal: options.signal }),
    new URL(options.baseUrl).pathname.replace(/\/+$/, ''),
  );
  const { send } = tally;
  options.tap?.client?.(send);
  const [validator, probe] = await Promise.all([options.validator ?? createResponseValidator(options.documentPath), send({ method: 'GET', path: '/pets?limit=1' })]);
  if (!probe.response) {
    return { ok: false, error: { kind: 'unreachable', message: `cannot reach ${options.baseUrl}: ${probe.networkError}` } };
  }
  const refused = options.session?.id ? sessionRefused(probe, options.session.id, options.baseUrl) : undefined;
  if (refused) return { ok: false, error: refused };

  const existingPet = firstPet(send);
  const seed = options.seed ?? drawSeed();
  const examples = options.examples ?? DEFAULT_EXAMPLES;
  const silent = createSilentLog();
  // A writing run of listPets rules grows the catalogue past the largest page before any rule
  // runs, so every rule sees pages cut by `limit` rather than the whole catalogue, in any order.
  // A run of reading rules only creates nothing, even with writes allowed.
  const selected = rules.filter((rule) => (!options.only?.length || options.only.includes(rule.id)) && !options.skip?.includes(rule.id));
  const fills = !readOnly && selected.some((rule) => rule.writes) && selected.some((rule) => rule.operation === 'listPets');
  const ensureCatalogue = catalogueFiller(send, !fills);
  const depth = options.depth ?? 'standard';
  if (fills) await ensureCatalogue(depth === 'deep' ? DEEP_CATALOGUE : FULL_CATALOGUE);
  const allowance = options.allowRefusal ?? NO_DECLARATION;
  const settleMs = options.settleMs ?? 0;
  const deps = { send, validator, basePath: base.pathname.replace(/\/+$/, ''), readOnly, existingPet, seed, examples, silent, inputs, ensureCatalogue, allowance, created: tally.created, settleMs };
  const ran = await runRules(rules, options, deps);

  const summary = summarise(ran);
  const wrongTarget = wrongTargetVerdict(tally, validator, options.baseUrl) ?? null;
  const coverage = matchCoverage(await documentedPairs(validator, options.documentPath), ran);
  const { results, causes } = failureCauses(ran, { requests: tally.requests(), bySignature: tally.bySignature() }, operationLabels(coverage));
  return {
    ok: true,
    report: {
      kind: 'contract-run',
      target: { baseUrl: options.baseUrl, readOnly },
      seed,
      examples,
      declared: describeAllowance(allowance),
      startedAt: new Date(Date.now() - (performance.now() - started)).toISOString(),
      ms: performance.now() - started,
      results,
      causes,
      coverage,
      silent: silent.entries(),
      summary,
      wrongTarget,
      ok: summary.failed === 0 && wrongTarget === null,
      growth: { ...tally.growth(), depth },
      ...(ran.some((r) => r.id === 'read-back-after-settle' && r.status !== 'skipped') ? { readBack: { settleSeconds: settleMs / 1000, animals: tally.created().size } } : {}),
      ...(options.session ? { session: options.session } : {}),
    },
  };
}

/**
 * The mock refusing the run's session at its first request: at its bound of
 * sessions, each used within the last minute (503 too_many_sessions), or,
 * with --session-per-key, a named session another key opened (403
 * session_forbidden). Either way no rule could be judged: the run stops
 * as for a target it cannot reach.
 */
function sessionRefused(probe: Omit<RecordedExchange, 'operation'>, id: string, baseUrl: string): { kind: 'session'; message: string } | undefined {
  const code = errorCodeOf({ operation: undefined, ...probe });
  if (probe.response?.status === 503 && code === 'too_many_sessions') {
    const wait = probe.response.headers['retry-after'];
    return {
      kind: 'session',
      message: `the mock at ${baseUrl} refused the run's session ${id}: it holds as many sessions as its --max-sessions allows, each used within the last minute (503 too_many_sessions${wait ? `, Retry-After: ${wait} s` : ''}). Run again later, end sessions (DELETE /__mock/sessions), or run in the shared session with --shared-session`,
    };
  }
  if (probe.response?.status === 403 && code === 'session_forbidden') {
    return { kind: 'session', message: `the mock at ${baseUrl} refused session ${id} (403 session_forbidden): another key opened it (--session-per-key). Name another with --session, or leave --session out for a session of the run's own` };
  }
  return undefined;
}

/** Every rule, `concurrency` at once, in the order given; a rule marked last starts once the others are all done (it looks at what they left). */
async function runRules(rules: readonly Rule[], options: SuiteOptions, deps: RuleDependencies): Promise<RuleResult[]> {
  const limit = pLimit(Math.max(1, options.concurrency ?? 8));
  const runOne = (rule: Rule) =>
    limit(async (): Promise<RuleResult> => {
      if (options.only?.length && !options.only.includes(rule.id)) return notRun(rule, 'not selected by --only');
      if (options.skip?.includes(rule.id)) return notRun(rule, 'left out by --skip');
      return runRule(rule, tapped(deps, rule.id, options.tap));
    });
  const first = await Promise.all(rules.map((rule) => (rule.last ? undefined : runOne(rule))));
  const lastOnes = await Promise.all(rules.map((rule) => (rule.last ? runOne(rule) : undefined)));
  return rules.map((_, i) => (first[i] ?? lastOnes[i]) as RuleResult);
}

/** The rule's dependencies with its probes and silent answers told to the tap, when there is one. */
function tapped(deps: RuleDependencies, ruleId: string, tap: SuiteTap | undefined): RuleDependencies {
  if (!tap) return deps;
  return {
    ...deps,
    tap: (request, probed) => tap.probe(ruleId, request, probed),
    silent: {
      entries: deps.silent.entries,
      observe(point, answer, example) {
        deps.silent.observe(point, answer, example);
        tap.observe(ruleId, point, answer, example);
      },
    },
  };
}

/** The base URL, or what is wrong with the options: a rule id that does not exist, a base URL the harness cannot use. */
function checkUsage(options: SuiteOptions, rules: readonly Rule[]): URL | string {
  return unknownRuleIds([...(options.only ?? []), ...(options.skip ?? [])], rules) ?? baseUrlProblem(options.baseUrl) ?? new URL(options.baseUrl);
}

function summarise(results: readonly RuleResult[]) {
  const count = (status: RuleResult['status']) => results.filter((r) => r.status === status).length;
  return {
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    warnings: results.reduce((n, r) => n + r.findings.filter((f) => f.level === 'warning').length, 0),
    contractFailed: results.filter((r) => r.status === 'failed' && r.severity === 'contract').length,
  };
}
