import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../document/load-contract.js';
import { scenarioFolder, scenarioWith } from '../../../../test/support/scenario-folder.js';
import { defaultScenariosDir, findScenario, listScenarios } from './find-scenario.js';
import type { Scenario } from './check-scenario.js';
import { scenariosInFolder } from './scenarios-in-folder.js';
import { loadScenarioFile } from './load-scenario.js';
import { buildScenarioCatalogue } from './scenario-catalogue.js';
import { SCENARIO_AJV_OPTIONS } from './scenario-schema.js';
import { scenarioSchemaPath } from './scenario-schema-path.js';
import type { Result } from '../result.js';
import { FAULT_KINDS } from '../faults/fault-kinds.js';

/** The fault kinds written as a bare word, in the schema's order: what a `then` that is none of them is told. */
const WORD_KINDS = FAULT_KINDS.filter((kind) => kind.schema.form === 'word').map((kind) => kind.name).join(', ');

const contract = loadContract();
const folder = scenarioFolder();
const twiceFolder = scenarioFolder();

function refused(result: { ok: true } | { ok: false; error: string }): string {
  if (result.ok) throw new Error('expected the scenario to be refused, but it loaded');
  return result.error;
}
function loaded(result: Result<Scenario, string>): Scenario {
  if (!result.ok) throw new Error(`expected the scenario to load, got: ${result.error}`);
  return result.value;
}

const notFound = { code: 'pet_not_found', message: 'No animal has the id 1.', status: 404 };
const getPet404 = { match: { operation: 'getPet' }, response: { status: 404, body: notFound } };

/**
 * Every bad scenario file tried: its name (also its file name), its stubs or
 * the whole file, and the problems it must be refused with (the message is
 * `<file>: ` then these, joined with `; `).
 */
