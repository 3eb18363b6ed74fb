import { GRADE_STATE } from '@contest/shared';
import type { Db } from '../../db/database.ts';

/** Ids are asked for this many at a time: one IN list stays far below PostgreSQL's limit of parameters. */
const CHUNK = 1000;
async function inChunks<T>(ids: number[], read: (chunk: number[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) out.push(...(await read(ids.slice(i, i + CHUNK))));
  return out;
}

/**
 * Every query of 查重: a question's thresholds and exclusions, its run, the texts read from works, the pairs found,
 * each team's mark and decision, and the teams' own reports.
 */

// ---- The question's settings ----------------------------------------------------------------------------------------

export const settingsOf = (db: Db, questionId: number) =>
  db.selectFrom('questions').select(['similarityFlag', 'similarityHold']).where('id', '=', questionId).executeTakeFirstOrThrow();

export const saveSettings = (db: Db, questionId: number, flag: number, hold: number, now: string) =>
  db.updateTable('questions').set({ similarityFlag: flag, similarityHold: hold, updatedAt: now }).where('id', '=', questionId).execute();

export const exclusionsOf = (db: Db, questionId: number) =>
  db.selectFrom('similarityExclusions').selectAll().where('questionId', '=', questionId).orderBy('id').execute();

export const findExclusion = (db: Db, id: number) => db.selectFrom('similarityExclusions').selectAll().where('id', '=', id).executeTakeFirst();

export const insertExclusion = (
  db: Db,
  row: { questionId: number; fileKey: string; fileName: string; chars: number; reason: string | null; createdAt: string },
) => db.insertInto('similarityExclusions').values(row).returning('id').executeTakeFirstOrThrow();

export const deleteExclusion = (db: Db, id: number) => db.deleteFrom('similarityExclusions').where('id', '=', id).executeTakeFirst();

// ---- The run --------------------------------------------------------------------------------------------------------

export const runOf = (db: Db, questionId: number) => db.selectFrom('similarityRuns').selectAll().where('questionId', '=', questionId).executeTakeFirst();

/**
 * Queues a run unless one is queued or running: one statement, so two requests at once queue one run. Answers whether
 * this call queued it.
 */
export async function queueRun(db: Db, questionId: number, now: string, deadline: string | null): Promise<boolean> {
  const fresh = { status: 'queued', works: 0, done: 0, unreadable: 0, pairs: 0, error: null, startedAt: null, finishedAt: null, updatedAt: now };
  const res = await db
    .insertInto('similarityRuns')
    .values({ questionId, deadline, ...fresh })
    .onConflict((oc) =>
      oc
        .column('questionId')
        .doUpdateSet({ ...fresh, ...(deadline ? { deadline } : {}) })
        .where('similarityRuns.status', 'not in', ['queued', 'running']),
    )
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

export const updateRun = (
  db: Db,
  questionId: number,
  values: Partial<{
    status: string;
    works: number;
    done: number;
    unreadable: number;
    pairs: number;
    error: string | null;
    startedAt: string;
    finishedAt: string;
    updatedAt: string;
  }>,
) => db.updateTable('similarityRuns').set(values).where('questionId', '=', questionId).execute();

/** One more work read. */
export const countRead = (db: Db, questionId: number, unreadable: boolean, now: string) =>
  db
    .updateTable('similarityRuns')
    .set((eb) => ({ done: eb('done', '+', 1), unreadable: eb('unreadable', '+', unreadable ? 1 : 0), updatedAt: now }))
    .where('questionId', '=', questionId)
    .execute();

/**
 * Questions judged by experts that a run has not seen all the works of: no run yet, or a finished run that started
 * before a work was completed. The sweep then asks whether their works deadline has passed.
 */
export const questionsToCheck = (db: Db) =>
  db
    .selectFrom('questions as q')
    .leftJoin('similarityRuns as r', 'r.questionId', 'q.id')
    .select(['q.id as questionId', 'q.competitionId', 'r.deadline', 'r.status'])
    .leftJoin('reviewRules as rr', 'rr.questionId', 'q.id')
    .where('q.judging', 'in', ['review', 'both'])
    // Grades confirmed: the results stand, nothing left to check.
    .where((eb) => eb.or([eb('rr.gradeState', 'is', null), eb('rr.gradeState', '<>', GRADE_STATE.confirmed)]))
    .where((eb) =>
      eb.or([
        eb.and([eb('r.questionId', 'is', null), eb.exists(eb.selectFrom('works as w').select('w.id').whereRef('w.questionId', '=', 'q.id'))]),
        eb.and([
          eb('r.status', 'in', ['done', 'failed']),
          eb.exists(eb.selectFrom('works as w').select('w.id').whereRef('w.questionId', '=', 'q.id').whereRef('w.completedAt', '>', 'r.startedAt')),
        ]),
      ]),
    )
    .execute();

// ---- Works and their texts ------------------------------------------------------------------------------------------

/** Each team's latest works version in the given questions, with the team's number and name. */
export const latestWorks = (db: Db, questionIds: number[]) =>
  questionIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('works as w')
        .innerJoin('teams as t', 't.id', 'w.teamId')
        .select(['w.id', 'w.competitionId', 'w.questionId', 'w.teamId', 'w.version', 'w.fileKey', 'w.fileName', 'w.size', 't.teamNo', 't.name as teamName'])
        .where('w.questionId', 'in', questionIds)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('works as n')
                .select('n.id')
                .whereRef('n.teamId', '=', 'w.teamId')
                .whereRef('n.questionId', '=', 'w.questionId')
                .whereRef('n.version', '>', 'w.version'),
            ),
          ),
        )
        .orderBy('w.id')
        .execute();
