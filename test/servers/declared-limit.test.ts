import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { CONTRACT_BIN, parsePretty, startApiServer, type TestServer } from '../support/contract-cli.js';
import { useContractRun } from '../support/contract-run-fixture.js';
import { childEnv, type Run } from '../support/processes.js';
import type { SuiteReport } from '../../src/verdict/report.js';
import { NAME_LIMIT, refusesLongNames, refusingCreates } from './declared-limit-servers.js';

/**
 * A correct server with a documented name limit, as a CI owner runs the
 * built harness against it: declared once (`--allow-refusal`, or
 * `allowRefusal` in the config's environment), the run passes and reports
 * the refusals as declared; undeclared, it fails on exactly that point,
 * with the statement and a shrunk curl line. A wrong declaration is a
 * usage error, before any request.
 */
const KEY = 'declared-limit-key';
const SEED = '4242';
const { processes, servers, dir } = useContractRun('declared-limit');

async function limitedServer(wrap = refusesLongNames(KEY)): Promise<TestServer> {
  const server = await startApiServer({ apiKey: KEY, wrap });
  servers.push(server);
  return server;
}

const contract = (args: string[]): Promise<Run> => processes.node([CONTRACT_BIN, '--api-key', KEY, '--seed', SEED, ...args], { env: childEnv(), cwd: dir() });

