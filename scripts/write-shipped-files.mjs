/**
 * The first build step (`npm run build`, before the compiler): copies the
 * files the mock's engine reads into src/generated/shipped-files.ts, as
 * their texts by path, so the engine has them in every runtime (a test's,
 * a browser's) without a file system. The files stay the one home of what
 * they say; this module is their build output, never edited (and not
 * committed). Plain JavaScript: it runs before there is a dist/.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const folders = { openapi: /^animal-store\.yaml$/, scenarios: /\.(ya?ml|json)$/, profiles: /\.(ya?ml|json)$/, fixtures: /\.json$/ };
const files = {};
for (const [folder, pattern] of Object.entries(folders)) {
  for (const name of readdirSync(join(root, folder)).sort()) {
    if (pattern.test(name)) files[`${folder}/${name}`] = readFileSync(join(root, folder, name), 'utf8');
  }
}
const out = join(root, 'src', 'generated', 'shipped-files.ts');
mkdirSync(dirname(out), { recursive: true });
const text = [
  '// Written by scripts/write-shipped-files.mjs at each build, from the files it names: edit those, not this.',
  '/** The texts of the files the engine reads, by their path in the package. */',
  `export const SHIPPED_FILES: Readonly<Record<string, string>> = ${JSON.stringify(files, null, 1)};`,
  '',
].join('\n');
let before = '';
try {
  before = readFileSync(out, 'utf8');
} catch {}
if (before !== text) writeFileSync(out, text);
