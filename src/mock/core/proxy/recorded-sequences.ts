import { sha256, toBase64 } from '../../../shared/digest.js';
import type { MatchSpec, StubSpec } from '../scenarios/scenario.js';

/** The bounds of the sequences kept (RECORDING_LIMITS in recording.ts). */
export interface SequenceLimits {
  requests: number;
  answersPerRequest: number;
  stubBodyBytes: number;
  stubsBytes: number;
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
  /** The error body as JSON text: text costs two bytes a character at most, where parsed JSON such as `[{},{}]` costs ten times more. */
  body: string | undefined;
  /** Status, fields and body, hashed: what makes two answers the same. */
  digest: string;
  count: number;
}

export interface RecordedSequences {
  /** Undefined once followed; else the message of the bound that kept it out. */
  follow(answer: SequencedAnswer, match: MatchSpec): string | undefined;
  stubs(): StubSpec[];
  /** How many stubs `stubs()` makes, without making them. */
  stubCount(): number;
}

/**
 * Each distinct request's answers in the order they came, runs of the same
 * answer counted (recording.ts says how they become stubs). Bounded by
 * `limits`: requests followed, different answers in a row, error body bytes,
 * and the bytes of all of them together.
 */
export function recordedSequences(limits: SequenceLimits): RecordedSequences {
  // By their match as JSON text: the match is parsed again only when the stubs are written.
  const requests = new Map<string, Run[]>();
  // The JSON characters of every match and kept answer: the other bounds multiply to a GiB (1,000 × 16 × 64 KiB).
  let held = 0;
  const full = `the recording's stubs hold ${limits.stubsBytes} bytes of JSON: later error answers get no stub`;
  return {
    follow(answer, match) {
      const key = JSON.stringify(match);
      let runs = requests.get(key);
      if (runs === undefined) {
        if (requests.size >= limits.requests) return `the recording follows ${limits.requests} distinct requests: the answers of new ones get no stub`;
        if (held + key.length > limits.stubsBytes) return full;
        held += key.length;
        runs = [];
        requests.set(key, runs);
      }
      const error = answer.status >= 400;
      const body = error && answer.json !== undefined ? JSON.stringify(answer.json) : undefined;
      if (body !== undefined && body.length > limits.stubBodyBytes) return `an error answer's body past ${limits.stubBodyBytes} bytes gets no stub`;
      const headers = error ? answer.headers : {};
      const fields = JSON.stringify(headers);
      const digest = toBase64(sha256(JSON.stringify([answer.status, fields, body ?? null])));
      const last = runs.at(-1);
      if (last?.digest === digest) last.count++;
      else if (runs.length >= limits.answersPerRequest) return `a request answered ${limits.answersPerRequest} different ways in a row: later changes are not followed`;
      else {
        const size = (body?.length ?? 0) + fields.length;
        if (held + size > limits.stubsBytes) return full;
        held += size;
        runs.push({ status: answer.status, headers, body, digest, count: 1 });
      }
      return undefined;
    },
    stubs: () => stubsOf(requests),
    stubCount: () => [...requests.values()].reduce((count, runs) => count + runs.filter((run) => run.status >= 400).length, 0),
  };
}

/** Every followed request's error answers as stubs, requests in the order of their match's text (the same traffic, the same file). */
function stubsOf(requests: ReadonlyMap<string, Run[]>): StubSpec[] {
  const stubs: StubSpec[] = [];
  for (const key of [...requests.keys()].sort()) {
    const runs = requests.get(key) as Run[];
    const match = JSON.parse(key) as MatchSpec;
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
      const response = { status: run.status, ...(run.body === undefined ? {} : { body: JSON.parse(run.body) as unknown }), ...(Object.keys(run.headers).length > 0 ? { headers: run.headers } : {}) };
      stubs.push({ id: `recorded-${match.operation}-${stubs.length + 1}`, match: Object.keys(calls).length > 0 ? { ...match, calls } : match, response });
    });
  }
  return stubs;
}

