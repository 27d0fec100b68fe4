import { describe, expect, it } from 'vitest';
import { journalEntry } from '../../../../test/support/journal-entry.js';
import { createRequestJournal, DEFAULT_JOURNAL_SIZE, type JournalEntry } from './request-journal.js';

const entry = (n: number): JournalEntry => journalEntry({ path: `/v1/pets/${n}`, operation: 'getPet' });
const paths = (entries: JournalEntry[]) => entries.map((e) => e.path);

describe('the request journal ring buffer', () => {
  it('keeps the last N, oldest first, across several wraps', () => {
    const journal = createRequestJournal(3);
    expect(journal.entries()).toEqual([]);
    journal.append(entry(1));
    journal.append(entry(2));
    expect(paths(journal.entries())).toEqual(['/v1/pets/1', '/v1/pets/2']);
    for (let n = 3; n <= 10; n++) journal.append(entry(n));
    expect(paths(journal.entries())).toEqual(['/v1/pets/8', '/v1/pets/9', '/v1/pets/10']);
  });

  it('starts again from empty when cleared', () => {
    const journal = createRequestJournal(2);
    for (let n = 1; n <= 5; n++) journal.append(entry(n));
    journal.clear();
    expect(journal.entries()).toEqual([]);
    journal.append(entry(6));
    expect(paths(journal.entries())).toEqual(['/v1/pets/6']);
  });

  it('numbers entries from 1 and hands back those after a seq, at most the newest max, across wraps and clears', () => {
    const journal = createRequestJournal(4);
    expect(journal.since(0, 10)).toEqual({ entries: [], id: expect.stringMatching(/^[0-9a-f]{16}$/), counts: { byStatus: {}, byOperation: {} }, last: 0, newer: 0, cleared: 0, ended: undefined });
    for (let n = 1; n <= 10; n++) journal.append(entry(n));
    const seqs = (after: number, max: number) => journal.since(after, max).entries.map((e) => e.seq);
    expect(seqs(0, 10)).toEqual([7, 8, 9, 10]);
    expect(seqs(8, 10)).toEqual([9, 10]);
    expect(seqs(0, 2)).toEqual([9, 10]);
    expect(seqs(10, 10)).toEqual([]);
    expect(journal.since(3, 10)).toMatchObject({ last: 10, newer: 7 });
    journal.clear();
    journal.append(entry(11));
    expect(journal.since(10, 10)).toMatchObject({ last: 11, newer: 1, cleared: 1 });
    expect(seqs(0, 10)).toEqual([11]);
    journal.end('gone');
    expect(journal.since(11, 10)).toMatchObject({ newer: 0, ended: 'gone' });
  });

  it('counts what it appended by status and operation, across wraps and clears, and reads no entry when all-or-none finds too many', () => {
    const journal = createRequestJournal(2);
    journal.append(journalEntry({ status: 200, operation: 'listPets' }));
    journal.append(journalEntry({ status: 404, operation: null }));
    journal.clear();
    journal.append(journalEntry({ status: 200, operation: 'getPet' }));
    expect(journal.since(0, 1, true)).toMatchObject({ entries: [], newer: 3, counts: { byStatus: { 200: 2, 404: 1 }, byOperation: { listPets: 1, none: 1, getPet: 1 } } });
    expect(journal.since(2, 1, true).entries.map((e) => e.seq)).toEqual([3]);
    // Another journal is another id; the same journal keeps its own.
    expect(journal.since(0, 1).id).toBe(journal.since(3, 1).id);
    expect(createRequestJournal(2).since(0, 1).id).not.toBe(journal.since(0, 1).id);
  });

  it('holds 500 by default, and refuses a size that is not a whole number above 0', () => {
    expect(createRequestJournal().capacity).toBe(DEFAULT_JOURNAL_SIZE);
    expect(DEFAULT_JOURNAL_SIZE).toBe(500);
    for (const size of [0, -1, 1.5, Number.NaN]) expect(() => createRequestJournal(size)).toThrow(/whole number above 0/);
  });
});