export type LatestWork = Awaited<ReturnType<typeof latestWorks>>[number];

/** Which of these works already have their text read. */
export const readWorkIds = async (db: Db, workIds: number[]) =>
  new Set((await inChunks(workIds, (ids) => db.selectFrom('workTexts').select('workId').where('workId', 'in', ids).execute())).map((r) => r.workId));

export const insertWorkText = (
  db: Db,
  row: {
    workId: number;
    competitionId: number;
    questionId: number;
    teamId: number;
    chars: number;
    text: string;
    filesJson: string;
    metaJson: string;
    codeJson: string;
    extractedAt: string;
  },
) =>
  db
    .insertInto('workTexts')
    .values(row)
    .onConflict((oc) => oc.column('workId').doNothing())
    .execute();

export const workTexts = (db: Db, workIds: number[]) => inChunks(workIds, (ids) => db.selectFrom('workTexts').selectAll().where('workId', 'in', ids).execute());

/** The files read of these works, without their text (for the list). */
export const workReadings = (db: Db, workIds: number[]) =>
  inChunks(workIds, (ids) => db.selectFrom('workTexts').select(['workId', 'chars', 'filesJson']).where('workId', 'in', ids).execute());

/**
 * The competition's earlier editions that have works: competitions of the same organisation created before it (ids grow
 * with creation) of the same brand or of its line of editions (复制为新一届, which may have moved brand). Another
 * organisation's competitions are never read: their works are theirs.
 */
export const earlierEditions = (db: Db, competitionId: number) =>
  db
    .selectFrom('competitions as c')
    .innerJoin('competitions as me', (j) => j.onRef('me.orgId', '=', 'c.orgId'))
    .select(['c.id', 'c.name'])
    .where('me.id', '=', competitionId)
    .whereRef('c.id', '<', 'me.id')
    .where((eb) => eb.or([eb('c.brandId', '=', eb.ref('me.brandId')), eb(eb.fn.coalesce('c.seriesId', 'c.id'), '=', eb.fn.coalesce('me.seriesId', 'me.id'))]))
    .where(({ exists, selectFrom }) => exists(selectFrom('works as w').select('w.id').whereRef('w.competitionId', '=', 'c.id')))
    .orderBy('c.id')
    .execute();

export const questionIdsOf = async (db: Db, competitionIds: number[]) =>
  competitionIds.length === 0 ? [] : (await db.selectFrom('questions').select('id').where('competitionId', 'in', competitionIds).execute()).map((r) => r.id);