describe.concurrent('a server that refuses names over 100 code points (the built CLI)', { timeout: 60_000 }, () => {
  it('passes with --allow-refusal name.maxLength=100, the refusals reported as declared', async ({ expect }) => {
    const server = await limitedServer();
    const json = join(dir(), 'declared.json');
    const run = await contract(['--base-url', server.url, '--allow-refusal', `name.maxLength=${NAME_LIMIT}`, '--reporter', 'pretty', '--reporter', 'json', '--output', json]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`Declared refusals (--allow-refusal): name.maxLength=${NAME_LIMIT}`);
    const report = JSON.parse(readFileSync(json, 'utf8')) as SuiteReport;
    expect(report.declared).toEqual([`name.maxLength=${NAME_LIMIT}`]);
    const refused = report.silent.find((entry) => entry.point === 'valid-refused');
    expect(refused?.answers.map((a) => a.answer)).toEqual([`400 name_too_long: declared, a name over ${NAME_LIMIT} code points (name.maxLength=${NAME_LIMIT})`]);
    // The name one code point past the limit is among what was sent, and nothing longer was searched at random.
    expect(refused?.answers[0]?.example).toContain(`"name":"${'x'.repeat(NAME_LIMIT + 1)}"`);
  });

  it('fails without the declaration on exactly that point: the round trip, the statement, a curl line with a name of 101 code points', async ({ expect }) => {
    const server = await limitedServer();
    const run = await contract(['--base-url', server.url]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const failed = [...parsePretty(run.stdout).rules].filter(([, rule]) => rule.status === 'failed').map(([id]) => id);
    expect(failed).toEqual(['create-generated-round-trip']);
    const text = parsePretty(run.stdout).rules.get('create-generated-round-trip')?.text ?? '';
    expect(text).toContain(`FAIL refused a valid NewPet with 400 name_too_long: a name of ${NAME_LIMIT + 1} code points`);
    expect(text).toContain('Endpoints > Add an animal: 201: Pet. Animal added. 400 only when the body is missing required fields or contains invalid values');
    const curl = /replay: +(curl .*)$/m.exec(text)?.[1] ?? '';
    const name = (JSON.parse(/--data-raw '(.*)'$/.exec(curl)?.[1] ?? '{}') as { name?: string }).name ?? '';
    expect([...name]).toHaveLength(NAME_LIMIT + 1);
  });

  it('passes with the declaration in the environment of the config file', async ({ expect }) => {
    const server = await limitedServer();
    const config = join(dir(), 'contract-tests.config.yaml');
    writeFileSync(config, `environments:\n  staging:\n    baseUrl: ${server.url}\n    apiKey: ${KEY}\n    allowRefusal: [name.maxLength=${NAME_LIMIT}]\n`);
    const run = await contract(['--env', 'staging', '--config', config, '--only', 'create-generated-round-trip']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`Declared refusals (--allow-refusal): name.maxLength=${NAME_LIMIT}`);
  });
});

/** Categories 1 to 6 (the catalogue's), refused otherwise with an Error that does not say it is the category. */
const KNOWN_CATEGORIES = ({ categoryId }: Record<string, unknown>) =>
  typeof categoryId === 'number' && (categoryId < 1 || categoryId > 6) ? { code: 'invalid_reference', message: 'no such reference' } : undefined;
const EMOJI = ({ name }: Record<string, unknown>) => (typeof name === 'string' && /\p{Extended_Pictographic}/u.test(name) ? { code: 'invalid_name', message: 'no emoji' } : undefined);

describe.concurrent('a server that accepts only the categories it holds (the built CLI, the round trip)', { timeout: 60_000 }, () => {
  const roundTrip = (url: string, more: string[] = []) => contract(['--base-url', url, '--only', 'create-generated-round-trip', ...more]);

  it('fails undeclared, when its Error does not say it is the category', async ({ expect }) => {
    const run = await roundTrip((await limitedServer(refusingCreates(KEY, KNOWN_CATEGORIES))).url);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain('FAIL refused a valid NewPet with 400 invalid_reference');
  });

  it('passes undeclared when its Error says it is the category, the refusals reported', async ({ expect }) => {
    const saysSo = (pet: Record<string, unknown>) => (KNOWN_CATEGORIES(pet) ? { code: 'unknown_category', message: 'categoryId names no category' } : undefined);
    const run = await roundTrip((await limitedServer(refusingCreates(KEY, saysSo))).url);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('400 unknown_category: silent, a category the target says it does not know');
  });

  it('passes with --allow-refusal categoryId.known: the cases use the category of an animal it lists', async ({ expect }) => {
    const run = await roundTrip((await limitedServer(refusingCreates(KEY, KNOWN_CATEGORIES))).url, ['--allow-refusal', 'categoryId.known']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('Declared refusals (--allow-refusal): categoryId.known');
    expect(run.stdout).toMatch(/✓ create-generated-round-trip: .* \d+ cases/);
  });

  it('still fails, declared, when it also refuses emoji names: the cases use a category it holds', async ({ expect }) => {
    const both = (pet: Record<string, unknown>) => KNOWN_CATEGORIES(pet) ?? EMOJI(pet);
    const run = await roundTrip((await limitedServer(refusingCreates(KEY, both))).url, ['--allow-refusal', 'categoryId.known']);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain('FAIL refused a valid NewPet with 400 invalid_name');
  });
});

describe.concurrent('a wrong declaration (the built CLI)', () => {
  it.for([
    ['name.maxLength=20', 'name.maxLength must be at least 100 (names of up to 100 code points are ordinary and must be accepted)'],
    ['body.maxBytes=512', 'body.maxBytes must be at least 1024'],
    ['name.maxlength=100', 'is not a declaration the harness knows; use name.maxLength=N (N at least 100), body.maxBytes=N (N at least 1024), or categoryId.known'],
    ['name.maxLength=ten', 'is not a declaration the harness knows'],
    ['categoryId.known=yes', 'is not a declaration the harness knows'],
  ] as const)('--allow-refusal %s is a usage error: exit 2, no request sent', async ([declaration, message], { expect }) => {
    const server = await limitedServer();
    const run = await contract(['--base-url', server.url, '--allow-refusal', declaration]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
    expect(server.requests).toBe(0);
  });

  it('the same limit declared twice with two values is a usage error', async ({ expect }) => {
    const run = await contract(['--base-url', 'http://127.0.0.1:9/v1', '--allow-refusal', 'name.maxLength=100', '--allow-refusal', 'name.maxLength=200']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--allow-refusal declares name.maxLength twice (100 and 200)');
  });
});
