import { describe, expect, it } from 'vitest';
import { laterRecipientsText, toEveryParticipant } from '../src/index.ts';

describe('who a notice reaches after it is published', () => {
  it('reaches later participants when it goes to a whole competition, and says so; a narrowed one does not', () => {
    expect(toEveryParticipant({ scope: 'competition', competitionId: 3 })).toBe(true);
    expect(laterRecipientsText({ scope: 'competition', competitionId: 3 })).toContain('之后报名或入队的参赛者也会收到');
    for (const narrowed of [{ payStatus: 'unpaid' }, { registerStatus: 'pending' }, { works: 'missing' }]) {
      const target = { scope: 'competition', competitionId: 3, ...narrowed } as Parameters<typeof toEveryParticipant>[0];
      expect(toEveryParticipant(target)).toBe(false);
      expect(laterRecipientsText(target)).toContain('之后才符合条件的队伍或用户不会收到');
    }
    expect(toEveryParticipant({ scope: 'users', usernames: ['alice'] })).toBe(false);
  });
});
