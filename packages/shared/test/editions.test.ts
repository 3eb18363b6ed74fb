import { describe, expect, it } from 'vitest';
import { cloneBody, nextEditionName, shiftDate, shiftedDays } from '../src/index.ts';

describe('复制为新一届: the name offered and the dates moved', () => {
  it('moves the years on and counts 第N届 up, in Arabic or Chinese numerals', () => {
    expect(nextEditionName('2025年第十届泰迪杯数据挖掘挑战赛')).toBe('2026年第十一届泰迪杯数据挖掘挑战赛');
    expect(nextEditionName('第九届挑战赛')).toBe('第十届挑战赛');
    expect(nextEditionName('第十九届挑战赛')).toBe('第二十届挑战赛');
    expect(nextEditionName('第二十九届挑战赛')).toBe('第三十届挑战赛');
    expect(nextEditionName('第9届（2025）')).toBe('第10届（2026）');
    expect(nextEditionName('2024-2025学年竞赛', 2)).toBe('2026-2027学年竞赛');
    // A number that is not a year is left alone, and a name with neither says it is the next one.
    expect(nextEditionName('数据挑战赛12345')).toBe('数据挑战赛12345（新一届）');
  });

  it('moves a date by years (29 February to 28 February) and days, keeping the time of day', () => {
    expect(shiftDate('2025-03-09T16:00:00.000Z', 1, 0)).toBe('2026-03-09T16:00:00.000Z');
    expect(shiftDate('2028-02-29T01:00:00.000Z', 1, 0)).toBe('2029-02-28T01:00:00.000Z');
    expect(shiftDate('2025-12-30T00:00:00.000Z', 0, 7)).toBe('2026-01-06T00:00:00.000Z');
    expect(shiftedDays('2027-03-01T00:00:00.000Z', 1, 0)).toBe(366);
  });

  it('refuses a copy that moves nothing, or review rules without their questions', () => {
    const refusal = (v: object) => cloneBody.safeParse(v).error?.issues[0]?.message;
    expect(refusal({ name: 'x', shiftYears: 0, shiftDays: 0, parts: [] })).toBe('请设置日期顺延的时间，新一届的日期不能与本届相同');
    expect(refusal({ name: 'x', shiftYears: 1, shiftDays: 0, parts: ['review'] })).toContain('须同时复制');
    expect(refusal({ name: 'x', shiftYears: 1, shiftDays: 0, parts: ['questions', 'review'] })).toBeUndefined();
  });
});
