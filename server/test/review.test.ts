import { createHash } from 'node:crypto';
import ExcelJS from 'exceljs';
import QRCode from 'qrcode';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { exportBatches } from '../src/db/batches.ts';
import * as m0012 from '../src/db/migrations/0012_judge_totals.ts';
import { runDueJobs } from '../src/jobs/runner.ts';
import { shortCode } from '../src/modules/certificates/service.ts';
import { CERT_BUILTIN_FIELDS, CERT_BUILTIN_LAYOUTS, CERT_BUILTIN_NAMES, CERT_BUILTIN_SIZE } from '@contest/shared';
import {
  ADMIN_PASSWORD,
  DATABASES,
  REG_FIELD_LIST,
  REG_INFO,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  multipart,
  registerUser,
  setSubmissionDeadline,
  type Client,
  type TestApp,
} from './helpers.ts';
import {
  SCHOOL_FIELD,
  assignWorks,
  assignmentsOf,
  confirmGrades,
  expert,
  judgesOnQuestion,
  ok,
  reviewRule,
  reviewedQuestion,
  submitScores,
  teamWithWork,
  unique,
  type Judge,
  type Rule,
  type TeamWithWork,
} from './factories.ts';

/** A 60-point and a 40-point criterion: a judge's total is out of 100. */
const CRITERIA = [
  { name: '创新性', description: '方法是否新颖', maxScore: 60 },
  { name: '完整性', description: null, maxScore: 40 },
];
/** With CRITERIA, scoring (6s, 4s) gives a judge total of exactly 10 × s out of 100. */
const both = (s: number) => [6 * s, 4 * s];
/** The rule the organiser saves: three judges a work, trimmed mean, 70 % review and 30 % test, blind, 3 days to dispute. */
const RULE = { criteria: CRITERIA, judgesPerWork: 3, aggregation: 'trimmed', reviewWeight: 70, testWeight: 30, blind: true, disputeDays: 3 };

const ids = Array.from({ length: 20 }, (_, i) => `r${i}`);
const truth = ids.map((_, i) => i % 7);
const ANSWER = ['id,y', ...ids.map((id, i) => `${id},${truth[i]}`)].join('\n');
/** Predictions off by `err` on every row: RMSE = err on both boards. */
const prediction = (err: number) => ['id,y', ...ids.map((id, i) => `${id},${truth[i]! + err}`)].join('\n');

/** Four judges: the same school written with full-width letters and a space (judgeJia2's) still counts as 甲大学. */
const JUDGES = { judgeJia: '甲大学', judgeYi: '乙大学', judgeBing: '丙大学', judgeJia2: ' 甲大学 ' } as const;
type JudgeKey = keyof typeof JUDGES;
/** Four teams of one: their school, their member, and how far their test predictions are off (D sent no test). */
const TEAMS = { A: ['甲大学', '赵一', 1], B: ['乙大学', '钱二', 2], C: ['丙大学', '孙三', 4], D: ['丁大学', '李四', null] } as const;
type TeamKey = keyof typeof TEAMS;

/**
 * Hand-computed: a judge's total is the two points added up, out of 60 + 40 = 100; trimmed mean drops the extremes
 * of three; final = 0.7 review + 0.3 test points.
 */
const PLAN: Record<TeamKey, Partial<Record<JudgeKey, number[]>>> = {
  A: { judgeYi: [50, 30], judgeBing: both(9) }, // 80 and 90: mean 85 (two judges), RMSE 1 is best: 100 points → 89.5
  B: { judgeJia: both(7), judgeBing: both(9), judgeJia2: both(10) }, // 70, 90, 100 → 90, RMSE 2: 50 points → 78
  C: { judgeJia: both(6), judgeYi: both(8), judgeJia2: both(7) }, // 60, 80, 70 → 70, RMSE 4: 25 points → 56.5
  D: { judgeJia: both(10), judgeYi: both(10), judgeBing: both(6) }, // 100, 100, 60 → 100, no test: 0 points → 70
};

