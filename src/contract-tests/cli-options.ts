import { parseArgs, type ParseArgsConfig } from 'node:util';
import { describeParseError } from '../shared/cli-parse-error.js';
import { parseAllowRefusals } from './allow-refusal.js';
import { DEFAULT_MAX_BODY_BYTES } from './http-client.js';
import { sessionIdProblem, type SessionChoice } from './run-session.js';

/** Generated cases per operation when --examples is not given. */
export const DEFAULT_EXAMPLES = 25;
/** With --depth deep and no --examples: four times as many, so the searches too send hundreds of creates. */
export const DEEP_EXAMPLES = 100;

export const DEPTHS = ['standard', 'deep'] as const;

export const REPORTER_NAMES = ['pretty', 'summary', 'json', 'junit', 'html', 'github', 'markdown'] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];

export interface ContractCliOptions {
  baseUrl: string | undefined;
  /** --api-key; CONTRACT_API_KEY is read later, after the environment's own key. */
  apiKey: string | undefined;
  env: string | undefined;
  config: string | undefined;
  /** --document: the contract document to check against; undefined for the shipped one. */
  document: string | undefined;
  readOnly: boolean;
  allowWrites: boolean;
  only: string[];
  skip: string[];
  /** Each reporter with the file it writes, or undefined for stdout. */
  reporters: Array<{ name: ReporterName; output: string | undefined }>;
  timeoutMs: number;
  /** The most bytes of an answer's body read. */
  maxBodyBytes: number;
  retries: number;
  concurrency: number;
  /** The generated cases' seed; undefined draws one (printed in every report). */
  seed: number | undefined;
  examples: number;
  /** --allow-refusal, as given (checked here; merged with the environment's own in main). */
  allowRefusal: string[];
  list: boolean;
  /** --compare-with: a second target sent the same cases; what differs is the drift report. */
  compareWith: string | undefined;
  /** --compare-api-key: the second target's key (default: the first's). */
  compareApiKey: string | undefined;
  failOnDrift: boolean;
  /** --write-profile: where to write the target's choices where the interface is silent, as a profile the mock reads. */
  writeProfile: string | undefined;
  /** The mock session the run is sent in: its own (default), --session ID, or --shared-session. */
  session: SessionChoice;
  /** --admin-key (else MOCK_ADMIN_KEY): the mock's admin key, to end the run's session on a mock started with one. */
  adminKey: string | undefined;
  /** --depth: how far a writing run pushes the target (catalogue-fill.ts, DEEP_CATALOGUE). */
  depth: (typeof DEPTHS)[number];
  /** --settle, in ms: the pause before the run reads back what it created; undefined for the default (DEFAULT_SETTLE_MS, none against the mock). */
  settleMs: number | undefined;
}

/**
 * The pause before the read-back when --settle is not given: longer than
 * the few seconds a cache or a forgetful store commonly keeps, short
 * beside a run against a remote service. None against the mock, whose
 * store neither expires nor caches: there it would only be waited out.
 */
export const DEFAULT_SETTLE_MS = 3000;

export type ParsedContractCli = { kind: 'run'; options: ContractCliOptions } | { kind: 'help' } | { kind: 'version' } | { kind: 'error'; message: string };

