import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../src/mock/core/profile/load-profile.js';
import { packageRoot } from '../src/shared/package-root.js';
import { learned, oneOf } from '../src/shared/profile/learn/learned.js';
import { defaultProfilePath, profileSchemaPath } from '../src/shared/profile/profile-paths.js';
import { profilePoint } from '../src/shared/profile/profile-point.js';
import { PROFILE_POINTS } from '../src/shared/profile/profile-points.js';
import { defaultProfileText, LEARNED_DOC, learnedTable, profileSchema, profileSchemaText, profileTable, TABLE_DOC, withLearnedTable, withProfileTable } from './profile-files.js';

const dir = mkdtempSync(join(tmpdir(), 'animal-store-profile-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A profile file of `choices`, loaded as `--profile` loads one: its schema checked. */
function load(name: string, choices: object) {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ version: 1, name, choices }));
  return loadProfile(file);
}

describe('the files written from the profile points (else: npm run profile-files)', () => {
  it('profiles/profile.schema.json is the points\' schema, byte for byte', () => {
    expect(readFileSync(profileSchemaPath(), 'utf8')).toBe(profileSchemaText());
  });

  it('profiles/default.yaml holds every point\'s own choice, byte for byte', () => {
    expect(readFileSync(defaultProfilePath(), 'utf8')).toBe(defaultProfileText());
  });

  it(`${TABLE_DOC}'s table is the points' table of the mock's own choices`, () => {
    const doc = readFileSync(join(packageRoot(), TABLE_DOC), 'utf8');
    expect(doc).toContain(profileTable());
    expect(withProfileTable(doc)).toBe(doc);
  });

  it(`${LEARNED_DOC}'s table is the points' table of what each is learned from`, () => {
    const doc = readFileSync(join(packageRoot(), LEARNED_DOC), 'utf8');
    expect(doc).toContain(learnedTable());
    expect(withLearnedTable(doc)).toBe(doc);
  });
});

describe('the profile points', () => {
  it('have unique keys', () => {
    expect(new Set(PROFILE_POINTS.map((point) => point.key)).size).toBe(PROFILE_POINTS.length);
  });

  it('each give an example that the schema accepts and that is not the mock\'s own choice', () => {
    for (const point of PROFILE_POINTS) {
      expect(point.example, point.key).not.toEqual(point.own);
      const loaded = load(`example-${point.key}`, { [point.key]: point.example });
      expect(loaded.ok ? undefined : loaded.error, point.key).toBeUndefined();
    }
  });

  it('refuse a choice outside a point\'s schema, naming the point', () => {
    const loaded = load('refused', { 'missing-key': { status: 400, code: 'unauthorized' } });
    expect(loaded.ok).toBe(false);
    expect(loaded.ok ? '' : loaded.error).toContain('missing-key');
  });

  it('write a point added to the list into the schema, the default profile and the table', () => {
    const trailingSlash = profilePoint<'trailing-slash', 'same' | 'not-found'>({
      key: 'trailing-slash',
      question: 'getPet: a path ending in `/`',
      learnedFrom: '`get-known-id`: `as without it` → same, a 404 → not-found',
      schema: { enum: ['same', 'not-found'] },
      own: 'not-found',
      example: 'same',
      inWords: (choice) => (choice === 'same' ? 'Answered as without it' : 'Not found'),
      learn: (answers) => oneOf(answers, (answer) => (answer === 'as without it' ? 'same' : answer.startsWith('404') ? 'not-found' : undefined)),
      noted: 'fixed',
    });
    const points = [...PROFILE_POINTS, trailingSlash];
    const schema = profileSchema(points) as { properties: { choices: { properties: Record<string, unknown> }; notes: { properties: Record<string, unknown> } } };
    expect(schema.properties.choices.properties['trailing-slash']).toEqual({ description: 'getPet: a path ending in `/`.', enum: ['same', 'not-found'], examples: ['same'] });
    expect(schema.properties.notes.properties['trailing-slash']).toEqual({ type: 'string' });
    expect(defaultProfileText(points)).toContain('\n  trailing-slash: not-found\n');
    expect(profileTable(points).split('\n').at(-1)).toBe('| `trailing-slash` | getPet: a path ending in `/` | Not found |');
    expect(learnedTable(points).split('\n').at(-1)).toBe('| `trailing-slash` | `get-known-id`: `as without it` → same, a 404 → not-found |');
    expect(trailingSlash.learn([{ answer: 'as without it', count: 3, example: 'curl …' }])).toEqual(learned('same'));
  });
});
