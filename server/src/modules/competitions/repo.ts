import {
  competitionPhase,
  DEFAULT_ELIGIBILITY,
  eligibilitySchema,
  competitionStatus,
  GRADE_STATE,
  submissionWindow,
  submissionWindows,
  type CompetitionPhase,
  type WindowKind,
  type SubmissionWindow,
  type AuditStatus,
  type Competition,
  type CompetitionListItem,
  type Judging,
  type ReadinessQuestion,
  type ManageListQuery,
  type Preset,
  type PublicListQuery,
  type Stage,
  type RealNameMenu,
} from '@contest/shared';
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { inOrgScope, type OrgScope } from '../../db/org-scope.ts';
import type { Db } from '../../db/database.ts';
import { evaluationOf } from '../../db/evaluation-columns.ts';
import { contains } from '../../db/like.ts';
import type { CompetitionPresetsTable, CompetitionsTable } from '../../db/schema.ts';

type Filtered = ReturnType<typeof fromCompetitions>;
const fromCompetitions = (db: Db) => db.selectFrom('competitions as c');

/** List columns, joined onto an already filtered selection of competitions. */
function withListColumns(base: Filtered) {
  return base
    .innerJoin('brands as b', 'b.id', 'c.brandId')
    .innerJoin('organisations as o', 'o.id', 'c.orgId')
    .leftJoin('competitionTypes as t', 't.id', 'c.typeId')
    .select((eb) => [
      'c.id',
      'c.name',
      'c.brandId',
      'b.shortName as brandShortName',
      'c.typeId',
      't.name as typeName',
      'c.orgId',
      'o.name as orgName',
      'c.cover',
      'c.summary',
      'c.regStartTime',
      'c.regEndTime',
      'c.endTime',
      'c.fee',
      'c.auditStatus',
      eb.selectFrom('teams').select(eb.fn.countAll<number>().as('n')).whereRef('teams.competitionId', '=', 'c.id').as('teamNum'),
    ]);
}

type ListRow = Omit<CompetitionListItem, 'status' | 'teamNum' | 'auditStatus'> & { auditStatus: number; teamNum: number | null };
const toItem = (r: ListRow, now: Date): CompetitionListItem => ({
  ...r,
  auditStatus: r.auditStatus as AuditStatus,
  teamNum: Number(r.teamNum ?? 0),
  status: competitionStatus(r, now),
});

async function pageOf(db: Db, base: Filtered, q: { page: number; limit: number }, now: Date, order: 'regStart' | 'id') {
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  let rows = withListColumns(base);
  rows = order === 'regStart' ? rows.orderBy('c.regStartTime', 'desc').orderBy('c.id', 'desc') : rows.orderBy('c.id', 'desc');
  const list = await rows
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .execute();
  // Each item carries its phase (lifecycle.ts), for the list cards and the back office's tag.
  const phases = await phasesOf(db, list, now);
  return { list: list.map((r) => ({ ...toItem(r, now), phase: phases.get(r.id)! })), total: Number(n) };
}

/** Online competitions, newest registration first; the status filter is the spec's §4, by the server clock. */
export async function listPublic(db: Db, q: PublicListQuery, now: Date) {
  const t = now.toISOString();
  let base = fromCompetitions(db).where('c.auditStatus', '=', 3);
  if (q.brandId) base = base.where('c.brandId', '=', q.brandId);
  if (q.keyword) base = base.where(sql`lower(c.name)`, 'like', contains(q.keyword));
  if (q.status === 2) base = base.where('c.regStartTime', '<=', t).where('c.regEndTime', '>=', t);
  else if (q.status === 3) base = base.where('c.regEndTime', '<', t).where('c.endTime', '>=', t);
  else if (q.status === 4) base = base.where('c.endTime', '<', t);
  return pageOf(db, base, q, now, 'regStart');
}

