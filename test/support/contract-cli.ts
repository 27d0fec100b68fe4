/**
 * Helpers for the tests of the contract harness that run it as users do: the
 * built `animal-store-contract` bin in a child process (processes.ts),
 * against servers on ephemeral ports of 127.0.0.1 (the real mock, in
 * process, or small faulty servers). Not a test file itself; imported by the harness's tests in
 * src/contract-tests/ and by test/servers/correct-servers.test.ts. Here, not
 * in src/contract-tests/, because it starts the mock, and the harness's own
 * code imports nothing from the mock.
 */
import { lowerCaseScheme } from '../../src/mock/http/transport/scheme-case.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { answerClientErrors } from './client-errors.js';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { pino } from 'pino';
import type { Contract } from '../../src/document/contract.js';
import { loadContract } from '../../src/document/load-contract.js';
import { packageRoot } from '../../src/shared/package-root.js';
import { createMockApp } from '../../src/mock/http/app.js';
import { loadFixtureCatalogue } from '../../src/mock/core/fixtures/load-catalogue.js';
import { openMemoryStore, sharedPets } from './memory-store.js';
import type { Pet } from '../../src/mock/core/catalogue/pet.js';
import { requestError } from '../../src/mock/http/transport/request-errors.js';
import { listen } from '../../src/mock/http/listen.js';
import { activeProfile } from '../../src/mock/core/profile/active-profile.js';
import type { LoadedProfile } from '../../src/mock/core/profile/checked-profile.js';

export const CONTRACT_BIN = join(packageRoot(), 'dist', 'src', 'contract-tests', 'bin.js');
export const MOCK_BIN = join(packageRoot(), 'dist', 'src', 'mock', 'bin.js');

/** A server on an ephemeral port of 127.0.0.1. */
export interface TestServer {
  /** The API's base URL: `http://127.0.0.1:<port>/v1`. */
  url: string;
  port: number;
  /** How many requests it has received. */
  readonly requests: number;
  close(): Promise<void>;
}

export interface ApiServer extends TestServer {
  /** How many animals the mock's catalogue holds now: whether anything was created. */
  pets(): Promise<number>;
}

type Handler = (request: IncomingMessage, response: ServerResponse, count: number) => void;

/** Serves `handler` on a free port of 127.0.0.1; `close` cuts every connection, answered or not. */
export async function startRawServer(handler: Handler): Promise<TestServer> {
  let requests = 0;
  const server: Server = createServer((request, response) => handler(request, response, ++requests));
  answerClientErrors(server);
  await listen(server, 0, '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A faulty server may hold requests it never answers.
        server.closeAllConnections();
      }),
  };
}

let contract: Contract | undefined;
let catalogue: Pet[] | undefined;

/** The contract document and the default catalogue (fixtures/pets.json, 30 animals), read once. */
export function mockData(): { contract: Contract; pets: readonly Pet[] } {
  contract ??= loadContract();
  if (!catalogue) {
    const loaded = loadFixtureCatalogue(contract);
    if (!loaded.ok) throw new Error(loaded.error);
    catalogue = loaded.value.pets;
  }
  return { contract, pets: catalogue };
}

export type AppFetch = (request: Request) => Response | Promise<Response>;

export interface ApiServerOptions {
  apiKey: string;
  /** Faults at the HTTP message level: wraps the mock app's fetch. */
  wrap?: (fetch: AppFetch) => AppFetch;
  /** Faults below HTTP (dropped sockets, no answer): return true when the request was dealt with. */
  intercept?: (request: IncomingMessage, response: ServerResponse, count: number) => boolean;
  /** The start catalogue; default fixtures/pets.json. */
  pets?: readonly Pet[];
  /** The choices where the interface is silent (`--profile`); default the mock's own. */
  profile?: LoadedProfile;
}

/**
 * The real mock app (a fresh store of the default catalogue, no log) on a
 * free port, optionally behind faults.
 */
