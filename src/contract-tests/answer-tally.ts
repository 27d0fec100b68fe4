import type { Send } from './http-client.js';
import { NOT_SENT, type RecordedExchange } from '../verdict/exchange.js';
import { answerSignature } from '../verdict/answer-signature.js';
import { normalPath } from '../shared/uri-normal-form.js';

/** The distinct `METHOD path` kept per status: enough to find an operation that does not document it, bounded whatever the run's size. */
const ASKED_PER_STATUS = 32;

export interface StatusCount {
  count: number;
  /** Up to ASKED_PER_STATUS distinct requests (method and path, no query) that got it. */
  asked: Map<string, { method: string; path: string }>;
}

export interface AnswerTally {
  /** `send`, counting every request it makes and what it gets. */
  send: Send;
  /** The requests sent (a credential variant a key does not allow is not sent, and not counted). */
  requests(): number;
  /** How many requests got each answer, by its signature. */
  bySignature(): ReadonlyMap<string, number>;
  /** How many requests got each status; `none` for no answer. Only requests to a path of the interface (not `ApiRequest.otherPath`), OPTIONS left out. */
  byStatus(): ReadonlyMap<number | 'none', StatusCount>;
  /** How far the run pushed the target: what it created, and the most animals it saw listed. */
  growth(): Growth;
  /** Each animal a createPet answered 201 with, by its id: what the end of the run reads back (read-back.ts). */
  created(): ReadonlyMap<string, unknown>;
}

/** What a run made the target hold, as the report says it. */
export interface Growth {
  /** createPet requests answered 201: animals the target acknowledged. */
  created: number;
  /**
   * The distinct animals (ids) the run read in answers (listPets pages, createPet's 201, getPet's 200): a
   * lower bound of the largest the catalogue grew to, as the catalogue only grows; null when none was read.
   */
  largestCatalogue: number | null;
  requests: number;
}

/**
 * Counts every request a run sends and what it got: the wrong-target
 * verdict reads the statuses, the causes of failures how often each answer
 * came (`on 173 of 519 requests`). The maps hold one entry per distinct
 * answer, so they never outgrow the run's own requests.
 */
export function answerTally(send: Send, basePath = ''): AnswerTally {
  let requests = 0;
  const signatures = new Map<string, number>();
  const statuses = new Map<number | 'none', StatusCount>();
  const created = new Map<string, unknown>();
  // One entry per animal the run read, so bounded by the run's own answers.
  const seen = new Set<string>();
  return {
    async send(request) {
      const exchange = await send(request);
      if (exchange.networkError === NOT_SENT) return exchange;
      const signature = answerSignature(exchange);
      signatures.set(signature, (signatures.get(signature) ?? 0) + 1);
      // A request sent from the origin (a variation spells the base path too) is read below the base, as RFC 3986 names its resource.
      const raw = request.path.split('?')[0] ?? '';
      const origin = request.target === undefined ? undefined : normalPath(raw);
      const path = origin === undefined ? raw : origin.startsWith(`${basePath}/`) ? origin.slice(basePath.length) : origin;
      const count = (status: number | 'none', method: string) => {
        requests++;
        // Not of a path of the interface; nor an OPTIONS request, which CORS answers without the key (a preflight
        // carries no credentials: Fetch, CORS-preflight fetch), so its status says nothing of the address or the key.
        if (request.otherPath || method === 'OPTIONS') return;
        const entry = statuses.get(status) ?? { count: 0, asked: new Map() };
        entry.count++;
        if (entry.asked.size < ASKED_PER_STATUS) entry.asked.set(`${method} ${path}`, { method, path });
        statuses.set(status, entry);
      };
      const status = exchange.response?.status ?? 'none';
      // A request sent after the key on its connection (auth-key-per-request) follows a keyed GET there: sent too.
      if (request.connection === 'after-key') requests++;
      count(status, request.method);
      // A request sent on a connection of its own is followed by a GET on it (one-connection.ts): sent too, and answered or not.
      const afterward = exchange.response?.afterward;
      if (afterward && !afterward.closes) count(afterward.next ?? 'none', 'GET');
      const json = exchange.response?.json;
      // A create spelled another way (`/./%70ets`, `/pets/`) that a target answers 201 adds an animal too.
      if (request.method === 'POST' && /^\/pets\/?$/.test(normalPath(path)) && status === 201 && isAnimal(json)) created.set(String(json.id), json);
      const pets = request.method === 'HEAD' ? [] : (status === 200 || status === 201) && normalPath(path).startsWith('/pets') ? (Array.isArray(json) ? json : [json]) : [];
      for (const pet of pets) if (isAnimal(pet)) seen.add(String(pet.id));
      return exchange;
    },
    requests: () => requests,
    bySignature: () => signatures,
    byStatus: () => statuses,
    growth: () => ({ created: created.size, largestCatalogue: seen.size === 0 ? null : seen.size, requests }),
    created: () => created,
  };
}

const isAnimal = (value: unknown): value is { id: number | bigint } => typeof value === 'object' && value !== null && (typeof (value as { id?: unknown }).id === 'number' || typeof (value as { id?: unknown }).id === 'bigint');
