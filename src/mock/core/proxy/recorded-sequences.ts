import { createHash } from 'node:crypto';
import type { MatchSpec, StubSpec } from '../scenarios/scenario.js';

/** The bounds of the sequences kept (RECORDING_LIMITS in recording.ts). */
export interface SequenceLimits {
  requests: number;
  answersPerRequest: number;
  stubBodyBytes: number;
}

/** An answer as a sequence reads it: only an error's fields and body are kept. */
export interface SequencedAnswer {
  status: number;
  headers: Record<string, string>;
  json: unknown;
}

interface Run {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** Status, fields and body, hashed: what makes two answers the same. */
  digest: string;
  count: number;
}

export interface RecordedSequences {
  /** Undefined once followed; else the message of the bound that kept it out. */
  follow(answer: SequencedAnswer, match: MatchSpec): string | undefined;
  stubs(): StubSpec[];
}

/**
 * Each distinct request's answers in the order they came, runs of the same
 * answer counted (recording.ts says how they become stubs). Bounded by
 * `limits`: requests followed, different answers in a row, error body bytes.
 */
export function recordedSequences(limits: SequenceLimits): RecordedSequences {
  const requests = new Map<string, { match: MatchSpec; runs: Run[] }>();
  return {
    follow(answer, match) {
      const key = JSON.stringify(match);
      let request = requests.get(key);
      if (request === undefined) {
        if (requests.size >= limits.requests) return `the recording follows ${limits.requests} distinct requests: the answers of new ones get no stub`;
        request = { match, runs: [] };
        requests.set(key, request);
      }
      const error = answer.status >= 400;
      const body = error ? answer.json : undefined;
      if (error && JSON.stringify(body ?? null).length > limits.stubBodyBytes) return `an error answer's body past ${limits.stubBodyBytes} bytes gets no stub`;
      const digest = createHash('sha256').update(JSON.stringify([answer.status, error ? answer.headers : {}, body ?? null])).digest('base64');
      const last = request.runs.at(-1);
      if (last?.digest === digest) last.count++;
      else if (request.runs.length >= limits.answersPerRequest) return `a request answered ${limits.answersPerRequest} different ways in a row: later changes are not followed`;
      else request.runs.push({ status: answer.status, headers: error ? answer.headers : {}, body, digest, count: 1 });
      return undefined;
    },
    stubs: () => stubsOf(requests),
  };
}

/** Every followed request's error answers as stubs, requests in the order of their match's text (the same traffic, the same file). */
function stubsOf(requests: ReadonlyMap<string, { match: MatchSpec; runs: Run[] }>): StubSpec[] {
  const stubs: StubSpec[] = [];
  for (const key of [...requests.keys()].sort()) {
    const { match, runs } = requests.get(key) as { match: MatchSpec; runs: Run[] };
    let before = 0;
    // A stub counts only the calls that reach it: those an earlier stub of the same request answered never do.
    let answeredEarlier = 0;
    runs.forEach((run, index) => {
      const start = before;
      before += run.count;
      if (run.status < 400) return;
      const after = start - answeredEarlier;
      const last = index === runs.length - 1;
      const calls = { ...(after > 0 ? { after } : {}), ...(last ? {} : { first: after + run.count }) };
      answeredEarlier += run.count;
      const response = { status: run.status, ...(run.body === undefined ? {} : { body: run.body }), ...(Object.keys(run.headers).length > 0 ? { headers: run.headers } : {}) };
      stubs.push({ id: `recorded-${match.operation}-${stubs.length + 1}`, match: Object.keys(calls).length > 0 ? { ...match, calls } : match, response });
    });
  }
  return stubs;
}

