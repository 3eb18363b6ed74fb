import { sql, type Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { containsText } from '../../db/like.ts';
import { keysetBatches } from '../../db/batches.ts';
import type { FilesTable, WorkUploadsTable } from '../../db/schema.ts';

/** Every query of works: the uploads in progress, the recorded versions and the files they leave behind. */

// ---- What an upload is checked against -----------------------------------------------------------------------------

/** The question, when the user's team chose it, with its competition's works limits. */
export const chosenQuestion = (db: Db, userId: number, questionId: number) =>
  db
    .selectFrom('questions as q')
    .innerJoin('competitions as c', 'c.id', 'q.competitionId')
    .innerJoin('teamChoices as tc', 'tc.questionId', 'q.id')
    .innerJoin('teamMembers as m', (j) => j.onRef('m.teamId', '=', 'tc.teamId').on('m.userId', '=', userId))
    .select(['q.id as questionId', 'q.title', 'q.judging', 'q.competitionId', 'c.worksMaxMb', 'c.worksTypes', 'tc.teamId'])
    .where('q.id', '=', questionId)
    .executeTakeFirst();

/** The competition a question belongs to; undefined when there is no such question. */
export const questionCompetition = async (db: Db, questionId: number) =>
  (await db.selectFrom('questions').select('competitionId').where('id', '=', questionId).executeTakeFirst())?.competitionId;

/** The user's team in the competition, if any. */
export const teamOfUser = async (db: Db, competitionId: number, userId: number) =>
  (await db.selectFrom('teamMembers').select('teamId').where('competitionId', '=', competitionId).where('userId', '=', userId).executeTakeFirst())?.teamId;

/** Locks the team's row until the transaction ends (PostgreSQL; SQLite's transaction already holds the write lock). */
export const lockTeam = async (db: Db, teamId: number) => {
  await sql`select id from teams where id = ${teamId} for update`.execute(db);
};

/** Bytes a team holds: every version of its works, and the declared size of its uploads in progress. */
export async function teamStorageUsed(db: Db, teamId: number) {
  const [works, uploads] = await Promise.all([
    db
      .selectFrom('works')
      .select((eb) => eb.fn.sum<number>('size').as('bytes'))
      .where('teamId', '=', teamId)
      .executeTakeFirst(),
    db
      .selectFrom('workUploads')
      .select((eb) => eb.fn.sum<number>('size').as('bytes'))
      .where('teamId', '=', teamId)
      .executeTakeFirst(),
  ]);
  return Number(works?.bytes ?? 0) + Number(uploads?.bytes ?? 0);
}

// ---- Uploads in progress --------------------------------------------------------------------------------------------

export const insertUpload = (db: Db, row: Insertable<WorkUploadsTable>) => db.insertInto('workUploads').values(row).execute();

export const findUpload = (db: Db, uploadId: string) => db.selectFrom('workUploads').selectAll().where('uploadId', '=', uploadId).executeTakeFirst();

/** Drops an upload's row; true when this call dropped it (of several racing, one does). */
export async function deleteUpload(db: Db, uploadId: string): Promise<boolean> {
  const gone = await db.deleteFrom('workUploads').where('uploadId', '=', uploadId).executeTakeFirst();
  return Number(gone.numDeletedRows) === 1;
}

/** An upload with whether the user is a member of its team (`memberId` null when not). */
export const uploadWithMembership = (db: Db, uploadId: string, userId: number) =>
  db
    .selectFrom('workUploads as u')
    .leftJoin('teamMembers as m', (j) => j.onRef('m.teamId', '=', 'u.teamId').on('m.userId', '=', userId))
    .select(['u.userId', 'u.kind', 'u.teamId', 'm.userId as memberId'])
    .where('u.uploadId', '=', uploadId)
    .executeTakeFirst();

/** The uploads started before the given time (ISO text). */
export const uploadsStartedBefore = async (db: Db, before: string) =>
  (await db.selectFrom('workUploads').select('uploadId').where('createdAt', '<', before).execute()).map((r) => r.uploadId);

// ---- Recording a finished upload ------------------------------------------------------------------------------------

export const insertFile = (db: Db, row: Insertable<FilesTable>) => db.insertInto('files').values(row).execute();

/** Adds a data file after the question's last one. */
export async function appendQuestionFile(db: Db, questionId: number, fileKey: string) {
  const last = await db
    .selectFrom('questionFiles')
    .select((eb) => eb.fn.max('sort').as('s'))
    .where('questionId', '=', questionId)
    .executeTakeFirst();
  await db
    .insertInto('questionFiles')
    .values({ questionId, fileKey, sort: Number(last?.s ?? -1) + 1 })
    .execute();
}

/** Records the team's next version of its works for the question. */
export async function insertNextVersion(
  db: Db,
  v: {
    competitionId: number;
    questionId: number;
    teamId: number;
    userId: number;
    fileKey: string;
    fileName: string;
    size: number;
    sha256: string;
    completedAt: string;
  },
) {
  const last = await db
    .selectFrom('works')
    .select((eb) => eb.fn.max('version').as('v'))
    .where('teamId', '=', v.teamId)
    .where('questionId', '=', v.questionId)
    .executeTakeFirst();
  const version = Number(last?.v ?? 0) + 1;
  const { id } = await db
    .insertInto('works')
    .values({ ...v, version })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, version };
}