/** Of works of earlier editions: their competition's name and question's title. */
export const workOrigins = (db: Db, workIds: number[]) =>
  inChunks(workIds, (ids) =>
    db
      .selectFrom('works as w')
      .innerJoin('questions as q', 'q.id', 'w.questionId')
      .innerJoin('competitions as c', 'c.id', 'w.competitionId')
      .innerJoin('teams as t', 't.id', 'w.teamId')
      .select(['w.id', 'w.questionId', 'w.version', 'c.name as competitionName', 'q.title as questionTitle', 't.teamNo', 't.name as teamName'])
      .where('w.id', 'in', ids)
      .execute(),
  );

// ---- Pairs and marks ------------------------------------------------------------------------------------------------

export type PairRow = {
  questionId: number;
  workId: number;
  otherWorkId: number;
  kind: 'text' | 'code';
  language: string | null;
  share: number;
  otherShare: number;
  passagesJson: string;
  otherPassagesJson: string;
};
export type MarkRow = { questionId: number; teamId: number; workId: number; topShare: number; codeShare: number; identityJson: string };

export const marksOf = (db: Db, questionId: number) => db.selectFrom('similarityMarks').selectAll().where('questionId', '=', questionId).execute();

export const findMark = (db: Db, questionId: number, teamId: number) =>
  db.selectFrom('similarityMarks').selectAll().where('questionId', '=', questionId).where('teamId', '=', teamId).executeTakeFirst();

/**
 * A run's results replace the last: its pairs, and each team's mark. A decision stays with the work it was made on:
 * kept where the team's work is the same, dropped where the team has since uploaded another.
 */
export async function replaceResults(db: Db, questionId: number, pairs: PairRow[], marks: MarkRow[]) {
  // The marks' rows are locked before they are read (an update locks in both databases), so a decision made at this
  // moment either is read here and kept, or waits and then finds its row replaced (and says so).
  await db
    .updateTable('similarityMarks')
    .set((eb) => ({ questionId: eb.ref('questionId') }))
    .where('questionId', '=', questionId)
    .execute();
  await db.deleteFrom('similarityPairs').where('questionId', '=', questionId).execute();
  for (let i = 0; i < pairs.length; i += 200)
    await db
      .insertInto('similarityPairs')
      .values(pairs.slice(i, i + 200))
      .execute();
  const before = new Map((await marksOf(db, questionId)).map((m) => [m.teamId, m]));
  await db.deleteFrom('similarityMarks').where('questionId', '=', questionId).execute();
  const rows = marks.map((m) => {
    const old = before.get(m.teamId);
    const kept = old && old.workId === m.workId ? old : null;
    return {
      ...m,
      decision: kept?.decision ?? null,
      decisionNote: kept?.decisionNote ?? null,
      decidedBy: kept?.decidedBy ?? null,
      decidedAt: kept?.decidedAt ?? null,
    };
  });
  for (let i = 0; i < rows.length; i += 200)
    await db
      .insertInto('similarityMarks')
      .values(rows.slice(i, i + 200))
      .execute();
}

export const pairsOf = (db: Db, questionId: number) =>
  db
    .selectFrom('similarityPairs')
    .select(['id', 'workId', 'otherWorkId', 'kind', 'language', 'share', 'otherShare'])
    .where('questionId', '=', questionId)
    .execute();

export const findPair = (db: Db, id: number) => db.selectFrom('similarityPairs').selectAll().where('id', '=', id).executeTakeFirst();

/** The organiser's decision on the team's mark for the work it was made on; false when the mark is gone or moved on. */
export const decide = async (
  db: Db,
  v: { questionId: number; teamId: number; workId: number; decision: string; note: string | null; userId: number; now: string },
) =>
  Number(
    (
      await db
        .updateTable('similarityMarks')
        .set({ decision: v.decision, decisionNote: v.note, decidedBy: v.userId, decidedAt: v.now })
        .where('questionId', '=', v.questionId)
        .where('teamId', '=', v.teamId)
        .where('workId', '=', v.workId)
        .executeTakeFirst()
    ).numUpdatedRows,
  ) > 0;

// ---- The teams' own reports -----------------------------------------------------------------------------------------

export const reportsOf = (db: Db, questionId: number) => db.selectFrom('similarityReports').selectAll().where('questionId', '=', questionId).execute();

export const findReport = (db: Db, questionId: number, teamId: number) =>
  db.selectFrom('similarityReports').selectAll().where('questionId', '=', questionId).where('teamId', '=', teamId).executeTakeFirst();
