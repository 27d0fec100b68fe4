import type { JournalEntry } from '../../src/mock/core/journal/request-journal.js';

/** A journal entry as the journal step makes one (seq 0 until appended), for tests that append to a journal directly. */
export const journalEntry = (fields: Partial<JournalEntry> = {}): JournalEntry => ({
  seq: 0,
  at: '2026-01-01T00:00:00.000Z',
  session: null,
  method: 'GET',
  path: '/v1/pets',
  status: 200,
  ms: 1,
  operation: 'listPets',
  scenario: null,
  stub: null,
  request: { headers: {}, body: '' },
  response: { headers: {}, body: '' },
  ...fields,
});
