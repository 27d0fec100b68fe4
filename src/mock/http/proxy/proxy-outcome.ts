/** What became of a forwarded request, as its journal entry says. */
export type Upstream = 'answered' | 'unavailable' | 'timeout' | 'dropped';

/** One broken statement seen in a proxied answer: the harness's check id and statement. */
export interface ProxyViolation {
  rule: string;
  statement: string;
  detail: string;
}

/** The proxy's part of a journal entry. */
export interface ProxyOutcome {
  upstream: Upstream;
  /** The target failed (unavailable, timeout) and the mock answered itself (`--proxy-fallback mock`). */
  fallback?: 'mock';
  /** The answer's body passed the check's cap: passed on whole, not checked. */
  unchecked?: 'too large';
  violations: ProxyViolation[];
}
