import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { redisServerCommand } from './redis-server-command.js';

describe('redisServerCommand', () => {
  let root: string;
  const folder = (name: string): string => {
    const dir = join(root, name);
    mkdirSync(dir);
    return dir;
  };
  const file = (dir: string, mode: number): string => {
    const path = join(dir, 'redis-server');
    writeFileSync(path, '#!/bin/sh\n');
    chmodSync(path, mode);
    return path;
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'animal-store-path-'));
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    rmSync(root, { recursive: true, force: true });
  });

  it('is undefined when no folder on PATH holds redis-server', () => {
    vi.stubEnv('PATH', [folder('a'), folder('b')].join(delimiter));
    expect(redisServerCommand()).toBeUndefined();
  });

  it('is the first executable file on PATH, past a non-executable one and a folder of that name', () => {
    const notExecutable = folder('not-executable');
    file(notExecutable, 0o644);
    const aFolder = folder('a-folder');
    mkdirSync(join(aFolder, 'redis-server'));
    const first = file(folder('first'), 0o755);
    file(folder('second'), 0o755);
    vi.stubEnv('PATH', ['', notExecutable, aFolder, join(root, 'first'), join(root, 'second')].join(delimiter));
    expect(redisServerCommand()).toBe(first);
  });
});
