import { statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Contract } from '../../../document/contract.js';
import { packageRoot } from '../../../shared/package-root.js';
import { displayPath } from '../files/display-path.js';
import { loadFixture } from '../fixtures/load-fixture.js';
import { ok } from '../result.js';
import { listScenarios } from './find-scenario.js';
import { readScenarioFile } from './load-scenario.js';
import type { ScenarioEntry, ScenarioSource } from './scenario-source.js';

/**
 * The scenarios of a folder (`--scenarios`, the shipped `scenarios/` by
 * default), read at each look-up, so a file added or edited applies; a
 * scenario's fixture is a path relative to the package, or absolute.
 */
export function scenariosInFolder(contract: Contract, dir: string): ScenarioSource {
  return {
    where: displayPath(dir),
    list() {
      const listed = listScenarios(dir);
      if (!listed.ok) return listed;
      return ok(new Map([...listed.value].map(([name, file]) => [name, fileEntry(name, file)] as const)));
    },
    fixture(path) {
      const file = isAbsolute(path) ? path : join(packageRoot(), path);
      const loaded = loadFixture(contract, file);
      return loaded.ok ? ok({ pets: loaded.value, from: file }) : loaded;
    },
  };
}

function fileEntry(name: string, file: string): ScenarioEntry {
  return { name, file, shown: displayPath(file), read: () => readScenarioFile(file), stamp: () => stampOf(file) };
}

/** The file's modification time and size: a kept reading is used only while they stay the same. */
function stampOf(path: string): string {
  try {
    const { mtimeMs, size } = statSync(path);
    return `${mtimeMs}:${size}`;
  } catch {
    return '';
  }
}
