import { parseArgs, type ParseArgsConfig } from 'node:util';
import { describeParseError } from '../shared/cli-parse-error.js';
import { failed, ok, type Result } from './core/result.js';
import { LOG_LEVELS, type LogFormat, type LogLevel } from './logger.js';
import { DEFAULT_JOURNAL_SIZE, MAX_JOURNAL_SIZE } from './core/journal/request-journal.js';
import { DEFAULT_MAX_CATALOGUE_BYTES, DEFAULT_MAX_PETS } from './core/catalogue/catalogue-limits.js';
import { DEFAULT_SCENARIO } from './core/scenarios/scenario-source.js';
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from './core/store/store-limits.js';
import { DEFAULT_MAX_CONNECTIONS } from './http/transport/transport-limits.js';
import { MAX_SHUTDOWN_GRACE_S, SHUTDOWN_GRACE_MS } from './shutdown-grace.js';
import { DEFAULT_STORE_PREFIX } from './core/store/open-store.js';
import { MAX_WORKERS, readStoreOptions, type StoreFlags } from './read-store-options.js';
import { readProxyFlags, PROXY_HELP, type ProxyFlags } from './read-proxy-flags.js';
import { DEFAULT_API_KEY } from '../shared/default-api-key.js';
import { tokenProblem } from './core/token-problem.js';

export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';

export interface MockCliOptions extends StoreFlags {
  port: number;
  host: string;
  apiKeys: string[];
  apiKeysFrom: 'flag' | 'env' | 'default';
  /** `--admin-key` (env MOCK_ADMIN_KEY): every admin request needs it; undefined: none set. */
  adminKey: string | undefined;
  seed: number | undefined;
  fixtures: string | undefined;
  /** `--log-level` (env MOCK_LOG_LEVEL; `--quiet`: warn). */
  logLevel: LogLevel;
  corsOrigins: '*' | string[];
  logFormat: LogFormat;
  contract: string | undefined;
  /** The scenario to start in (`--scenario`, default `default`). */
  scenario: string;
  /** Where scenario files are read (`--scenarios`); undefined: the project's scenarios/. */
  scenariosDir: string | undefined;
  /** Reload scenarios and the profile when their files change (`--no-watch`: off). */
  watch: boolean;
  /** `--profile FILE` (env MOCK_PROFILE): the choices where the interface is silent; undefined: the mock's own (profiles/default.yaml). */
  profile: string | undefined;
  /** Requests each journal keeps (`--journal-size`). */
  journalSize: number;
  /** At most this many sessions (`--max-sessions`), each ended after this many idle seconds (`--session-idle`). */
  maxSessions: number;
  sessionIdleSeconds: number;
  /** Each bearer key is its own session when no `X-Mock-Session` is sent (`--session-per-key`). */
  sessionPerKey: boolean;
  /** Animals (`--max-pets`) and bytes of their JSON (`--max-catalogue-bytes`) each session may add. */
  maxPets: number;
  maxCatalogueBytes: number;
  /** Connections with a request in progress (`--max-connections`); a request on one more gets 503. */
  maxConnections: number;
  /** Seconds a stop waits for requests in flight (`--shutdown-grace`, env MOCK_SHUTDOWN_GRACE). */
  shutdownGraceSeconds: number;
  /** `--proxy URL` (env MOCK_PROXY), `--proxy-timeout MS`, `--upstream-key KEY` (env MOCK_UPSTREAM_KEY): proxy mode; undefined: off. */
  proxy: ProxyFlags | undefined;
}

export type ParsedCli = { kind: 'run'; options: MockCliOptions } | { kind: 'help' } | { kind: 'version' } | { kind: 'error'; message: string };

