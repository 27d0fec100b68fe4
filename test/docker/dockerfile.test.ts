import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/shared/package-root.js';
import { tempFolder } from '../support/temp-folder.js';

/**
 * The Dockerfile's static checks (dockerfile-replay.mjs `check`), run in
 * every `npm test`: the exact base image release, the labels, the runtime's
 * user, variables and health check. The full replay of the build
 * (verify-dockerfile.sh) runs two `npm ci`s and stays a manual check; what
 * neither can check without a container engine is listed there.
 */
const root = packageRoot();
const helper = join(root, 'test', 'docker', 'dockerfile-replay.mjs');

function check(dockerfile: string, dir = root): { code: number | null; out: string } {
  const run = spawnSync(process.execPath, [helper, 'check', dockerfile, join(root, '.dockerignore')], { cwd: dir, encoding: 'utf8' });
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
}

/** The Dockerfile changed by `change`, beside a copy of package.json (the labels are checked against it). */
function changed(change: (text: string) => string): string {
  const dir = tempFolder('dockerfile-');
  copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
  const file = join(dir, 'Dockerfile');
  writeFileSync(file, change(readFileSync(join(root, 'Dockerfile'), 'utf8')));
  return file;
}

describe('the Dockerfile, checked without an engine', () => {
  it('passes every static check', () => {
    const { code, out } = check(join(root, 'Dockerfile'));
    expect(out).not.toMatch(/^FAIL/m);
    expect(code, out).toBe(0);
  });

  it.each([
    ['a floating major tag', (text: string) => text.replace(/node:22\.\d+\.\d+-slim AS runtime/, 'node:22-slim AS runtime'), 'an exact release'],
    ['two releases', (text: string) => text.replace(/node:22\.\d+\.\d+-slim AS runtime/, 'node:22.1.0-slim AS runtime'), 'share one Node release'],
    ['no NODE_ENV', (text: string) => text.replace('PORT=4010 NODE_ENV=production', 'PORT=4010'), 'NODE_ENV=production'],
    ['a label behind package.json', (text: string) => text.replace(/image\.version="[^"]*"/, 'image.version="0.0.1"'), 'OCI labels'],
  ])('fails on %s', (_, change, what) => {
    const { code, out } = check(changed(change));
    expect(code).toBe(1);
    expect(out).toMatch(new RegExp(`^FAIL.*${what}`, 'm'));
  });
});
