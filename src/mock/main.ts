import { getHeapStatistics } from 'node:v8';
import type { Contract } from '../document/contract.js';
import { loadContract } from '../document/load-contract.js';
import { packageVersion } from '../shared/package-root.js';
import { validatorTally, type ValidatorTally } from '../document/precompiled-validators.js';
import { HELP, parseCli, type MockCliOptions } from './cli-options.js';
import { shownUrl } from './core/store/shown-url.js';
import { needsWorkers, startWorkers, type Running } from './workers.js';
import { loadCatalogue } from './core/fixtures/load-catalogue.js';
import type { Logger } from 'pino';
import { createLogger } from './logger.js';
import { defaultScenariosDir, findScenario } from './core/scenarios/find-scenario.js';
import type { Scenario } from './core/scenarios/check-scenario.js';
import { loadScenarioFile } from './core/scenarios/load-scenario.js';
import { buildScenarioCatalogue } from './core/scenarios/scenario-catalogue.js';
import { startMockServer, type RunningMockServer } from './http/server.js';
import { isLoopback } from './http/steps/admin-guard/loopback.js';
import { memoryCeiling } from './memory-ceiling.js';
import type { Pet } from './core/catalogue/pet.js';
import { indexCatalogue } from './core/catalogue/catalogue-index.js';
import { MEMORY_STORE, openStore } from './core/store/open-store.js';
import { createScenarioLibrary } from './core/scenarios/scenario-library.js';
import { scenariosInFolder } from './core/scenarios/scenarios-in-folder.js';
import { failed, ok, type Result } from './core/result.js';
import { loadDefaultProfile, type LoadedProfile } from './core/profile/checked-profile.js';
import { loadProfile } from './core/profile/load-profile.js';
import { proxyFacts } from './proxy-facts.js';

export interface MainIo {
  argv: string[];
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WritableStream;
  /**
   * Called with the running server before the start-up line is written:
   * a supervisor that stops the mock the moment it reads that line finds
   * the signal handlers in place (bin.ts), not node's default, which ends
   * the process at once.
   */
  onStarted?: (server: RunningMockServer) => void;
}

/**
 * The `animal-store-mock` command. Returns the exit code for bad usage or a
 * failed start (2 and 1), or the running server.
 */
export async function main(io: MainIo): Promise<number | RunningMockServer | Running> {
  const parsed = parseCli(io.argv, io.env, io.stdout.isTTY === true);
  switch (parsed.kind) {
    case 'help':
      io.stdout.write(HELP);
      return 0;
    case 'version':
      io.stdout.write(`${packageVersion()}\n`);
      return 0;
    case 'error':
      io.stderr.write(`animal-store-mock: ${parsed.message}\nRun animal-store-mock --help for the options.\n`);
      return 2;
  }
  return needsWorkers(parsed.options) ? startWorkers(parsed.options, io.stdout) : start(io, parsed.options);
}

