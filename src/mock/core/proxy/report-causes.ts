/** One cause of violations for `--proxy-report`: a statement broken in one operation's answers. */
export interface ReportCause {
  operation: 'listPets' | 'createPet' | 'getPet';
  statement: string;
  rules: string[];
  count: number;
  last: { detail: string; curl: string; status: number; seen: string };
}

/**
 * The violations `--proxy-report` writes, by operation and statement (the
 * harness's reporters list rules under their operation). Bounded: three
 * operations by the seventeen statements the checks name, so at most 51 causes;
 * past MAX_CAUSES anyway, a new cause evicts the one seen longest ago.
 * Only documented operations' answers: a path the document does not have
 * has no place in those reports (GET /__mock/violations lists it).
 */
export interface ReportCauses {
  add(operation: ReportCause['operation'], violation: { rule: string; statement: string; detail: string }, example: { curl: string; status: number }): void;
  all(): ReportCause[];
}

export const MAX_CAUSES = 64;

export function reportCauses(now: () => Date = () => new Date()): ReportCauses {
  const causes = new Map<string, ReportCause>();
  return {
    add(operation, { rule, statement, detail }, { curl, status }) {
      const key = `${operation} ${statement}`;
      const seen = causes.get(key);
      causes.delete(key);
      if (causes.size >= MAX_CAUSES) causes.delete(causes.keys().next().value as string);
      causes.set(key, {
        operation,
        statement,
        rules: seen ? (seen.rules.includes(rule) ? seen.rules : [...seen.rules, rule]) : [rule],
        count: (seen?.count ?? 0) + 1,
        last: { detail, curl, status, seen: now().toISOString() },
      });
    },
    // By operation, then statement: the same causes, the same report.
    all: () => [...causes.values()].sort((a, b) => (a.operation === b.operation ? (a.statement < b.statement ? -1 : 1) : a.operation < b.operation ? -1 : 1)),
  };
}
