import type { ResponseValidator } from '../contract/response-validator.js';
import { checkExchange, pathBelowBase } from './exchange-checks.js';
import type { Send } from './http-client.js';
import type { Exchange, Finding, OperationId, Pet, Rule, RuleContext, RuleFacts, RuleResult } from './types.js';

export interface RuleDependencies {
  send: Send;
  validator: ResponseValidator;
  /** The base URL's path (`/v1`), to find the operation of each request. */
  basePath: string;
  readOnly: boolean;
  existingPet: () => Promise<Pet | undefined>;
}

/**
 * Runs one rule: skips it when it writes in read-only mode, otherwise lets it
 * send its requests, checks every exchange against the contract, and turns
 * the findings into a verdict. An advisory rule fails only on hard findings
 * (5xx, dropped connection, an error that is not an Error body); its other
 * findings are kept as warnings.
 */
export async function runRule(rule: Rule, deps: RuleDependencies): Promise<RuleResult> {
  const started = performance.now();
  const base = factsOf(rule);
  if (rule.writes && deps.readOnly) {
    return notRun(rule, 'read-only run: this rule sends createPet requests, which store what a server accepts (createPet has no delete)');
  }
  const findings: Finding[] = [];
  const exchanges: Exchange[] = [];
  const context: RuleContext = {
    readOnly: deps.readOnly,
    existingPet: deps.existingPet,
    async send(request) {
      const sent = await deps.send(request);
      const operation = deps.validator.operationFor(sent.request.method, pathBelowBase(sent.request.url, deps.basePath));
      const exchange: Exchange = { operation: operation?.iid as OperationId | undefined, ...sent };
      exchanges.push(exchange);
      for (const finding of checkExchange(deps.validator, operation, exchange)) findings.push({ ...finding, exchange });
      return exchange;
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
    return { ...base, status: 'skipped', reason: outcome.skipped, findings, exchanges, ms };
  }
  const judged = rule.severity === 'advisory' ? findings.map((f) => (f.hard ? f : { ...f, level: 'warning' as const })) : findings;
  const failed = judged.some((f) => f.level === 'error');
  return { ...base, status: failed ? 'failed' : 'passed', findings: judged, exchanges, ms };
}

/** A rule's facts without its code, as results carry them. */
export function factsOf({ id, title, operation, writes, severity, statement }: Rule): RuleFacts {
  return { id, title, operation, writes, severity, statement };
}

/** The result of a rule skipped before it ran, with the reason. */
export function notRun(rule: Rule, reason: string): RuleResult {
  return { ...factsOf(rule), status: 'skipped', reason, findings: [], exchanges: [], ms: 0 };
}
