import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { packageRoot, packageVersion } from '../shared/package-root.js';
import { parseAllowRefusals, type RefusalAllowance } from './allow-refusal.js';
import { baseUrlProblem } from './base-url.js';
import { CONTRACT_HELP, DEFAULT_SETTLE_MS, parseContractCli, type ContractCliOptions, type ReporterName } from './cli-options.js';
import { resolveEnvironment } from './environments.js';
import { writeProfile } from './profile/write-profile.js';
import { learningLines, withLearning } from './profile/learning-summary.js';
import { htmlReport, type ReportAbout } from '../verdict/reporters/html-reporter.js';
import { jsonReport } from '../verdict/reporters/json-reporter.js';
import { junitReport } from '../verdict/reporters/junit-reporter.js';
import { prettyReport } from '../verdict/reporters/pretty-reporter.js';
import { summaryReport } from '../verdict/reporters/summary-reporter.js';
import { githubReport } from '../verdict/reporters/github-reporter.js';
import { markdownReport } from '../verdict/reporters/markdown-reporter.js';
import { allRules } from './rules/index.js';
import { unknownRuleIds } from './unknown-rule-ids.js';
import type { SuiteReport } from '../verdict/report.js';
import { inRunSessions } from './run-session.js';
import type { SuiteOptions, SuiteRun } from './run-suite.js';
import { shownReport, type Shown } from '../verdict/shown-report.js';
import { JSON_ANSWER_BODY_SHOWN } from '../verdict/shown-body.js';

