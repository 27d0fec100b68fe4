import { describe, expect, it } from 'vitest';
import { ACCEPTED, MEMBER_ECHOED } from '../../shared/profile/learn/noted-answers.js';
import type { SilentEntry } from '../../verdict/report.js';
import { profileFromSilent } from './profile-from-silent.js';

/**
 * What a learning run writes for a member NewPet does not name, from the
 * answers `create-extra-members` notes: the servers of test/servers/ prove
 * an ignored member and a refused one over HTTP; none gives a member back.
 */
const learnedFrom = (...answers: string[]) => {
  const entry: SilentEntry = { point: 'extra-member', question: '', answers: answers.map((answer) => ({ answer, count: 1, example: 'curl …' })) };
  const profile = profileFromSilent([entry], 'learned');
  return { choice: profile.choices['extra-member'], note: profile.notes?.['extra-member'] };
};

describe('extra-member, learned', () => {
  it('every member taken: accepted', () => {
    expect(learnedFrom(ACCEPTED).choice).toBe('accepted');
  });

  it('every member refused with one Error: that Error', () => {
    expect(learnedFrom('400 unknown_member').choice).toEqual({ status: 400, code: 'unknown_member' });
  });

  it('a member given back in the Pet: not learned, and the note says why', () => {
    const { choice, note } = learnedFrom(ACCEPTED, MEMBER_ECHOED);
    expect(choice).toBeUndefined();
    expect(note).toBe('gave the member back in the Pet: the mock keeps only the members NewPet names; the mock keeps its own choice');
  });

  it('some members taken and others refused: not learned', () => {
    expect(learnedFrom(ACCEPTED, '400 unknown_member').note).toMatch(/^answered in more than one way/);
  });
});
