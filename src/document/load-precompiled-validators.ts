import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { packageRoot } from '../shared/package-root.js';
import { usePrecompiledValidators } from './precompiled-validators.js';

const require = createRequire(import.meta.url);

/** Where the build writes the validators it precompiled (`npm run build`). */
export const precompiledValidatorsPath = (): string => join(packageRoot(), 'dist', 'generated', 'validators.cjs');

let done = false;

/** Takes the build's precompiled validators, once a process (none without a build). */
export function loadPrecompiledValidators(): void {
  if (done) return;
  done = true;
  const path = precompiledValidatorsPath();
  if (existsSync(path)) usePrecompiledValidators(new Map(Object.entries(require(path) as Record<string, ValidateFunction>)));
}
