/**
 * Factories for tests that stand alone: each builds, through the HTTP API as a browser would, the objects one test
 * needs, and returns their ids. A test file keeps one app (and its organisers) per describe; every test makes its own
 * competition, question, teams and judges with these, so that it runs alone (`vitest -t`) and in any order.
 */
import type { LightMyRequestResponse } from 'fastify';
import {
  REG_FIELD_LIST,
  REG_INFO,
  loggedIn,
  multipart,
  onlineCompetition,
  registerUser,
  setSubmissionDeadline,
  submitWork,
  type Client,
  type TestApp,
} from './helpers.ts';

let serial = 0;
/** A number never handed out before in this test process: for usernames and names that must be unique in one app. */
export const unique = () => ++serial;

/** The data of a 200 answer; anything else throws with what was being built, so a broken factory names itself. */
export function ok<T = any>(res: LightMyRequestResponse, what: string): T {
  if (res.statusCode !== 200) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return (res.json() as { data: T }).data;
}

/** The registration form field asking for the school, for tests where conflicts of interest matter. */
export const SCHOOL_FIELD = { label: '学校', name: 'organization', otherParams: { required: true } };

export interface QuestionOptions {
  /** Extra fields of the competition (fee, times, …), as `onlineCompetition` takes them. */
  competition?: Record<string, unknown>;
  /** The REG_SET field list; REG_FIELD_LIST unless given. */
  fieldList?: object[];
  /** Menu presets switched on besides REG_SET; CHOICE_SET, SUBMIT_WORKS and SUBMIT_TEST unless given. */
  presets?: string[];
  title?: string;
  /** The question's automatic evaluation and its answer file; none when left out. */
  evaluation?: { metric: string; idColumn: string; targetColumn: string; publicPercent: number; dailyLimit: number };
  answer?: string;
}

export interface ReviewedQuestion {
  competitionId: number;
  questionId: number;
  /** Preset ids by menu code. */
  presets: Record<string, number>;
}

/**
 * An approved online competition of `org`'s organisation with one question the administrator has reviewed, with
 * the presets a team needs to choose it and submit works and tests switched on.
 */
export async function reviewedQuestion(admin: Client, org: Client, opts: QuestionOptions = {}): Promise<ReviewedQuestion> {
  const competitionId = await onlineCompetition(admin, org, opts.competition ?? {}, opts.fieldList ?? REG_FIELD_LIST);
  const list = ok<{ id: number; menuCode: string }[]>(await org.get(`/api/competition/preset/public/list/${competitionId}`), 'presets');
  const presets = Object.fromEntries(list.map((p) => [p.menuCode, p.id]));
  for (const code of opts.presets ?? ['CHOICE_SET', 'SUBMIT_WORKS', 'SUBMIT_TEST'])
    ok(await org.put(`/api/competition/preset/${presets[code]}`, { enable: true }), `preset ${code}`);
  const questionId = ok<{ id: number }>(
    await org.post(`/api/competition/question/${competitionId}`, {
      title: opts.title ?? '测试题',
      ...(opts.evaluation ? { evaluation: opts.evaluation } : {}),
    }),
    'question',
  ).id;
  if (opts.answer !== undefined)
    ok(
      await org.request({
        method: 'POST',
        url: `/api/competition/question/${questionId}/answer`,
        ...multipart('answer.csv', Buffer.from(opts.answer), 'text/csv'),
      }),
      'answer',
    );
  ok(await admin.put(`/api/competition/question/review/${questionId}`, { reviewed: true }), 'question review');
  return { competitionId, questionId, presets };
}

export interface Judge {
  client: Client;
  id: number;
  username: string;
}

/** A new user whom `org` adds to its expert pool, from `organization` (the school conflicts are checked against). */
export async function expert(t: TestApp, org: Client, username: string, organization: string): Promise<Judge> {
  const { id } = await registerUser(t.app, username);
  ok(await org.post('/api/review/expert', { username, organization, speciality: '机器学习', title: '教授' }), `expert ${username}`);
  return { client: await loggedIn(t.app, username), id, username };
}

/** Experts become judges of the question. */
export async function judgesOnQuestion(org: Client, questionId: number, judges: { id: number }[]) {
  ok(await org.post(`/api/review/judge/${questionId}`, { userIds: judges.map((j) => j.id) }), 'judges');
}

export interface TeamWithWork {
  leader: Client;
  teamId: number;
  registerId: number;
  name: string;
}

export interface TeamOptions {
  /** The leader's username (a new user) and the team's name. */
  username: string;
  name: string;
  /** The registration form; REG_INFO unless given. */
  info?: Record<string, unknown>;
  works?: Buffer;
  filename?: string;
  /** A prediction file uploaded as a test submission (scored when the test runs the due jobs); none when null. */
  prediction?: string | null;
  teachers?: { name: string; phone: string | null; organization: string; title: string }[];
}

