import { z } from 'zod';
import type { PresetField } from './api/competitions.ts';
import { schoolNameKey } from './api/schools.ts';

/**
 * Eligibility rules of a competition (issue 36 item 3), set in its editor and shown to participants before they
 * register: members (and teachers) of one school, at most N teams per school and per teacher, and groups (本科组,
 * 研究生组…) set by the members' highest degree or chosen by the team. The server enforces them on every path that can
 * break them (teams/service.ts), and the counts in the database (`eligibility_quota`), so that racing registrations
 * cannot overfill a school's or a teacher's places.
 */

/** 学历, lowest first: a team's degree is its members' highest. */
export const DEGREES = ['中学', '高职（专科）', '本科', '硕士研究生', '博士研究生'] as const;
export type Degree = (typeof DEGREES)[number];
export const degreeRank = (d: string | null | undefined) => (d ? (DEGREES as readonly string[]).indexOf(d) : -1);

export const GROUP_MODES = { none: '不分组', degree: '按队员最高学历分组', choice: '报名时由队伍选择组别' } as const;
export type GroupMode = keyof typeof GROUP_MODES;

const limit = (label: string, max: number) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    z
      .number({ error: `${label}须为整数` })
      .int(`${label}须为整数`)
      .min(1, `${label}至少为1`)
      .max(max, `${label}不能超过${max}`)
      .nullable(),
  );

export const competitionGroupSchema = z.strictObject({
  name: z.string({ error: '请输入组别名称' }).trim().min(1, '请输入组别名称').max(20, '组别名称不能超过20个字'),
  /** Degree mode: the degrees this group takes (a team goes to the group of its highest degree). */
  degrees: z
    .array(z.enum(DEGREES, { error: '学历不正确' }))
    .max(DEGREES.length)
    .default([]),
});
export type CompetitionGroup = z.infer<typeof competitionGroupSchema>;

export const eligibilitySchema = z
  .strictObject({
    /** 队员和指导老师须来自同一学校. */
    sameSchool: z.boolean({ error: '同校要求须为是或否' }).default(false),
    /** 两级审核: a registration is reviewed by its school's coordinator (院校负责人) first, then by the organiser. */
    schoolAudit: z.boolean({ error: '两级审核须为是或否' }).default(false),
    /** 每校最多报名队伍数 (null: no limit). */
    maxTeamsPerSchool: limit('每校最多队伍数', 10_000).default(null),
    /** 每位指导老师最多指导队伍数 (null: no limit); a teacher is known by phone number. */
    maxTeamsPerTeacher: limit('每位老师最多指导队伍数', 1_000).default(null),
    groupMode: z.enum(Object.keys(GROUP_MODES) as [GroupMode, ...GroupMode[]], { error: '分组方式不正确' }).default('none'),
    groupList: z.array(competitionGroupSchema).max(10, '组别最多10个').default([]),
  })
  .superRefine((v, ctx) => {
    if (v.groupMode === 'none') return;
    if (v.groupList.length < 2) ctx.addIssue({ code: 'custom', path: ['groupList'], message: '分组参赛至少需要2个组别' });
    const names = new Set<string>();
    const taken = new Map<string, string>();
    for (const [i, g] of v.groupList.entries()) {
      if (names.has(g.name)) ctx.addIssue({ code: 'custom', path: ['groupList', i, 'name'], message: `组别“${g.name}”重复了` });
      names.add(g.name);
      if (v.groupMode !== 'degree') continue;
      if (!g.degrees.length) ctx.addIssue({ code: 'custom', path: ['groupList', i, 'degrees'], message: `请选择“${g.name}”包含的学历` });
      for (const d of g.degrees) {
        const other = taken.get(d);
        if (other && other !== g.name) ctx.addIssue({ code: 'custom', path: ['groupList', i, 'degrees'], message: `学历“${d}”已属于“${other}”` });
        taken.set(d, g.name);
      }
    }
  });
export type Eligibility = z.infer<typeof eligibilitySchema>;
/** The rules as replies carry them (no defaults or coercion: a response schema only describes). */
export const eligibilityReplySchema = z.object({
  sameSchool: z.boolean(),
  schoolAudit: z.boolean(),
  maxTeamsPerSchool: z.number().int().nullable(),
  maxTeamsPerTeacher: z.number().int().nullable(),
  groupMode: z.enum(Object.keys(GROUP_MODES) as [GroupMode, ...GroupMode[]]),
  groupList: z.array(z.object({ name: z.string(), degrees: z.array(z.enum(DEGREES)) })),
});
export const DEFAULT_ELIGIBILITY: Eligibility = {
  sameSchool: false,
  schoolAudit: false,
  maxTeamsPerSchool: null,
  maxTeamsPerTeacher: null,
  groupMode: 'none',
  groupList: [],
};

