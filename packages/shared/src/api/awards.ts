import { z } from 'zod';
import { requiredText } from './fields.ts';

/** Award levels of a question, given by rank or by hand, and what a team won (spec /api/review/works/awards*). */

/** Response schemas (what a route may send; see `envelope` in common.ts) and their types come from the same zod objects. */
export const awardLevelSchema = z.object({
  id: z.number().int(),
  questionId: z.number().int(),
  name: z.string(),
  sort: z.number().int(),
  /** Ranks from..to (inclusive) receive this award when awards are given by rank; empty for awards given by hand. */
  rankFrom: z.number().int().nullable(),
  rankTo: z.number().int().nullable(),
});
export type AwardLevel = z.infer<typeof awardLevelSchema>;

/** `awards/apply/{id}`: how many teams the ranks gave an award. */
export const awardApplyResultSchema = z.object({ awarded: z.number().int() });
export type AwardApplyResult = z.infer<typeof awardApplyResultSchema>;

export const awardLevelsBody = z
  .strictObject({
    levels: z
      .array(
        z.strictObject({
          id: z.number().int().positive().optional(),
          name: requiredText(30, '奖项名称'),
          rankFrom: z.number({ error: '名次须为整数' }).int('名次须为整数').min(1, '名次从1开始').nullable(),
          rankTo: z.number({ error: '名次须为整数' }).int('名次须为整数').min(1, '名次从1开始').nullable(),
        }),
      )
      .max(20, '奖项至多20个'),
  })
  .superRefine((v, c) => {
    const names = v.levels.map((l) => l.name);
    if (new Set(names).size !== names.length) c.addIssue({ code: 'custom', path: ['levels'], message: '奖项名称不能重复' });
    const bands = v.levels.filter((l) => l.rankFrom !== null || l.rankTo !== null);
    for (const [i, l] of v.levels.entries()) {
      if ((l.rankFrom === null) !== (l.rankTo === null)) c.addIssue({ code: 'custom', path: ['levels', i, 'rankTo'], message: '名次范围须同时填写起止名次' });
      else if (l.rankFrom !== null && l.rankTo !== null && l.rankFrom > l.rankTo)
        c.addIssue({ code: 'custom', path: ['levels', i, 'rankTo'], message: '截止名次不能小于起始名次' });
    }
    const sorted = bands.filter((l) => l.rankFrom !== null && l.rankTo !== null).sort((a, b) => a.rankFrom! - b.rankFrom!);
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i]!.rankFrom! <= sorted[i - 1]!.rankTo!)
        c.addIssue({ code: 'custom', path: ['levels'], message: `“${sorted[i - 1]!.name}”与“${sorted[i]!.name}”的名次范围重叠` });
    }
  });
export type AwardLevelsBody = z.infer<typeof awardLevelsBody>;
export const teamAwardBody = z.strictObject({ teamId: z.number().int().positive(), awardId: z.number().int().positive().nullable() });

/** `GET list/awards/{teamId}`: what a team won. */
export const teamAwardSchema = z.object({
  questionId: z.number().int(),
  questionTitle: z.string(),
  competitionId: z.number().int(),
  competitionName: z.string(),
  awardName: z.string(),
  finalScore: z.number().nullable(),
  rank: z.number().int().nullable(),
});
export type TeamAward = z.infer<typeof teamAwardSchema>;
