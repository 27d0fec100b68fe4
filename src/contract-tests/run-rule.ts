import type { ResponseValidator } from '../document/response-validator.js';
import type { RefusalAllowance } from './allow-refusal.js';
import type { InputModel } from './generate/schema-model.js';
import { checkExchange, pathBelowBase } from '../verdict/exchange-checks.js';
import type { PetLookup } from './existing-pet.js';
import type { Send } from './http-client.js';
import type { ApiRequest, Probe, Rule, RuleContext, SilentLog } from './types.js';
import type { RuleFacts, RuleResult } from '../verdict/report.js';
import type { RecordedExchange, Finding, OperationId } from '../verdict/exchange.js';

export interface RuleDependencies {
  send: Send;
  validator: ResponseValidator;
  /** The base URL's path (`/v1`), to find the operation of each request. */
  basePath: string;
  readOnly: boolean;
  existingPet: () => Promise<PetLookup>;
  /** The run's seed; each rule draws from its own, derived from it and its id. */
  seed: number;
  examples: number;
  silent: SilentLog;
  inputs: InputModel;
  ensureCatalogue: (count: number) => Promise<number | undefined>;
  allowance: RefusalAllowance;
  created: () => ReadonlyMap<string, unknown>;
  settleMs: number;
  /** Told of each probe as it is sent, in the order the rule sends them (a drift run pairs two targets' probes by it). */
  tap?: (request: ApiRequest, probed: Promise<Probe>) => void;
}

/**
 * Runs one rule: skips it when it writes in read-only mode, otherwise lets it
 * send its requests, checks every exchange against the contract, and turns
 * the findings into a verdict. An advisory rule fails only on hard findings
 * (5xx, dropped connection, an error that is not an Error body, a broken
 * listing invariant); its other findings are kept as warnings.
 */
export async function runRule(rule: Rule, deps: RuleDependencies): Promise<RuleResult> {
  const started = performance.now();
  const base = factsOf(rule);
  if (rule.writes && deps.readOnly) {
    return notRun(rule, 'read-only run: this rule sends createPet requests, which store what a server accepts (createPet has no delete)');
  }
  const findings: Finding[] = [];
  const exchanges: RecordedExchange[] = [];
  const observed = new Set<string>();
  const probeOnce = async (request: ApiRequest): Promise<Probe> => {
    const sent = await deps.send(request);
    const operation = deps.validator.operationFor(sent.request.method, pathBelowBase(sent.request.url, deps.basePath));
    const exchange: RecordedExchange = { operation: operation?.iid as OperationId | undefined, ...sent };
    if (operation && sent.response) observed.add(`${operation.iid} ${sent.response.status}`);
    return { exchange, findings: checkExchange(deps.validator, operation, exchange).map((finding) => ({ ...finding, exchange })) };
  };
  const probe = (request: ApiRequest): Promise<Probe> => {
    const probed = probeOnce(request);
    deps.tap?.(request, probed);
    return probed;
  };
  const record: RuleContext['record'] = (probed, reproduce) => {
    exchanges.push(probed.exchange);
    findings.push(...probed.findings.map((finding) => (reproduce ? { ...finding, reproduce } : finding)));
  };
  const context: RuleContext = {
    readOnly: deps.readOnly,
    created: deps.created,
    settleMs: deps.settleMs,
    existingPet: async () => (await deps.existingPet()).pet,
    noPetReason: async () => {
      const found = await deps.existingPet();
      return found.pet ? undefined : found.reason;
    },
    seed: deps.seed,
    examples: deps.examples,
    observe: deps.silent.observe,
    basePath: deps.basePath,
    inputs: deps.inputs,
    ensureCatalogue: deps.ensureCatalogue,
    allowance: deps.allowance,
    probe,
    record,
    failures: () => findings.filter((f) => f.level === 'error').length,
    async send(request) {
      const probed = await probe(request);
      record(probed);
      return probed.exchange;
    },
    fail(finding) {
      findings.push({ level: 'error', exchange: exchanges.at(-1), ...finding });
    },
  };
  let outcome;
  try {
    outcome = await rule.run(context);
  } catch (error) {
    findings.push({ level: 'error', hard: true, message: `the rule could not finish: ${(error as Error).message}`, expected: 'a response the rule can read', exchange: exchanges.at(-1) });
  }
  const ms = performance.now() - started;
  if (outcome && 'skipped' in outcome && findings.length === 0) {
    return { ...base, status: 'skipped', reason: outcome.skipped, findings, exchanges, observed: [...observed], ms };
  }
  const cases = outcome && 'cases' in outcome ? { cases: outcome.cases } : {};
  const judged = rule.severity === 'advisory' ? findings.map((f) => (f.hard ? f : { ...f, level: 'warning' as const })) : findings;
  const failed = judged.some((f) => f.level === 'error');
  return { ...base, ...cases, status: failed ? 'failed' : 'passed', findings: judged, exchanges, observed: [...observed], ms };
}

/** A rule's facts without its code, as results carry them. */
export function factsOf({ id, title, operation, writes, severity, statement }: Rule): RuleFacts {
  return { id, title, operation, writes, severity, statement };
}

/** The result of a rule skipped before it ran, with the reason. */
export function notRun(rule: Rule, reason: string): RuleResult {
  return { ...factsOf(rule), status: 'skipped', reason, findings: [], exchanges: [], ms: 0 };
}
