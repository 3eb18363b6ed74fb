import { z } from 'zod';

/**
 * 查重 of written works (issue 37): a question's run over its teams' latest works, each work's most similar works
 * (this edition's and earlier editions'), the marks the question's thresholds give, the names found in a work under
 * blind review, and the organiser's decisions (paths under /api/review/similarity).
 */

/** Shares are kept as per mille (0–1000) of a work's text: 200 is 20.0%. */
export const formatShare = (permille: number) => `${(permille / 10).toFixed(1)}%`;

export const SIMILARITY_DEFAULTS = { flagPercent: 20, holdPercent: 40 } as const;

/** What a run is doing: waiting for a worker, reading and comparing, finished, or given up. */
export const SIMILARITY_RUN_STATUS = ['queued', 'running', 'done', 'failed'] as const;
export type SimilarityRunStatus = (typeof SIMILARITY_RUN_STATUS)[number];

/** A mark: below the flag threshold, flagged (shown), or held (not assigned to judges until the organiser decides). */
export const SIMILARITY_LEVELS = ['none', 'flag', 'hold'] as const;
export type SimilarityLevel = (typeof SIMILARITY_LEVELS)[number];

/** The organiser's decision on a held work: judged as any other, kept from review, or the team asked for a new version. */
export const SIMILARITY_DECISIONS = ['release', 'exclude', 'resubmit'] as const;
export type SimilarityDecision = (typeof SIMILARITY_DECISIONS)[number];
/** The mark a share gives under the question's thresholds (percent). */
export const levelOf = (topShare: number, flagPercent: number, holdPercent: number): SimilarityLevel =>
  topShare >= holdPercent * 10 ? 'hold' : topShare >= flagPercent * 10 ? 'flag' : 'none';

/**
 * Whether a team's work is kept from judges: held by its share or, under blind review, by names found in it, until
 * the organiser releases it; always when the organiser decided it is not to be judged. A work the team has replaced
 * since the run is not held by the old one's mark (the next run reads the new one).
 */
export function isHeld(m: { topShare: number; identityCount: number; decision: string | null }, rule: { holdPercent: number; blind: boolean }) {
  if (m.decision === 'exclude') return true;
  if (m.decision === 'release') return false;
  return m.topShare >= rule.holdPercent * 10 || (rule.blind && m.identityCount > 0);
}

export const SIMILARITY_DECISION_TEXT: Record<SimilarityDecision, string> = {
  release: '已放行',
  exclude: '不予评审',
  resubmit: '已要求重新提交',
};