const BAD_FILES: Array<{ name: string; file?: object | string; stubs?: unknown[]; extra?: Record<string, unknown>; problems: string[] }> = [
  // The file itself.
  { name: 'not-yaml', file: 'name: [\n', problems: ['cannot be read as YAML or JSON: unexpected end of the stream within a flow collection (2:1)'] },
  { name: 'empty-file', file: '', problems: ['$ must be a mapping'] },
  { name: 'a-list', file: '- name: a-list\n', problems: ['$ must be a mapping'] },
  { name: 'duplicate-key', file: 'name: a\nname: b\n', problems: ['cannot be read as YAML or JSON: duplicated mapping key (2:1)'] },
  // Top-level schema errors.
  { name: 'missing-fields', file: { name: 'missing-fields', catalogue: { fixture: 'fixtures/pets.json' } }, problems: ['$.description is required', '$.stubs is required'] },
  { name: 'unknown-key', stubs: [], extra: { stub: [] }, problems: ['$.stub is not allowed here (allowed: name, description, catalogue, initialState, stubs)'] },
  { name: 'stubs-not-a-list', file: { ...scenarioWith('stubs-not-a-list', []), stubs: { match: { operation: 'getPet' } } }, problems: ['$.stubs must be a list'] },
  { name: 'Not_Kebab', file: scenarioWith('Not_Kebab', []), problems: ['$.name must be kebab-case: lower-case letters and digits, words joined by single hyphens'] },
  { name: 'name-mismatch', file: scenarioWith('another-name', []), problems: ["$.name must be the file's name, name-mismatch (got another-name)"] },
  { name: 'empty-description', stubs: [], extra: { description: '' }, problems: ['$.description must NOT have fewer than 1 characters'] },
  { name: 'empty-initial-state', stubs: [], extra: { initialState: '' }, problems: ['$.initialState must NOT have fewer than 1 characters'] },
  // The catalogue.
  { name: 'two-catalogues', stubs: [], extra: { catalogue: { fixture: 'fixtures/pets.json', generate: { count: 1, seed: 1 } } }, problems: ['$.catalogue must have only one of fixture, generate (it has fixture and generate)'] },
  { name: 'no-catalogue', stubs: [], extra: { catalogue: {} }, problems: ['$.catalogue must have at least one of fixture, generate'] },
  { name: 'generate-no-seed', stubs: [], extra: { catalogue: { generate: { count: 5 } } }, problems: ['$.catalogue.generate.seed is required'] },
  { name: 'generate-negative', stubs: [], extra: { catalogue: { generate: { count: -1, seed: 1.5 } } }, problems: ['$.catalogue.generate.count must be >= 0', '$.catalogue.generate.seed must be an integer'] },
  { name: 'generate-too-many', stubs: [], extra: { catalogue: { generate: { count: 100001, seed: 1 } } }, problems: ['$.catalogue.generate.count must be <= 100000'] },
  { name: 'mix-all-zero', stubs: [], extra: { catalogue: { generate: { count: 5, seed: 1, statusMix: { sold: 0, pending: 0 } } } }, problems: ['$.catalogue.generate.statusMix must give at least one status a weight above 0'] },
  { name: 'mix-unknown-status', stubs: [], extra: { catalogue: { generate: { count: 5, seed: 1, statusMix: { lost: 1 } } } }, problems: ['$.catalogue.generate.statusMix.lost is not allowed here (allowed: available, pending, sold)'] },
  // Matches.
  { name: 'unknown-operation', stubs: [{ ...getPet404, match: { operation: 'deletePet' } }], problems: ['$.stubs[0].match.operation must be one of listPets, createPet, getPet, *'] },
  { name: 'operation-typo', stubs: [{ ...getPet404, match: { operaton: 'getPet' } }], problems: ['$.stubs[0].match.operation is required', '$.stubs[0].match.operaton is not allowed here (allowed: operation, query, headers, body, calls)'] },
  { name: 'no-match', stubs: [{ response: getPet404.response }], problems: ['$.stubs[0].match is required'] },
  { name: 'two-predicates', stubs: [{ ...getPet404, match: { operation: 'getPet', query: { verbose: { equals: '1', absent: true } } } }], problems: ['$.stubs[0].match.query.verbose must have only one of equals, matches, absent (it has equals and absent)'] },
  { name: 'empty-predicate', stubs: [{ ...getPet404, match: { operation: 'getPet', headers: { 'x-trace': {} } } }], problems: ["$.stubs[0].match.headers['x-trace'] must have at least one of equals, matches, absent"] },
  { name: 'absent-false', stubs: [{ ...getPet404, match: { operation: 'getPet', query: { verbose: { absent: false } } } }], problems: ['$.stubs[0].match.query.verbose.absent must be true'] },
  { name: 'unknown-predicate', stubs: [{ ...getPet404, match: { operation: 'getPet', query: { verbose: { contains: 'x' } } } }], problems: ['$.stubs[0].match.query.verbose.contains is not allowed here (allowed: equals, matches, absent)'] },
  { name: 'bad-header-name', stubs: [{ ...getPet404, match: { operation: 'getPet', headers: { 'x trace': { absent: true } } } }], problems: ['$.stubs[0].match.headers has a name that is not a valid HTTP field name: "x trace"'] },
  { name: 'invalid-regex-query', stubs: [{ ...getPet404, match: { operation: 'getPet', query: { q: { matches: '[a' } } } }], problems: ['$.stubs[0].match.query.q.matches is not a valid regular expression: Invalid regular expression: /[a/: Unterminated character class'] },
  { name: 'invalid-regex-header', stubs: [{ ...getPet404, match: { operation: 'getPet', headers: { 'x-id': { matches: '(a' } } } }], problems: ["$.stubs[0].match.headers['x-id'].matches is not a valid regular expression: Invalid regular expression: /(a/: Unterminated group"] },
  { name: 'invalid-regex-body', stubs: [{ match: { operation: 'createPet', body: { name: { matches: 'a{2,1}' } } }, response: { status: 400, body: { code: 'invalid_body', message: 'x', status: 400 } } }], problems: ['$.stubs[0].match.body.name.matches is not a valid regular expression: Invalid regular expression: /a{2,1}/: numbers out of order in {} quantifier'] },
  { name: 'body-on-get', stubs: [{ ...getPet404, match: { operation: 'getPet', body: { name: { absent: true } } } }], problems: ['$.stubs[0].match.body needs an operation with a request body (getPet has none)'] },
  { name: 'body-on-any', stubs: [{ match: { operation: '*', body: { name: { absent: true } } }, fault: { then: { status: 503 } } }], problems: ['$.stubs[0].match.body needs one operation with a request body, not * (listPets, getPet have none)'] },
  { name: 'empty-calls', stubs: [{ ...getPet404, match: { operation: 'getPet', calls: {} } }], problems: ['$.stubs[0].match.calls must have at least one of every, first, after'] },
  { name: 'calls-zero', stubs: [{ ...getPet404, match: { operation: 'getPet', calls: { every: 0, first: 1.5 } } }], problems: ['$.stubs[0].match.calls.every must be >= 1', '$.stubs[0].match.calls.first must be an integer'] },
  { name: 'calls-unknown', stubs: [{ ...getPet404, match: { operation: 'getPet', calls: { nth: 3 } } }], problems: ['$.stubs[0].match.calls.nth is not allowed here (allowed: every, first, after)'] },
  // Answers: response or fault, exactly one.
  { name: 'response-and-fault', stubs: [{ ...getPet404, fault: { then: 'reset' } }], problems: ['$.stubs[0] must have only one of response, fault (it has response and fault)'] },
  { name: 'no-answer', stubs: [{ match: { operation: 'getPet' } }], problems: ['$.stubs[0] must have one of response, fault'] },
  // Responses against the contract document.
  { name: 'undocumented-status', stubs: [{ match: { operation: 'getPet' }, response: { status: 500, body: { code: 'x', message: 'y', status: 500 } } }], problems: ['$.stubs[0].response.status 500 is not documented for getPet (documented: 200, 401, 404): only a fault sends other statuses'] },
  { name: 'undocumented-for-list', stubs: [{ match: { operation: 'listPets' }, response: { status: 404, body: notFound } }], problems: ['$.stubs[0].response.status 404 is not documented for listPets (documented: 200, 401): only a fault sends other statuses'] },
  { name: 'any-operation-404', stubs: [{ match: { operation: '*' }, response: { status: 404, body: notFound } }], problems: ['$.stubs[0].response.status 404 is not documented for listPets (documented: 200, 401): only a fault sends other statuses, and an operation * stub must suit every operation (it does not suit listPets, createPet)'] },
  { name: 'body-enum', stubs: [{ match: { operation: 'getPet' }, response: { status: 200, body: { id: 1, name: 'Rex', categoryId: 2, status: 'lost' } } }], problems: ['$.stubs[0].response.body.status must be one of available, pending, sold'] },
  { name: 'body-missing-field', stubs: [{ match: { operation: 'getPet' }, response: { status: 404, body: { code: 'pet_not_found', message: 'gone' } } }], problems: ['$.stubs[0].response.body.status is required'] },
  { name: 'body-wrong-types', stubs: [{ match: { operation: 'createPet' }, response: { status: 201, body: { id: '7', name: 5, categoryId: 2 } } }], problems: ['$.stubs[0].response.body.name must be a string', '$.stubs[0].response.body.id must be an integer'] },
  { name: 'body-not-a-list', stubs: [{ match: { operation: 'listPets' }, response: { status: 200, body: { items: [] } } }], problems: ['$.stubs[0].response.body must be an array'] },
  { name: 'body-list-item', stubs: [{ match: { operation: 'listPets' }, response: { status: 200, body: [{ id: 1, name: 'Rex', categoryId: 2 }, { id: 2, name: 'Tom' }] } }], problems: ['$.stubs[0].response.body[1].categoryId is required'] },
  { name: 'body-required', stubs: [{ match: { operation: 'getPet' }, response: { status: 404 } }], problems: ['$.stubs[0].response.body is required: getPet documents a JSON body for 404'] },
  { name: 'error-status-differs', stubs: [{ match: { operation: 'getPet' }, response: { status: 404, body: { ...notFound, status: 400 } } }], problems: ["$.stubs[0].response.body.status must be 404, the HTTP status (an Error's status equals the HTTP status code)"] },
  { name: 'any-operation-body', stubs: [{ match: { operation: '*' }, response: { status: 401, body: { code: 'unauthorized', message: 'no' } } }], problems: ['$.stubs[0].response.body.status is required, and an operation * stub must suit every operation (it does not suit listPets, createPet, getPet)'] },
  { name: 'reserved-header', stubs: [{ ...getPet404, response: { ...getPet404.response, headers: { 'Content-Type': 'text/plain' } } }], problems: ["$.stubs[0].response.headers['Content-Type'] is set by the mock and cannot be stubbed"] },
  { name: 'header-value-list', stubs: [{ ...getPet404, response: { ...getPet404.response, headers: { 'x-a': ['1'] } } }], problems: ["$.stubs[0].response.headers['x-a'] must be a string or a number"] },
  { name: 'status-not-integer', stubs: [{ ...getPet404, response: { status: '404', body: notFound } }], problems: ['$.stubs[0].response.status must be an integer'] },
  // Latency.
  { name: 'latency-negative', stubs: [{ match: { operation: 'getPet' }, fault: { latency: { fixedMs: -1 } } }], problems: ['$.stubs[0].fault.latency.fixedMs must be >= 0'] },
  { name: 'latency-too-long', stubs: [{ match: { operation: 'getPet' }, fault: { latency: { fixedMs: 600001 } } }], problems: ['$.stubs[0].fault.latency.fixedMs must be <= 600000'] },
  { name: 'latency-text', stubs: [{ match: { operation: 'getPet' }, fault: { latency: '800ms' } }], problems: ['$.stubs[0].fault.latency must be a mapping'] },
  { name: 'latency-unknown-kind', stubs: [{ match: { operation: 'getPet' }, fault: { latency: { exponentialMs: 5 } } }], problems: ['$.stubs[0].fault.latency.exponentialMs is not allowed here (allowed: fixedMs, uniformMs, logNormal)'] },
  { name: 'latency-two-kinds', stubs: [{ match: { operation: 'getPet' }, fault: { latency: { fixedMs: 5, uniformMs: [1, 2] } } }], problems: ['$.stubs[0].fault.latency must have only one of fixedMs, uniformMs, logNormal (it has fixedMs and uniformMs)'] },
  { name: 'latency-uniform-reversed', stubs: [{ match: { operation: 'getPet' }, fault: { latency: { uniformMs: [900, 100] } } }], problems: ['$.stubs[0].fault.latency.uniformMs must be [min, max] with min ≤ max (got [900, 100])'] },
  { name: 'latency-uniform-one', stubs: [{ match: { operation: 'getPet' }, fault: { latency: { uniformMs: [900] } } }], problems: ['$.stubs[0].fault.latency.uniformMs must NOT have fewer than 2 items'] },
  { name: 'latency-lognormal', stubs: [{ match: { operation: 'getPet' }, fault: { latency: { logNormal: { medianMs: 0, sigma: -1 } } } }], problems: ['$.stubs[0].fault.latency.logNormal.medianMs must be > 0', '$.stubs[0].fault.latency.logNormal.sigma must be >= 0'] },
  { name: 'latency-lognormal-no-sigma', stubs: [{ match: { operation: 'getPet' }, fault: { latency: { logNormal: { medianMs: 800 } } } }], problems: ['$.stubs[0].fault.latency.logNormal.sigma is required'] },
  // Faults.
  { name: 'empty-fault', stubs: [{ match: { operation: 'getPet' }, fault: {} }], problems: ['$.stubs[0].fault must have at least one of latency, then'] },
  { name: 'unknown-fault', stubs: [{ match: { operation: 'getPet' }, fault: { then: 'explode' } }], problems: [`$.stubs[0].fault.then must be one of ${WORD_KINDS}`] },
  { name: 'fault-number', stubs: [{ match: { operation: 'getPet' }, fault: { then: 503 } }], problems: ['$.stubs[0].fault.then must be a string or a mapping'] },
  { name: 'fault-status-418', stubs: [{ match: { operation: 'getPet' }, fault: { then: { status: 418 } } }], problems: ['$.stubs[0].fault.then.status must be one of 500, 503, 429'] },
  { name: 'fault-retry-alone', stubs: [{ match: { operation: 'getPet' }, fault: { then: { retryAfterSeconds: 5 } } }], problems: ['$.stubs[0].fault.then must have one of status, trickle', '$.stubs[0].fault.then.retryAfterSeconds is allowed only with status'] },
  { name: 'fault-retry-negative', stubs: [{ match: { operation: 'getPet' }, fault: { then: { status: 503, retryAfterSeconds: -5 } } }], problems: ['$.stubs[0].fault.then.retryAfterSeconds must be >= 0'] },
  { name: 'fault-status-and-trickle', stubs: [{ match: { operation: 'getPet' }, fault: { then: { status: 503, trickle: { chunkBytes: 1, intervalMs: 1 } } } }], problems: ['$.stubs[0].fault.then must have only one of status, trickle (it has status and trickle)'] },
  { name: 'fault-trickle-zero', stubs: [{ match: { operation: 'getPet' }, fault: { then: { trickle: { chunkBytes: 0 } } } }], problems: ['$.stubs[0].fault.then.trickle.intervalMs is required', '$.stubs[0].fault.then.trickle.chunkBytes must be >= 1'] },
  // States.
  { name: 'state-unreachable', stubs: [{ ...getPet404, requiredState: 'Faild' }, { match: { operation: 'listPets' }, newState: 'Failed', fault: { then: 'pass' } }], problems: ['$.stubs[0].requiredState "Faild" can never be reached: the scenario starts in "Started" and no stub has it as newState'] },
  // Several problems at once: all are named.
  {
    name: 'several',
    stubs: [
      { match: { operation: 'getPet' }, response: { status: 200, body: { id: 1, name: 'Rex', categoryId: 2, status: 'lost' } } },
      { match: { operation: 'getPet', query: { q: { matches: '(' } } }, fault: { latency: { uniformMs: [5, 1] } } },
    ],
    problems: [
      '$.stubs[0].response.body.status must be one of available, pending, sold',
      '$.stubs[1].match.query.q.matches is not a valid regular expression: Invalid regular expression: /(/: Unterminated group',
      '$.stubs[1].fault.latency.uniformMs must be [min, max] with min ≤ max (got [5, 1])',
    ],
  },
];

