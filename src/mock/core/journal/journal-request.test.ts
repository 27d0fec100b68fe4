import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { journalHeaders } from './journal-headers.js';
import { journalMessage, MAX_JOURNAL_REQUEST_BODY } from './journal-message.js';
import { journalRequest } from './journal-request.js';

// What the journal showed when every request's headers were formatted at once: a request's entry must read the same now.
const eager = (raw: string[], body: string) => {
  const { headers, truncated } = journalHeaders(raw);
  return journalMessage(headers, body, MAX_JOURNAL_REQUEST_BODY, truncated);
};

const name = fc.oneof(fc.constantFrom('authorization', 'Authorization', 'cookie', 'x-api-key', 'x-mock-session', 'content-type', 'X-Trace', '__proto__'), fc.string({ minLength: 1, maxLength: 300 }));
const value = fc.oneof(fc.constantFrom('Bearer k-123', 'bEaReR secret', 'keyB extra', 'a=b'), fc.string({ maxLength: 300 }));
const raw = fc.array(fc.tuple(name, value), { maxLength: 40 }).map((pairs) => pairs.flat());

describe('journalRequest', () => {
  it('reads, as JSON and field by field, exactly as the headers formatted at once, whatever the headers and body', () => {
    fc.assert(
      fc.property(raw, fc.string({ maxLength: 1500 }), (headers, body) => {
        const kept = journalRequest(headers, body);
        const expected = eager(headers, body);
        expect(JSON.parse(JSON.stringify({ request: kept }))).toEqual(JSON.parse(JSON.stringify({ request: expected })));
        expect(kept.headers).toEqual(expected.headers);
        expect([kept.body, kept.bodyTruncated, kept.headersTruncated]).toEqual([expected.body, expected.bodyTruncated, expected.headersTruncated]);
      }),
      { numRuns: 300 },
    );
  });

  it('never shows a key, read before or after JSON', () => {
    const kept = journalRequest(['Authorization', 'Bearer sk-live-123', 'X-Api-Key', 'sk-live-123'], '');
    expect(JSON.stringify(kept)).not.toContain('sk-live-123');
    expect(Object.values(kept.headers).join(' ')).not.toContain('sk-live-123');
  });
});