export const similarityRunSchema = z.object({
  status: z.enum(SIMILARITY_RUN_STATUS),
  /** Works to read in this run, and how many are read so far. */
  works: z.number().int(),
  done: z.number().int(),
  unreadable: z.number().int(),
  pairs: z.number().int(),
  error: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type SimilarityRun = z.infer<typeof similarityRunSchema>;

export const similarityExclusionSchema = z.object({
  id: z.number().int(),
  fileName: z.string(),
  /** Characters of text read from it; 0 when it could not be read (`reason`). */
  chars: z.number().int(),
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type SimilarityExclusion = z.infer<typeof similarityExclusionSchema>;

/** A name of the team found in its work: in the text, the file's metadata or an entry name of its zip. */
export const identityHitSchema = z.object({
  /** 成员姓名, 队伍名称, 学校 or 指导教师. */
  kind: z.string(),
  value: z.string(),
  /** 正文, 文件名 or the metadata field (PDF作者, DOCX创建者…) with the file it is in. */
  where: z.string(),
  /** A few characters around it. */
  excerpt: z.string(),
});
export type IdentityHit = z.infer<typeof identityHitSchema>;

export const fileReadingSchema = z.object({ name: z.string(), chars: z.number().int(), reason: z.string().nullable() });

/** One of the works a work is most similar to. */
/** Languages of code compared, as the list names them. */
export const CODE_LANGUAGE_TEXT: Record<string, string> = { python: 'Python', r: 'R', java: 'Java', c: 'C', cpp: 'C++', javascript: 'JavaScript' };

export const similarMatchSchema = z.object({
  pairId: z.number().int(),
  /** The written text, or the code of one language. */
  kind: z.enum(['text', 'code']),
  language: z.string().nullable(),
  /** Share of this work's text in passages also in the other (per mille), and of the other's in this. */
  share: z.number().int(),
  otherShare: z.number().int(),
  teamNo: z.string(),
  teamName: z.string(),
  /** The other work's competition and question, when it is of an earlier edition. */
  earlier: z.object({ competitionName: z.string(), questionTitle: z.string() }).nullable(),
});
export type SimilarMatch = z.infer<typeof similarMatchSchema>;

export const similarityWorkSchema = z.object({
  workId: z.number().int(),
  teamId: z.number().int(),
  teamNo: z.string(),
  teamName: z.string(),
  version: z.number().int(),
  fileName: z.string(),
  /** Characters of text read, and the files that could not be read with the reason. */
  chars: z.number().int(),
  files: z.array(fileReadingSchema),
  /** The largest share of its text, and of its code, found in another work (per mille); the level is of the larger. */
  topShare: z.number().int(),
  codeShare: z.number().int(),
  level: z.enum(SIMILARITY_LEVELS),
  matches: z.array(similarMatchSchema),
  identity: z.array(identityHitSchema),
  /** Kept from judges now: held by its share or, under blind review, by names found, and not released. */
  held: z.boolean(),
  decision: z.enum(SIMILARITY_DECISIONS).nullable(),
  decisionNote: z.string().nullable(),
  decidedAt: z.string().nullable(),
  /** The team's own report (知网, 维普…) and the rate it declares (per mille). */
  report: z.object({ fileName: z.string(), declaredRate: z.number().int(), fileUri: z.string() }).nullable(),
  /** The team uploaded a newer version after this run read this one. */
  outdated: z.boolean(),
});
export type SimilarityWork = z.infer<typeof similarityWorkSchema>;

export const similarityOverviewSchema = z.object({
  flagPercent: z.number().int(),
  holdPercent: z.number().int(),
  /** The question's review is blind: names found hold a work. */
  blind: z.boolean(),
  run: similarityRunSchema.nullable(),
  exclusions: z.array(similarityExclusionSchema),
  /** Earlier editions in the corpus (competitions of the same brand created before this one). */
  earlierEditions: z.array(z.string()),
  /** Every team's latest work as the last run read it, most similar first. */
  works: z.array(similarityWorkSchema),
});
export type SimilarityOverview = z.infer<typeof similarityOverviewSchema>;

const percent = (label: string) =>
  z
    .number({ error: `${label}须为1到100之间的整数` })
    .int(`${label}须为1到100之间的整数`)
    .min(1, `${label}须为1到100之间的整数`)
    .max(100, `${label}须为1到100之间的整数`);
export const similaritySettingsBody = z
  .strictObject({ flagPercent: percent('标记阈值'), holdPercent: percent('暂停评审阈值') })
  .refine((v) => v.holdPercent >= v.flagPercent, { path: ['holdPercent'], message: '暂停评审阈值不能低于标记阈值' });

export const similarityDecisionBody = z.strictObject({
  decision: z.enum(SIMILARITY_DECISIONS, { error: '请选择处理结果' }),
  note: z.string().trim().max(500, '说明至多500字').optional(),
});

/** One side of a pair: its text and the passages it shares with the other, as [start, end) offsets into the text. */
export const pairSideSchema = z.object({
  teamNo: z.string(),
  teamName: z.string(),
  label: z.string(),
  text: z.string(),
  passages: z.array(z.tuple([z.number().int(), z.number().int()])),
  share: z.number().int(),
});
export const similarityPairSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['text', 'code']),
  language: z.string().nullable(),
  a: pairSideSchema,
  b: pairSideSchema,
});
export type SimilarityPair = z.infer<typeof similarityPairSchema>;

/** The team's own report: the rate it declares, in percent with one decimal. */
export const declaredRateField = z.coerce
  .number({ error: '请填写查重率（0到100之间的数字）' })
  .min(0, '请填写查重率（0到100之间的数字）')
  .max(100, '请填写查重率（0到100之间的数字）');
export const similarityReportSchema = z.object({ fileName: z.string(), declaredRate: z.number().int(), createdAt: z.string() });
export type SimilarityReport = z.infer<typeof similarityReportSchema>;
