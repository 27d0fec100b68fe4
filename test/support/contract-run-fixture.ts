import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { CONTRACT_BIN, type TestServer } from './contract-cli.js';
import { Processes, requireBuilt } from './processes.js';

export interface ContractRunFixture {
  /** The harness's child processes, killed when the file ends. */
  processes: Processes;
  /** The servers a test starts: closed when the file ends. */
  servers: TestServer[];
  /** A temporary folder of the file's own (the reports' cwd), removed when it ends. */
  dir(): string;
}

/** For a test file that runs the built harness against servers of its own: needs the build, and cleans up after itself. */
export function useContractRun(name: string): ContractRunFixture {
  const fixture: ContractRunFixture = { processes: new Processes(), servers: [], dir: () => folder };
  let folder = '';
  beforeAll(() => {
    requireBuilt(CONTRACT_BIN);
    folder = mkdtempSync(join(tmpdir(), `animal-store-${name}-`));
  });
  afterAll(async () => {
    await fixture.processes.killAll();
    await Promise.all(fixture.servers.splice(0).map((server) => server.close()));
    if (folder) rmSync(folder, { recursive: true, force: true });
  });
  return fixture;
}