/** Starts the mock with the options read: the exit code of a failed start, or the running server. */
async function start(io: MainIo, options: MockCliOptions): Promise<number | RunningMockServer> {
  const fail = (message: string, code = 2): number => {
    io.stderr.write(`animal-store-mock: ${message}\n`);
    return code;
  };
  // From here to the start-up line: the validators this start compiled, and those the build had precompiled.
  const validatorsBefore = validatorTally();
  const loaded = await loadStart(options);
  if (!loaded.ok) return fail(loaded.error);
  const { catalogue, loadedMs } = loaded.value;

  const logger = createLogger({ format: options.logFormat, level: options.logLevel, destination: io.stdout });
  let server: RunningMockServer;
  let evictionPolicy: string | undefined;
  try {
    ({ server, evictionPolicy } = await serve(options, loaded.value, logger));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') return fail(`port ${options.port} on ${options.host} is already in use; pick another with --port`, 1);
    return fail(`cannot start: ${(error as Error).message}`, 1);
  }
  io.onStarted?.(server);
  const started = startedFacts(server, options, `${catalogue.pets.length} pets from ${catalogue.from} (loaded in ${loadedMs} ms)`, loaded.value, validatorsBefore, evictionPolicy);
  // With JSON logs, start-up is one JSON line too (in pino's shape), so log
  // collectors can read every line; written directly so --quiet keeps it.
  if (options.logFormat === 'json') io.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), ...started })}\n`);
  else io.stdout.write(banner(started));
  warnOpenAdmin(logger, options, server.port);
  warnMemoryCeiling(logger, options);
  return server;
}

/** Opens the store `--store` names, its sessions starting from the loaded scenario and catalogue, then the server on it; a server that cannot listen closes the store again. */
async function serve(options: MockCliOptions, loaded: StartState, logger: Logger): Promise<{ server: RunningMockServer; evictionPolicy: string | undefined }> {
  const { contract, scenariosDir, scenarioPath, scenario, catalogue, ownCatalogue } = loaded;
  const library = createScenarioLibrary({
    contract,
    source: scenariosInFolder(contract, scenariosDir),
    fixedCatalogue: ownCatalogue ? catalogue.pets : undefined,
    catalogueLimits: { maxPets: options.maxPets, maxBytes: options.maxCatalogueBytes },
  });
  const store = await openStore({
    url: options.storeUrl,
    prefix: options.storePrefix,
    library,
    start: { scenario, path: scenarioPath, pets: catalogue.pets },
    maxSessions: options.maxSessions,
    idleMs: options.sessionIdleSeconds * 1000,
    journalSize: options.journalSize,
    logger,
  });
  try {
    const server = await startMockServer({
      port: options.port,
      host: options.host,
      apiKeys: options.apiKeys,
      adminKey: options.adminKey,
      logger,
      corsOrigins: options.corsOrigins,
      contract,
      store,
      library,
      scenariosDir: loaded.scenariosDir,
      watch: options.watch,
      profile: loaded.profile,
      profileFile: options.profile,
      sessionPerKey: options.sessionPerKey,
      transport: { maxConnections: options.maxConnections },
      shutdownGraceMs: options.shutdownGraceSeconds * 1000,
      proxy: options.proxy && { ...options.proxy, documentPath: options.contract },
    });
    return { server, evictionPolicy: store.evictionPolicy };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** One warning line when the flags let clients make the mock hold more than node's heap: full, it would crash. */
function warnMemoryCeiling(logger: Logger, options: MockCliOptions): void {
  const ceiling = memoryCeiling(options);
  const heap = getHeapStatistics().heap_size_limit;
  if (ceiling.bytes <= heap) return;
  const mib = (bytes: number): string => `${Math.round(bytes / 1024 / 1024).toLocaleString('en-US')} MiB`;
  logger.warn(
    { ceilingBytes: Math.round(ceiling.bytes), heapLimitBytes: heap },
    `with these flags clients can make the mock hold about ${mib(ceiling.bytes)}, more than node's heap limit here (${mib(heap)}), so a full mock would crash; ` +
      `the largest part: ${ceiling.parts[0]?.what} ${mib(ceiling.parts[0]?.bytes ?? 0)}. Lower it, or give node more heap (NODE_OPTIONS=--max-old-space-size=MiB). See "Bounds" in docs/reference.md.`,
  );
}

/**
 * One warning line when anyone on the network may reach an admin API that
 * takes no key of its own. It names the variable first: in a container, the
 * image's health check reads the key from MOCK_ADMIN_KEY only.
 */
function warnOpenAdmin(logger: Logger, { host, adminKey }: MockCliOptions, port: number): void {
  if (adminKey !== undefined || isLoopback(host)) return;
  logger.warn(
    { host },
    `the mock listens on ${host}, not only on loopback, and the admin API (/__mock) has no admin key: anyone who can reach port ${port} can read its sessions and journals, and with an API key switch scenarios, reset catalogues and end sessions. Set MOCK_ADMIN_KEY (or --admin-key KEY) to require a key of its own.`,
  );
}

interface StartState {
  contract: Contract;
  scenariosDir: string;
  scenarioPath: string;
  scenario: Scenario;
  catalogue: { pets: Pet[]; from: string };
  /** --fixtures or --seed: this catalogue replaces every scenario's. */
  ownCatalogue: boolean;
  loadedMs: number;
  /** The choices where the interface is silent: `--profile`'s, or the mock's own. */
  profile: LoadedProfile;
}

/** What start-up reads before it listens: the document, the scenario and the catalogue; or why it cannot start. */
async function loadStart(options: MockCliOptions): Promise<Result<StartState, string>> {
  let contract;
  try {
    contract = loadContract(options.contract);
  } catch (error) {
    return failed((error as Error).message);
  }
  const scenariosDir = options.scenariosDir ?? defaultScenariosDir();
  const found = findScenario(scenariosDir, options.scenario);
  if (!found.ok) return found;
  const scenario = loadScenarioFile(contract, found.value);
  if (!scenario.ok) return failed(`invalid scenario ${scenario.error}`);
  const profile = options.profile === undefined ? ok(loadDefaultProfile()) : loadProfile(options.profile);
  if (!profile.ok) return failed(`invalid profile ${profile.error}`);
  // --fixtures and --seed replace the scenario's catalogue; its stubs still apply.
  const ownCatalogue = options.fixtures !== undefined || options.seed !== undefined;
  const loading = performance.now();
  const catalogue = ownCatalogue ? await loadCatalogue(contract, options) : await buildScenarioCatalogue(scenariosInFolder(contract, scenariosDir), scenario.value);
  if (!catalogue.ok) return failed(`${ownCatalogue ? 'invalid fixture' : 'invalid scenario'} ${catalogue.error}`);
  // Reading, checking and indexing the catalogue: with a large fixture, the part of start-up a user waits for. Indexed
  // here, before the port opens; every session and reset of either store then shares this one index of this one list.
  indexCatalogue(catalogue.value.pets);
  const loadedMs = Math.round(performance.now() - loading);
  return ok({ contract, scenariosDir, scenarioPath: found.value, scenario: scenario.value, catalogue: catalogue.value, ownCatalogue, loadedMs, profile: profile.value });
}