export const CONTRACT_HELP = `animal-store-contract: check an Animal Store API against the contract

Usage: animal-store-contract --base-url URL [options]
       animal-store-contract --env mock|staging|production [options]

Target:
  --base-url URL       the API's base URL, ending in /v1
  --api-key KEY        the key to send (env CONTRACT_API_KEY); never printed
  --api-key-from VAR   the key to send is in the variable VAR; as --api-key, it
                       wins over an environment's key (so no command line holds it)
  --env NAME           an environment of the config file (mock, staging, production)
  --config FILE        the environments file (default: contract-tests.config.yaml)
  --document FILE      the contract document to check against (default: the one
                       shipped, openapi/animal-store.yaml): answers are validated
                       against it and listPets' query parameters read from it
  --read-only          skip the rules that create animals (shown as skipped)
  --allow-writes       let writing rules run where the environment is read-only (production)

Drift between two targets:
  --compare-with URL   send the same cases to a second target too, and report
                       where it answers otherwise (status, Error code, headers,
                       body shape, the silent points): a "Drift" section
  --compare-api-key KEY  the second target's key (default: --api-key's; needed
                       with --env and no --api-key, as an environment's key is
                       never sent to another target); never printed
  --fail-on-drift      exit 1 when the two targets drift (default: drift is reported, exit 0)

Profile:
  --write-profile FILE what the target chose where the interface is silent, as a
                       profile for animal-store-mock --profile (YAML; JSON if FILE
                       ends in .json); a point not reached, or answered in more
                       than one way, is left out with a note why

Sessions (against the mock, detected from its GET /__mock/health):
  --session ID         send every request in mock session ID (X-Mock-Session;
                       1 to 128 of A-Z a-z 0-9 . _ ~ : -), kept after the run
  --shared-session     run in the mock's shared session, on purpose (default:
                       a fresh session of the run's own, ended after it, so the
                       mock's shared catalogue and state are as they were)
  --admin-key KEY      the mock's admin key (env MOCK_ADMIN_KEY), needed to end
                       the run's session on a mock started with --admin-key;
                       never printed
  A target that is not the mock gets no session header unless --session is given.

Rules:
  --only ID[,ID]       run only these rules (repeatable)
  --skip ID[,ID]       leave these rules out (repeatable)
  --list               list the rules and exit
  -v, --version        show the version and exit

Generated cases:
  --seed N             replay a run's generated cases (default: a random seed, printed)
  --examples N         random cases per operation, after the boundary cases (default ${DEFAULT_EXAMPLES};
                       ${DEEP_EXAMPLES} with --depth deep)
  --settle SECONDS     the pause after the rules before every animal the run created
                       is read back and listed once more (default ${DEFAULT_SETTLE_MS / 1000}; 0 against the mock)
  --depth standard|deep  how far a writing run pushes the target (default standard:
                       a catalogue past 100 animals); deep fills it past 300 animals
                       first and draws ${DEEP_EXAMPLES} cases, hundreds of creates in all

Declared limits (repeatable; also allowRefusal in an environment of the config):
  --allow-refusal DECL a limit the service documents: a valid NewPet refused past
                       it passes (reported as declared). DECL is name.maxLength=N
                       (N >= 100 code points), body.maxBytes=N (N >= 1024) or
                       categoryId.known (only categories it holds are accepted),
                       e.g. --allow-refusal name.maxLength=100

Output:
  --reporter NAME      pretty (the default: every rule, failures grouped by cause),
                       summary (the verdict and the causes in about 60 lines, for
                       CI logs), json, junit, html, github (workflow
                       annotations, one per cause) or markdown (the verdict
                       and causes for a CI job's summary) (repeatable)
  --output FILE        write the reporter named just before to FILE (else stdout),
                       e.g. --reporter html --output report.html

Requests:
  --timeout MS         per-request time limit, the whole body included (default 10000)
  --max-body-bytes N   the most bytes of an answer's body read; past them the
                       rule fails (default ${DEFAULT_MAX_BODY_BYTES}, 1 MiB)
  --retries N          extra tries after a network error only (default 1)
  --concurrency N      rules run at once (default 8)

Exit codes: 0 every contract rule passed; 1 a rule failed; 2 bad usage,
a bad config, a target that cannot be reached, or a mock that refuses the
run's session; 130 stopped by Ctrl-C (its session ended first).
With --compare-with: 1 when a rule failed on either target, or on drift
with --fail-on-drift (drift alone exits 0).
`;

