import { z } from 'zod';
import { fileUri, isoTime, requiredText } from './fields.ts';

/**
 * 公示 (issue 38 items 3 and 4): a competition's results published for everyone. During the 公示期 the award list is
 * provisional and verified users may object (into the dispute queue); after it the list is final, each line linked to
 * certificate verification. The same lists, and the public boards, may be framed by the origins the organiser lists.
 * No phone, ID number, email or member name is ever in any of these replies.
 */

/** Where a competition's 公示 stands: not set, set but not begun, open for objections, ended (the list is final). */
export const PUBLICITY_STATES = ['none', 'before', 'open', 'closed'] as const;
export type PublicityState = (typeof PUBLICITY_STATES)[number];
export const PUBLICITY_STATE_TEXT: Record<PublicityState, string> = { none: '未公示', before: '待公示', open: '公示中', closed: '公示结束' };

export const publicityStateOf = (p: { start: string | null; end: string | null }, now: Date): PublicityState => {
  if (!p.start || !p.end) return 'none';
  const t = now.toISOString();
  return t < p.start ? 'before' : t <= p.end ? 'open' : 'closed';
};

/** The WHATWG URL parser, global in browsers and Node alike (this package is compiled without either's types). */
declare const URL: new (input: string) => { protocol: string; origin: string };

/** A site that may frame the embeddable pages, as its origin: `https://www.example.edu.cn` (no path). */
export const embedOrigin = z
  .string()
  .trim()
  .max(200, '网站地址过长')
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === v.replace(/\/$/, '');
    } catch {
      return false;
    }
  }, '请填写网站的源（协议与域名，不含路径），如 https://www.example.edu.cn')
  .transform((v) => v.replace(/\/$/, ''));
export const MAX_EMBED_ORIGINS = 20;

/** `PUT /api/competition/publicity/{id}`: the 公示期 (both or neither) and the origins that may frame the embeds. */
export const publicityBody = z
  .strictObject({
    start: isoTime.nullable(),
    end: isoTime.nullable(),
    embedOrigins: z.array(embedOrigin).max(MAX_EMBED_ORIGINS, `最多填写${MAX_EMBED_ORIGINS}个网站`).default([]),
  })
  .superRefine((v, c) => {
    if ((v.start === null) !== (v.end === null)) c.addIssue({ code: 'custom', path: ['end'], message: '请同时设置公示开始和结束时间，或都不设置' });
    else if (v.start && v.end && v.end <= v.start) c.addIssue({ code: 'custom', path: ['end'], message: '公示结束时间须晚于开始时间' });
  });
export type PublicityBody = z.infer<typeof publicityBody>;

export const publicitySchema = z.object({
  start: z.string().nullable(),
  end: z.string().nullable(),
  state: z.enum(PUBLICITY_STATES),
  embedOrigins: z.array(z.string()),
});
export type Publicity = z.infer<typeof publicitySchema>;

/** One line of the award list: a team, its school and its award; never a person. */
export const resultLineSchema = z.object({
  questionId: z.number().int(),
  teamId: z.number().int(),
  teamNo: z.string(),
  teamName: z.string(),
  schoolName: z.string().nullable(),
  awardName: z.string(),
  rank: z.number().int().nullable(),
  /** Once the list is final: the numbers of the team's certificates for this question, each checked at 证书查验. */
  certNos: z.array(z.string()),
});
export type ResultLine = z.infer<typeof resultLineSchema>;

export const resultQuestionSchema = z.object({
  questionId: z.number().int(),
  title: z.string(),
  /** By the competition's groups (null: no groups), in the order the groups are listed. */
  groups: z.array(z.object({ group: z.string().nullable(), lines: z.array(resultLineSchema) })),
});

/** `GET /api/competition/results/public/{id}`: the 公示 page. Questions are listed only while `state` is open or closed. */
export const publicResultsSchema = z.object({
  competitionId: z.number().int(),
  competitionName: z.string(),
  orgName: z.string(),
  start: z.string().nullable(),
  end: z.string().nullable(),
  state: z.enum(PUBLICITY_STATES),
  questions: z.array(resultQuestionSchema),
});
export type PublicResults = z.infer<typeof publicResultsSchema>;

/** `POST /api/competition/results/objection/{id}`: an objection to one line of the provisional list. */
export const objectionBody = z.strictObject({
  questionId: z.number({ error: '请选择提出异议的名单条目' }).int().positive(),
  teamId: z.number({ error: '请选择提出异议的名单条目' }).int().positive(),
  reason: requiredText(1000, '异议理由'),
  /** An uploaded document (`/api/file/upload/document?purpose=objection`): evidence, optional. */
  attachment: fileUri,
});
export type ObjectionBody = z.infer<typeof objectionBody>;
export const objectionSchema = z.object({ id: z.number().int(), createdAt: z.string() });

/** `GET /embed/leaderboard/{questionId}?format=json`: what the embedded board shows. */
export const embedBoardSchema = z.object({
  questionId: z.number().int(),
  title: z.string(),
  competitionName: z.string(),
  /** The private board once published (final), else the public one. */
  board: z.enum(['public', 'private']),
  metric: z.string(),
  higherIsBetter: z.boolean(),
  rows: z.array(
    z.object({
      rank: z.number().int(),
      teamName: z.string(),
      groupName: z.string().nullable(),
      score: z.number(),
      submissions: z.number().int(),
      lastAt: z.string(),
    }),
  ),
  total: z.number().int(),
});
export type EmbedBoard = z.infer<typeof embedBoardSchema>;

/** The embeddable pages' paths (`/embed/…`), with `?format=json` or `csv` for the same data. */
export const EMBED_PATHS = {
  leaderboard: (questionId: number) => `/embed/leaderboard/${questionId}`,
  results: (competitionId: number) => `/embed/results/${competitionId}`,
};

/**
 * What an organiser pastes into their own site: the frame, and a listener that sets its height from the page's
 * `contest-embed-height` messages (only those from the platform's origin, only for that frame).
 */
export const embedSnippet = (platformOrigin: string, path: string, title: string) =>
  `<iframe src="${platformOrigin}${path}" title="${title.replace(/"/g, '&quot;')}" style="width:100%;border:0;min-height:240px" loading="lazy" data-contest-embed></iframe>
<script>
window.addEventListener('message', function (e) {
  if (e.origin !== '${platformOrigin}' || !e.data || e.data.type !== 'contest-embed-height') return;
  document.querySelectorAll('iframe[data-contest-embed]').forEach(function (f) {
    if (f.contentWindow === e.source) f.style.height = e.data.height + 'px';
  });
});
</script>`;