interface StartedFacts {
  msg: string;
  url: string;
  /** The first accepted key; left out in proxy mode when the mock checks none (proxy-facts.ts). */
  apiKey?: string;
  apiKeys: number;
  apiKeySource: string;
  /** Proxy mode: what the API keys are for there. */
  apiKeyUse?: string;
  /** Left out in proxy mode without --proxy-fallback mock, where nothing answers from it. */
  catalogue?: string;
  store: string;
  validators: string;
  scenario: string;
  scenarioDescription: string;
  scenarioFile: string;
  /** The choices where the interface is silent: the profile's name and file. */
  profile: string;
  /** The QA console and the API reference, for a person with a browser. */
  console: string;
  docs: string;
  curl: string;
  /** Proxy mode's target (no key: a URL with credentials is refused), and where its violations show. */
  proxy?: string;
  /** Proxy mode: who answers, and whose CORS the target's answers carry. */
  answers?: string;
  cors?: string;
  /** Proxy mode: the scenario's stubs, which answer before the target (its description speaks of the mock alone). */
  scenarioStubs?: number;
}

function startedFacts(server: RunningMockServer, options: MockCliOptions, from: string, { scenario, profile }: StartState, validatorsBefore: ValidatorTally, evictionPolicy?: string): StartedFacts {
  // A wildcard bind address is not one a client can connect to: the URL names localhost, and the line says every interface listens.
  const wildcard = /\/\/(0\.0\.0\.0|\[::\])(?=:)/.exec(server.url)?.[1];
  const url = wildcard === undefined ? server.url : server.url.replace(`//${wildcard}`, '//localhost');
  const apiKey = options.apiKeys[0] as string;
  const validators = validatorTally();
  const origin = new URL(url).origin;
  const proxy = options.proxy && proxyFacts(options.proxy, options, origin);
  return {
    msg: `Animal Store mock listening on ${url}${wildcard === undefined ? '' : ` (every interface, ${wildcard}:${new URL(server.url).port}: from another machine or a container's host, use its address or mapped port)`}`,
    url,
    ...(proxy?.noApiKey ? {} : { apiKey }),
    apiKeys: options.apiKeys.length,
    apiKeySource: { flag: '--api-key', env: 'MOCK_API_KEYS', default: 'the default; set --api-key or MOCK_API_KEYS' }[options.apiKeysFrom],
    ...(proxy ? { apiKeyUse: proxy.apiKeyUse } : {}),
    ...(proxy && !proxy.catalogueUsed ? {} : { catalogue: from }),
    store: options.storeUrl === MEMORY_STORE ? 'memory (this process only)' : `${shownUrl(options.storeUrl)}, keys under ${options.storePrefix}:, maxmemory-policy ${evictionPolicy}`,
    validators: `${validators.compiled - validatorsBefore.compiled} compiled at start-up, ${validators.precompiled - validatorsBefore.precompiled} precompiled by the build`,
    scenario: scenario.name,
    scenarioDescription: scenario.description,
    scenarioFile: scenario.file,
    profile: `${profile.profile.name} (${profile.file})`,
    console: `${origin}/__mock/`,
    docs: `${origin}/docs`,
    curl: `curl -H 'Authorization: Bearer ${proxy?.curlKey ?? apiKey}' '${url}/pets?limit=5'`,
    ...(proxy ? { proxy: proxy.proxy, answers: proxy.answers, cors: proxy.cors, scenarioStubs: scenario.stubs.length } : {}),
  };
}

function banner(facts: StartedFacts): string {
  const keys = facts.apiKey === undefined ? undefined : `${facts.apiKey}${facts.apiKeys > 1 ? ` (and ${facts.apiKeys - 1} more)` : ''} (${facts.apiKeySource})`;
  const stubs = facts.scenarioStubs;
  // In proxy mode the scenario's description speaks of the mock's own answers: what applies there is its stubs.
  const scenario = stubs === undefined ? facts.scenarioDescription : stubs === 0 ? 'no stub' : `${stubs} stub${stubs === 1 ? '' : 's'}, answering before the target when ${stubs === 1 ? 'it matches' : 'one matches'}`;
  return [
    facts.msg,
    ...(facts.proxy ? [`  Target:    ${facts.proxy}`, `  Answers:   ${facts.answers}`, `  CORS:      ${facts.cors}`] : []),
    `  API key:   ${[keys, facts.apiKeyUse].filter(Boolean).join(': ')}`,
    `  Store:     ${facts.store}`,
    ...(facts.catalogue === undefined ? [] : [`  Catalogue: ${facts.catalogue}${facts.proxy ? ', answering only while the target is away' : ''}`]),
    `  Validators: ${facts.validators}`,
    `  Scenario:  ${facts.scenario} (${facts.scenarioFile}): ${scenario}`,
    `  Profile:   ${facts.profile}`,
    `  Console:   ${facts.console}`,
    `  Docs:      ${facts.docs}`,
    `  Try:       ${facts.curl}`,
    '',
  ].join('\n');
}