/** The back office's list: the competitions of the caller's scope. */
export async function listManage(db: Db, q: ManageListQuery, now: Date, scope: OrgScope) {
  let base = fromCompetitions(db);
  if (!scope.all) base = base.where(inOrgScope('c.orgId', scope));
  if (q.keyword) base = base.where(sql`lower(c.name)`, 'like', contains(q.keyword));
  if (q.brandId) base = base.where('c.brandId', '=', q.brandId);
  if (q.typeId) base = base.where('c.typeId', '=', q.typeId);
  if (q.auditStatus !== undefined) base = base.where('c.auditStatus', '=', q.auditStatus);
  return pageOf(db, base, q, now, 'id');
}

export async function findCompetition(db: Db, id: number, now: Date): Promise<Competition | undefined> {
  const row = await withListColumns(fromCompetitions(db))
    .select([
      'c.introduce',
      'c.information',
      'c.guide',
      'c.trainingUrl',
      'c.allowIndividual',
      'c.invoiceEnable',
      'c.minMembers',
      'c.maxMembers',
      'c.maxTeachers',
      'c.worksMaxMb',
      'c.worksTypes',
      'c.eligibilityJson',
      'c.auditReply',
      'c.createdAt',
      'c.updatedAt',
    ])
    .where('c.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { eligibilityJson, ...rest } = row;
  return {
    ...toItem(rest, now),
    ...rest,
    eligibility: eligibilityJson ? eligibilitySchema.parse(JSON.parse(eligibilityJson)) : DEFAULT_ELIGIBILITY,
    auditStatus: row.auditStatus as AuditStatus,
    teamNum: Number(row.teamNum ?? 0),
    status: competitionStatus(row, now),
    allowIndividual: row.allowIndividual === 1,
    invoiceEnable: row.invoiceEnable === 1,
  };
}

// ---- lifecycle (packages/shared/src/lifecycle.ts)

type Dated = { id: number; regStartTime: string; regEndTime: string; endTime: string; auditStatus: number };

/** The phase of each competition given: its stages, presets and the state of its questions' grades, in three queries. */
/** One competition's phase at `now` (lifecycle.ts). */
export const phaseOf = async (db: Db, competition: Dated, now: Date) => (await phasesOf(db, [competition], now)).get(competition.id)!;

export async function phasesOf(db: Db, competitions: readonly Dated[], now: Date): Promise<Map<number, CompetitionPhase>> {
  const out = new Map<number, CompetitionPhase>();
  if (!competitions.length) return out;
  const ids = competitions.map((c) => c.id);
  const [stages, presets, rules] = await Promise.all([
    db.selectFrom('competitionStages').select(['id', 'competitionId', 'name', 'startDate', 'endDate']).where('competitionId', 'in', ids).execute(),
    db.selectFrom('competitionPresets').selectAll().where('competitionId', 'in', ids).where('menuCode', 'in', ['SUBMIT_WORKS', 'SUBMIT_TEST']).execute(),
    db
      .selectFrom('reviewRules as r')
      .innerJoin('questions as q', 'q.id', 'r.questionId')
      .select(['q.competitionId', 'r.gradeState', 'r.confirmedAt'])
      .where('q.competitionId', 'in', ids)
      .where('q.reviewed', '=', 1)
      .execute(),
  ]);
  for (const c of competitions) {
    const own = rules.filter((r) => r.competitionId === c.id);
    const allConfirmed = own.length > 0 && own.every((r) => r.gradeState === GRADE_STATE.confirmed && r.confirmedAt);
    const facts = {
      presets: presets.filter((p) => p.competitionId === c.id).map(toPreset),
      reviewStarted: own.some((r) => r.gradeState !== GRADE_STATE.none),
      resultsPublishedAt: allConfirmed ? own.map((r) => r.confirmedAt!).reduce((a, b) => (a > b ? a : b)) : null,
    };
    out.set(
      c.id,
      competitionPhase(
        c,
        stages.filter((s) => s.competitionId === c.id),
        facts,
        now,
      ),
    );
  }
  return out;
}

/** What a competition's windows are computed from: its end, its stages and its presets. */
async function windowFacts(db: Db, competitionId: number) {
  const [c, stages, presets] = await Promise.all([
    db.selectFrom('competitions').select('endTime').where('id', '=', competitionId).executeTakeFirstOrThrow(),
    db.selectFrom('competitionStages').select(['id', 'name', 'startDate', 'endDate']).where('competitionId', '=', competitionId).execute(),
    listPresets(db, competitionId),
  ]);
  return { c, stages, presets };
}

/** A competition's window of the kind given (the shared rule: the chosen stage's end or the competition's, narrowed by the preset's). */
export async function submissionWindowOf(db: Db, competitionId: number, kind: WindowKind): Promise<SubmissionWindow> {
  const { c, stages, presets } = await windowFacts(db, competitionId);
  return submissionWindow(c, stages, presets, kind);
}

/** Both submission windows of a competition, for the warnings on actions of a later phase. */
export const submissionWindowsOf = (db: Db, competitionId: number) =>
  Promise.all((['SUBMIT_WORKS', 'SUBMIT_TEST'] as const).map((k) => submissionWindowOf(db, competitionId, k)));

/** Every window of a competition (choice, works, tests): what a change of its dates, stages or menus may reopen. */
export async function allWindowsOf(db: Db, competitionId: number): Promise<SubmissionWindow[]> {
  const { c, stages, presets } = await windowFacts(db, competitionId);
  return submissionWindows(c, stages, presets);
}

/** Whether any question of the competition has its grades confirmed (published to participants). */
export async function anyResultsPublished(db: Db, competitionId: number): Promise<boolean> {
  const row = await db
    .selectFrom('reviewRules as r')
    .innerJoin('questions as q', 'q.id', 'r.questionId')
    .select('r.questionId')
    .where('q.competitionId', '=', competitionId)
    .where('r.gradeState', '=', GRADE_STATE.confirmed)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The menus that take this stage's end as their deadline. */
export const presetsEndingWith = (db: Db, stageId: number) =>
  db.selectFrom('competitionPresets').select(['menuCode', 'name']).where('deadlineStageId', '=', stageId).execute();

/**
 * A copied edition's facts for its checklist (readiness.ts): the edition it came from, the days its dates moved, what is
 * left to recheck, and its questions judged by experts without a judge; undefined for a competition never copied.
 */
export async function editionFacts(db: Db, competitionId: number) {
  const row = await db
    .selectFrom('competitions as c')
    .innerJoin('competitions as p', 'p.id', 'c.previousId')
    .select(['p.name as fromName', 'c.shiftDays', 'c.recheckJson'])
    .where('c.id', '=', competitionId)
    .executeTakeFirst();
  if (!row) return undefined;
  const judgeless = await db
    .selectFrom('questions as q')
    .select('q.title')
    .where('q.competitionId', '=', competitionId)
    .where('q.judging', '!=', 'auto')
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('questionJudges as j').select('j.userId').whereRef('j.questionId', '=', 'q.id'))))
    .orderBy('q.sort')
    .orderBy('q.id')
    .execute();
  return {
    fromName: row.fromName,
    shiftDays: row.shiftDays ?? 0,
    recheck: row.recheckJson ? (JSON.parse(row.recheckJson) as ('dates' | 'fee')[]) : [],
    judgesMissing: judgeless.map((q) => q.title),
  };
}