describe.each(DATABASES)('expert review, grades, disputes, awards and certificates on %s', (kind) => {
  // The shared world, read by the tests and never changed by them: the app, the administrator and two organisers.
  // Every test builds its own competition, question, judges and teams with the stages below, so it runs alone.
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let orgB: Client;
  const START = new Date('2026-03-20T02:00:00Z');
  /** The app's clock: every test starts at START (registration and submission open); a stage or test moves it on. */
  let now = START;

  beforeAll(async () => {
    // Every test registers its own judges and leaders, all from one address: registration is not throttled here.
    t = await createTestApp(kind, {
      clock: { now: () => now },
      env: { SESSION_TTL_HOURS: String(24 * 365), CERT_VERIFY_MAX_FAILURES_PER_IP: '5', REGISTER_MAX_PER_IP: '100000' },
    });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'reviewOrg', '评审主办大学');
    orgB = await makeOrganiser(t, admin, 'reviewOrgB', '别的主办大学');
  });
  afterAll(() => t.close());
  beforeEach(() => {
    now = START;
  });

  type Team = TeamWithWork & { person: string; school: string };

  /** Stage 1: a new competition of 评审主办大学 (its form asks for the school) and its reviewed question 评审题, with no rule. */
  async function question() {
    const n = unique();
    const q = await reviewedQuestion(admin, org, {
      fieldList: [...REG_FIELD_LIST, SCHOOL_FIELD],
      title: '评审题',
      evaluation: { metric: 'rmse', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 5 },
      answer: ANSWER,
    });
    const { competitionId, questionId } = q;
    const judges = {} as Record<JudgeKey | 'judgeWu', Judge>;
    const teams = {} as Record<TeamKey, Team>;
    const w = {
      n,
      competitionId,
      questionId,
      gradePreset: q.presets.GRADE_SET!,
      judges,
      teams,
      rule: undefined as unknown as Rule,
      /** A new expert of the organisation (not yet a judge of the question); its username ends in the test's number. */
      async addJudge(key: JudgeKey | 'judgeWu', organization: string) {
        judges[key] = await expert(t, org, `${key}${n}`, organization);
        return judges[key].id;
      },
      assignments: () => assignmentsOf(org, questionId),
      mineOf: async (judge: JudgeKey | 'judgeWu') =>
        body(await judges[judge]!.client.get(`/api/review/center/works?questionId=${questionId}`)).data as {
          id: number;
          code: string;
          status: number;
          total: number | null;
          maxTotal: number;
          team: unknown;
        }[],
      scoreAs: (judge: JudgeKey | 'judgeWu', id: number, s: number[], submit = true) =>
        judges[judge]!.client.put(`/api/review/works/${id}`, {
          scores: w.rule.criteria.map((c, i) => ({ criterionId: c.id, score: s[i] ?? null, comment: '好' })),
          comment: '总评',
          submit,
        }),
    };
    return w;
  }

  /** Stage 2: four experts in the organisation's pool, and four teams that sent works (and, but D, a scored test); A has a teacher. */
  async function entered() {
    const w = await question();
    // The judges are registered one after the other, so that their ids follow JUDGES: ties in load are broken by id
    // when works are assigned, and PLAN relies on D going to judgeJia, judgeYi and judgeBing. The teams, whose order
    // matters to nothing, enter meanwhile (password hashing is most of the time this takes).
    const judges = async () => {
      for (const [key, school] of Object.entries(JUDGES)) await w.addJudge(key as JudgeKey, school);
    };
    const team = async ([key, [school, person, err]]: [string, (typeof TEAMS)[TeamKey]]) => {
      const entered = await teamWithWork(t, org, w, {
        username: `rv${w.n}${key}`,
        name: `评审${key}队`,
        info: { ...REG_INFO, userName: person, organization: school },
        works: Buffer.from(`works of ${key}`),
        prediction: err === null ? null : prediction(err),
        teachers: key === 'A' ? [{ name: '周老师', phone: null, organization: '甲大学', title: '副教授' }] : undefined,
      });
      w.teams[key as TeamKey] = { ...entered, person, school };
    };
    await Promise.all([judges(), ...Object.entries(TEAMS).map(team)]);
    expect(await runDueJobs(t.deps)).toBe(3);
    return w;
  }

  /** Stage 3: the organiser has saved RULE. */
  async function ruled() {
    const w = await entered();
    w.rule = await reviewRule(org, w.questionId, RULE);
    return w;
  }

  /** Stage 4: the four experts judge the question, and the works are assigned to them (11 assignments, A one short). */
  async function assigned() {
    const w = await ruled();
    await judgesOnQuestion(org, w.questionId, Object.values(w.judges));
    await assignWorks(org, w.questionId);
    return w;
  }

  /**
   * Stage 5: grades computed, every judge's scores submitted as in PLAN, submission closed (the deadline is 11:00
   * Beijing time and the clock passes it) and the grades confirmed; `published` switches GRADE_SET on too.
   */
  async function confirmed({ published }: { published: boolean }) {
    const w = await assigned();
    ok(await org.post(`/api/review/works/calcFinalScore/${w.questionId}`), 'calculate');
    const list = await w.assignments();
    for (const [team, scores] of Object.entries(PLAN)) {
      for (const [judge, s] of Object.entries(scores)) {
        const a = list.find((x) => x.teamId === w.teams[team as TeamKey].teamId && x.judgeId === w.judges[judge as JudgeKey].id)!;
        await submitScores(w.judges[judge as JudgeKey], w.rule, a.id, s);
      }
    }
    await confirmGrades(org, w, '2026-03-20T11:00:00+08:00', () => {
      now = new Date('2026-03-20T03:00:01Z');
    });
    if (published) ok(await org.put(`/api/competition/preset/${w.gradePreset}`, { enable: true }), 'GRADE_SET');
    return w;
  }

  /** Stage 6: awards given by rank bands (一等奖 1, 二等奖 2–3) and by hand (优秀奖 to C) on published grades. */
  async function awarded() {
    const w = await confirmed({ published: true });
    const levels = ok<{ id: number; name: string }[]>(
      await org.put(`/api/review/works/awards/${w.questionId}`, {
        levels: [
          { name: '一等奖', rankFrom: 1, rankTo: 1 },
          { name: '二等奖', rankFrom: 2, rankTo: 3 },
          { name: '优秀奖', rankFrom: null, rankTo: null },
        ],
      }),
      'award levels',
    );
    ok(await org.post(`/api/review/works/awards/apply/${w.questionId}`), 'apply awards');
    ok(
      await org.put(`/api/review/works/awards/team/${w.questionId}`, { teamId: w.teams.C.teamId, awardId: levels.find((l) => l.name === '优秀奖')!.id }),
      'award by hand',
    );
    return w;
  }

  /** Stage 7: certificates written for the awarded members and A's teacher, on an uploaded background. */
  async function certified() {
    const w = await awarded();
    const background = ok<{ uri: string }>(
      await org.request({
        method: 'POST',
        url: '/api/review/certificate/cert/imgUrl',
        ...multipart('bg.png', await QRCode.toBuffer('certificate background', { width: 800 })),
      }),
      'background',
    );
    const template = ok<{ id: number }>(
      await org.post(`/api/review/certificate/${w.competitionId}`, {
        name: '获奖证书',
        backgroundUri: background.uri,
        fields: [{ field: 'name', x: 100, y: 100, size: 40, color: '#000000' }],
      }),
      'template',
    );
    ok(await org.post(`/api/review/certificate/relation/${w.questionId}`, { templateId: template.id }), 'template relation');
    ok(await org.post(`/api/review/certificate/cert/push/${w.questionId}`), 'push certificates');
    await runDueJobs(t.deps);
    return w;
  }

  it('validates the review rule and keeps it per question', async () => {
    const { questionId } = await question();
    const bad = await org.put(`/api/review/rules/${questionId}`, {
      criteria: CRITERIA,
      judgesPerWork: 2,
      aggregation: 'trimmed',
      reviewWeight: 70,
      testWeight: 20,
      blind: true,
      disputeDays: 3,
    });
    expect(bad.statusCode).toBe(400);
    expect(body(bad).data.fields).toMatchObject({ testWeight: '评审成绩与测试成绩的权重之和须为100', aggregation: '去掉最高分和最低分至少需要3位专家评审' });
    expect(
      (
        await orgB.put(`/api/review/rules/${questionId}`, {
          criteria: CRITERIA,
          judgesPerWork: 3,
          aggregation: 'trimmed',
          reviewWeight: 70,
          testWeight: 30,
          blind: true,
          disputeDays: 3,
        })
      ).statusCode,
    ).toBe(404);
    // Criteria have no weight of their own any more: the full mark is the weight.
    const weighted = await org.put(`/api/review/rules/${questionId}`, {
      criteria: CRITERIA.map((c) => ({ ...c, weight: 3 })),
      judgesPerWork: 3,
      aggregation: 'trimmed',
      reviewWeight: 70,
      testWeight: 30,
      blind: true,
      disputeDays: 3,
    });
    expect(body(weighted).data.fields['criteria.0.weight']).toBe('不支持的字段：weight');
    const res = await org.put(`/api/review/rules/${questionId}`, {
      criteria: CRITERIA,
      judgesPerWork: 3,
      aggregation: 'trimmed',
      reviewWeight: 70,
      testWeight: 30,
      blind: true,
      disputeDays: 3,
    });
    expect(res.statusCode, res.body).toBe(200);
    const rule = body(res).data as Rule;
    expect(body(res).data).toMatchObject({ judgesPerWork: 3, aggregation: 'trimmed', reviewWeight: 70, testWeight: 30, blind: true, scored: false });
    expect(rule.criteria.map((c) => c.id)).toHaveLength(2);
    expect(body(res).data.criteria.map((c: object) => Object.keys(c).sort())).toEqual([
      ['description', 'id', 'maxScore', 'name'],
      ['description', 'id', 'maxScore', 'name'],
    ]);
  });

  it('assigns works automatically and evenly, never to a judge of the team’s own school', async () => {
    const { questionId, judges, teams, assignments } = await ruled();
    expect(body(await org.post(`/api/review/works/${questionId}`)).message).toBe('请先为该赛题添加评审专家');
    const add = await org.post(`/api/review/judge/${questionId}`, { userIds: Object.values(judges).map((j) => j.id) });
    expect(add.statusCode, add.body).toBe(200);
    // Works can still be replaced: assigning now waits for the organiser to confirm the risk, and creates nothing until then.
    const early = await org.post(`/api/review/works/${questionId}`);
    expect([early.statusCode, body(early).data.fields.early]).toEqual([409, expect.stringMatching(/^提交作品尚未截止（.+），现在分配后队伍仍可上传新版本/)]);
    expect(await assignments()).toEqual([]);
    const res = await org.post(`/api/review/works/${questionId}?early=1`);
    expect(res.statusCode, res.body).toBe(200);
    // Team A (甲大学) has only 乙 and 丙 free of conflict: one place stays empty and is reported.
    expect(body(res).data.created).toBe(11);
    expect(body(res).data.short).toHaveLength(1);
    expect(body(res).data.short[0]).toMatchObject({ teamId: teams.A!.teamId, missing: 1 });

    const list = await assignments();
    const schoolOf = new Map(Object.values(teams).map((tm) => [tm.teamId, tm.school.trim()]));
    const judgeSchool: Record<number, string> = {
      [judges.judgeJia!.id]: '甲大学',
      [judges.judgeYi!.id]: '乙大学',
      [judges.judgeBing!.id]: '丙大学',
      [judges.judgeJia2!.id]: '甲大学',
    };
    for (const a of list) expect(judgeSchool[a.judgeId]).not.toBe(schoolOf.get(a.teamId));
    const load = Object.values(judges).map((j) => list.filter((a) => a.judgeId === j.id).length);
    expect(Math.max(...load) - Math.min(...load)).toBeLessThanOrEqual(1);
    // Running it again fills only what is missing, and nothing is.
    expect(body(await org.post(`/api/review/works/${questionId}?early=1`)).data.created).toBe(0);
    // Moving a work to a judge of the team's own school is refused.
    const aWork = list.find((a) => a.teamId === teams.A!.teamId && a.judgeId === judges.judgeYi!.id)!;
    const moved = await org.put(`/api/review/assign/${aWork.id}`, { judgeId: judges.judgeJia2!.id });
    expect([moved.statusCode, body(moved).message]).toEqual([409, '该专家与作品所属队伍来自同一单位，需回避']);
  });

  it('shows a judge only the works assigned to them, and under blind review nothing of the team', async () => {
    const { questionId, judges, teams, mineOf } = await assigned();
    const mine = await mineOf('judgeYi');
    expect(mine.length).toBeGreaterThan(0);
    const text = JSON.stringify(mine) + JSON.stringify(body(await judges.judgeYi!.client.get(`/api/review/center/works/${mine[0]!.id}`)).data);
    for (const tm of Object.values(teams)) for (const leak of [tm.name, tm.person, tm.school, `rv`]) expect(text).not.toContain(leak);
    expect(mine.every((w) => w.team === null)).toBe(true);

    const dl = await judges.judgeYi!.client.get(`/api/review/center/works/${mine[0]!.id}/download`);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-disposition']).toContain(encodeURIComponent(`作品-${mine[0]!.code}.zip`));
    expect(dl.body).toMatch(/^works of [A-D]$/);
    // The hash of the whole file travels with every part, for a download manager to check what it assembled.
    expect(dl.headers['x-sha256']).toBe(createHash('sha256').update(dl.rawPayload).digest('hex'));
    // An interrupted download resumes from where it stopped.
    const rest = await judges.judgeYi!.client.request({
      method: 'GET',
      url: `/api/review/center/works/${mine[0]!.id}/download`,
      headers: { range: 'bytes=6-' },
    });
    expect([rest.statusCode, rest.body]).toEqual([206, dl.body.slice(6)]);

    const tasks = body(await judges.judgeYi!.client.get('/api/review/center/tasks')).data;
    expect(tasks).toEqual([expect.objectContaining({ questionId, total: mine.length, submitted: 0, blind: true })]);
  });

  it('refuses another judge, a participant, another organiser and anonymous callers', async () => {
    const { questionId, judges, teams, mineOf, scoreAs } = await assigned();
    const yis = await mineOf('judgeYi');
    const bings = (await mineOf('judgeBing')).map((w) => w.id);
    const foreign = yis.find((w) => !bings.includes(w.id))!;
    const bing = judges.judgeBing!.client;
    expect((await bing.get(`/api/review/center/works/${foreign.id}`)).statusCode).toBe(404);
    expect((await bing.get(`/api/review/center/works/${foreign.id}/download`)).statusCode).toBe(404);
    expect((await scoreAs('judgeBing', foreign.id, both(5))).statusCode).toBe(404);
    expect((await teams.A!.leader.get(`/api/review/center/works/${foreign.id}`)).statusCode).toBe(403);
    expect((await teams.A!.leader.put(`/api/review/works/${foreign.id}`, { scores: [], submit: false })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/review/center/tasks' })).statusCode).toBe(401);
    expect((await orgB.get(`/api/review/assign/page/${questionId}`)).statusCode).toBe(404);
    expect((await orgB.post(`/api/review/works/calcFinalScore/${questionId}`)).statusCode).toBe(404);
    expect((await judges.judgeYi!.client.get(`/api/review/assign/page/${questionId}`)).statusCode).toBe(403);
  });

  it('keeps drafts, checks each score against its maximum, and lets only the organiser reopen a submission', async () => {
    const { questionId, judges, rule, mineOf, scoreAs, assignments } = await assigned();
    const [w] = await mineOf('judgeYi');
    // Out of range, with a field error naming the criterion: draft or not, nothing is saved.
    const refused = [
      [[70, 20], 'scores.0.score', '“创新性”的分数不能超过60'],
      [[-1, 20], 'scores.0.score', '“创新性”的分数不能小于0'],
      [[50, 30.001], 'scores.1.score', '“完整性”的分数至多保留两位小数'],
    ] as const;
    for (const [scores, field, message] of refused) {
      for (const submit of [false, true]) {
        const res = await scoreAs('judgeYi', w!.id, [...scores], submit);
        expect([res.statusCode, body(res).message, body(res).data.fields[field]]).toEqual([400, message, message]);
      }
    }
    const notANumber = await judges.judgeYi!.client.put(`/api/review/works/${w!.id}`, {
      scores: [{ criterionId: rule.criteria[0]!.id, score: '50', comment: null }],
      submit: false,
    });
    expect([notANumber.statusCode, body(notANumber).data.fields['scores.0.score']]).toEqual([400, '分数须为数字']);
    expect(body(await judges.judgeYi!.client.get(`/api/review/center/works/${w!.id}`)).data).toMatchObject({ status: 0, total: null });
    const incomplete = await scoreAs('judgeYi', w!.id, [5], true);
    expect(body(incomplete).data.fields['scores.1.score']).toBe('请为“完整性”打分');
    const draft = await scoreAs('judgeYi', w!.id, [5], false);
    expect(body(draft).data).toMatchObject({ status: 1, total: null, maxTotal: 100 });
    expect(body(draft).data.scores[0]).toMatchObject({ score: 5, comment: '好' });
    // 50 of 60 and 30 of 40 add up to 80 of 100, wherever the total is shown.
    expect(body(await scoreAs('judgeYi', w!.id, [50, 30])).data).toMatchObject({ status: 2, total: 80, maxTotal: 100 });
    expect((await mineOf('judgeYi')).find((x) => x.id === w!.id)).toMatchObject({ total: 80, maxTotal: 100 });
    expect((await assignments()).find((x) => x.id === w!.id)).toMatchObject({ total: 80, maxTotal: 100 });
    // Two decimals add up without floating-point noise.
    const [other] = (await mineOf('judgeYi')).filter((x) => x.id !== w!.id);
    expect(body(await scoreAs('judgeYi', other!.id, [8.7, 15.1], false)).data).toMatchObject({ status: 1, total: 23.8 });
    const again = await scoreAs('judgeYi', w!.id, both(6));
    expect([again.statusCode, body(again).message]).toEqual([409, '评分已提交，如需修改请联系组织方重新打开']);
    // The criteria are fixed once a judge has scored.
    const change = await org.put(`/api/review/rules/${questionId}`, {
      criteria: CRITERIA.map((c, i) => ({ ...c, id: rule.criteria[i]!.id, maxScore: 50 })),
      judgesPerWork: 3,
      aggregation: 'trimmed',
      reviewWeight: 70,
      testWeight: 30,
      blind: true,
      disputeDays: 3,
    });
    expect(change.statusCode).toBe(409);
    expect(body(await org.post(`/api/review/assign/reopen/${w!.id}`)).data.status).toBe(1);
  });

  it('computes grades from every judge, lists who has not finished, and confirms only when all have', async () => {
    const { competitionId, questionId, judges, teams, assignments, scoreAs } = await assigned();
    // Computing is allowed while works and tests may still be submitted (the page asks first).
    const summary = body(await org.post(`/api/review/works/calcFinalScore/${questionId}`)).data;
    expect(summary.gradeState).toBe(1);
    expect(summary.unfinished.map((u: { username: string }) => u.username).sort()).toEqual(
      [judges.judgeBing.username, judges.judgeJia.username, judges.judgeJia2.username, judges.judgeYi.username].sort(),
    );
    // Publishing waits for submission to close: the organiser sets the deadline to 11:00 (Beijing), and it passes.
    await setSubmissionDeadline(org, competitionId, '2026-03-20T11:00:00+08:00');
    now = new Date('2026-03-20T03:00:01Z');
    const refused = await org.post(`/api/review/works/confirmFinalScore/${questionId}`);
    expect([refused.statusCode, body(refused).message]).toEqual([409, '还有11份评审未提交，不能确认成绩']);
    expect(body(await teams.A!.leader.get(`/api/review/works/myGrade/${competitionId}`)).data).toEqual([]);

    // Every judge scores as PLAN says (hand-computed there).
    const list = await assignments();
    for (const [team, scores] of Object.entries(PLAN)) {
      for (const [judge, s] of Object.entries(scores)) {
        const a = list.find((x) => x.teamId === teams[team as TeamKey].teamId && x.judgeId === judges[judge as JudgeKey].id);
        expect(a, `${team}/${judge}`).toBeDefined();
        const res = await scoreAs(judge as JudgeKey, a!.id, s);
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    expect(body(await org.post(`/api/review/works/confirmFinalScore/${questionId}`)).data).toMatchObject({ gradeState: 2, unfinished: [] });
    const grades = body(await org.get(`/api/review/works/grade/${questionId}`)).data.list as {
      teamId: number;
      reviewScores: number[];
      maxTotal: number;
      reviewScore: number;
      testScore: number | null;
      testPoints: number;
      finalScore: number;
      rank: number;
    }[];
    const byTeam = (k: TeamKey) => grades.find((g) => g.teamId === teams[k].teamId)!;
    expect(byTeam('A')).toMatchObject({ maxTotal: 100, reviewScore: 85, testScore: 1, testPoints: 100, finalScore: 89.5, rank: 1 });
    expect(byTeam('A').reviewScores.sort()).toEqual([80, 90]);
    expect(byTeam('B')).toMatchObject({ reviewScore: 90, testScore: 2, testPoints: 50, finalScore: 78, rank: 2 });
    expect(byTeam('D')).toMatchObject({ reviewScore: 100, testScore: null, testPoints: 0, finalScore: 70, rank: 3 });
    expect(byTeam('C')).toMatchObject({ reviewScore: 70, testScore: 4, testPoints: 25, finalScore: 56.5, rank: 4 });
    expect(grades.map((g) => g.rank)).toEqual([1, 2, 3, 4]);

    const xlsx = await org.get(`/api/review/works/exportGrade/${questionId}`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(5);
    expect(sheet.getRow(2).getCell(3).value).toBe(teams.A!.name);
    expect(String(sheet.getRow(2).getCell(7).value).split('、').sort()).toEqual(['80 / 100', '90 / 100']);

    // Every judge's scores, a column per criterion: one row per assignment.
    const detail = new ExcelJS.Workbook();
    await detail.xlsx.load((await org.get(`/api/review/assign/page/${questionId}?export=xlsx`)).rawPayload as unknown as ArrayBuffer);
    const rows = detail.worksheets[0]!;
    expect(rows.rowCount).toBe(12);
    expect(rows.getRow(1).getCell(7).value).toBe('创新性（满分60）');
    expect(rows.getRow(1).getCell(9).value).toBe('总分（满分100）');
    // Read two assignments at a time (as a national contest's are read in batches), the export holds the same rows:
    // every one, none twice, in the same order.
    const size = exportBatches.size;
    exportBatches.size = 2;
    try {
      const paged = new ExcelJS.Workbook();
      await paged.xlsx.load((await org.get(`/api/review/works/review/export/${questionId}`)).rawPayload as unknown as ArrayBuffer);
      const values = (ws: ExcelJS.Worksheet) =>
        ws
          .getSheetValues()
          .filter(Boolean)
          .map((r) => JSON.stringify(r));
      expect(values(paged.worksheets[0]!)).toEqual(values(rows));
    } finally {
      exportBatches.size = size;
    }
  });

  it('locks confirmed grades against every change', async () => {
    const { questionId, rule, assignments } = await confirmed({ published: false });
    const before = body(await org.get(`/api/review/works/grade/${questionId}`)).data.list;
    const [a] = await assignments();
    const attempts = [
      [await org.post(`/api/review/works/calcFinalScore/${questionId}`), '成绩已确认，不能重新计算'],
      [await org.post(`/api/review/assign/reopen/${a!.id}`), '成绩已确认，不能重新打开评分'],
      [await org.post(`/api/review/works/${questionId}`), '成绩已确认，不能再分配作品'],
      [
        await org.put(`/api/review/rules/${questionId}`, {
          criteria: CRITERIA.map((c, i) => ({ ...c, id: rule.criteria[i]!.id })),
          judgesPerWork: 3,
          aggregation: 'mean',
          reviewWeight: 70,
          testWeight: 30,
          blind: true,
          disputeDays: 3,
        }),
        '成绩已确认，不能再修改评审规则',
      ],
    ] as const;
    for (const [res, message] of attempts) expect([res.statusCode, body(res).message]).toEqual([409, message]);
    expect(body(await org.get(`/api/review/works/grade/${questionId}`)).data.list).toEqual(before);
  });

  it('shows a team its grade only while GRADE_SET is on', async () => {
    const { competitionId, questionId, gradePreset, teams } = await confirmed({ published: false });
    expect(body(await teams.A!.leader.get(`/api/review/works/myGrade/${competitionId}`)).data).toEqual([]);
    await org.put(`/api/competition/preset/${gradePreset}`, { enable: true });
    const [g] = body(await teams.A!.leader.get(`/api/review/works/myGrade/${competitionId}`)).data;
    expect(g).toMatchObject({ questionId, rechecking: false, reviewScore: 85, finalScore: 89.5, rank: 1, teams: 4, dispute: null });
    expect(g.disputeUntil).toBe(new Date(now.getTime() + 3 * 24 * 3600_000).toISOString());
    expect(body(await teams.A!.leader.get('/api/message/notice/page/1')).data.list.map((m: { title: string }) => m.title)).toContain('成绩已公布');
  });

  it('takes one dispute per team inside the window, re-reviews it with a new judge and confirms again', async () => {
    const { n, competitionId, questionId, judges, teams, addJudge, mineOf, scoreAs } = await confirmed({ published: true });
    const c = teams.C!;
    const filed = await c.leader.post(`/api/review/works/disputeScore/${questionId}`, { reason: '我们认为评分偏低' });
    expect(filed.statusCode, filed.body).toBe(200);
    expect(body(await c.leader.post(`/api/review/works/disputeScore/${questionId}`, { reason: '再次申诉' })).message).toBe('您的队伍已对该赛题提交过申诉');
    // Those who answer disputes are told (issue 33).
    expect((body(await org.get('/api/message/notice/page/1')).data.list as { title: string }[]).map((m) => m.title)).toContain('新的成绩申诉');
    expect((await c.leader.post(`/api/review/works/disputeScore/${questionId}`, { reason: '' })).statusCode).toBe(400);
    const lone = await loggedIn(t.app, (await registerUser(t.app, `rvLone${n}`)).username);
    expect((await lone.post(`/api/review/works/disputeScore/${questionId}`, { reason: '路人' })).statusCode).toBe(404);

    // 丙大学's judge cannot re-review 丙大学's work; a new judge from elsewhere can.
    const disputeId = body(filed).data.id;
    const conflictAnswer = await org.put(`/api/review/works/dispute/${disputeId}`, { answer: '已安排复评', rereviewJudgeId: judges.judgeBing!.id });
    expect([conflictAnswer.statusCode, body(conflictAnswer).message]).toEqual([409, '该专家与作品所属队伍来自同一单位，需回避']);
    const wu = await addJudge('judgeWu', '戊大学');
    await org.post(`/api/review/judge/${questionId}`, { userIds: [wu] });
    const answered = await org.put(`/api/review/works/dispute/${disputeId}`, { answer: '已安排复评', rereviewJudgeId: wu });
    expect(body(answered).data).toMatchObject({ status: 1, answer: '已安排复评', rereview: true });
    expect((await org.put(`/api/review/works/dispute/${disputeId}`, { answer: '再答一次' })).statusCode).toBe(409);

    // While re-reviewed, the team sees the answer but no numbers.
    const [during] = body(await c.leader.get(`/api/review/works/myGrade/${competitionId}`)).data;
    expect(during).toMatchObject({ rechecking: true, finalScore: null, dispute: { answer: '已安排复评', status: 1 } });
    expect(body(await c.leader.get('/api/message/notice/page/1')).data.list[0]).toMatchObject({ title: '成绩申诉已答复', content: '<p>已安排复评</p>' });
    const [re] = await mineOf('judgeWu');
    expect(re).toMatchObject({ status: 0 });
    expect((await scoreAs('judgeWu', re!.id, both(10))).statusCode).toBe(200);
    expect((await org.post(`/api/review/works/confirmFinalScore/${questionId}`)).statusCode).toBe(200);
    // C's 60, 80 and 70 with the re-review's 100: trimmed drops 60 and 100, leaving 75 → 52.5 + 7.5 = 60.
    const [after] = body(await c.leader.get(`/api/review/works/myGrade/${competitionId}`)).data;
    expect(after).toMatchObject({ rechecking: false, reviewScore: 75, finalScore: 60, rank: 4 });

    // Out of the window, nobody may dispute any more.
    now = new Date(now.getTime() + 4 * 24 * 3600_000);
    expect(body(await teams.B!.leader.post(`/api/review/works/disputeScore/${questionId}`, { reason: '晚了' })).message).toBe('已超过成绩申诉期');

    // This question's grade actions, and its dispute's: other tests' questions share the log.
    const log = await t.database.db
      .selectFrom('auditLog')
      .select('action')
      .where('action', 'like', 'grade.%')
      .where((eb) =>
        eb.or([
          eb.and([eb('entity', '=', 'question'), eb('entityId', '=', String(questionId))]),
          eb.and([eb('entity', '=', 'scoreDispute'), eb('entityId', '=', String(disputeId))]),
        ]),
      )
      .orderBy('id')
      .execute();
    expect(log.map((l) => l.action)).toEqual(['grade.calculate', 'grade.confirm', 'grade.dispute.file', 'grade.dispute.answer', 'grade.confirm']);
  });

  it('gives awards by rank bands and by hand, and lists them for the team only', async () => {
    const { questionId, teams } = await confirmed({ published: true });
    const bad = await org.put(`/api/review/works/awards/${questionId}`, {
      levels: [
        { name: '一等奖', rankFrom: 1, rankTo: 2 },
        { name: '二等奖', rankFrom: 2, rankTo: 3 },
      ],
    });
    expect(body(bad).data.fields.levels).toBe('“一等奖”与“二等奖”的名次范围重叠');
    const levels = body(
      await org.put(`/api/review/works/awards/${questionId}`, {
        levels: [
          { name: '一等奖', rankFrom: 1, rankTo: 1 },
          { name: '二等奖', rankFrom: 2, rankTo: 3 },
          { name: '优秀奖', rankFrom: null, rankTo: null },
        ],
      }),
    ).data as { id: number; name: string }[];
    expect(body(await org.post(`/api/review/works/awards/apply/${questionId}`)).data).toEqual({ awarded: 3 });
    const excellent = levels.find((l) => l.name === '优秀奖')!.id;
    expect(body(await org.put(`/api/review/works/awards/team/${questionId}`, { teamId: teams.C!.teamId, awardId: excellent })).data).toMatchObject({
      awardName: '优秀奖',
      awardManual: true,
    });
    // Re-applying the bands keeps what was set by hand.
    await org.post(`/api/review/works/awards/apply/${questionId}`);
    const grades = body(await org.get(`/api/review/works/grade/${questionId}`)).data.list as { teamId: number; awardName: string }[];
    expect(Object.fromEntries(grades.map((g) => [g.teamId, g.awardName]))).toEqual({
      [teams.A!.teamId]: '一等奖',
      [teams.B!.teamId]: '二等奖',
      [teams.D!.teamId]: '二等奖',
      [teams.C!.teamId]: '优秀奖',
    });

    expect(body(await teams.C!.leader.get(`/api/review/works/list/awards/${teams.C!.teamId}`)).data).toEqual([
      expect.objectContaining({ questionId, awardName: '优秀奖', rank: 4 }),
    ]);
    expect((await teams.A!.leader.get(`/api/review/works/list/awards/${teams.C!.teamId}`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/review/works/list/awards/${teams.C!.teamId}` })).statusCode).toBe(401);

    const prize = await org.get(`/api/review/works/exportPrize/${questionId}`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(prize.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets[0]!.rowCount).toBe(5);
    expect(book.worksheets[0]!.getRow(2).getCell(1).value).toBe('一等奖');
  });

  it('writes a certificate for every awarded member and teacher, with unique numbers and a public check', async () => {
    const { competitionId, questionId, teams } = await awarded();
    const background = await QRCode.toBuffer('certificate background', { width: 800 });
    const up = await org.request({ method: 'POST', url: '/api/review/certificate/cert/imgUrl', ...multipart('bg.png', background) });
    expect(body(up).data).toMatchObject({ width: 800, height: 800 });
    const fields = [
      { field: 'name', x: 100, y: 100, size: 40, color: '#000000' },
      { field: 'team', x: 100, y: 160, size: 24, color: '#333333' },
      { field: 'award', x: 100, y: 200, size: 24, color: '#c00000' },
      { field: 'certNo', x: 100, y: 240, size: 16, color: '#000000' },
      { field: 'qrcode', x: 600, y: 600, size: 150, color: '#000000' },
    ];
    const outside = await org.post(`/api/review/certificate/${competitionId}`, {
      name: '获奖证书',
      backgroundUri: body(up).data.uri,
      fields: [{ field: 'name', x: 900, y: 10, size: 20, color: '#000000' }],
    });
    expect(body(outside).data.fields['fields.0.x']).toBe('“姓名”的位置超出了背景图（800×800）');
    const template = body(await org.post(`/api/review/certificate/${competitionId}`, { name: '获奖证书', backgroundUri: body(up).data.uri, fields })).data;
    expect((await orgB.get(`/api/review/certificate/${template.id}`)).statusCode).toBe(404);

    expect(body(await org.post(`/api/review/certificate/cert/push/${questionId}`)).message).toBe('请先为该赛题选择证书模板');
    await org.post(`/api/review/certificate/relation/${questionId}`, { templateId: template.id });
    const started = body(await org.post(`/api/review/certificate/cert/push/${questionId}`)).data;
    // Four awarded teams of one member each, and team A's teacher.
    expect(started).toMatchObject({ state: 1, total: 5, done: 0 });
    await runDueJobs(t.deps);
    expect(body(await org.get(`/api/review/certificate/cert/push/${questionId}`)).data).toMatchObject({ state: 2, total: 5, done: 5 });

    const list = body(await org.get(`/api/review/certificate/export/${questionId}?limit=50`)).data.list as {
      id: number;
      certNo: string;
      holderName: string;
      holderKind: string;
      teamId: number;
    }[];
    expect(list).toHaveLength(5);
    expect(new Set(list.map((c) => c.certNo)).size).toBe(5);
    expect(list.filter((c) => c.holderKind === 'teacher').map((c) => c.holderName)).toEqual(['周老师']);
    // Writing them again keeps every number.
    await org.post(`/api/review/certificate/cert/push/${questionId}`);
    await runDueJobs(t.deps);
    const again = body(await org.get(`/api/review/certificate/export/${questionId}?limit=50`)).data.list as { certNo: string }[];
    expect(again.map((c) => c.certNo).sort()).toEqual(list.map((c) => c.certNo).sort());
    // The database itself refuses a duplicate number.
    await expect(t.database.db.updateTable('certificates').set({ certNo: list[0]!.certNo }).where('id', '=', list[1]!.id).execute()).rejects.toThrow();

    const a = teams.A!;
    const mine = body(await a.leader.get('/api/review/certificate/cert/list')).data as { id: number; holderName: string; awardName: string }[];
    expect(mine).toEqual([expect.objectContaining({ holderName: '赵一', awardName: '一等奖', holderKind: 'member' })]);
    expect(body(await a.leader.get(`/api/review/certificate/person/${a.teamId}`)).data).toHaveLength(2);
    const pdf = await a.leader.get(`/api/review/certificate/cert/certificate/download/${mine[0]!.id}`);
    expect([pdf.statusCode, pdf.headers['content-type']]).toEqual([200, 'application/pdf']);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf.rawPayload)), { mergePages: true });
    expect(text).toContain('赵一');
    expect(text).toContain(a.name);
    expect(text).toContain('一等奖');
    expect(body(await a.leader.get('/api/message/notice/page/1')).data.list[0]).toMatchObject({ title: '获奖证书已生成' });

    expect((await teams.B!.leader.get(`/api/review/certificate/cert/certificate/download/${mine[0]!.id}`)).statusCode).toBe(404);
    expect((await teams.B!.leader.get(`/api/review/certificate/load/${mine[0]!.id}`)).statusCode).toBe(404);
    expect((await teams.B!.leader.get(`/api/review/certificate/person/${a.teamId}`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/review/certificate/cert/certificate/download/${mine[0]!.id}` })).statusCode).toBe(401);

    const row = await t.database.db.selectFrom('certificates').select(['certNo', 'verifyCode']).where('id', '=', mine[0]!.id).executeTakeFirstOrThrow();
    const check = await t.app.inject({ method: 'GET', url: `/api/review/certificate/public/verify/${row.certNo}?code=${row.verifyCode}` });
    expect(body(check).data).toMatchObject({ certNo: row.certNo, holderName: '赵*', awardName: '一等奖', questionTitle: '评审题' });
    const wrong = await t.app.inject({ method: 'GET', url: `/api/review/certificate/public/verify/${row.certNo}?code=0000` });
    expect([wrong.statusCode, body(wrong).message]).toEqual([404, '未找到该证书，或验证码不正确']);

    // The short code printed beside the number: 8 characters without look-alikes, derived from the QR code's.
    const printed = shortCode(row.verifyCode);
    expect(printed).toMatch(/^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{8}$/);
    expect(text).toContain(row.certNo);
    expect(text.replace(/\s/g, '')).toContain(`验证码：${printed.slice(0, 4)}-${printed.slice(4)}`);
  });

  it('checks a certificate by its printed number and short code, typed in any case with spaces or dashes, and limits wrong tries per address', async () => {
    const { n, questionId } = await certified();
    const row = await t.database.db
      .selectFrom('certificates')
      .select(['certNo', 'verifyCode', 'holderName'])
      .where('questionId', '=', questionId)
      .where('holderName', '=', '赵一')
      .executeTakeFirstOrThrow();
    const printed = shortCode(row.verifyCode);
    const check = (certNo: string, code: string, ip: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/review/certificate/public/verify/${encodeURIComponent(certNo)}?code=${encodeURIComponent(code)}`,
        remoteAddress: ip,
      });
    const typed = `${row.certNo.slice(0, 4)} ${row.certNo.slice(4)}`;
    const ok = await check(typed, ` ${printed.slice(0, 4).toLowerCase()}-${printed.slice(4)} `, `10.9.${n}.1`);
    expect([ok.statusCode, body(ok).data]).toEqual([200, expect.objectContaining({ certNo: row.certNo, holderName: '赵*', awardName: '一等奖' })]);
    // The QR code's long code still works, typed in capitals too.
    expect((await check(row.certNo, row.verifyCode.toUpperCase(), `10.9.${n}.1`)).statusCode).toBe(200);
    // Another certificate's code, a near miss and an unknown number are all the same answer.
    const other = await t.database.db
      .selectFrom('certificates')
      .select('verifyCode')
      .where('questionId', '=', questionId)
      .where('certNo', '!=', row.certNo)
      .executeTakeFirstOrThrow();
    const nearMiss = printed.slice(0, 7) + (printed[7] === '2' ? '3' : '2');
    for (const [no, code] of [
      [row.certNo, shortCode(other.verifyCode)],
      [row.certNo, nearMiss],
      ['209900000001', printed],
      [row.certNo, ''],
    ] as const) {
      const res = await check(no, code, `10.9.${n}.1`);
      expect([res.statusCode, body(res).message]).toEqual([404, '未找到该证书，或验证码不正确']);
    }
    // Successes do not count: five wrong tries (the limit) are allowed, the sixth and anything after are refused, even right ones.
    expect((await check(row.certNo, 'ZZZZZZZZ', `10.9.${n}.1`)).statusCode).toBe(404);
    const refused = await check(row.certNo, printed, `10.9.${n}.1`);
    expect(refused.statusCode).toBe(429);
    expect(body(refused).message).toMatch(/^验证失败次数过多，请\d+分钟后再试$/);
    // Another address is not affected.
    expect((await check(row.certNo, printed, `10.9.${n}.2`)).statusCode).toBe(200);
  });

  it.each(CERT_BUILTIN_LAYOUTS)(
    'writes certificates on the built-in %s layout, with a frame, the usual wording, the people, the organiser, the number and code',
    async (layout) => {
      const { competitionId, questionId } = await awarded();
      const name = CERT_BUILTIN_NAMES[layout];
      const created = await org.post(`/api/review/certificate/${competitionId}`, {
        name,
        backgroundUri: `builtin:${layout}`,
        fields: CERT_BUILTIN_FIELDS[layout],
      });
      expect(created.statusCode, created.body).toBe(200);
      const template = body(created).data;
      expect(template).toMatchObject({ backgroundUri: `builtin:${layout}`, ...CERT_BUILTIN_SIZE[layout] });
      const outside = await org.post(`/api/review/certificate/${competitionId}`, {
        name,
        backgroundUri: `builtin:${layout}`,
        fields: [{ field: 'name', x: 900, y: 900, size: 20, color: '#000000' }],
      });
      expect(body(outside).message).toBe(`“姓名”的位置超出了页面（${CERT_BUILTIN_SIZE[layout].width}×${CERT_BUILTIN_SIZE[layout].height}）`);
      const unknown = await org.post(`/api/review/certificate/${competitionId}`, {
        name,
        backgroundUri: 'builtin:square',
        fields: CERT_BUILTIN_FIELDS[layout],
      });
      expect(body(unknown).message).toBe('证书背景图无效，请重新上传');
      const noValue = await org.post(`/api/review/certificate/${competitionId}`, {
        name,
        backgroundUri: `builtin:${layout}`,
        fields: [{ field: 'name', x: 10, y: 10, size: 20, color: '#000000', text: '同学' }],
      });
      expect(body(noValue).message).toBe('“姓名”的文字须包含{}，表示字段的值');

      await org.post(`/api/review/certificate/relation/${questionId}`, { templateId: template.id });
      await org.post(`/api/review/certificate/cert/push/${questionId}`);
      await runDueJobs(t.deps);
      expect(body(await org.get(`/api/review/certificate/cert/push/${questionId}`)).data).toMatchObject({ state: 2, total: 5, done: 5 });
      const all = body(await org.get(`/api/review/certificate/export/${questionId}?limit=50`)).data.list as {
        id: number;
        holderName: string;
        competitionName: string;
      }[];
      for (const holder of ['赵一', '周老师']) {
        const c = all.find((x) => x.holderName === holder)!;
        const row = await t.database.db.selectFrom('certificates').select(['certNo', 'verifyCode']).where('id', '=', c.id).executeTakeFirstOrThrow();
        const pdf = await org.get(`/api/review/certificate/cert/certificate/download/${c.id}`);
        expect(pdf.statusCode).toBe(200);
        const doc = await getDocumentProxy(new Uint8Array(pdf.rawPayload));
        const page = await doc.getPage(1);
        expect(page.view).toEqual([0, 0, CERT_BUILTIN_SIZE[layout].width, CERT_BUILTIN_SIZE[layout].height]);
        const text = (await extractText(doc, { mergePages: true })).text.replace(/\s/g, '');
        const code = shortCode(row.verifyCode);
        for (const part of [
          c.competitionName,
          `${holder}：`,
          '所在队伍：评审A队',
          '队伍成员：赵一',
          '在“评审题”赛题中表现优异，荣获',
          '一等奖',
          '特发此证，以资鼓励。',
          '评审主办大学',
          '年',
          `证书编号：${row.certNo}`,
          `验证码：${code.slice(0, 4)}-${code.slice(4)}`,
        ]) {
          expect(text).toContain(part);
        }
      }
    },
  );

  it('0012 puts judge totals stored as weighted percentages on the plain sums, keeping confirmed grades as published', async () => {
    const { competitionId, questionId, judges, teams } = await confirmed({ published: true });
    const db = t.database.db;
    const stamp = now.toISOString();
    const A = teams.A!.teamId;
    const B = teams.B!.teamId;
    const yi = judges.judgeYi!.id;
    const bing = judges.judgeBing!.id;
    // As rules were saved before 0012: weights, here equal, on criteria of 60 and 30 (a total is out of 90).
    const legacyCriteria = JSON.stringify([
      { id: 'x', name: '深度', description: null, maxScore: 60, weight: 1 },
      { id: 'y', name: '表达', description: null, maxScore: 30, weight: 1 },
    ]);
    const scores = (x: number | null, y: number | null) =>
      JSON.stringify([
        { criterionId: 'x', score: x, comment: null },
        { criterionId: 'y', score: y, comment: null },
      ]);
    /** A question of the competition, its rule, and assignments as [team, judge, status, x, y, the old weighted total]. */
    async function legacyQuestion(title: string, gradeState: number, rows: [number, number, number, number | null, number | null, number | null][]) {
      const { id } = await db
        .insertInto('questions')
        .values({
          competitionId,
          title,
          content: null,
          reviewed: 1,
          sort: 9,
          createdAt: stamp,
          updatedAt: stamp,
          creatorId: null,
          metric: null,
          idColumn: null,
          targetColumn: null,
          publicPercent: null,
          dailyLimit: null,
          salt: null,
          answerKey: null,
          answerRows: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('reviewRules')
        .values({
          questionId: id,
          criteriaJson: legacyCriteria,
          judgesPerWork: 2,
          aggregation: 'mean',
          reviewWeight: 100,
          testWeight: 0,
          blind: 1,
          disputeDays: 3,
          gradeState,
          calculatedAt: stamp,
          confirmedAt: gradeState === 2 ? stamp : null,
          updatedAt: stamp,
        })
        .execute();
      for (const [i, [teamId, judgeId, status, x, y, total]] of rows.entries()) {
        await db
          .insertInto('reviewAssignments')
          .values({
            questionId: id,
            teamId,
            judgeId,
            code: `L${id}${i}`,
            status,
            scoresJson: scores(x, y),
            total,
            createdAt: stamp,
            updatedAt: stamp,
            submittedAt: status === 2 ? stamp : null,
          })
          .execute();
      }
      return id;
    }
    const grade = (questionId: number, teamId: number, judgesJson: number[], review: number, rank: number) => ({
      questionId,
      teamId,
      reviewScoresJson: JSON.stringify(judgesJson),
      reviewScore: review,
      judgesDone: judgesJson.length,
      judgesTotal: 2,
      testScore: null,
      testPoints: null,
      finalScore: review,
      rank,
      awardId: null,
      updatedAt: stamp,
    });

    // A preview: under the old rule B led (80 against 75); added up, A leads (72 / 90 = 80 against 69 / 90 = 76.67).
    const preview = await legacyQuestion('旧预览题', 1, [
      [A, yi, 2, 54, 18, 75], // (54/60 + 18/30) / 2 = 75 %; plainly 72 of 90
      [A, bing, 2, 54, 18, 75],
      [B, yi, 2, 42, 27, 80], // (42/60 + 27/30) / 2 = 80 %; plainly 69 of 90
      [B, bing, 1, 42, 27, 80], // a complete draft: its total is redone, but it does not count
      [A, judges.judgeJia!.id, 1, 30, null, null], // an incomplete draft has no total
    ]);
    await db
      .insertInto('grades')
      .values([grade(preview, A, [75, 75], 75, 2), grade(preview, B, [80], 80, 1)])
      .execute();
    // Confirmed: published as 78.75 from 75 % and 82.5 %; it stays so.
    const published = await legacyQuestion('旧已确认题', 2, [
      [A, yi, 2, 54, 18, 75],
      [A, bing, 2, 45, 27, 82.5], // (45/60 + 27/30) / 2 = 82.5 %; plainly 72 of 90
    ]);
    await db
      .insertInto('grades')
      .values([grade(published, A, [75, 82.5], 78.75, 1)])
      .execute();
    const current = body(await org.get(`/api/review/works/grade/${questionId}`)).data.list;

    await m0012.up(db as unknown as Kysely<unknown>, { dialect: t.database.dialect });

    const ruleOf = async (id: number) => body(await org.get(`/api/review/rules/${id}`)).data as { criteria: object[] };
    expect((await ruleOf(preview)).criteria).toEqual([
      { id: 'x', name: '深度', description: null, maxScore: 60 },
      { id: 'y', name: '表达', description: null, maxScore: 30 },
    ]);
    const totalsOf = async (id: number) =>
      (body(await org.get(`/api/review/assign/page/${id}?limit=100`)).data.list as { code: string; total: number | null; maxTotal: number }[])
        .sort((a, b) => a.code.localeCompare(b.code))
        .map((a) => [a.total, a.maxTotal]);
    expect(await totalsOf(preview)).toEqual([
      [72, 90],
      [72, 90],
      [69, 90],
      [69, 90],
      [null, 90],
    ]);
    expect(await totalsOf(published)).toEqual([
      [72, 90],
      [72, 90],
    ]);
    const mine = body(await judges.judgeYi!.client.get(`/api/review/center/works?questionId=${preview}`)).data as { total: number; maxTotal: number }[];
    expect(mine.map((w) => [w.total, w.maxTotal]).sort()).toEqual([
      [69, 90],
      [72, 90],
    ]);

    type G = { teamId: number; reviewScores: number[]; maxTotal: number; reviewScore: number; finalScore: number; rank: number; judgesDone: number };
    const gradesOf = async (id: number) => body(await org.get(`/api/review/works/grade/${id}`)).data.list as G[];
    const pick = ({ teamId, reviewScores, maxTotal, reviewScore, finalScore, rank, judgesDone }: G) => ({
      teamId,
      reviewScores,
      maxTotal,
      reviewScore,
      finalScore,
      rank,
      judgesDone,
    });
    const recomputed = [
      { teamId: A, reviewScores: [72, 72], maxTotal: 90, reviewScore: 80, finalScore: 80, rank: 1, judgesDone: 2 },
      { teamId: B, reviewScores: [69], maxTotal: 90, reviewScore: 76.67, finalScore: 76.67, rank: 2, judgesDone: 1 },
    ];
    expect((await gradesOf(preview)).map(pick)).toEqual(recomputed);
    // The published grade keeps its numbers; its judges' 75 % and 82.5 % are now shown as 67.5 and 74.25 of 90.
    expect((await gradesOf(published)).map(pick)).toEqual([
      { teamId: A, reviewScores: [67.5, 74.25], maxTotal: 90, reviewScore: 78.75, finalScore: 78.75, rank: 1, judgesDone: 2 },
    ]);
    // Rules saved since carry no weights and are left alone.
    expect(body(await org.get(`/api/review/works/grade/${questionId}`)).data.list).toEqual(current);

    // Computing the preview again, as the organiser would, gives what the migration wrote.
    for (const teamId of [A, B]) {
      await db
        .insertInto('works')
        .values({
          competitionId,
          questionId: preview,
          teamId,
          userId: yi,
          version: 1,
          fileKey: `legacy/${teamId}`,
          fileName: 'w.zip',
          size: 1,
          sha256: '0',
          completedAt: stamp,
        })
        .execute();
    }
    expect((await org.post(`/api/review/works/calcFinalScore/${preview}`)).statusCode).toBe(200);
    expect((await gradesOf(preview)).map(pick)).toEqual(recomputed);
  });
});