/** The flags, for node's `util.parseArgs`. */
const CLI_OPTIONS = {
    'base-url': { type: 'string' },
    'api-key': { type: 'string' },
    'api-key-from': { type: 'string' },
    env: { type: 'string' },
    config: { type: 'string' },
    document: { type: 'string' },
    'read-only': { type: 'boolean', default: false },
    'allow-writes': { type: 'boolean', default: false },
    only: { type: 'string', multiple: true },
    skip: { type: 'string', multiple: true },
    reporter: { type: 'string', multiple: true },
    output: { type: 'string', multiple: true },
    timeout: { type: 'string' },
    'max-body-bytes': { type: 'string' },
    retries: { type: 'string' },
    concurrency: { type: 'string' },
    seed: { type: 'string' },
    examples: { type: 'string' },
    'allow-refusal': { type: 'string', multiple: true },
    list: { type: 'boolean', default: false },
    'compare-with': { type: 'string' },
    'compare-api-key': { type: 'string' },
    'fail-on-drift': { type: 'boolean', default: false },
    'write-profile': { type: 'string' },
    session: { type: 'string' },
    'shared-session': { type: 'boolean', default: false },
    'admin-key': { type: 'string' },
    depth: { type: 'string' },
    settle: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
    version: { type: 'boolean', short: 'v', default: false },
} as const satisfies ParseArgsConfig['options'];

/**
 * Reads the command line with node's util.parseArgs. Its tokens keep the
 * order of the flags, which pairs each --output with the --reporter before it.
 */
export function parseContractCli(argv: string[], env: NodeJS.ProcessEnv): ParsedContractCli {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      tokens: true,
      options: CLI_OPTIONS,
    });
  } catch (error) {
    return { kind: 'error', message: describeParseError(error, Object.keys(CLI_OPTIONS)) };
  }
  const { values, tokens } = parsed;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };

  const reporters = readReporters(tokens ?? []);
  if (typeof reporters === 'string') return { kind: 'error', message: reporters };

  const depth = DEPTHS.find((known) => known === (values.depth ?? 'standard'));
  if (!depth) return { kind: 'error', message: `--depth must be ${DEPTHS.join(' or ')}, got ${JSON.stringify(values.depth)}` };
  const numbers = readNumbers(values, depth);
  if (typeof numbers === 'string') return { kind: 'error', message: numbers };
  // fast-check takes a 32-bit seed; a printed one is never negative.
  const seed = values.seed === undefined ? undefined : /^\d{1,10}$/.test(values.seed) && Number(values.seed) < 2 ** 31 ? Number(values.seed) : NaN;
  if (Number.isNaN(seed)) return { kind: 'error', message: `--seed must be a whole number from 0 to ${2 ** 31 - 1}, got ${JSON.stringify(values.seed)}` };
  const allowRefusal = values['allow-refusal'] ?? [];
  const allowance = parseAllowRefusals(allowRefusal);
  if (!allowance.ok) return { kind: 'error', message: allowance.error };
  const session = readSession(values.session, values['shared-session']);
  if (typeof session === 'string') return { kind: 'error', message: session };
  const apiKey = readApiKey(values['api-key'], values['api-key-from'], env);
  if (typeof apiKey === 'object') return { kind: 'error', message: apiKey.error };
  const ids = (list: string[] | undefined) => (list ?? []).flatMap((item) => item.split(',')).map((id) => id.trim()).filter(Boolean);

  return {
    kind: 'run',
    options: {
      baseUrl: values['base-url'],
      apiKey,
      env: values.env,
      config: values.config,
      document: values.document,
      readOnly: values['read-only'],
      allowWrites: values['allow-writes'],
      only: ids(values.only),
      skip: ids(values.skip),
      reporters,
      timeoutMs: numbers.timeout as number,
      maxBodyBytes: numbers['max-body-bytes'] as number,
      retries: numbers.retries as number,
      concurrency: numbers.concurrency as number,
      seed,
      examples: numbers.examples as number,
      allowRefusal,
      list: values.list,
      compareWith: values['compare-with'],
      compareApiKey: values['compare-api-key'],
      failOnDrift: values['fail-on-drift'],
      writeProfile: values['write-profile'],
      session,
      adminKey: values['admin-key'] ?? (env.MOCK_ADMIN_KEY || undefined),
      depth,
      settleMs: numbers.settle === -1 ? undefined : (numbers.settle as number) * 1000,
    },
  };
}

