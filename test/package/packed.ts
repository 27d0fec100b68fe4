import { join } from 'node:path';
import { packageRoot } from '../../src/shared/package-root.js';
import type { Processes, Run } from '../support/processes.js';
import { childEnv } from '../support/processes.js';
import { npmChildEnv } from './offline-project.js';

/** Runs to its end, or throws with its output. */
export async function checked(run: Promise<Run>, what: string): Promise<Run> {
  const done = await run;
  if (done.code !== 0) throw new Error(`${what} exited ${done.code ?? done.signal}\nstdout: ${done.stdout}\nstderr: ${done.stderr}`);
  return done;
}

/** `npm pack` of the built repository into `dir`: the tarball's file name. */
export async function packInto(processes: Processes, dir: string): Promise<string> {
  // --ignore-scripts: a pack script (there is none) could rebuild dist/ under the tests running alongside.
  const pack = await checked(processes.run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { env: npmChildEnv(childEnv()), cwd: packageRoot() }), 'npm pack');
  return (JSON.parse(pack.stdout) as Array<{ filename: string }>)[0]!.filename;
}

/** Where a project's installed copy of this package is. */
export const installedPackage = (project: string): string => join(project, 'node_modules', 'animal-store-mock');