export interface ContractIo {
  argv: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const REPORTERS: Record<ReporterName, (report: Shown<SuiteReport>, about: ReportAbout) => string> = { pretty: prettyReport, summary: summaryReport, json: jsonReport, junit: junitReport, html: htmlReport, github: githubReport, markdown: markdownReport };
/** How much of an answer's body each reporter is given: the JSON report keeps more than the others show. */
const ANSWER_CHARS: Partial<Record<ReporterName, number>> = { json: JSON_ANSWER_BODY_SHOWN };

/** The `animal-store-contract` command; resolves to its exit code. */
export async function contractMain(io: ContractIo): Promise<number> {
  const usage = (message: string): number => {
    io.stderr.write(`animal-store-contract: ${message}\nRun animal-store-contract --help for the options.\n`);
    return 2;
  };
  const parsed = parseContractCli(io.argv, io.env);
  if (parsed.kind === 'help') {
    io.stdout.write(CONTRACT_HELP);
    return 0;
  }
  if (parsed.kind === 'version') {
    io.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  if (parsed.kind === 'error') return usage(parsed.message);
  const options = parsed.options;
  if (options.list) {
    for (const r of allRules) io.stdout.write(`${r.id.padEnd(42)} ${r.operation.padEnd(9)} ${r.severity.padEnd(8)} ${r.writes ? 'writes' : 'reads '}  ${r.title}\n`);
    return 0;
  }

  // The ids are the command's own list: where to find them goes with a slip, before anything is sent.
  const unknownRules = unknownRuleIds([...options.only, ...options.skip], allRules);
  if (unknownRules !== undefined) return usage(`${unknownRules}; --list prints every rule id`);
  const target = resolveTarget(options, io);
  if (!target.ok) return usage(target.error);
  // Loaded only now: prism-http and dredd-transactions take a while to load,
  // which --help, --list and usage errors do not need.
  const { runSuite } = await import('./run-suite.js');
  const suite = {
    ...target.value,
    only: options.only,
    skip: options.skip,
    timeoutMs: options.timeoutMs,
    maxBodyBytes: options.maxBodyBytes,
    retries: options.retries,
    concurrency: options.concurrency,
    seed: options.seed,
    examples: options.examples,
    depth: options.depth,
    allowRefusal: target.value.allowance,
    ...(options.document === undefined ? {} : { documentPath: resolve(io.cwd, options.document) }),
  };
  // The environment's key (its config or its variable) is for its target alone: the compared one needs its own.
  if (options.compareWith !== undefined && options.env !== undefined && options.apiKey === undefined && options.compareApiKey === undefined) {
    return usage(`--compare-with with --env ${options.env}: pass --compare-api-key for the compared target; the environment's key is never sent to another target`);
  }
  const run = await runInSessions(options, suite, runSuite);
  if (!run.ok) return notRun(run.error, io, usage);
  const { wrongTarget } = run.report;
  // A wrong target: its one line on stderr rather than a wall of failed rules on stdout; the files still say so (wrong-target.ts).
  if (wrongTarget) io.stderr.write(`animal-store-contract: ${wrongTarget.message}\n`);
  const unwritten: string[] = [];
  let report = run.report;
  // A wrong target's answers are not its choices: no profile is written from them.
  if (options.writeProfile !== undefined && !wrongTarget) {
    const file = resolve(io.cwd, options.writeProfile);
    const written = writeProfile(file, report.silent, report.seed);
    if (written.ok) report = withLearning(report, file, written.profile);
    else unwritten.push(written.problem);
  }
  const files = options.reporters.flatMap(({ name, output }) => (output === undefined ? [] : [{ name, path: output }]));
  const document = relative(io.cwd, options.document === undefined ? join(packageRoot(), 'openapi', 'animal-store.yaml') : resolve(io.cwd, options.document));
  const about: ReportAbout = { version: packageVersion(), files, document };
  for (const { name, output } of options.reporters) {
    // The wrong target's line is on stderr already; a summary, short as it is, still says where the files are.
    if (wrongTarget && name === 'pretty' && output === undefined) continue;
    // A report points to the others, not to itself.
    const text = REPORTERS[name](shownReport(report, { answerChars: ANSWER_CHARS[name] }), { ...about, files: files.filter((f) => f.path !== output) });
    if (output === undefined) {
      io.stdout.write(text);
    } else {
      const file = resolve(io.cwd, output);
      try {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, text);
      } catch (error) {
        unwritten.push(`cannot write the ${name} report to ${file}: ${(error as Error).message}`);
      }
    }
  }
  // Pretty goes to the terminal too when every reporter writes to a file.
  if (options.reporters.every((r) => r.output !== undefined) && !wrongTarget) io.stdout.write(prettyReport(shownReport(report)));
  // On stderr: stdout may be a report another tool reads.
  if (report.learning) io.stderr.write(learningLines(report.learning).map((line, i) => (i === 0 ? `animal-store-contract: ${line}\n` : `${line}\n`)).join(''));
  // A report that could not be written is a usage error, not a failed rule (exit 1) nor a pass.
  if (unwritten.length > 0) {
    io.stderr.write(unwritten.map((message) => `animal-store-contract: ${message}\n`).join(''));
    return 2;
  }
  // Like an unreachable target: the run says nothing of the API, so neither pass (0) nor failed rules (1).
  // Drift alone is a report, not a failure, unless the CI owner asks for it (--fail-on-drift).
  const drifted = report.drift?.failsRun === true && report.drift.groups.length > 0;
  return wrongTarget ? 2 : report.ok && !drifted ? 0 : 1;
}

/**
 * The run, or the two of --compare-with, each target in the session the
 * flags choose (run-session.ts): by default a fresh one of its own on this
 * mock, ended afterwards, also on failure and Ctrl-C. The report names them.
 */
async function runInSessions(options: ContractCliOptions, suite: SuiteOptions, runSuite: (options: SuiteOptions) => Promise<SuiteRun>): Promise<SuiteRun> {
  const { timeoutMs } = options;
  const main = { baseUrl: suite.baseUrl, apiKey: suite.apiKey, adminKey: options.adminKey, timeoutMs };
  // The admin key is the first target's: like an environment's key, it is never sent to another.
  const compared = options.compareWith === undefined ? [] : [{ baseUrl: options.compareWith.replace(/\/+$/, ''), apiKey: options.compareApiKey ?? suite.apiKey, adminKey: undefined, timeoutMs }];
  const { result, sessions } = await inRunSessions([main, ...compared], options.session, async ([a, b], signal) => {
    // No pause against the mock unless asked: its store neither expires nor caches (DEFAULT_SETTLE_MS).
    const settleMs = options.settleMs ?? (a?.facts.mock ? 0 : DEFAULT_SETTLE_MS);
    if (options.compareWith === undefined) return runSuite({ ...suite, session: a?.facts, signal, settleMs });
    const { runCompare } = await import('./drift/compare-cli.js');
    return runCompare({ ...suite, session: a?.facts, signal, settleMs }, { with: options.compareWith, apiKey: options.compareApiKey, failOnDrift: options.failOnDrift, session: b?.facts });
  });
  if (!result.ok) return result;
  const [session, comparedSession] = sessions;
  return { ok: true, report: { ...result.report, ...(session ? { session } : {}), ...(comparedSession ? { comparedSession } : {}) } };
}

/** A run that judged nothing: every such ending exits 2, with its line and what to check. */
function notRun(error: Extract<SuiteRun, { ok: false }>['error'], io: ContractIo, usage: (message: string) => number): number {
  if (error.kind === 'usage') return usage(error.message);
  // The mock refusing the run's session is as a target that cannot be reached: its line says what to do instead.
  const hint = error.kind === 'unreachable' ? ' Check the URL, the network, and that the service is up.' : '';
  io.stderr.write(`animal-store-contract: ${error.message}\nNo rule was run.${hint}\n`);
  return 2;
}

type Target = { ok: true; value: { baseUrl: string; apiKey: string; readOnly: boolean; allowance: RefusalAllowance } } | { ok: false; error: string };

/** The base URL, key and mode, from the flags, the environment variables and the config file. */
function resolveTarget(options: ContractCliOptions, io: ContractIo): Target {
  let environment;
  if (options.env !== undefined) {
    const local = join(io.cwd, 'contract-tests.config.yaml');
    const file = options.config ? resolve(io.cwd, options.config) : existsSync(local) ? local : join(packageRoot(), 'contract-tests.config.yaml');
    const resolved = resolveEnvironment(file, options.env, io.env);
    if (!resolved.ok) return resolved;
    environment = resolved.value;
  } else if (options.config !== undefined) {
    return { ok: false, error: '--config needs --env NAME to say which environment to use' };
  }
  const baseUrl = options.baseUrl ?? environment?.baseUrl;
  if (!baseUrl) {
    return {
      ok: false,
      error: environment
        ? `environment ${environment.name} takes its base URL from ${environment.baseUrlFrom}, which is not set; set it or pass --base-url`
        : 'no target: pass --base-url URL (ending in /v1) or --env NAME',
    };
  }
  const wrongUrl = baseUrlProblem(baseUrl);
  if (wrongUrl !== undefined) return { ok: false, error: wrongUrl };
  // The flag, then the environment's own key (the mock's is in the config; staging's
  // and production's come from the variable it names), then CONTRACT_API_KEY.
  const apiKey = options.apiKey ?? environment?.apiKey ?? (io.env.CONTRACT_API_KEY || undefined);
  if (!apiKey) return { ok: false, error: 'no API key: pass --api-key KEY or set CONTRACT_API_KEY' };
  const readOnly = options.readOnly || (environment?.readOnly === true && !options.allowWrites);
  // The environment's declarations and the flags' together: a flag adds to what the config declares, and a conflict is an error.
  const allowance = parseAllowRefusals([...(environment?.allowRefusal ?? []), ...options.allowRefusal]);
  if (!allowance.ok) return { ok: false, error: environment?.allowRefusal.length ? `${allowance.error} (environment ${environment.name} with the flags)` : allowance.error };
  return { ok: true, value: { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey, readOnly, allowance: allowance.value } };
}
