import type { Judging, ManagedQuestion, PublicQuestion, QuestionPageQuery, Scorer } from '@contest/shared';
import { inOrgScope, type OrgScope } from '../../db/org-scope.ts';
import type { Db } from '../../db/database.ts';
import { evaluationOf } from '../../db/evaluation-columns.ts';
import type { Insertable, Updateable } from 'kysely';
import type { FilesTable, QuestionsTable } from '../../db/schema.ts';
import { containsText } from '../../db/like.ts';

const base = (db: Db) =>
  db
    .selectFrom('questions as q')
    .innerJoin('competitions as c', 'c.id', 'q.competitionId')
    .leftJoin('users as u', 'u.id', 'q.creatorId')
    .leftJoin('files as sf', 'sf.key', 'q.scorerKey')
    .leftJoin('users as su', 'su.id', 'sf.ownerId')
    .select([
      'q.id',
      'q.competitionId',
      'c.name as competitionName',
      'c.orgId',
      'q.title',
      'q.content',
      'q.sort',
      'q.reviewed',
      'q.creatorId',
      'u.username as creatorName',
      'q.judging',
      'q.metric',
      'q.idColumn',
      'q.targetColumn',
      'q.publicPercent',
      'q.dailyLimit',
      'q.positiveLabel',
      'q.topK',
      'q.higherIsBetter',
      'q.timeLimitSec',
      'q.metricName',
      'sf.originalName as scorerName',
      'sf.size as scorerSize',
      'sf.sha256 as scorerSha256',
      'sf.createdAt as scorerUploadedAt',
      'su.username as scorerUploaderName',
      'q.answerRows',
      'q.createdAt',
      'q.updatedAt',
    ]);
type Row = Awaited<ReturnType<ReturnType<typeof base>['executeTakeFirstOrThrow']>>;
export type QuestionWithOrg = ManagedQuestion & { orgId: number };

function toQuestion(row: Row): Omit<QuestionWithOrg, 'files'> {
  const { reviewed, metric, idColumn, targetColumn, publicPercent, dailyLimit, positiveLabel, topK, higherIsBetter, timeLimitSec, metricName, ...r } = row;
  const { scorerName, scorerSize, scorerSha256, scorerUploadedAt, scorerUploaderName, ...rest } = r;
  const scorer: Scorer | null =
    scorerName !== null && scorerSize !== null && scorerSha256 !== null && scorerUploadedAt !== null
      ? { name: scorerName, size: Number(scorerSize), sha256: scorerSha256, uploadedAt: scorerUploadedAt, uploaderName: scorerUploaderName }
      : null;
  return {
    ...rest,
    judging: rest.judging as Judging,
    reviewed: reviewed === 1,
    scorer,
    evaluation: evaluationOf({ metric, idColumn, targetColumn, publicPercent, dailyLimit, positiveLabel, topK, higherIsBetter, timeLimitSec, metricName }),
  };
}

async function withFiles(db: Db, rows: Row[]): Promise<QuestionWithOrg[]> {
  const ids = rows.map((r) => r.id);
  const files = ids.length
    ? await db
        .selectFrom('questionFiles')
        .innerJoin('files', 'files.key', 'questionFiles.fileKey')
        .select(['questionFiles.questionId', 'files.key as fileUri', 'files.originalName as name', 'files.size'])
        .where('questionFiles.questionId', 'in', ids)
        .orderBy('questionFiles.sort')
        .execute()
    : [];
  return rows.map((r) => ({
    ...toQuestion(r),
    files: files.filter((f) => f.questionId === r.id).map(({ fileUri, name, size }) => ({ fileUri, name, size: Number(size) })),
  }));
}

export async function findQuestion(db: Db, id: number) {
  const r = await base(db).where('q.id', '=', id).executeTakeFirst();
  return r && (await withFiles(db, [r]))[0];
}

