import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import type { Contract } from '../../../document/contract.js';
import { makeFolder } from '../files/make-folder.js';
import { loadFixture } from '../fixtures/load-fixture.js';
import { loadScenarioFile } from '../scenarios/load-scenario.js';
import type { Recording } from './recording.js';

/** The recorded scenario's name: `--scenarios DIR --scenario recorded` serves it. */
export const RECORDED_SCENARIO = 'recorded';
/** How long after a change the files are written again: a burst of traffic is one write. */
const WRITE_DELAY_MS = 1000;

export interface RecordingFolderOptions {
  /** The folder, absolute (`--record DIR`). */
  dir: string;
  contract: Contract;
  recording: Recording;
  /** Where a write's outcome and a bound reached are told (the mock's log). */
  tell(level: 'info' | 'warn' | 'error', message: string): void;
}

export interface RecordingFolder {
  /** Something was recorded: the files are written again shortly. */
  changed(): void;
  /** Writes what is recorded now, if anything changed. */
  flush(): void;
}

/**
 * The recording's files in DIR: `recorded.yaml`, a scenario in the usual
 * format, and `recorded.pets.json`, its catalogue (named by its absolute
 * path, as a scenario names a fixture outside the project). Each write is
 * made in DIR/.recording first and loaded there as the mock loads any
 * scenario and fixture; only then does it replace the last one. A write
 * that would not load is refused, the reason logged, and the last good
 * recording stays. The files hold no date, so the same traffic makes the
 * same files.
 */
export function recordingFolder({ dir, contract, recording, tell }: RecordingFolderOptions): RecordingFolder {
  const staging = join(dir, '.recording');
  const yamlFile = `${RECORDED_SCENARIO}.yaml`;
  const petsFile = `${RECORDED_SCENARIO}.pets.json`;
  let written = -1;
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (recording.version === written) return;
    const version = recording.version;
    const { file, pets } = recording.scenario(RECORDED_SCENARIO, join(dir, petsFile));
    const problem = writeChecked(file, pets);
    if (problem !== undefined) return tell('error', `the recording was not written to ${dir}: ${problem}`);
    written = version;
    tell('info', `recording written to ${join(dir, yamlFile)}: ${file.description}`);
  };
  const writeChecked = (file: object, pets: object[]): string | undefined => {
    try {
      // Level by level: DIR may have been removed since start-up, and a recursive mkdir can spin forever where folders cannot be made.
      const made = makeFolder(staging);
      if (!made.ok) return made.error;
      writeFileSync(join(staging, petsFile), `${JSON.stringify(pets, null, 2)}\n`);
      const header = `# A recording of proxy mode: serve it with --scenarios ${dir} --scenario ${RECORDED_SCENARIO}.\n`;
      writeFileSync(join(staging, yamlFile), header + dump(file, { lineWidth: -1, noRefs: true, sortKeys: false }));
      const scenario = loadScenarioFile(contract, join(staging, yamlFile));
      if (!scenario.ok) return scenario.error;
      const catalogue = loadFixture(contract, join(staging, petsFile));
      if (!catalogue.ok) return catalogue.error;
      renameSync(join(staging, petsFile), join(dir, petsFile));
      renameSync(join(staging, yamlFile), join(dir, yamlFile));
      return undefined;
    } catch (error) {
      return `${(error as NodeJS.ErrnoException).code ?? 'error'} ${(error as Error).message}`;
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  };
  return {
    changed() {
      const bound = recording.takeBoundReached();
      if (bound !== undefined) tell('warn', `recording: ${bound}`);
      // Unref'd: a pending write never keeps the process alive; flush() at the stop writes it.
      timer ??= setTimeout(flush, WRITE_DELAY_MS).unref();
    },
    flush,
  };
}
