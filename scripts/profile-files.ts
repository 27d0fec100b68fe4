import { dump } from 'js-yaml';
import { PROFILE_POINTS, type ProfileChoices } from '../src/shared/profile/profile-points.js';
import type { ProfilePointSpec } from '../src/shared/profile/profile-point.js';
import { PROFILE_VERSION } from '../src/shared/profile/profile.js';

/**
 * The files written from the profile points (src/shared/profile/profile-points.ts)
 * by `npm run profile-files`: profiles/profile.schema.json,
 * profiles/default.yaml, the table of docs/reference.md and the one of
 * docs/harness-drift.md. Each takes the
 * points, so a test can add one and see every file take it.
 */
const asPoints = (points: readonly unknown[]): readonly ProfilePointSpec[] => points as readonly ProfilePointSpec[];

/** The profile format's JSON Schema. */
export function profileSchema(points: readonly unknown[] = PROFILE_POINTS): object {
  const all = asPoints(points);
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://animal-store.example/profile.schema.json',
    title: 'Animal Store mock profile',
    description:
      'What a server chose where the interface is silent, one choice per point the contract harness observes. Written by `animal-store-contract --write-profile`; read by `animal-store-mock --profile`.',
    type: 'object',
    additionalProperties: false,
    required: ['version', 'name', 'choices'],
    properties: {
      $schema: { type: 'string', description: 'For editors: where this schema is.' },
      version: { const: PROFILE_VERSION, description: "The profile format's version." },
      name: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$', description: 'Shown by GET /__mock/health and the console.' },
      choices: {
        type: 'object',
        additionalProperties: false,
        description: "A point left out keeps the mock's own choice (profiles/default.yaml).",
        properties: Object.fromEntries(
          all.map((point) => [point.key, { description: point.about === undefined ? `${point.question}.` : `${point.question}: ${point.about}.`, ...point.schema, examples: [point.example] }]),
        ),
      },
      notes: {
        type: 'object',
        additionalProperties: false,
        description: "Written by the harness: for a point left at the mock's choice, why.",
        properties: Object.fromEntries(all.map((point) => [point.key, { type: 'string' }])),
      },
    },
    definitions: {
      code: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_.:-]{0,63}$', description: "The Error body's code: a letter, then up to 63 letters, digits, _ . : -" },
    },
  };
}

export const profileSchemaText = (points?: readonly unknown[]): string => `${JSON.stringify(profileSchema(points), null, 2)}\n`;

/** Every point's own choice: the mock's without a profile. */
const ownChoices = (points: readonly unknown[] = PROFILE_POINTS): ProfileChoices =>
  Object.fromEntries(asPoints(points).map((point) => [point.key, point.own])) as ProfileChoices;

/** profiles/default.yaml: the mock's own choices, as a profile. */
export function defaultProfileText(points?: readonly unknown[]): string {
  const header = [
    '# yaml-language-server: $schema=./profile.schema.json',
    '# The mock\'s own choices where the interface is silent: what it serves',
    '# without --profile. Written by `npm run profile-files` from',
    '# src/shared/profile/profile-points.ts; a test checks the two agree.',
  ];
  return `${header.join('\n')}\n${dump({ version: PROFILE_VERSION, name: 'default', choices: ownChoices(points) }, { flowLevel: 2, lineWidth: 200 })}`;
}

/**
 * The mock's own choices as a Markdown table (profile key, question,
 * choice), in the points' order: the table of docs/reference.md under
 * "Where the interface is silent".
 */
export function profileTable(points: readonly unknown[] = PROFILE_POINTS): string {
  const rows = asPoints(points).map((point) => `| \`${point.key}\` | ${point.question} | ${(point.inWords as (choice: unknown) => string)(point.own)} |`);
  return ['| Profile key | Question | Choice |', '|---|---|---|', ...rows].join('\n');
}

/** What the harness learns each point from, as a Markdown table: the table of docs/harness-drift.md under `--write-profile`. */
export function learnedTable(points: readonly unknown[] = PROFILE_POINTS): string {
  const rows = asPoints(points).map((point) => `| \`${point.key}\` | ${point.learnedFrom} |`);
  return ['| Point | Learned from |', '|---|---|', ...rows].join('\n');
}

/** The documentation files the tables are written into. */
export const TABLE_DOC = 'docs/reference.md';
export const LEARNED_DOC = 'docs/harness-drift.md';
const HEADING = '## Where the interface is silent';

/** `text` with the table whose header line starts as `table`'s replaced by `table`, the first after `after` (a line of the file). */
function withTable(text: string, table: string, doc: string, after?: string): string {
  const lines = text.split('\n');
  const header = table.slice(0, table.indexOf('|', 2) + 1);
  const from = after === undefined ? 0 : lines.indexOf(after);
  if (from === -1) throw new Error(`${doc} has no line "${after}"`);
  const start = lines.findIndex((line, i) => i > from && line.startsWith(header));
  const next = after === undefined ? -1 : lines.findIndex((line, i) => i > from && line.startsWith('## '));
  if (start === -1 || (next !== -1 && start > next)) throw new Error(`${doc} has no "${header}" table${after === undefined ? '' : ` under "${after}"`}`);
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  return [...lines.slice(0, start), table, ...lines.slice(end === -1 ? lines.length : end)].join('\n');
}

/** docs/reference.md with the table of the mock's own choices, under "Where the interface is silent", as the points give it. */
export const withProfileTable = (text: string, table: string = profileTable()): string => withTable(text, table, TABLE_DOC, HEADING);

/** docs/harness-drift.md with the table of what each point is learned from, as the points give it. */
export const withLearnedTable = (text: string, table: string = learnedTable()): string => withTable(text, table, LEARNED_DOC);
