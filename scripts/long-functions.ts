/**
 * Lists the functions of src/ over 60 lines, longest first: a report for
 * review, not a check (nothing fails on it).
 *
 *   npm run report:long-functions              (node dist/scripts/long-functions.js [--lines N] [--with-tests])
 *
 * Test files are left out unless --with-tests: their describe callbacks are
 * long by nature. The scan is heuristic (scripts/function-spans.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/shared/package-root.js';
import { functionSpans, type FunctionSpan } from './function-spans.js';

const { values } = parseArgs({ options: { lines: { type: 'string', default: '60' }, 'with-tests': { type: 'boolean', default: false } } });
const over = Number(values.lines);
if (!Number.isInteger(over) || over < 1) throw new Error(`--lines must be a whole number above 0, got ${values.lines}`);

const root = packageRoot();
const isTest = (file: string): boolean => /\.(test|suite)\.ts$/.test(file);
const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && (values['with-tests'] || !isTest(file)))
  .map((file) => `src/${file.replaceAll('\\', '/')}`);

const long: Array<FunctionSpan & { file: string }> = files.flatMap((file) =>
  functionSpans(readFileSync(join(root, file), 'utf8'))
    .filter((span) => span.lines > over)
    .map((span) => ({ ...span, file })),
);
long.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));

const rows = long.map((span) => {
  const where = `${span.file}:${span.startLine}-${span.endLine}`;
  return `${String(span.lines).padStart(4)}  ${where.padEnd(56)} ${span.name.length > 90 ? `${span.name.slice(0, 89)}…` : span.name}\n`;
});
process.stdout.write(`${long.length} functions over ${over} lines in ${files.length} files of src/${values['with-tests'] ? ' (tests included)' : ' (tests left out)'}\n${rows.join('')}`);