/** Whether a team has a school the rules speak of (members of one school, or places per school). */
export const schoolRuled = (e: Eligibility) => e.sameSchool || e.schoolAudit || e.maxTeamsPerSchool !== null;

/**
 * The registration form as the rules need it: 学校 required when a rule speaks of schools, 学历 required when groups
 * follow the degree, added after the organiser's fields when the organiser did not ask for them.
 */
export function effectiveRegFields(fields: readonly PresetField[], e: Eligibility): PresetField[] {
  const out = fields.map((f) => ({ ...f, otherParams: { ...f.otherParams } }));
  const need = (name: 'organization' | 'education', label: string, why: string) => {
    const f = out.find((x) => x.name === name);
    if (f) f.otherParams.required = true;
    else out.push({ label, name, type: name === 'education' ? 'education' : 'input', description: why, otherParams: { required: true } });
  };
  if (schoolRuled(e)) need('organization', '学校', e.schoolAudit ? '报名先由本校的院校负责人审核，请从学校名单中选择' : '本竞赛按学校限定参赛资格');
  // A school's coordinator reviews only the schools of the list: 两级审核 takes those alone.
  if (e.schoolAudit) out.find((x) => x.name === 'organization')!.otherParams.schoolList = true;
  if (e.groupMode === 'degree') need('education', '学历', '本竞赛按队员最高学历分组');
  return out;
}

/** The key a member's school is counted under: the list's record, else the name normalised; null without a school. */
export function schoolKeyOf(info: { organization?: string | null; schoolId?: number | null }): string | null {
  if (info.schoolId) return listedSchoolKey(info.schoolId);
  const name = info.organization?.trim();
  return name ? `name:${schoolNameKey(name)}` : null;
}

/** The key of a school of the list (what `schoolKeyOf` gives a form naming it). */
export const listedSchoolKey = (schoolId: number) => `id:${schoolId}`;
/** The record of the list a key names, or null for a school written in. */
export const schoolIdOfKey = (key: string | null | undefined) => (key?.startsWith('id:') ? Number(key.slice(3)) : null);

/** The group of a team whose members have these degrees (the highest decides), or null when no group takes it. */
export function groupOfDegrees(e: Eligibility, degrees: readonly (string | null | undefined)[]): string | null {
  const top = degrees.reduce<number>((m, d) => Math.max(m, degreeRank(d)), -1);
  if (top < 0) return null;
  return e.groupList.find((g) => (g.degrees as string[]).includes(DEGREES[top]!))?.name ?? null;
}

/** The rules in the participants' words, as the competition page and the registration page show them. */
export function eligibilityLines(e: Eligibility): string[] {
  const lines: string[] = [];
  if (e.sameSchool) lines.push('队员和指导老师须来自同一学校');
  if (e.schoolAudit) lines.push('报名先由本校院校负责人审核，再由主办方审核');
  if (e.maxTeamsPerSchool !== null) lines.push(`每所学校最多报名${e.maxTeamsPerSchool}支队伍`);
  if (e.maxTeamsPerTeacher !== null) lines.push(`每位指导老师最多指导${e.maxTeamsPerTeacher}支队伍（以老师手机号识别）`);
  if (e.groupMode === 'degree') {
    const out = DEGREES.filter((d) => !e.groupList.some((g) => (g.degrees as string[]).includes(d)));
    lines.push(
      `按队员最高学历分组，各组分别排名、评奖：${e.groupList.map((g) => `${g.name}为${g.degrees.join('、')}`).join('，')}` +
        (out.length ? `；学历为${out.join('、')}的不能报名` : ''),
    );
  }
  if (e.groupMode === 'choice') lines.push(`分组参赛：${e.groupList.map((g) => g.name).join('、')}，报名时选择组别，各组分别排名、评奖`);
  return lines;
}

// The refusals, one wording on every path.
export const SAME_SCHOOL_TEXT = '本竞赛要求队员来自同一学校，队员的学校须与队长相同';
export const teacherSchoolText = (name: string) => `本竞赛要求指导老师与队员来自同一学校，“${name}”的单位与队伍学校不同`;
export const schoolFullText = (max: number) => `你的学校在本竞赛的报名队伍已达上限（每校${max}支）`;
export const teacherFullText = (name: string, max: number) => `指导老师“${name}”在本竞赛指导的队伍已达上限（每位老师${max}支）`;
export const TEACHER_PHONE_TEXT = '本竞赛限制每位老师指导的队伍数，请填写老师手机号';
export const NO_GROUP_TEXT = '你的学历不属于本竞赛的任何组别';
export const CHOOSE_GROUP_TEXT = '请选择参赛组别';
