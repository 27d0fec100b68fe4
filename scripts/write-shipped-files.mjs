/**
 * The first build step (`npm run build`, before the compiler): copies what
 * the mock's engine reads into src/generated/, so the engine has it in
 * every runtime (a test's, a browser's) without a file system:
 * - shipped-files.ts: the files it reads, their texts by path;
 * - faker-words.ts: the only words of faker's English locale the mock uses
 *   (pet names, lorem words), so faker's locales do not ship to a browser.
 * The files and faker stay the one home of what they say; these modules
 * are their build output, never edited (and not committed). Plain
 * JavaScript: it runs before there is a dist/.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { en } from '@faker-js/faker';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const folders = { openapi: /^animal-store\.yaml$/, scenarios: /\.(ya?ml|json)$/, profiles: /\.(ya?ml|json)$/, fixtures: /\.json$/ };
const files = {};
for (const [folder, pattern] of Object.entries(folders)) {
  for (const name of readdirSync(join(root, folder)).sort()) {
    if (pattern.test(name)) files[`${folder}/${name}`] = readFileSync(join(root, folder, name), 'utf8');
  }
}
const HEADER = '// Written by scripts/write-shipped-files.mjs at each build: edit what it copies, not this.';
write('shipped-files.ts', [
  '/** The texts of the files the engine reads, by their path in the package. */',
  `export const SHIPPED_FILES: Readonly<Record<string, string>> = ${JSON.stringify(files, null, 1)};`,
]);
write('faker-words.ts', [
  "import type { LocaleDefinition } from '@faker-js/faker';",
  '',
  '/** The part of faker\'s English locale the mock uses: what animal.petName and lorem draw from. */',
  `export const FAKER_WORDS: LocaleDefinition = ${JSON.stringify({ animal: { pet_name: en.animal.pet_name }, lorem: { word: en.lorem.word } })};`,
]);

/** Writes src/generated/<name> when its text changed (an unchanged file keeps its time: nothing recompiles). */
function write(name, lines) {
  const out = join(root, 'src', 'generated', name);
  mkdirSync(dirname(out), { recursive: true });
  const text = [HEADER, ...lines, ''].join('\n');
  let before = '';
  try {
    before = readFileSync(out, 'utf8');
  } catch {}
  if (before !== text) writeFileSync(out, text);
}
