import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  REVIEW_SCORE_RULE,
  aggregate,
  finalScore,
  finalScoreRule,
  judgeTotal,
  maxTotal,
  reviewScore,
  scoreError,
  testPoints,
  totalText,
} from '../src/api/review.ts';

const SIXTY_FORTY = [
  { id: 'a', name: '模型效果', maxScore: 60 },
  { id: 'b', name: '报告质量', maxScore: 40 },
];

describe('a judge’s total', () => {
  it('adds the points up: 50 of 60 and 30 of 40 make 80 of 100', () => {
    expect(judgeTotal(SIXTY_FORTY, { a: 50, b: 30 })).toBe(80);
    expect(maxTotal(SIXTY_FORTY)).toBe(100);
    expect(totalText(80, 100)).toBe('80 / 100');
  });

  it('is out of the maxima added up, whatever they add up to', () => {
    const c = [
      { id: 'a', maxScore: 10 },
      { id: 'b', maxScore: 20 },
    ];
    expect(judgeTotal(c, { a: 8, b: 15 })).toBe(23);
    expect(maxTotal(c)).toBe(30);
    expect(totalText(23, 30)).toBe('23 / 30');
    expect(judgeTotal(c, { a: 10, b: 20 })).toBe(30);
  });

  it('waits for every criterion', () => {
    expect(judgeTotal(SIXTY_FORTY, { a: 50, b: null })).toBeNull();
    expect(judgeTotal(SIXTY_FORTY, { a: 50 })).toBeNull();
    expect(judgeTotal([], {})).toBeNull();
    expect(totalText(null, 100)).toBe('— / 100');
  });

  it('keeps two decimals without floating-point noise', () => {
    expect(judgeTotal(SIXTY_FORTY, { a: 8.7, b: 15.1 })).toBe(23.8);
    expect(judgeTotal(SIXTY_FORTY, { a: 0.1, b: 0.2 })).toBe(0.3);
    expect(totalText(0.1 + 0.2, 100)).toBe('0.3 / 100');
  });

  it('never exceeds the maximum nor falls below 0 when every score is in range', () => {
    const criteria = fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(
        criteria.chain((maxima) => fc.tuple(fc.constant(maxima), fc.tuple(...maxima.map((m) => fc.integer({ min: 0, max: m * 100 }).map((v) => v / 100))))),
        ([maxima, scores]) => {
          const c = maxima.map((maxScore, i) => ({ id: `c${i}`, maxScore }));
          const total = judgeTotal(c, Object.fromEntries(scores.map((s, i) => [`c${i}`, s])))!;
          expect(total).toBeGreaterThanOrEqual(0);
          expect(total).toBeLessThanOrEqual(maxTotal(c));
        },
      ),
    );
  });
});

describe('a score out of range', () => {
  const c = SIXTY_FORTY[0]!;

  it('is refused, naming the criterion', () => {
    expect(scoreError(c, 70)).toBe('“模型效果”的分数不能超过60');
    expect(scoreError(c, -1)).toBe('“模型效果”的分数不能小于0');
    expect(scoreError(c, '50')).toBe('“模型效果”的分数须为数字');
    expect(scoreError(c, Number.NaN)).toBe('“模型效果”的分数须为数字');
    expect(scoreError(c, 50.125)).toBe('“模型效果”的分数至多保留两位小数');
    expect(scoreError(c, 1.005)).toBe('“模型效果”的分数至多保留两位小数');
  });

  it('takes 0, the maximum and two decimals, including those floating point cannot hold exactly', () => {
    for (const ok of [0, 60, 59.99, 8.7, 0.29, 1.01]) expect(scoreError(c, ok), String(ok)).toBeNull();
    // Missing is for the caller to judge: a draft may leave it empty, a submission may not.
    expect(scoreError(c, null)).toBeNull();
    expect(scoreError(c, undefined)).toBeNull();
  });
});

describe('the review score and the final score', () => {
  it('puts each judge’s total on 100 before combining them', () => {
    // 72 / 90 and 81 / 90 are 80 and 90 of 100.
    expect(reviewScore([72, 81], 90, 'mean')).toBe(85);
    expect(reviewScore([80, 90], 100, 'mean')).toBe(85);
    expect(reviewScore([18, 27, 30], 30, 'trimmed')).toBe(90);
    expect(reviewScore([], 100, 'mean')).toBeNull();
    expect(reviewScore([10], 0, 'mean')).toBeNull();
  });

  it('combines judges by the mean, or drops the highest and lowest when there are three or more', () => {
    expect(aggregate([70, 90, 100], 'mean')).toBe(86.67);
    expect(aggregate([70, 90, 100], 'trimmed')).toBe(90);
    expect(aggregate([60, 70, 80, 100], 'trimmed')).toBe(75);
    // Two judges cannot lose two scores: the mean stands.
    expect(aggregate([80, 90], 'trimmed')).toBe(85);
    expect(aggregate([], 'mean')).toBeNull();
  });

  it('turns the test score into points relative to the best team, and weights it into the final score', () => {
    expect(testPoints(2, 1, false)).toBe(50);
    expect(testPoints(0, 0, false)).toBe(100);
    expect(testPoints(0.8, 0.95, true)).toBe(84.21);
    expect(testPoints(null, 1, false)).toBeNull();
    expect(finalScore(85, 100, { reviewWeight: 70, testWeight: 30 })).toBe(89.5);
    expect(finalScore(null, 100, { reviewWeight: 70, testWeight: 30 })).toBeNull();
    expect(finalScore(null, 40, { reviewWeight: 0, testWeight: 100 })).toBe(40);
  });

  it('says how, in the words the back office shows', () => {
    expect(REVIEW_SCORE_RULE.mean).toBe('评审成绩 = 各评委总分 ÷ 满分 × 100 的平均');
    expect(finalScoreRule({ reviewWeight: 70, testWeight: 30 })).toBe('最终成绩 = 评审成绩 × 70% + 测试得分 × 30%');
    expect(finalScoreRule({ reviewWeight: 100, testWeight: 0 })).toBe('最终成绩 = 评审成绩');
  });
});