/** Whether another competition was copied from this one, or belongs to its line. */
export const hasLaterEditions = async (db: Db, id: number) =>
  Boolean(
    await db
      .selectFrom('competitions')
      .select('id')
      .where((eb) => eb.or([eb('previousId', '=', id), eb('seriesId', '=', id)]))
      .executeTakeFirst(),
  );

/** What a copied edition has left to recheck (JSON list), as it stands. */
export const recheckOf = async (db: Db, id: number) => {
  const r = await db.selectFrom('competitions').select('recheckJson').where('id', '=', id).executeTakeFirst();
  return r?.recheckJson ? (JSON.parse(r.recheckJson) as string[]) : [];
};

/** Sets what is left to recheck if it is still what the caller read; whether it was (two 已复核 at once lose nothing). */
export async function replaceRecheck(db: Db, id: number, read: string[], left: string[]) {
  const r = await db
    .updateTable('competitions')
    .set({ recheckJson: JSON.stringify(left) })
    .where('id', '=', id)
    .where('recheckJson', '=', JSON.stringify(read))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertCompetition(db: Db, v: Insertable<CompetitionsTable>) {
  return (await db.insertInto('competitions').values(v).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateCompetition(db: Db, id: number, v: Updateable<CompetitionsTable>) {
  await db.updateTable('competitions').set(v).where('id', '=', id).execute();
}

/** Moves a competition between audit states only from the states given; false when it was in none of them. */
export async function transition(db: Db, id: number, from: AuditStatus[], to: AuditStatus, extra: Updateable<CompetitionsTable> = {}) {
  const res = await db
    .updateTable('competitions')
    .set({ ...extra, auditStatus: to })
    .where('id', '=', id)
    .where('auditStatus', 'in', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Holds a competition for a change of what its audit judges (menus, stages), unless it is in audit: a conditional
 * no-op UPDATE, so that the row stays locked until the caller's transaction ends (PostgreSQL; SQLite's write
 * transactions are serial anyway) and a submission for audit, which takes the same row, sees the change or refuses it.
 * False when the competition is in audit (or gone).
 */
export async function holdUnlessInAudit(db: Db, id: number) {
  const res = await db
    .updateTable('competitions')
    .set((eb) => ({ auditStatus: eb.ref('auditStatus') }))
    .where('id', '=', id)
    .where('auditStatus', '!=', 1)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

// ---- who is told of the audit

/** Active users holding a permission code through one of their roles. */
function holdersOf(db: Db, code: string) {
  return db
    .selectFrom('users as u')
    .innerJoin('userRoles as ur', 'ur.userId', 'u.id')
    .innerJoin('rolePermissions as rp', 'rp.roleId', 'ur.roleId')
    .select('u.id')
    .distinct()
    .where('rp.code', '=', code)
    .where('u.status', '=', 1);
}

/** A competition's organisers: its creator (while active) and the users of its organisation who may edit competitions. */
export async function organiserIds(db: Db, competitionId: number, editCode: string): Promise<number[]> {
  const c = await db.selectFrom('competitions').select(['orgId', 'createdBy']).where('id', '=', competitionId).executeTakeFirst();
  if (!c) return [];
  const [staff, creator] = await Promise.all([
    holdersOf(db, editCode).where('u.orgId', '=', c.orgId).execute(),
    c.createdBy ? db.selectFrom('users').select('id').where('id', '=', c.createdBy).where('status', '=', 1).executeTakeFirst() : undefined,
  ]);
  return [...new Set([...(creator ? [creator.id] : []), ...staff.map((u) => u.id)])];
}

/** The platform's auditors: active users holding the audit code. */
export async function auditorIds(db: Db, auditCode: string): Promise<number[]> {
  return (await holdersOf(db, auditCode).execute()).map((u) => u.id);
}

export async function deleteCompetition(db: Db, id: number, from: AuditStatus[]) {
  const res = await db.deleteFrom('competitions').where('id', '=', id).where('auditStatus', 'in', from).executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

// ---- stages

export async function listStages(db: Db, competitionId: number): Promise<Stage[]> {
  return db
    .selectFrom('competitionStages')
    .select(['id', 'competitionId', 'name', 'startDate', 'endDate', 'sort'])
    .where('competitionId', '=', competitionId)
    .orderBy('startDate')
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

export const findStage = (db: Db, id: number) => db.selectFrom('competitionStages').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertStage(db: Db, v: Omit<Stage, 'id'>) {
  return (await db.insertInto('competitionStages').values(v).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateStage(db: Db, id: number, v: Partial<Omit<Stage, 'id' | 'competitionId'>>) {
  await db.updateTable('competitionStages').set(v).where('id', '=', id).execute();
}

export async function deleteStage(db: Db, id: number) {
  await db.deleteFrom('competitionStages').where('id', '=', id).execute();
}

// ---- presets

type PresetRow = Selectable<CompetitionPresetsTable>;
export const toPreset = (r: PresetRow): Preset => ({
  id: r.id,
  competitionId: r.competitionId,
  menuCode: r.menuCode as Preset['menuCode'],
  name: r.name,
  enable: r.enable === 1,
  enableStartTime: r.enableStartTime,
  enableEndTime: r.enableEndTime,
  deadlineStageId: r.deadlineStageId,
  realName: r.realName === 1,
  fieldList: JSON.parse(r.fieldList),
});

export async function listPresets(db: Db, competitionId: number): Promise<Preset[]> {
  const rows = await db.selectFrom('competitionPresets').selectAll().where('competitionId', '=', competitionId).orderBy('id').execute();
  return rows.map(toPreset);
}

export async function findPreset(db: Db, id: number) {
  const row = await db.selectFrom('competitionPresets').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toPreset(row) : undefined;
}

export async function insertPresets(db: Db, rows: Insertable<CompetitionPresetsTable>[]) {
  if (rows.length) await db.insertInto('competitionPresets').values(rows).execute();
}

export async function updatePreset(db: Db, id: number, v: Updateable<CompetitionPresetsTable>) {
  await db.updateTable('competitionPresets').set(v).where('id', '=', id).execute();
}

// ---- team statistics

export async function teamNum(db: Db, competitionId: number) {
  const row = await db
    .selectFrom('teams')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('competitionId', '=', competitionId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function memberNum(db: Db, competitionId: number) {
  const row = await db
    .selectFrom('teamMembers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('competitionId', '=', competitionId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether a row the competition refers to (its brand, type or organisation) exists. */
export const exists = async (db: Db, table: 'brands' | 'competitionTypes' | 'organisations', id: number) =>
  Boolean(await db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst());

/** A competition's questions as its readiness checklist and its audit read them: title, evaluation, answer file, review. */
export async function readinessQuestions(db: Db, competitionId: number): Promise<ReadinessQuestion[]> {
  const rows = await db
    .selectFrom('questions')
    .select([
      'id',
      'title',
      'reviewed',
      'judging',
      'answerRows',
      'metric',
      'idColumn',
      'targetColumn',
      'publicPercent',
      'dailyLimit',
      'positiveLabel',
      'topK',
      'higherIsBetter',
      'timeLimitSec',
      'metricName',
      'scorerKey',
    ])
    .where('competitionId', '=', competitionId)
    .orderBy('sort')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    judging: r.judging as Judging,
    evaluation: evaluationOf(r),
    answerRows: r.answerRows,
    scorer: r.scorerKey !== null,
    reviewed: r.reviewed === 1,
  }));
}

/** Marks the questions given reviewed, each only if it was not yet (a conditional UPDATE); answers those it changed. */
export async function markReviewed(db: Db, ids: number[], now: string): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db
    .updateTable('questions')
    .set({ reviewed: 1, updatedAt: now })
    .where('id', 'in', ids)
    .where('reviewed', '=', 0)
    .returning('id')
    .execute();
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** Whether the competition keeps `menu`'s action for people who completed 实名认证 (its preset's setting). */
export async function realNameRequired(db: Db, competitionId: number, menu: RealNameMenu) {
  const row = await db
    .selectFrom('competitionPresets')
    .select('realName')
    .where('competitionId', '=', competitionId)
    .where('menuCode', '=', menu)
    .executeTakeFirst();
  return row?.realName === 1;
}