export async function listQuestions(db: Db, q: QuestionPageQuery, scope: OrgScope) {
  let query = base(db).where(inOrgScope('c.orgId', scope));
  if (q.competitionId) query = query.where('q.competitionId', '=', q.competitionId);
  if (q.reviewed !== undefined) query = query.where('q.reviewed', '=', q.reviewed);
  if (q.keyword) query = query.where(containsText('q.title', q.keyword));
  const { total } = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await query
    .orderBy('q.competitionId', 'desc')
    .orderBy('q.sort')
    .orderBy('q.id')
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .execute();
  return { list: await withFiles(db, rows), total: Number(total) };
}

/** The answer's key and the scoring secret: server-side only. */
export const findScoringSecrets = (db: Db, id: number) =>
  db
    .selectFrom('questions')
    .select(['answerKey', 'salt', 'splitRule', 'answerIndexKey', 'answerIndexTag', 'scorerKey'])
    .where('id', '=', id)
    .executeTakeFirst();

/** Reviewed questions of a competition, with their public data files. */
export async function publicQuestions(db: Db, competitionId: number, questionId?: number): Promise<PublicQuestion[]> {
  let q = db
    .selectFrom('questions')
    .select(['id', 'competitionId', 'title', 'content', 'judging'])
    .where('competitionId', '=', competitionId)
    .where('reviewed', '=', 1);
  if (questionId) q = q.where('id', '=', questionId);
  const questions = await q.orderBy('sort').orderBy('id').execute();
  if (questions.length === 0) return [];
  const files = await db
    .selectFrom('questionFiles')
    .innerJoin('files', 'files.key', 'questionFiles.fileKey')
    .select(['questionFiles.questionId', 'files.key as fileUri', 'files.originalName as name', 'files.size'])
    .where(
      'questionFiles.questionId',
      'in',
      questions.map((x) => x.id),
    )
    .where('files.visibility', '=', 'public')
    .orderBy('questionFiles.sort')
    .execute();
  return questions.map((x) => ({
    ...x,
    judging: x.judging as Judging,
    files: files.filter((f) => f.questionId === x.id).map(({ fileUri, name, size }) => ({ fileUri, name, size: Number(size) })),
  }));
}

export const competitionOfQuestion = async (db: Db, id: number) =>
  (await db.selectFrom('questions').select('competitionId').where('id', '=', id).executeTakeFirst())?.competitionId;

export async function insertQuestion(db: Db, v: Insertable<QuestionsTable>) {
  const { id } = await db.insertInto('questions').values(v).returning('id').executeTakeFirstOrThrow();
  return id;
}

export const updateQuestion = (db: Db, id: number, v: Updateable<QuestionsTable>) => db.updateTable('questions').set(v).where('id', '=', id).execute();

export const deleteQuestion = (db: Db, id: number) => db.deleteFrom('questions').where('id', '=', id).execute();

export const userExists = async (db: Db, id: number) => Boolean(await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst());

/** Whether a team chose the question (it can then no longer be deleted). */
/** Whether any team has sent a prediction file for the question. */
export const hasTestSubmissions = async (db: Db, id: number) =>
  Boolean(await db.selectFrom('testSubmissions').select('id').where('questionId', '=', id).executeTakeFirst());

export const isChosen = async (db: Db, id: number) =>
  Boolean(await db.selectFrom('teamChoices').select('teamId').where('questionId', '=', id).executeTakeFirst());

/** One of the question's public data files' link (its file record goes with the last link: the files module's `releaseFile`). */
export async function deleteDataFile(db: Db, questionId: number, key: string) {
  await db.deleteFrom('questionFiles').where('questionId', '=', questionId).where('fileKey', '=', key).execute();
}

/** The file record of an answer file or a scoring program (each under its own purpose, which no download route serves). */
export const insertHiddenFile = (db: Db, v: Insertable<FilesTable>) => db.insertInto('files').values(v).execute();

/** The competitions a question's data file belongs to (the download's 实名 check): several once editions share it. */
export const competitionsOfDataFile = async (db: Db, fileKey: string) =>
  (
    await db
      .selectFrom('questionFiles')
      .innerJoin('questions', 'questions.id', 'questionFiles.questionId')
      .select('questions.competitionId')
      .distinct()
      .where('questionFiles.fileKey', '=', fileKey)
      .execute()
  ).map((r) => r.competitionId);