describe('loading a scenario file', () => {
  describe('refuses a bad file with `<file>: <JSONPath> <reason>`, naming every problem', () => {
    it.each(BAD_FILES)('$name', ({ name, file, stubs, extra, problems }) => {
      const path = folder.write(`${name}.yaml`, file ?? scenarioWith(name, stubs ?? [], extra));
      const error = refused(loadScenarioFile(contract, path));
      if (typeof file === 'string' && problems[0]?.startsWith('cannot be read')) {
        expect(error.startsWith(`${path}: ${problems[0]}`), error).toBe(true);
      } else {
        expect(error).toBe(`${path}: ${problems.join('; ')}`);
      }
    });
  });

  it('refuses a catalogue fixture that cannot be read, when the catalogue is built', async () => {
    const path = folder.write('missing-fixture.yaml', scenarioWith('missing-fixture', [], { catalogue: { fixture: 'fixtures/no-such-file.json' } }));
    const scenario = loaded(loadScenarioFile(contract, path));
    const error = refused(await buildScenarioCatalogue(scenariosInFolder(contract, defaultScenariosDir()), scenario));
    expect(error).toMatch(new RegExp(`^${escape(path)}: \\$\\.catalogue\\.fixture is not a usable catalogue: .*no-such-file\\.json: cannot be read as JSON or YAML: ENOENT`));
  });

  it('refuses a catalogue fixture that breaks the Pets schema', async () => {
    const fixture = folder.write('bad-pets.json', JSON.stringify([{ id: 1, name: 'Rex', categoryId: 2, status: 'lost' }]));
    const path = folder.write('bad-fixture.yaml', scenarioWith('bad-fixture', [], { catalogue: { fixture } }));
    const error = refused(await buildScenarioCatalogue(scenariosInFolder(contract, defaultScenariosDir()), loaded(loadScenarioFile(contract, path))));
    expect(error).toBe(`${path}: $.catalogue.fixture is not a usable catalogue: ${fixture}: $[0].status must be one of available, pending, sold`);
  });

  it('accepts JSON files and .yml files, and compiles the stubs in order with their ids', () => {
    const json = folder.write('as-json.json', JSON.stringify(scenarioWith('as-json', [{ id: 'gone', ...getPet404 }, getPet404])));
    const scenario = loaded(loadScenarioFile(contract, json));
    expect(scenario.stubs.map((s) => [s.index, s.label, s.operation])).toEqual([
      [0, 'gone', 'getPet'],
      [1, '#1', 'getPet'],
    ]);
    expect(scenario.initialState).toBe('Started');
    const yml = folder.write('as-yml.yml', scenarioWith('as-yml', [], { initialState: 'Open' }));
    expect(loaded(loadScenarioFile(contract, yml)).initialState).toBe('Open');
  });

  it('accepts a state reached only through newState, and response headers given as numbers', () => {
    const path = folder.write('states.yaml', scenarioWith('states', [
      { match: { operation: 'createPet' }, newState: 'Created', fault: { then: 'pass' } },
      { ...getPet404, requiredState: 'Created', response: { ...getPet404.response, headers: { 'x-attempt': 2 } } },
    ]));
    const scenario = loaded(loadScenarioFile(contract, path));
    expect(scenario.stubs[1]?.answer).toMatchObject({ kind: 'response', headers: { 'x-attempt': '2' } });
  });
});

