import type { ResponseValidator } from '../document/response-validator.js';
import { NOT_SENT, type Send } from './http-client.js';

/** A run of fewer requests says too little about the target to blame its address (a couple of `--only` rules). */
export const WRONG_TARGET_MIN_REQUESTS = 10;

/** Every request of the run got the same answer, one no rule can make sense of: the address or the key is wrong, not the API. */
export interface WrongTarget {
  status: number;
  requests: number;
  /** One line: `every request answered 404: is the base URL right? (…)`. */
  message: string;
}

export interface StatusTally {
  /** `send`, counting every request it makes and the status it gets. */
  send: Send;
  /** The verdict once the run is over: undefined when the answers differ, or say nothing of the target's address. */
  verdict(validator: ResponseValidator, baseUrl: string): WrongTarget | undefined;
}

/**
 * Watches every request a run makes, so that a harness pointed at the wrong
 * base path (every request 404), at a proxy with no upstream (every one 502),
 * or with the wrong key (every one 401) says so in one line rather than
 * failing every rule and claiming some coverage. It is a wrong target when:
 * - the run made at least WRONG_TARGET_MIN_REQUESTS requests, every one answered;
 * - every answer had the same status, and it is not a 2xx (a server that
 *   accepts everything is judged rule by rule: it is wrong, not misaddressed);
 * - that status is 401 or 403 (the key), or the contract does not document it
 *   for at least one operation asked (listPets has no 404: a correct API at
 *   that address would have answered it otherwise).
 */
export function statusTally(send: Send): StatusTally {
  let requests = 0;
  let status: number | undefined;
  let same = true;
  // The distinct `METHOD path` asked, while every answer is the same; at most one per request the run makes, dropped once they differ.
  let asked = new Map<string, { method: string; path: string }>();

  return {
    async send(request) {
      const exchange = await send(request);
      if (exchange.networkError === NOT_SENT) return exchange;
      requests++;
      const answered = exchange.response?.status;
      if (answered === undefined || (status !== undefined && answered !== status)) {
        same = false;
        asked = new Map();
      }
      if (same) {
        status = answered;
        const path = request.path.split('?')[0] ?? '';
        asked.set(`${request.method} ${path}`, { method: request.method, path });
      }
      return exchange;
    },
    verdict(validator, baseUrl) {
      if (!same || status === undefined || requests < WRONG_TARGET_MIN_REQUESTS || (status >= 200 && status < 300)) return undefined;
      const where = `(${baseUrl}, ${requests} requests)`;
      if (status === 401 || status === 403) return { status, requests, message: `every request answered ${status}: is the key right? ${where}` };
      const code = String(status);
      const undocumented = [...asked.values()].some(({ method, path }) => validator.operationFor(method, path)?.responses.every((response) => response.code !== code));
      return undocumented ? { status, requests, message: `every request answered ${status}: is the base URL right? ${where}` } : undefined;
    },
  };
}
