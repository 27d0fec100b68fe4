import type { Contract } from '../../document/contract.js';
import type { Pet } from '../core/catalogue/pet.js';
import { DEFAULT_API_KEY } from '../../shared/default-api-key.js';
import { checkFixture } from '../core/fixtures/check-fixture.js';
import type { Log } from '../core/log/log.js';
import { checkProfile, loadDefaultProfile, type LoadedProfile } from '../core/profile/checked-profile.js';
import { checkScenario, type Scenario } from '../core/scenarios/check-scenario.js';
import { buildScenarioCatalogue } from '../core/scenarios/scenario-catalogue.js';
import { DEFAULT_SCENARIO, findScenarioEntry, type ScenarioSource } from '../core/scenarios/scenario-source.js';
import { tokenProblem } from '../core/token-problem.js';
import { GENERATED_COUNT } from '../core/fixtures/generated-count.js';
import { exactInteger, int64StandIn } from '../../shared/exact-json/int64.js';
import type { EngineCaller } from './engine-caller.js';
import { givenScenarios } from './given-scenarios.js';

/** What `createMock` takes: all of it optional, each as the server's option of the same name. */
export interface CreateMockOptions {
  /** The keys `Authorization: Bearer <key>` may carry (`--api-key`); default `animal-store-dev-key`. */
  apiKeys?: readonly string[];
  /** The admin API's own key (`--admin-key`); without one, admin writes take an API key. */
  adminKey?: string;
  /** Generate the catalogue with faker from this seed (`--seed`), for every scenario. */
  seed?: number;
  /** The catalogue's animals (`--fixtures`), for every scenario: Pets as the contract describes them (checked, whatever their type says). */
  fixtures?: readonly Pet[];
  /** The scenario new sessions start in (`--scenario`): a shipped one's name, or a scenario object (as a scenario file's content). Default `default`. */
  scenario?: string | object;
  /** More scenarios, activated by name through the admin API or `Prefer: scenario=NAME`: objects as scenario files hold. */
  scenarios?: readonly object[];
  /** The choices where the interface is silent (`--profile`): an object in the profile format; a point left out keeps the mock's own. */
  profile?: object;
  /** Where the engine writes what the server would log; nothing by default. */
  log?: Log;
}

/** Everything an engine starts from, checked. */
export interface EngineStart {
  apiKeys: readonly string[];
  source: ScenarioSource;
  scenario: Scenario;
  pets: readonly Pet[];
  /** The catalogue `fixtures` or `seed` gave, which replaces every scenario's. */
  fixedCatalogue: readonly Pet[] | undefined;
  profile: LoadedProfile;
}

/** The options createMock knows (createHandlers takes baseUrl off first): any other is a misspelling, told rather than ignored. */
const KNOWN_OPTIONS: ReadonlySet<string> = new Set(['apiKeys', 'adminKey', 'seed', 'fixtures', 'scenario', 'scenarios', 'profile', 'log']);

/** What each caller takes beyond the engine's options, named among the known ones when an option is misspelt. */
const OWN_OPTIONS: Record<EngineCaller, readonly string[]> = { createMock: [], createHandlers: ['baseUrl'] };

