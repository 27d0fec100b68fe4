import { answerSignature } from './answer-signature.js';
import { groupByCause } from './group-by-cause.js';
import type { FailureCause, RuleResult } from './report.js';
import type { Finding, OperationId, RecordedExchange } from './exchange.js';

export interface AnswerCounts {
  requests: number;
  /** Requests by answer signature (answer-tally.ts). */
  bySignature: ReadonlyMap<string, number>;
}

interface Located {
  rule: RuleResult;
  finding: Finding;
  key: string;
}

/**
 * Groups every finding of the run by cause (group-by-cause.ts), as
 * Schemathesis groups its failures: a finding on an answer that is itself
 * the fault (a 5xx, no answer, a body not read, a status the rule did not
 * expect) belongs to that answer, as does every other finding on the same
 * exchange (a 503's body is not a page because it is a 503); any other
 * finding belongs to its shape (the check, where, and what it says with
 * its values left out). A 5xx or a lost connection is one cause whatever
 * the operation; an unexpected 2xx or 4xx is one per operation, since
 * `201 to an invalid body` and `200 for an unknown id` are different faults.
 */
export function failureCauses(results: readonly RuleResult[], answers: AnswerCounts, operations: ReadonlyMap<OperationId, string>): { results: RuleResult[]; causes: FailureCause[] } {
  const located: Located[] = results.flatMap((rule) => {
    // The answers that are the fault, each with its cause: every finding on one of them belongs to it.
    const faulty = new Map<RecordedExchange, string>();
    for (const f of rule.findings) if (f.exchange && !faulty.has(f.exchange) && answerIsTheFault(f.exchange, f)) faulty.set(f.exchange, answerKey(f.exchange, f));
    return rule.findings.map((finding) => ({ rule, finding, key: (finding.exchange && faulty.get(finding.exchange)) ?? findingKey(finding) }));
  });
  joinContentless(located);
  const groups = [...groupByCause(located, (l) => l.key, (l) => l.finding.path === '$.status' || l.finding.path === '$')].map(([key, members]) => describe(key, members, answers, operations));
  groups.sort(({ cause: a }, { cause: b }) => Number(a.level === 'warning') - Number(b.level === 'warning') || b.rules.length - a.rules.length || b.findings - a.findings);
  const idOf = new Map(groups.map(({ key }, index) => [key, `cause-${index + 1}`]));
  // Each finding once, naming its cause; a cause's example is the same object as in its rule's findings.
  const named = new Map(located.map((l) => [l.finding, { ...l.finding, cause: idOf.get(l.key) }]));
  const causes = groups.map(({ key, cause }) => ({ ...cause, id: idOf.get(key) as string, example: { ...cause.example, finding: named.get(cause.example.finding) as Finding } }));
  return { causes, results: results.map((r) => ({ ...r, findings: r.findings.map((f) => named.get(f) as Finding) })) };
}

/**
 * An answer to HEAD carries no Error body, so its signature has no `code`
 * (`503 with Retry-After`): it joins the cause of the same status told
 * with one (`503 service_unavailable with Retry-After`), when the run has
 * exactly one such, as the same fault met by another method.
 */
function joinContentless(located: Located[]): void {
  const keys = [...new Set(located.map((l) => l.key))];
  for (const l of located) {
    const signature = /^answer\u0000(\d{3})( with Retry-After)?$/.exec(l.key);
    if (!signature || l.finding.exchange?.request.method !== 'HEAD') continue;
    const [, status, retry = ''] = signature;
    const coded = keys.filter((key) => key !== l.key && key.startsWith(`answer\u0000${status} `) && !key.includes('\u0000', 7) && key.endsWith(' with Retry-After') === (retry !== ''));
    if (coded.length === 1) l.key = coded[0] as string;
  }
}

/** Whether the answer itself is what went wrong, not something in it. */
function answerIsTheFault(exchange: RecordedExchange, finding: Finding): boolean {
  const { response } = exchange;
  return !response || response.unread !== undefined || response.status >= 500 || finding.path === '$.status';
}

/**
 * A 5xx, no answer or a body not read: the same cause wherever it came. Any
 * other unexpected status: per operation and per expectation, since a 200
 * where 401 was due (the key is not checked) and a 200 where 400 was due
 * (a value is not checked) are different faults.
 */
function answerKey(exchange: RecordedExchange, finding: Finding): string {
  const signature = answerSignature(exchange);
  const { response } = exchange;
  if (!response || response.status >= 500 || response.unread !== undefined) return `answer\u0000${signature}`;
  return `answer\u0000${signature}\u0000${exchange.operation ?? 'no operation'}\u0000${finding.expected.replace(/"(?:[^"\\]|\\.)*"/g, '"…"')}`;
}

const findingKey = (finding: Finding): string => `finding\u0000${finding.check ?? ''}\u0000${shapeOf(finding.path ?? '')}\u0000${shapeOf(finding.message)}`;

/** A text with its values left out: quoted strings, a query parameter's value (`status=sold`), numbers and array indexes, which differ case to case. */
const shapeOf = (text: string): string =>
  text
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/=[^\s&)"]+/g, '=…')
    .replace(/\[\d+\]/g, '[*]')
    .replace(/-?\d+(\.\d+)?/g, 'N');

/** An operation's place in the document; one the document does not name goes last. */
const rank = (order: readonly OperationId[], operation: OperationId): number => (order.includes(operation) ? order.indexOf(operation) : order.length);

function describe(key: string, members: readonly Located[], answers: AnswerCounts, operations: ReadonlyMap<OperationId, string>): { key: string; cause: Omit<FailureCause, 'id'> } {
  const [kind, signature, operation] = key.split('\u0000') as ['answer' | 'finding', string, string | undefined];
  const first = members[0] as Located;
  const rules = [...new Set(members.map((m) => m.rule.id))];
  // In the document's order, not the order the answers came in: the same run reads the same whichever request met the fault first.
  const order = [...operations.keys()];
  const seenOn = [...new Set(members.map((m) => m.finding.exchange?.operation).filter((o): o is OperationId => o !== undefined))].sort((a, b) => rank(order, a) - rank(order, b));
  const example = { rule: first.rule.id, finding: first.finding };
  const level = members.some((m) => m.finding.level === 'error') ? 'error' : 'warning';
  const common = { kind, level, rules, findings: members.length, operations: seenOn.map((o) => operations.get(o) ?? o), example } as const;
  if (kind === 'finding') return { key, cause: { ...common, cause: `${first.finding.message}${first.finding.path ? ` (at ${first.finding.path})` : ''}` } };
  const answered = signature.startsWith('no answer') ? signature : `answered ${signature}`;
  if (operation !== undefined) return { key, cause: { ...common, cause: `${operations.get(operation as OperationId) ?? operation} ${answered}, where ${first.finding.expected} was expected` } };
  return { key, cause: { ...common, cause: answered, requests: { matching: answers.bySignature.get(signature) ?? 0, total: answers.requests } } };
}
