import { NOTICE_STATUS } from '@contest/shared';
import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type {
  AwardLevelsTable,
  CertificateTemplatesTable,
  FilesTable,
  NoticesTable,
  QuestionsTable,
  ReviewRulesTable,
  SimilarityExclusionsTable,
} from '../../db/schema.ts';

/** A competition's own row, with its brand's and type's names (what an archive names them by). */
export const competitionRow = (db: Db, id: number) =>
  db
    .selectFrom('competitions as c')
    .innerJoin('brands as b', 'b.id', 'c.brandId')
    .leftJoin('competitionTypes as t', 't.id', 'c.typeId')
    .selectAll('c')
    .select(['b.name as brandName', 'b.shortName as brandShortName', 't.name as typeName'])
    .where('c.id', '=', id)
    .executeTakeFirst();

/** Everything of a competition's settings that an edition or an archive carries, in a stable order. */
export async function settingsOf(db: Db, competitionId: number) {
  const [stages, presets, questions, templates, notices] = await Promise.all([
    db.selectFrom('competitionStages').selectAll().where('competitionId', '=', competitionId).orderBy('startDate').orderBy('sort').orderBy('id').execute(),
    db.selectFrom('competitionPresets').selectAll().where('competitionId', '=', competitionId).orderBy('id').execute(),
    db.selectFrom('questions').selectAll().where('competitionId', '=', competitionId).orderBy('sort').orderBy('id').execute(),
    db.selectFrom('certificateTemplates').selectAll().where('competitionId', '=', competitionId).orderBy('id').execute(),
    db.selectFrom('notices').selectAll().where('competitionId', '=', competitionId).where('status', '=', NOTICE_STATUS.draft).orderBy('id').execute(),
  ]);
  const questionIds = questions.map((q) => q.id);
  const none = questionIds.length === 0;
  const [files, exclusions, rules, awards] = none
    ? [[], [], [], []]
    : await Promise.all([
        db.selectFrom('questionFiles').selectAll().where('questionId', 'in', questionIds).orderBy('questionId').orderBy('sort').orderBy('fileKey').execute(),
        db.selectFrom('similarityExclusions').selectAll().where('questionId', 'in', questionIds).orderBy('id').execute(),
        db.selectFrom('reviewRules').selectAll().where('questionId', 'in', questionIds).execute(),
        db.selectFrom('awardLevels').selectAll().where('questionId', 'in', questionIds).orderBy('sort').orderBy('id').execute(),
      ]);
  return { stages, presets, questions, templates, notices, files, exclusions, rules, awards };
}
export type Settings = Awaited<ReturnType<typeof settingsOf>>;

/**
 * Holds the rows through which a competition's settings name stored files until the caller's transaction ends
 * (PostgreSQL; on SQLite the transaction holds the one connection): replacing or deleting an answer file, a scoring
 * program, a data file or an exclusion waits for a copy reading them, then finds the copy holding the file
 * (`releaseFile` keeps a file some record holds).
 */
export async function lockFileHolders(db: Db, competitionId: number) {
  const questions = db.selectFrom('questions').select('id').where('competitionId', '=', competitionId);
  await questions.forShare().execute();
  await db.selectFrom('questionFiles').select('questionId').where('questionId', 'in', questions).forShare().execute();
  await db.selectFrom('similarityExclusions').select('id').where('questionId', 'in', questions).forShare().execute();
}

/** The stored records of these files (by key). */
export const filesByKey = (db: Db, keys: string[]) =>
  keys.length === 0 ? Promise.resolve([]) : db.selectFrom('files').selectAll().where('key', 'in', keys).execute();

export const insertFile = (db: Db, v: Insertable<FilesTable>) => db.insertInto('files').values(v).execute();

export async function insertQuestion(db: Db, v: Insertable<QuestionsTable>) {
  return (await db.insertInto('questions').values(v).returning('id').executeTakeFirstOrThrow()).id;
}
export const insertQuestionFiles = (db: Db, rows: { questionId: number; fileKey: string; sort: number }[]) =>
  rows.length ? db.insertInto('questionFiles').values(rows).execute() : Promise.resolve();
export const insertExclusions = (db: Db, rows: Insertable<SimilarityExclusionsTable>[]) =>
  rows.length ? db.insertInto('similarityExclusions').values(rows).execute() : Promise.resolve();
export const insertReviewRule = (db: Db, v: Insertable<ReviewRulesTable>) => db.insertInto('reviewRules').values(v).execute();
export const insertAwardLevels = (db: Db, rows: Insertable<AwardLevelsTable>[]) =>
  rows.length ? db.insertInto('awardLevels').values(rows).execute() : Promise.resolve();
export const insertTemplate = (db: Db, v: Insertable<CertificateTemplatesTable>) => db.insertInto('certificateTemplates').values(v).execute();
export const insertNotice = (db: Db, v: Insertable<NoticesTable>) => db.insertInto('notices').values(v).execute();

/** A brand of this platform an archive's brand may be matched to: by short name, else by name. */
export const brandNamed = (db: Db, b: { name: string; shortName: string }) =>
  db
    .selectFrom('brands')
    .select(['id', 'name'])
    .where((eb) => eb.or([eb('shortName', '=', b.shortName), eb('name', '=', b.name)]))
    .orderBy('id')
    .executeTakeFirst();
export const brandById = (db: Db, id: number) => db.selectFrom('brands').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
export const typeNamed = (db: Db, name: string) => db.selectFrom('competitionTypes').select('id').where('name', '=', name).executeTakeFirst();
export const orgExists = async (db: Db, id: number) => Boolean(await db.selectFrom('organisations').select('id').where('id', '=', id).executeTakeFirst());

/** Every edition of a line (the competitions whose first edition is `seriesId`), oldest first. */
export const editionsOf = (db: Db, seriesId: number) =>
  db
    .selectFrom('competitions')
    .select(['id', 'name', 'auditStatus', 'regStartTime', 'endTime'])
    .where((eb) => eb.or([eb('id', '=', seriesId), eb('seriesId', '=', seriesId)]))
    .orderBy('id')
    .execute();