/**
 * A team of one, registered and approved in the question's competition, which chose the question and uploaded its
 * works (and a test submission, if a prediction is given). The caller runs the due jobs to score the tests.
 */
export async function teamWithWork(t: TestApp, org: Client, q: { competitionId: number; questionId: number }, opts: TeamOptions): Promise<TeamWithWork> {
  await registerUser(t.app, opts.username);
  const leader = await loggedIn(t.app, opts.username);
  const r = ok<{ teamId: number; registerId: number }>(
    await leader.post(`/api/team/register/${q.competitionId}`, { teamName: opts.name, info: opts.info ?? REG_INFO }),
    `register ${opts.name}`,
  );
  ok(await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' }), `approve ${opts.name}`);
  ok(await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId: q.questionId }), `choose ${opts.name}`);
  await submitWork(leader, q.questionId, opts.works ?? Buffer.from(`works of ${opts.name}`), opts.filename ?? `${opts.name}-作品.zip`);
  if (opts.prediction != null)
    ok(
      await leader.request({ method: 'POST', url: `/api/review/test/${q.questionId}`, ...multipart('pred.csv', Buffer.from(opts.prediction), 'text/csv') }),
      `test ${opts.name}`,
    );
  if (opts.teachers) ok(await leader.put(`/api/team/updateTeacher/${r.teamId}`, { teacherList: opts.teachers }), `teachers ${opts.name}`);
  return { leader, teamId: r.teamId, registerId: r.registerId, name: opts.name };
}

export interface Rule {
  criteria: { id: string; name: string; maxScore: number }[];
}

/** The question's review rule, saved by the organiser. */
export async function reviewRule(org: Client, questionId: number, rule: object): Promise<Rule> {
  return ok<Rule>(await org.put(`/api/review/rules/${questionId}`, rule), 'review rule');
}

export interface Assignment {
  id: number;
  teamId: number;
  judgeId: number;
  code: string;
  status: number;
  total: number | null;
  maxTotal: number;
}

/** The organiser's list of the question's assignments. */
export async function assignmentsOf(org: Client, questionId: number): Promise<Assignment[]> {
  return ok<{ list: Assignment[] }>(await org.get(`/api/review/assign/page/${questionId}?limit=100`), 'assignments').list;
}

/** Works are assigned to the question's judges, as the organiser's button does; returns what the server reported. */
export async function assignWorks(org: Client, questionId: number) {
  return ok<{ created: number; short: { teamId: number; missing: number }[] }>(await org.post(`/api/review/works/${questionId}?early=1`), 'assign works');
}

/** A judge submits scores (one per criterion, in the rule's order) for one of their assignments. */
export async function submitScores(judge: Judge, rule: Rule, assignmentId: number, scores: number[]) {
  return ok(
    await judge.client.put(`/api/review/works/${assignmentId}`, {
      scores: rule.criteria.map((c, i) => ({ criterionId: c.id, score: scores[i] ?? null, comment: '好' })),
      comment: '总评',
      submit: true,
    }),
    'scores',
  );
}

/**
 * The organiser closes submission at `deadline` (the caller's clock must then move past it), and confirms the
 * question's grades, which every judge must have submitted.
 */
export async function confirmGrades(org: Client, q: { competitionId: number; questionId: number }, deadline: string, passDeadline: () => void) {
  await setSubmissionDeadline(org, q.competitionId, deadline);
  passDeadline();
  return ok(await org.post(`/api/review/works/confirmFinalScore/${q.questionId}`), 'confirm grades');
}

// ---- A mean-absolute-error question (issue 33's contest shapes and disqualification) ---------------------------------

/** Enough answer rows that both boards hold some whatever the question's secret split (with four, one was empty 1 in 8). */
const MAE_IDS = Array.from({ length: 40 }, (_, i) => `r${i}`);
/** The answer file: row i's truth is i. */
export const MAE_ANSWER = ['id,y', ...MAE_IDS.map((id, i) => `${id},${i}`)].join('\n') + '\n';
/** A prediction off by `off` on every row: its MAE on both boards. */
export const maePrediction = (off: number) => ['id,y', ...MAE_IDS.map((id, i) => `${id},${i + off}`)].join('\n') + '\n';
export const MAE_EVALUATION = { metric: 'mae', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 5 };
/** Submission closes at the end of 04-30 (Beijing time); results are published after it. */
export const MAE_DEADLINE = '2026-04-30T23:59:00+08:00';
