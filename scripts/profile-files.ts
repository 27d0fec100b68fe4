import { dump } from 'js-yaml';
import { PROFILE_POINTS, type ProfileChoices } from '../src/shared/profile/profile-points.js';
import type { ProfilePointSpec } from '../src/shared/profile/profile-point.js';
import { PROFILE_VERSION } from '../src/shared/profile/profile.js';

/**
 * The files written from the profile points (src/shared/profile/profile-points.ts)
 * by `npm run profile-files`: profiles/profile.schema.json,
 * profiles/default.yaml and the table of docs/reference.md. Each takes the
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
export const ownChoices = (points: readonly unknown[] = PROFILE_POINTS): ProfileChoices =>
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

/** The documentation file and the heading whose section holds the table. */
export const TABLE_DOC = 'docs/reference.md';
const HEADING = '## Where the interface is silent';

/** `text` (the documentation file) with the profile table of its section replaced by `table`. */
export function withProfileTable(text: string, table: string = profileTable()): string {
  const lines = text.split('\n');
  const section = lines.indexOf(HEADING);
  if (section === -1) throw new Error(`${TABLE_DOC} has no heading "${HEADING}"`);
  const start = lines.findIndex((line, i) => i > section && line.startsWith('| Profile key |'));
  const next = lines.findIndex((line, i) => i > section && line.startsWith('## '));
  if (start === -1 || (next !== -1 && start > next)) throw new Error(`${TABLE_DOC} has no "| Profile key |" table under "${HEADING}"`);
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  return [...lines.slice(0, start), table, ...lines.slice(end === -1 ? lines.length : end)].join('\n');
}
