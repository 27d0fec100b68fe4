import { describe, expect, it } from 'vitest';
import { MAX_CURL_CHARS, violationTally } from './violation-tally.js';

describe('violationTally', () => {
  it('groups by statement: a count, the last example, the check ids that found it', () => {
    const tally = violationTally(4, () => new Date('2026-01-01T00:00:00Z'));
    tally.add({ rule: 'a', statement: 'S1', detail: 'first' }, { curl: 'curl 1', status: 200 });
    tally.add({ rule: 'b', statement: 'S1', detail: 'second' }, { curl: 'curl 2', status: 404 });
    expect(tally.groups()).toEqual([{ statement: 'S1', rules: ['a', 'b'], count: 2, last: { detail: 'second', curl: 'curl 2', status: 404 }, lastSeen: '2026-01-01T00:00:00.000Z' }]);
  });

  it('keeps at most maxGroups statements, evicting the one seen longest ago, and cuts a long curl line', () => {
    const tally = violationTally(2);
    tally.add({ rule: 'a', statement: 'S1', detail: '' }, { curl: 'x'.repeat(MAX_CURL_CHARS * 2), status: 200 });
    tally.add({ rule: 'a', statement: 'S2', detail: '' }, { curl: '', status: 200 });
    tally.add({ rule: 'a', statement: 'S1', detail: '' }, { curl: 'x'.repeat(MAX_CURL_CHARS * 2), status: 200 });
    tally.add({ rule: 'a', statement: 'S3', detail: '' }, { curl: '', status: 200 });
    expect(tally.groups().map((group) => group.statement)).toEqual(['S3', 'S1']);
    expect(tally.groups()[1]?.last.curl.length).toBe(MAX_CURL_CHARS + 1);
    tally.clear();
    expect(tally.groups()).toEqual([]);
  });
});
