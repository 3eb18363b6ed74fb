import { describe, expect, it } from 'vitest';
import { queueText } from '../src/api/test-submissions.ts';

describe('what the test tab says of a waiting submission', () => {
  it('names its place, and the wait once there is a pace to tell it by', () => {
    expect(queueText({ ahead: 0, waitSeconds: null })).toBe('下一个评分');
    expect(queueText({ ahead: 3, waitSeconds: null })).toBe('前面还有 3 个');
    expect(queueText({ ahead: 0, waitSeconds: 20 })).toBe('下一个评分，预计等待不到 1 分钟');
    expect(queueText({ ahead: 5, waitSeconds: 60 })).toBe('前面还有 5 个，预计等待约 1 分钟');
    expect(queueText({ ahead: 40, waitSeconds: 601 })).toBe('前面还有 40 个，预计等待约 11 分钟');
    // Past the count's cap: a lower bound, said as one.
    expect(queueText({ ahead: 1000, waitSeconds: 6000, atLeast: true })).toBe('前面还有 1000 个以上，预计等待超过 100 分钟');
    expect(queueText({ ahead: 1000, waitSeconds: null, atLeast: true })).toBe('前面还有 1000 个以上');
  });
});