export async function startApiServer({ apiKey, wrap, intercept, pets = mockData().pets, profile }: ApiServerOptions): Promise<ApiServer> {
  const { contract } = mockData();
  const { store } = await openMemoryStore(contract, { pets });
  const app = createMockApp({ contract, store, apiKeys: [apiKey], logger: pino({ level: 'silent' }), ...(profile && { profile: activeProfile(profile) }) });
  const own: AppFetch = (request) => app.fetch(request);
  const served = wrap ? wrap(own) : own;
  // A target the adaptor cannot turn into a Request (`/v1\\pets`) answered as the mock's command answers it: 400 with an Error body.
  const listener = getRequestListener((request) => served(request), { errorHandler: requestError({}, () => undefined) });
  const server = await startRawServer((request, response, count) => {
    if (intercept?.(request, response, count)) return;
    lowerCaseScheme(request);
    void listener(request, response);
  });
  return Object.assign(server, { pets: () => sharedPets(store) });
}

/** The counts of the pretty report's last line: `44 passed, 0 failed, 0 skipped…; coverage 8/8`. */
export function prettySummary(stdout: string): { passed: number; failed: number; skipped: number; covered: number; total: number } {
  const match = /^(\d+) passed, (\d+) failed, (\d+) skipped(?:, \d+ warnings?)?; coverage (\d+)\/(\d+); seed \d+; \d+ ms$/m.exec(stdout);
  if (!match) throw new Error(`no summary line in the output:\n${stdout}`);
  const [passed, failed, skipped, covered, total] = match.slice(1).map(Number) as [number, number, number, number, number];
  return { passed, failed, skipped, covered, total };
}

/** The wrong key the auth rules send (auth-wrong-key-*). */
export const RULES_WRONG_KEY = 'contract-test-wrong-key';
/** The id get-unknown-id asks for, expecting 404. */
export const UNLIKELY_ID = Number.MAX_SAFE_INTEGER;

/**
 * The real mock with a few statements broken, the same way on every request
 * whatever the store holds, so two runs against it see the same behaviour:
 * - listPets ignores `status` (list-status-* fail; create-listed-under-status still finds its animal);
 * - the wrong key of the auth rules is taken as the configured one (auth-wrong-key-*, and auth-generated-*, cache-keyless-*, revalidate-credentials-*, vary-* and auth-key-per-request, which send it too, fail);
 * - an animal with id 2^53-1 exists (get-unknown-id is skipped);
 * - getPet answers without Sunset (get-deprecation-headers, advisory, passes with a warning).
 */
export function brokenStatements(apiKey: string): (fetch: AppFetch) => AppFetch {
  return (fetch) => async (incoming) => {
    const url = new URL(incoming.url);
    const headers = new Headers(incoming.headers);
    if (headers.get('authorization') === `Bearer ${RULES_WRONG_KEY}`) headers.set('authorization', `Bearer ${apiKey}`);
    if (incoming.method === 'GET' && url.pathname === '/v1/pets') url.searchParams.delete('status');
    const keyed = headers.get('authorization') === `Bearer ${apiKey}`;
    const farAway = incoming.method === 'GET' && url.pathname === `/v1/pets/${UNLIKELY_ID}` && keyed;
    if (farAway) url.pathname = '/v1/pets/1';
    const response = await fetch(new Request(url, new Request(incoming, { headers })));
    if (!/^\/v1\/pets\/[^/]+$/.test(url.pathname)) return response;
    const changed = new Headers(response.headers);
    changed.delete('sunset');
    if (!farAway) return new Response(response.body, { status: response.status, headers: changed });
    changed.delete('content-length');
    const pet = (await response.json()) as Record<string, unknown>;
    return new Response(JSON.stringify({ ...pet, id: UNLIKELY_ID }), { status: response.status, headers: changed });
  };
}

/**
 * The rules brokenStatements makes fail, and the one it makes skip. Every
 * rule that reads a status page fails (each answer is checked for the
 * filter), so which ones depends on the run: read-only against the
 * catalogue of 30, list-limit-100's page is short and it counts the
 * catalogue through the status pages; writing, the searching createPet
 * rules list what they created under its status, as the read-back at the
 * end lists every status page; read-only after a writing
 * run, the catalogue is past 100 and neither happens.
 */
