import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findCommand } from './find-command.js';

describe('findCommand', () => {
  let root: string;
  const folder = (name: string): string => {
    const dir = join(root, name);
    mkdirSync(dir);
    return dir;
  };
  const file = (dir: string, mode: number): string => {
    const path = join(dir, 'some-server');
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

  it('is undefined when no folder on PATH or among the extra folders holds the command', () => {
    vi.stubEnv('PATH', [folder('a'), folder('b')].join(delimiter));
    expect(findCommand('some-server', [folder('c')])).toBeUndefined();
  });

  it('is the first executable file on PATH, past a non-executable one and a folder of that name', () => {
    const notExecutable = folder('not-executable');
    file(notExecutable, 0o644);
    const aFolder = folder('a-folder');
    mkdirSync(join(aFolder, 'some-server'));
    const first = file(folder('first'), 0o755);
    file(folder('second'), 0o755);
    vi.stubEnv('PATH', ['', notExecutable, aFolder, join(root, 'first'), join(root, 'second')].join(delimiter));
    expect(findCommand('some-server')).toBe(first);
  });

  it('looks in the extra folders (/usr/sbin for nginx) only after every folder on PATH', () => {
    const extra = file(folder('sbin'), 0o755);
    vi.stubEnv('PATH', folder('bin'));
    expect(findCommand('some-server', [join(root, 'sbin')])).toBe(extra);
    const onPath = file(join(root, 'bin'), 0o755);
    expect(findCommand('some-server', [join(root, 'sbin')])).toBe(onPath);
  });
});