// ---- Reading versions -----------------------------------------------------------------------------------------------

/** Versions with `counts`: whether it is its team's last one (works completing after the deadline are refused). */
const versions = (db: Db) =>
  db
    .selectFrom('works as w')
    .innerJoin('teams as t', 't.id', 'w.teamId')
    .innerJoin('users as u', 'u.id', 'w.userId')
    .select((eb) => [
      'w.id',
      'w.competitionId',
      'w.questionId',
      'w.teamId',
      't.teamNo',
      't.name as teamName',
      'w.version',
      'w.fileKey',
      'w.fileName',
      'w.size',
      'w.sha256',
      'u.username',
      'w.completedAt',
      eb(
        'w.version',
        '=',
        eb
          .selectFrom('works as last')
          .select((l) => l.fn.max('last.version').as('v'))
          .whereRef('last.teamId', '=', 'w.teamId')
          .whereRef('last.questionId', '=', 'w.questionId'),
      ).as('counts'),
    ]);
export type VersionRow = Awaited<ReturnType<ReturnType<typeof versions>['executeTakeFirstOrThrow']>>;

/** A team's versions of its works for a question, newest first. */
export const teamVersions = (db: Db, questionId: number, teamId: number) =>
  versions(db).where('w.questionId', '=', questionId).where('w.teamId', '=', teamId).orderBy('w.version', 'desc').execute();

/** What the back office's works list keeps: some versions, a keyword, or only each team's counting version. */
export type VersionFilter = { ids?: number[]; keyword?: string; counting?: boolean };

/** A question's versions the filter keeps; `keyword` matches team name, number or file name. */
function filteredVersions(db: Db, questionId: number, q: VersionFilter) {
  let query = versions(db).where('w.questionId', '=', questionId);
  if (q.ids?.length) query = query.where('w.id', 'in', q.ids);
  if (q.keyword) {
    const k = q.keyword;
    query = query.where((eb) => eb.or([containsText('t.name', k), containsText('t.teamNo', k), containsText('w.fileName', k)]));
  }
  if (q.counting) {
    query = query.where((eb) =>
      eb(
        'w.version',
        '=',
        eb
          .selectFrom('works as last')
          .select((l) => l.fn.max('last.version').as('v'))
          .whereRef('last.teamId', '=', 'w.teamId')
          .whereRef('last.questionId', '=', 'w.questionId'),
      ),
    );
  }
  return query;
}

/** A page of a question's versions, by team number then newest first. */
export async function questionVersions(db: Db, questionId: number, q: VersionFilter & { limit: number; offset: number }) {
  const query = filteredVersions(db, questionId, q);
  const { total } = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await query.orderBy('t.teamNo').orderBy('w.version', 'desc').limit(q.limit).offset(q.offset).execute();
  return { rows, total: Number(total) };
}

/**
 * Every version of a question's works the filters keep, in `questionVersions`' order (team number, then newest
 * version first), in batches: the export. Keyset on (team number, version), unique within a question.
 */
export function exportQuestionVersions(db: Db, questionId: number, q: VersionFilter, size?: number) {
  const filtered = filteredVersions(db, questionId, q);
  return keysetBatches(
    (after: { teamNo: string; version: number } | undefined, limit) =>
      (after === undefined
        ? filtered
        : filtered.where((eb) => eb.or([eb('t.teamNo', '>', after.teamNo), eb.and([eb('t.teamNo', '=', after.teamNo), eb('w.version', '<', after.version)])]))
      )
        .orderBy('t.teamNo')
        .orderBy('w.version', 'desc')
        .limit(limit)
        .execute(),
    (r) => ({ teamNo: r.teamNo, version: r.version }),
    size,
  );
}

/** The team and competition of the work stored under a file key. */
export const workOfFile = (db: Db, key: string) =>
  db
    .selectFrom('works as w')
    .innerJoin('competitions as c', 'c.id', 'w.competitionId')
    .select(['w.teamId', 'w.competitionId', 'c.orgId'])
    .where('w.fileKey', '=', key)
    .executeTakeFirst();

/** The team's own 查重 report (知网, 维普…) of its works for a question (issue 37), with the rate it declares. */
export const findSimilarityReport = (db: Db, questionId: number, teamId: number) =>
  db.selectFrom('similarityReports').selectAll().where('questionId', '=', questionId).where('teamId', '=', teamId).executeTakeFirst();

export async function saveSimilarityReport(
  db: Db,
  row: { questionId: number; teamId: number; fileKey: string; fileName: string; declaredRate: number; createdAt: string },
) {
  await db
    .insertInto('similarityReports')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['questionId', 'teamId'])
        .doUpdateSet({ fileKey: row.fileKey, fileName: row.fileName, declaredRate: row.declaredRate, createdAt: row.createdAt }),
    )
    .execute();
}
