import { compileTransactions } from '../document/dredd.js';
import type { ResponseValidator } from '../document/response-validator.js';
import type { Coverage, DocumentedPair, RuleResult } from '../verdict/report.js';
import type { OperationId } from '../verdict/exchange.js';

const compiled = new Map<string | undefined, ReturnType<typeof compileTransactions>>();

/**
 * The document's pairs, compiled by dredd-transactions (once per document
 * and process: its parser is slow to start), each matched to its operation
 * by method and path template (dredd fills path parameters from their
 * examples: `/pets/1`), and shown by the template.
 */
export async function documentedPairs(validator: ResponseValidator, documentPath?: string): Promise<DocumentedPair[]> {
  let compiling = compiled.get(documentPath);
  if (!compiling) {
    compiling = compileTransactions(documentPath);
    compiled.set(documentPath, compiling);
  }
  const { transactions } = await compiling;
  return transactions.map((t) => {
    const path = new URL(t.request.uri, 'http://x').pathname;
    const operation = validator.operationFor(t.request.method, path);
    if (!operation?.iid) throw new Error(`dredd-transactions compiled a pair no operation matches: ${t.request.method} ${path}`);
    // The template (`/pets/{petId}`), which names the operation, rather than dredd's example (`/pets/1`), which names one animal.
    return { operation: operation.iid as OperationId, method: t.request.method, path: operation.path, status: Number(t.response.status), name: t.name };
  });
}

/**
 * Which rules exercised each pair in this run: a rule covers a pair when one
 * of its exchanges got that status from that operation. Coverage is what was
 * observed, not what rules claim.
 */
export function matchCoverage(pairs: readonly DocumentedPair[], results: readonly RuleResult[]): Coverage {
  const withRules = pairs.map((pair) => ({
    ...pair,
    rules: results
      .filter((r) => r.observed?.includes(`${pair.operation} ${pair.status}`) || r.exchanges.some((e) => e.operation === pair.operation && e.response?.status === pair.status))
      .map((r) => r.id),
  }));
  return { pairs: withRules, covered: withRules.filter((p) => p.rules.length > 0).length, total: withRules.length };
}

/** Each operation as reports name it, its method and path template: `getPet` → `GET /pets/{petId}`. */
export function operationLabels(coverage: Coverage): Map<OperationId, string> {
  return new Map(coverage.pairs.map((p) => [p.operation, `${p.method.toUpperCase()} ${p.path}`]));
}