const STATUS_PAGES = ['list-status-available', 'list-status-pending', 'list-status-sold', 'list-items-are-pets', 'list-generated-pages', 'list-pages-agree', 'vary-list-pets'];
const WRONG_KEY = [
  'auth-wrong-key-list-pets',
  'auth-wrong-key-create-pet',
  'auth-wrong-key-get-pet',
  'auth-generated-list-pets',
  'auth-generated-create-pet',
  'auth-generated-get-pet',
  'cache-keyless-list-pets',
  'cache-keyless-get-pet',
  'revalidate-credentials-list-pets',
  'revalidate-credentials-get-pet',
  // The key on every variation: each varied request goes with a wrong key too, as does each form of getPet's id.
  'get-id-path-forms',
  'vary-get-pet',
  'vary-create-pet',
  // And with a field that names another request, and on a connection that carried the key.
  'vary-rewrite-fields',
  'vary-method-override-create-pet',
  'auth-key-per-request',
];
export const BROKEN_RULES = {
  failed: (run: 'read-only, 30 animals' | 'read-only, past 100' | 'writing'): string[] => [
    ...STATUS_PAGES,
    // The createPet ones send a POST, which a read-only run does not.
    ...WRONG_KEY.filter((id) => run === 'writing' || !id.endsWith('-create-pet')),
    ...(run === 'read-only, 30 animals' ? ['list-limit-100'] : run === 'writing' ? ['create-listed-under-status', 'create-generated-round-trip', 'create-int64-round-trip', 'create-get-list-interleavings', 'get-before-and-after-create', 'read-back-after-settle', 'revalidate-list-after-create'] : []),
  ],
  skipped: ['get-unknown-id'],
  warned: ['get-deprecation-headers'],
} as const;

export type Mark = 'passed' | 'failed' | 'skipped';
const MARKS: Record<string, Mark> = { '✓': 'passed', '✗': 'failed', '○': 'skipped' };

export interface PrettyRule {
  status: Mark;
  /** The operation heading it is listed under. */
  operation: string;
  /** Its line, the lines of its findings (one each, naming its cause), then the block of each cause they name (its example in full). */
  text: string;
}

/** The pretty report read back: the operation headings in order, each rule's mark, heading and findings with their causes, and each cause's block. */
export function parsePretty(stdout: string): { headings: string[]; rules: Map<string, PrettyRule>; causes: Map<string, string> } {
  const headings: string[] = [];
  const rules = new Map<string, PrettyRule>();
  const causes = new Map<string, string>();
  let current: PrettyRule | undefined;
  let cause: string | undefined;
  for (const line of stdout.split('\n')) {
    const rule = /^ {2}([✓✗○]) ([a-z0-9-]+): /.exec(line);
    const causeLine = /^ {2}(cause-\d+): /.exec(line);
    if (/^(listPets|createPet|getPet)$/.test(line)) {
      headings.push(line);
      current = undefined;
      cause = undefined;
    } else if (causeLine && headings.length === 0) {
      cause = causeLine[1] as string;
      causes.set(cause, line);
    } else if (cause && line.startsWith('    ')) {
      causes.set(cause, `${causes.get(cause)}\n${line}`);
    } else if (rule && headings.length > 0) {
      current = { status: MARKS[rule[1] as string] as Mark, operation: headings.at(-1) as string, text: line };
      rules.set(rule[2] as string, current);
    } else if (current && line.startsWith('      ')) {
      current.text += `\n${line}`;
    } else {
      current = undefined;
      cause = undefined;
    }
  }
  for (const entry of rules.values()) {
    const named = [...new Set([...entry.text.matchAll(/\[(cause-\d+)\]$/gm)].map((m) => m[1] as string))];
    for (const id of named) entry.text += `\n${causes.get(id) ?? ''}`;
  }
  return { headings, rules, causes };
}