type Reporters = ContractCliOptions['reporters'];
type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

/** Each --reporter with the --output after it (pretty to stdout when none is given), or what is wrong with them. */
function readReporters(tokens: readonly Token[]): Reporters | string {
  const reporters: Reporters = [];
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (token.name === 'reporter') {
      const name = REPORTER_NAMES.find((known) => known === token.value);
      if (!name) return `--reporter must be ${REPORTER_NAMES.slice(0, -1).join(', ')} or ${REPORTER_NAMES.at(-1)}, got ${JSON.stringify(token.value ?? '')}`;
      reporters.push({ name, output: undefined });
    } else if (token.name === 'output') {
      const last = reporters.at(-1);
      if (!last || last.output !== undefined) return '--output must follow the --reporter it is for, e.g. --reporter junit --output report.xml';
      last.output = token.value;
    }
  }
  if (reporters.length === 0) reporters.push({ name: 'pretty', output: undefined });
  if (reporters.filter((r) => r.output === undefined).length > 1) return 'only one reporter can write to stdout; give the others --output FILE';
  return reporters;
}

/** The session the flags choose, or what is wrong with them (the id itself never repeated: it may be a key given to the wrong flag). */
function readSession(id: string | undefined, shared: boolean): SessionChoice | string {
  if (id !== undefined && shared) return '--session and --shared-session cannot go together: a run is sent in one session';
  if (shared) return { kind: 'shared' };
  if (id === undefined) return { kind: 'own' };
  const problem = sessionIdProblem(id);
  return problem ? `--session ${problem}` : { kind: 'named', id };
}

type NumberFlag = 'timeout' | 'max-body-bytes' | 'retries' | 'concurrency' | 'examples' | 'settle';

/** The whole-number flags, each checked against its range, or what is wrong with one. */
function readNumbers(values: Partial<Record<NumberFlag, string>>, depth: (typeof DEPTHS)[number]): Record<NumberFlag, number> | string {
  const numbers: Partial<Record<NumberFlag, number>> = {};
  const flags: ReadonlyArray<[NumberFlag, number, number, number]> = [['timeout', 10_000, 1, 600_000], ['max-body-bytes', DEFAULT_MAX_BODY_BYTES, 1024, 64 * 1024 ** 2], ['retries', 1, 0, 10], ['concurrency', 8, 1, 64], ['examples', depth === 'deep' ? DEEP_EXAMPLES : DEFAULT_EXAMPLES, 0, 10_000], ['settle', -1, 0, 600]];
  for (const [flag, fallback, min, max] of flags) {
    const text = values[flag];
    const value = text === undefined ? fallback : /^\d+$/.test(text) ? Number(text) : NaN;
    // A fallback outside the range (--settle's) says "not given": only what was given is checked.
    if (text !== undefined && !(value >= min && value <= max)) return `--${flag} must be a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`;
    numbers[flag] = value;
  }
  return numbers as Record<NumberFlag, number>;
}

/**
 * --api-key, or the variable --api-key-from names: a key given either way
 * wins over an environment's own. Messages name the variable, never a value.
 */
function readApiKey(flag: string | undefined, from: string | undefined, env: NodeJS.ProcessEnv): string | undefined | { error: string } {
  if (from === undefined) return flag;
  if (flag !== undefined) return { error: '--api-key and --api-key-from both give the key: give one' };
  if (!/^[A-Z_][A-Z0-9_]*$/.test(from)) return { error: '--api-key-from takes the name of an environment variable (A-Z, 0-9 and _, not starting with a digit)' };
  const key = env[from];
  // Not named: a key pasted in place of the variable's name must not be printed.
  if (!key) return { error: 'the variable --api-key-from names is not set or is empty' };
  return key;
}
