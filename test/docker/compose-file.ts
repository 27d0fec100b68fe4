import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { packageRoot } from '../../src/shared/package-root.js';

/** compose.yaml as the tests under test/docker read it. */
export interface Service {
  command?: string[];
  stop_grace_period?: string;
  environment?: Record<string, string>;
  healthcheck?: { test?: string[] };
}
export interface ComposeFile {
  services: Record<string, Service>;
}

const text = readFileSync(join(packageRoot(), 'compose.yaml'), 'utf8');

/** A fresh copy each call, so a test may break it. */
export const loadCompose = (): ComposeFile => yaml.load(text) as ComposeFile;

/** One service, which must exist. */
export function service(name: string): Service {
  const found = loadCompose().services[name];
  if (!found) throw new Error(`compose.yaml has no service ${name}`);
  return found;
}

/** A command's flags with their values: `--flag value` pairs, or a lone `--flag`. */
export function flagsOf(command: string[]): Array<[string, string | undefined]> {
  const flags: Array<[string, string | undefined]> = [];
  command.forEach((token, i) => {
    if (!token.startsWith('--')) return;
    const next = command[i + 1];
    flags.push([token, next !== undefined && !next.startsWith('--') ? next : undefined]);
  });
  return flags;
}