/** Checks the options the caller was given and builds what the engine starts from, or throws an Error naming the first problem found. */
export async function engineStart(contract: Contract, options: CreateMockOptions, caller: EngineCaller): Promise<EngineStart> {
  const refuse = (message: string): never => {
    throw new Error(`${caller}: ${message}`);
  };
  if (typeof options !== 'object' || options === null) refuse('the options must be an object');
  const unknown = Object.keys(options).filter((key) => !KNOWN_OPTIONS.has(key));
  if (unknown.length > 0) refuse(`unknown option ${unknown.map((key) => JSON.stringify(key)).join(', ')} (known: ${[...KNOWN_OPTIONS, ...OWN_OPTIONS[caller]].join(', ')})`);
  const apiKeys = options.apiKeys ?? [DEFAULT_API_KEY];
  if (!Array.isArray(apiKeys) || apiKeys.length === 0) refuse('apiKeys must be a non-empty array of keys');
  apiKeys.forEach((key, index) => {
    const problem = typeof key === 'string' ? tokenProblem(`apiKeys[${index}]`, key) : `apiKeys[${index}] is not a string`;
    if (problem !== undefined) refuse(problem);
  });
  if (options.adminKey !== undefined) {
    const problem = tokenProblem('adminKey', String(options.adminKey));
    if (problem !== undefined) refuse(problem);
    if (apiKeys.includes(options.adminKey)) refuse('adminKey must not be one of the API keys: every API client could then drive the admin API');
  }
  const given = givenByName(options, refuse);
  const source = givenScenarios(contract, given, caller);
  const name = typeof options.scenario === 'object' && options.scenario !== null ? nameOf(options.scenario, 'scenario', refuse) : (options.scenario ?? DEFAULT_SCENARIO);
  const entry = findScenarioEntry(source, name);
  if (!entry.ok) return refuse(entry.error);
  const data = entry.value.read();
  const scenario = data.ok ? checkScenario(contract, data.value, entry.value) : data;
  if (!scenario.ok) return refuse(`invalid scenario ${scenario.error}`);
  const fixedCatalogue = await ownCatalogue(contract, options, refuse);
  const catalogue = fixedCatalogue ? { ok: true as const, value: { pets: fixedCatalogue } } : await buildScenarioCatalogue(source, scenario.value);
  if (!catalogue.ok) return refuse(`invalid scenario ${catalogue.error}`);
  const profile = options.profile === undefined ? loadDefaultProfile() : checkProfile(options.profile, 'profile');
  if ('ok' in profile && !profile.ok) return refuse(`invalid ${profile.error}`);
  return { apiKeys, source, scenario: scenario.value, pets: catalogue.value.pets, fixedCatalogue, profile: 'ok' in profile ? profile.value : profile };
}

function givenByName(options: CreateMockOptions, refuse: (message: string) => never): Map<string, unknown> {
  const given = new Map<string, unknown>();
  const scenarios = options.scenarios ?? [];
  if (!Array.isArray(scenarios)) refuse('scenarios must be an array of scenario objects');
  scenarios.forEach((scenario, index) => {
    const name = nameOf(scenario, `scenarios[${index}]`, refuse);
    if (given.has(name)) refuse(`scenarios[${index}]: scenario ${name} is given twice`);
    given.set(name, scenario);
  });
  if (typeof options.scenario === 'object' && options.scenario !== null) {
    const name = nameOf(options.scenario, 'scenario', refuse);
    if (given.has(name) && given.get(name) !== options.scenario) refuse(`scenario: scenario ${name} is also given in scenarios; give it once`);
    given.set(name, options.scenario);
  } else if (options.scenario !== undefined && typeof options.scenario !== 'string') {
    refuse('scenario must be a scenario name or a scenario object');
  }
  return given;
}

function nameOf(scenario: unknown, what: string, refuse: (message: string) => never): string {
  const name = typeof scenario === 'object' && scenario !== null ? (scenario as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name !== '' ? name : refuse(`${what} must be a scenario object with a non-empty string name`);
}

/** `fixtures` or `seed`: a catalogue for every scenario, as the server's `--fixtures` and `--seed`. */
async function ownCatalogue(contract: Contract, options: CreateMockOptions, refuse: (message: string) => never): Promise<readonly Pet[] | undefined> {
  if (options.fixtures !== undefined && options.seed !== undefined) refuse('give fixtures or seed, not both');
  if (options.fixtures !== undefined) {
    if (!Array.isArray(options.fixtures)) refuse('fixtures must be an array of animals (Pets)');
    // An int64 past 2^53 may be given as a bigint: held exactly, shown to the schema as parseExactJson shows one.
    const value = mapIntegers(structuredClone(options.fixtures), exactInteger) as unknown[];
    const checked = checkFixture(contract, 'fixtures', { value, view: mapIntegers(value, int64StandIn) });
    return checked.ok ? checked.value : refuse(`invalid ${checked.error}`);
  }
  if (options.seed === undefined) return undefined;
  if (!Number.isInteger(options.seed) || options.seed < 0 || options.seed > 2 ** 32 - 1) refuse(`seed must be a whole number from 0 to 4294967295, got ${JSON.stringify(options.seed) ?? String(options.seed)}`);
  const { generateCatalogue } = await import('../core/fixtures/generate-catalogue.js');
  return generateCatalogue({ seed: options.seed, count: GENERATED_COUNT });
}

/** `data` with each bigint in it replaced by `map`'s number or bigint. */
function mapIntegers(data: unknown, map: (value: bigint) => unknown): unknown {
  if (typeof data === 'bigint') return map(data);
  if (Array.isArray(data)) return data.map((item) => mapIntegers(item, map));
  if (typeof data === 'object' && data !== null) return Object.fromEntries(Object.entries(data).map(([key, item]) => [key, mapIntegers(item, map)]));
  return data;
}