describe('scenarios/scenario.schema.json', () => {
  it('is a valid draft-07 JSON Schema that ajv compiles in strict mode', () => {
    const ajv = new Ajv({ ...SCENARIO_AJV_OPTIONS, validateSchema: true });
    const schema = JSON.parse(readFileSync(scenarioSchemaPath(), 'utf8')) as { $schema: string };
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  it('forbids unknown keys in every object it describes', () => {
    const objects: Array<[string, Record<string, unknown>]> = [];
    const walk = (node: unknown, path: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as Record<string, unknown>;
      if (schema.properties && !('additionalProperties' in schema)) objects.push([path, schema]);
      for (const [key, child] of Object.entries(schema)) walk(child, `${path}/${key}`);
    };
    walk(JSON.parse(readFileSync(scenarioSchemaPath(), 'utf8')), '#');
    expect(objects.map(([path]) => path)).toEqual([]);
  });
});

describe('finding a scenario by name', () => {
  it('lists the shipped scenarios, not the schema', () => {
    const listed = listScenarios(defaultScenariosDir());
    if (!listed.ok) throw new Error(listed.error);
    expect([...listed.value.keys()]).toEqual([
      'after-sunset', 'auth-rejected', 'default', 'empty-catalogue', 'flaky', 'large-catalogue', 'not-found', 'rate-limited', 'server-error', 'slow', 'sold-out', 'validation-errors',
    ]);
  });

  it('names the known scenarios when the name is unknown', () => {
    const error = refused(findScenario(defaultScenariosDir(), 'nope'));
    expect(error).toMatch(/^unknown scenario "nope" in \S*scenarios \(known: after-sunset, auth-rejected, default, empty-catalogue, flaky, /);
  });

  it('never reads a path made of the name', () => {
    for (const name of ['../package', 'scenarios/default', 'default.yaml', '']) {
      expect(refused(findScenario(defaultScenariosDir(), name))).toContain(`unknown scenario ${JSON.stringify(name)}`);
    }
  });

  it('refuses two files for one name', () => {
    twiceFolder.write('twice.yaml', scenarioWith('twice', []));
    twiceFolder.write('twice.json', JSON.stringify(scenarioWith('twice', [])));
    const { dir } = twiceFolder;
    expect(refused(findScenario(dir, 'twice'))).toBe(`${join(dir, 'twice.yaml')}: scenario twice is also defined by ${join(dir, 'twice.json')}; keep one file per scenario`);
  });

  it('says so when the folder cannot be read', () => {
    expect(refused(findScenario('/no/such/folder', 'default'))).toMatch(/^cannot read the scenarios folder \/no\/such\/folder: ENOENT/);
  });
});

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