export const HELP = `animal-store-mock: a stateful mock of the Animal Store API (v1)

Usage: animal-store-mock [options]

Options:
  --port N           port to listen on (env PORT; default ${DEFAULT_PORT}; 0 picks a free one)
  --host HOST        address to bind (env HOST; default ${DEFAULT_HOST}; 0.0.0.0 for all)
  --api-key KEY      an accepted API key; repeat for several
                     (env MOCK_API_KEYS, comma-separated; default "${DEFAULT_API_KEY}")
  --admin-key KEY    every /__mock request (the console's files aside) needs Authorization: Bearer KEY (env MOCK_ADMIN_KEY);
                     without it, admin reads are open and admin writes need an API key
  --scenario NAME    start in this scenario (default: ${DEFAULT_SCENARIO}); see scenarios/ and docs/scenarios-and-faults.md
  --scenarios DIR    read scenario files from this folder (default: the project's scenarios/)
  --profile FILE     answer where the interface is silent as this profile says (env MOCK_PROFILE; default:
                     the mock's own choices, profiles/default.yaml); animal-store-contract --write-profile writes one
  --no-watch         do not reload scenarios or the profile when their files are edited
  --journal-size N   requests each request journal keeps (default ${DEFAULT_JOURNAL_SIZE}, at most ${MAX_JOURNAL_SIZE})
  --max-pets N       animals each session may add to its catalogue (default ${DEFAULT_MAX_PETS})
  --max-catalogue-bytes N
                     bytes of JSON of the animals each session may add (default ${DEFAULT_MAX_CATALOGUE_BYTES})
  --max-sessions N   sessions (X-Mock-Session) kept at once; one more ends the least
                     recently used, or gets 503 if all were used in the last minute
                     (default ${DEFAULT_MAX_SESSIONS})
  --session-idle S   seconds after which an unused session ends (default ${DEFAULT_SESSION_IDLE_MS / 1000})
  --session-per-key  without X-Mock-Session, each API key is its own session
  --max-connections N  connections with a request in progress; a request on one more gets 503
                     (default ${DEFAULT_MAX_CONNECTIONS}; 16 times as many may be open, idle or unfinished)
  --shutdown-grace S seconds SIGTERM or SIGINT waits for requests in flight before closing them
                     (env MOCK_SHUTDOWN_GRACE; default ${SHUTDOWN_GRACE_MS / 1000}, 0 to ${MAX_SHUTDOWN_GRACE_S})
  --store URL        where sessions and what clients change live: memory, or redis://[user:password@]host:port[/db]
                     (or rediss://) shared by several processes (env MOCK_STORE; default memory)
  --store-prefix P   the start of every Redis key, so several mocks can share one Redis
                     (env MOCK_STORE_PREFIX; default ${DEFAULT_STORE_PREFIX})
  --workers N        processes serving the one port, 1 to ${MAX_WORKERS}; more than 1 needs --store redis://…
                     (env MOCK_WORKERS; default 1)
  --seed N           generate the catalogue with faker from seed N instead of the scenario's
  --fixtures PATH    serve the catalogue in this JSON or YAML file (an array of Pet) instead of the scenario's
  --cors-origin URL  an origin allowed by CORS; repeat for several (default: any origin)
${PROXY_HELP}  --log-format F     pretty or json (default: pretty on a terminal, json otherwise)
  --contract PATH    the OpenAPI document to serve (default: openapi/animal-store.yaml)
  --log-level L      debug, info, warn or error (env MOCK_LOG_LEVEL; default info): each request
                     is logged at info, a health check answered 200 at debug
  --quiet            no per-request log lines (warnings and errors still show): --log-level warn
  -h, --help         show this help
  -v, --version      show the version
`;

/** The flags, for node's `util.parseArgs`. */
const CLI_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'api-key': { type: 'string', multiple: true },
  'admin-key': { type: 'string' },
  seed: { type: 'string' },
  fixtures: { type: 'string' },
  scenario: { type: 'string' },
  scenarios: { type: 'string' },
  profile: { type: 'string' },
  'cors-origin': { type: 'string', multiple: true },
  'log-format': { type: 'string' },
  'log-level': { type: 'string' },
  contract: { type: 'string' },
  quiet: { type: 'boolean', default: false },
  // util.parseArgs learnt `allowNegative` only in Node 22.4, so the negation is its own flag.
  'no-watch': { type: 'boolean', default: false },
  'journal-size': { type: 'string' },
  'max-sessions': { type: 'string' },
  'session-idle': { type: 'string' },
  'session-per-key': { type: 'boolean', default: false },
  'max-pets': { type: 'string' },
  'max-catalogue-bytes': { type: 'string' },
  'max-connections': { type: 'string' },
  'shutdown-grace': { type: 'string' },
  store: { type: 'string' },
  'store-prefix': { type: 'string' },
  workers: { type: 'string' },
  proxy: { type: 'string' },
  'proxy-timeout': { type: 'string' },
  'upstream-key': { type: 'string' },
  'proxy-fallback': { type: 'string' },
  record: { type: 'string' },
  'proxy-report': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} as const satisfies ParseArgsConfig['options'];

