import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/shared/package-root.js';
import { BIN, useBuiltCli } from '../support/built-cli.js';
import { Processes } from '../support/processes.js';
import { flagsOf, loadCompose, service } from './compose-file.js';

/**
 * compose.yaml checked without a container engine:
 * against the Compose Specification's JSON schema, and against the mock
 * it starts (its flags and variables). Its health check is run in
 * compose-redis.redis.test.ts, against the mock on the redis service as
 * compose starts them: the mock stops at start-up without its Redis.
 *
 * compose-spec.json beside this file is schema/compose-spec.json of the
 * compose-spec/compose-go repository (commit faa67b2, 16 June 2026), the
 * schema Docker Compose itself validates with; the copy in the
 * compose-spec/compose-spec repository says it is kept for backward
 * compatibility only. Apache License 2.0 (compose-spec.LICENSE); "The
 * Compose Specification, Copyright 2020 The Compose Specification
 * Authors". Its draft is 2020-12, hence ajv's Ajv2020 class.
 */

useBuiltCli();
const processes = new Processes();
afterEach(() => processes.killAll());

const root = packageRoot();
const compose = loadCompose();
const mock = service('mock');

// The schema is not ours: strict mode would reject its union types and
// untyped keywords, which are valid JSON Schema.
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(
  JSON.parse(readFileSync(join(root, 'test', 'docker', 'compose-spec.json'), 'utf8')) as object,
);

describe('compose.yaml', () => {
  it('is valid by the Compose Specification schema', () => {
    expect(validate(compose), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('the schema check catches a misspelt key and a malformed health check (it is not vacuous)', () => {
    const broken = loadCompose();
    (broken.services.mock as Record<string, unknown>).replica = 2;
    (broken.services.redis as Record<string, unknown>).healthcheck = { test: ['CMD', 'redis-cli', 'ping'], interval: 5 };
    expect(validate(broken)).toBe(false);
    const paths = (validate.errors ?? []).map((e) => e.instancePath);
    expect(paths).toContain('/services/mock');
    expect(paths).toContain('/services/redis/healthcheck/interval');
  });

  it('gives the mock more time to stop than its own grace and the second past it (its --help says the default), before SIGKILL', async () => {
    const help = await processes.node([BIN, '--help']);
    const grace = Number(/--shutdown-grace S[^]*?default (\d+),/.exec(help.stdout)?.[1]);
    expect(grace).toBeGreaterThan(0);
    const period = /^(\d+)s$/.exec(mock.stop_grace_period ?? '10s');
    expect(Number(period?.[1])).toBeGreaterThan(grace + 1);
  });

  it('passes the mock only flags and variables its --help lists', async () => {
    const help = await processes.node([BIN, '--help']);
    expect(help.code).toBe(0);
    for (const [flag] of flagsOf(mock.command ?? [])) {
      expect(help.stdout, `${flag} in compose.yaml`).toMatch(new RegExp(`^\\s+${flag}\\b`, 'm'));
    }
    const names = Object.keys(mock.environment ?? {});
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(help.stdout, `${name} in compose.yaml`).toMatch(new RegExp(`\\benv ${name}\\b`));
  });
});
