import { ownCopy } from '../own-copy.js';

/** One statement's violations, as `GET /__mock/violations` shows them. */
export interface ViolationGroup {
  statement: string;
  /** The check ids that found it (the harness's ids). */
  rules: string[];
  count: number;
  /** The last one: what was wrong, and the request as a curl line (keys redacted). */
  last: { detail: string; curl: string; status: number };
  lastSeen: string;
}

/**
 * The violations proxy mode has seen, grouped by the statement they break.
 * Bounded: at most `maxGroups` statements (the checks of every exchange
 * name seventeen, so the bound is never reached by them; a statement past it
 * evicts the one seen longest ago), each keeping its count and its last
 * example only, cut to `MAX_CURL_CHARS` and the detail's own bound.
 */
export interface ViolationTally {
  add(violation: { rule: string; statement: string; detail: string }, example: { curl: string; status: number }): void;
  groups(): ViolationGroup[];
  clear(): void;
  readonly maxGroups: number;
}

export const MAX_CURL_CHARS = 4096;
export const DEFAULT_MAX_GROUPS = 64;

export function violationTally(maxGroups = DEFAULT_MAX_GROUPS, now: () => Date = () => new Date()): ViolationTally {
  // A Map keeps insertion order: deleting and setting again makes it "seen last".
  const groups = new Map<string, ViolationGroup>();
  return {
    maxGroups,
    add({ rule, statement, detail }, { curl, status }) {
      const seen = groups.get(statement);
      const group: ViolationGroup = {
        statement,
        rules: seen ? (seen.rules.includes(rule) ? seen.rules : [...seen.rules, rule]) : [rule],
        count: (seen?.count ?? 0) + 1,
        // Its own copy: a slice would keep the whole curl line alive.
        last: { detail, curl: curl.length > MAX_CURL_CHARS ? ownCopy(`${curl.slice(0, MAX_CURL_CHARS)}…`) : curl, status },
        lastSeen: now().toISOString(),
      };
      groups.delete(statement);
      if (groups.size >= maxGroups) groups.delete(groups.keys().next().value as string);
      groups.set(statement, group);
    },
    // Most recently seen first: what broke just now is what a person looks for.
    groups: () => [...groups.values()].reverse(),
    clear: () => groups.clear(),
  };
}