/**
 * Reads the command line and environment. Flags win over environment
 * variables, which win over defaults. Uses node's own `util.parseArgs`: it
 * rejects unknown flags and handles repeated ones, which is all this needs.
 */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv, stdoutIsTty: boolean): ParsedCli {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: CLI_OPTIONS,
    }));
  } catch (error) {
    return { kind: 'error', message: describeParseError(error, Object.keys(CLI_OPTIONS)) };
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };

  // An empty variable counts as unset, as shells and compose files often leave them.
  const [portText, portFrom] = values.port !== undefined ? [values.port, '--port'] : env.PORT ? [env.PORT, 'PORT'] : [String(DEFAULT_PORT), 'default'];
  const port = integer(portText, 0, 65535);
  if (port === undefined) return { kind: 'error', message: `${portFrom} must be an integer from 0 to 65535, got ${JSON.stringify(portText)}` };
  const seed = values.seed === undefined ? undefined : integer(values.seed, 0, 2 ** 32 - 1);
  if (values.seed !== undefined && seed === undefined) return { kind: 'error', message: `--seed must be a whole number from 0 to 4294967295, got ${values.seed}` };
  const counts: Array<[string, string | undefined, number, number]> = [
    ['--journal-size', values['journal-size'], DEFAULT_JOURNAL_SIZE, MAX_JOURNAL_SIZE],
    ['--max-sessions', values['max-sessions'], DEFAULT_MAX_SESSIONS, 100_000],
    ['--session-idle', values['session-idle'], DEFAULT_SESSION_IDLE_MS / 1000, 7 * 24 * 3600],
    ['--max-pets', values['max-pets'], DEFAULT_MAX_PETS, 1_000_000],
    ['--max-catalogue-bytes', values['max-catalogue-bytes'], DEFAULT_MAX_CATALOGUE_BYTES, 1024 ** 3],
    // Each connection can hold 16 KiB of headers and a file descriptor; 100,000 is past most systems' descriptor limit anyway.
    ['--max-connections', values['max-connections'], DEFAULT_MAX_CONNECTIONS, 100_000],
  ];
  const read = counts.map(([, text, fallback, max]) => (text === undefined ? fallback : integer(text, 1, max)));
  const [journalSize, maxSessions, sessionIdleSeconds, maxPets, maxCatalogueBytes, maxConnections] = read;
  const badCount = counts.find((_, i) => read[i] === undefined);
  if (badCount) return { kind: 'error', message: `${badCount[0]} must be a whole number from 1 to ${badCount[3]}, got ${JSON.stringify(badCount[1])}` };
  const grace = readShutdownGrace(values['shutdown-grace'], env);
  if (!grace.ok) return { kind: 'error', message: grace.error };
  const logFormat = values['log-format'] ?? (stdoutIsTty ? 'pretty' : 'json');
  if (logFormat !== 'pretty' && logFormat !== 'json') return { kind: 'error', message: `--log-format must be pretty or json, got ${logFormat}` };
  const logLevel = readLogLevel(values['log-level'], values.quiet, env);
  if (!logLevel.ok) return { kind: 'error', message: logLevel.error };

  const keys = readApiKeys(values['api-key'] ?? [], env);
  if (!keys.ok) return { kind: 'error', message: keys.error };
  const [apiKeys, apiKeysFrom] = keys.value;
  const adminKey = readAdminKey(values['admin-key'], env, apiKeys);
  if (!adminKey.ok) return { kind: 'error', message: adminKey.error };
  const store = readStoreOptions(values, env);
  if (!store.ok) return { kind: 'error', message: store.error };
  const corsOrigins = readCorsOrigins(values['cors-origin'] ?? []);
  if (!corsOrigins.ok) return { kind: 'error', message: corsOrigins.error };
  const proxy = readProxyFlags(values, env, tokenProblem);
  if (!proxy.ok) return { kind: 'error', message: proxy.error };
  // Each worker would write its own recording over the others'.
  if (proxy.value?.recordDir !== undefined && store.value.workers > 1) return { kind: 'error', message: '--record needs one process: leave --workers out, or give 1' };

  return {
    kind: 'run',
    options: {
      port,
      host: values.host ?? (env.HOST || DEFAULT_HOST),
      apiKeys,
      apiKeysFrom,
      adminKey: adminKey.value,
      seed,
      fixtures: values.fixtures,
      logLevel: logLevel.value,
      corsOrigins: corsOrigins.value,
      logFormat,
      contract: values.contract,
      scenario: values.scenario ?? DEFAULT_SCENARIO,
      scenariosDir: values.scenarios,
      watch: !values['no-watch'],
      profile: values.profile ?? (env.MOCK_PROFILE || undefined),
      journalSize: journalSize as number,
      maxSessions: maxSessions as number,
      sessionIdleSeconds: sessionIdleSeconds as number,
      sessionPerKey: values['session-per-key'],
      maxPets: maxPets as number,
      maxCatalogueBytes: maxCatalogueBytes as number,
      maxConnections: maxConnections as number,
      shutdownGraceSeconds: grace.value,
      proxy: proxy.value,
      ...store.value,
    },
  };
}

/**
 * `--cors-origin` (repeatable): none or `*` alone is any origin; otherwise
 * each must be an origin as a browser sends it in `Origin` (scheme, host,
 * port; no path, no trailing slash), else it would silently never match.
 * `null` is refused: sandboxed frames and file: pages all send it, and named
 * origins are allowed credentials.
 */
function readCorsOrigins(origins: readonly string[]): Result<'*' | string[], string> {
  if (origins.length === 0 || origins.every((origin) => origin === '*')) return ok('*');
  if (origins.includes('*')) return failed('--cors-origin * (any origin) cannot be combined with named origins');
  for (const origin of origins) {
    if (origin === 'null') return failed('--cors-origin null cannot be allowed: every sandboxed frame and file: page sends Origin null');
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
      return failed(`--cors-origin must be an origin as browsers send it, such as http://localhost:5173 (lower case, no path or trailing slash), got ${JSON.stringify(origin)}`);
    }
  }
  return ok([...origins]);
}

/** `--shutdown-grace`, else MOCK_SHUTDOWN_GRACE (empty: unset), else 8: whole seconds from 0 (close at once) to an hour. */
function readShutdownGrace(flag: string | undefined, env: NodeJS.ProcessEnv): Result<number, string> {
  const [text, from] = flag !== undefined ? [flag, '--shutdown-grace'] : env.MOCK_SHUTDOWN_GRACE ? [env.MOCK_SHUTDOWN_GRACE, 'MOCK_SHUTDOWN_GRACE'] : [undefined, ''];
  if (text === undefined) return ok(SHUTDOWN_GRACE_MS / 1000);
  const seconds = integer(text, 0, MAX_SHUTDOWN_GRACE_S);
  return seconds === undefined ? failed(`${from} must be whole seconds from 0 to ${MAX_SHUTDOWN_GRACE_S}, got ${JSON.stringify(text)}`) : ok(seconds);
}

/** `--log-level`, else `--quiet` (warn), else MOCK_LOG_LEVEL, else info; the flags together contradict each other. */
function readLogLevel(flag: string | undefined, quiet: boolean, env: NodeJS.ProcessEnv): Result<LogLevel, string> {
  if (flag !== undefined && quiet) return failed('--quiet and --log-level cannot be used together (--quiet is --log-level warn)');
  const [level, from] = flag !== undefined ? [flag, '--log-level'] : quiet ? ['warn', '--quiet'] : [env.MOCK_LOG_LEVEL || 'info', 'MOCK_LOG_LEVEL'];
  const known = LOG_LEVELS.find((name) => name === level);
  return known ? ok(known) : failed(`${from} must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(level)}`);
}

/** `--api-key` (repeatable), else MOCK_API_KEYS (comma-separated), else the default key. */
function readApiKeys(flagKeys: string[], env: NodeJS.ProcessEnv): Result<[string[], 'flag' | 'env' | 'default'], string> {
  const envKeys = (env.MOCK_API_KEYS ?? '').split(',').map((k) => k.trim()).filter(Boolean);
  const [apiKeys, from] =
    flagKeys.length > 0 ? [flagKeys, 'flag' as const] : envKeys.length > 0 ? [envKeys, 'env' as const] : [[DEFAULT_API_KEY], 'default' as const];
  const source = from === 'flag' ? '--api-key' : 'MOCK_API_KEYS';
  const problem = apiKeys.map((key, index) => tokenProblem(apiKeys.length > 1 ? `API key ${index + 1} of ${apiKeys.length} (${source})` : `the API key (${source})`, key)).find((p) => p !== undefined);
  if (problem !== undefined) return failed(problem);
  return ok([apiKeys, from]);
}

/** `--admin-key`, else MOCK_ADMIN_KEY, else none; a token68, and none of the API keys (else API clients could drive the admin API). */
function readAdminKey(flagKey: string | undefined, env: NodeJS.ProcessEnv, apiKeys: readonly string[]): Result<string | undefined, string> {
  const [key, from] = flagKey !== undefined ? [flagKey, '--admin-key'] : [env.MOCK_ADMIN_KEY || undefined, 'MOCK_ADMIN_KEY'];
  if (key === undefined) return ok(undefined);
  const problem = tokenProblem(from, key) ?? (apiKeys.includes(key) ? `${from} must not be one of the API keys: every API client could then drive the admin API` : undefined);
  return problem === undefined ? ok(key) : failed(problem);
}

function integer(text: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}
