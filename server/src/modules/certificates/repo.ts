import { CERT_RUN_STATE } from '@contest/shared';
import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { containsText } from '../../db/like.ts';
import { keysetBatches } from '../../db/batches.ts';
import type { CertificatesTable, CertificateTemplatesTable } from '../../db/schema.ts';

/** Every query of certificates: the templates, each question's generation run, and the certificates written. */

// ---- Templates --------------------------------------------------------------------------------------------------------

export async function templatePage(db: Db, competitionId: number, q: { limit: number; offset: number }) {
  const query = db.selectFrom('certificateTemplates').where('competitionId', '=', competitionId);
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await query.selectAll().orderBy('id', 'desc').limit(q.limit).offset(q.offset).execute();
  return { rows, total: Number(total) };
}

export const findTemplate = (db: Db, id: number) => db.selectFrom('certificateTemplates').selectAll().where('id', '=', id).executeTakeFirst();

export const insertTemplate = (db: Db, row: Insertable<CertificateTemplatesTable>) =>
  db.insertInto('certificateTemplates').values(row).returningAll().executeTakeFirstOrThrow();

export const updateTemplate = (db: Db, id: number, set: Updateable<CertificateTemplatesTable>) =>
  db.updateTable('certificateTemplates').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

export const deleteTemplate = (db: Db, id: number) => db.deleteFrom('certificateTemplates').where('id', '=', id).execute();

/** Whether a run is writing certificates on the template now. */
export const templateRunning = async (db: Db, templateId: number) =>
  Boolean(
    await db
      .selectFrom('certificateRuns')
      .select('questionId')
      .where('templateId', '=', templateId)
      .where('state', '=', CERT_RUN_STATE.running)
      .executeTakeFirst(),
  );

/** A stored file, as a template's background is checked against it. */
export const findFile = (db: Db, key: string) => db.selectFrom('files').select(['key', 'ownerId', 'purpose']).where('key', '=', key).executeTakeFirst();

/** An uploaded certificate file, as `upload/{questionId}` serves it. */
export const findUpload = (db: Db, key: string) =>
  db
    .selectFrom('files')
    .select(['key', 'ownerId', 'originalName', 'mime', 'sha256'])
    .where('key', '=', key)
    .where('purpose', '=', 'certificate')
    .executeTakeFirst();

/** Whether one of the competition's templates is written on the background `key`. */
export const competitionUsesBackground = async (db: Db, competitionId: number, key: string) =>
  Boolean(
    await db.selectFrom('certificateTemplates').select('id').where('competitionId', '=', competitionId).where('backgroundKey', '=', key).executeTakeFirst(),
  );

// ---- Generation runs --------------------------------------------------------------------------------------------------

export const findRun = (db: Db, questionId: number) => db.selectFrom('certificateRuns').selectAll().where('questionId', '=', questionId).executeTakeFirst();

/** Sets the template a question's certificates are written on, creating its run if it has none. */
export const relateTemplate = (db: Db, questionId: number, templateId: number, now: string) =>
  db
    .insertInto('certificateRuns')
    .values({ questionId, templateId, updatedAt: now })
    .onConflict((oc) => oc.column('questionId').doUpdateSet({ templateId, updatedAt: now }))
    .execute();

/** Marks the run as running from the start; false when it was running already. */
export async function startRun(db: Db, questionId: number, total: number, now: string): Promise<boolean> {
  const { numUpdatedRows } = await db
    .updateTable('certificateRuns')
    .set({ state: CERT_RUN_STATE.running, total, done: 0, error: null, updatedAt: now })
    .where('questionId', '=', questionId)
    .where('state', '!=', CERT_RUN_STATE.running)
    .executeTakeFirst();
  return Boolean(Number(numUpdatedRows));
}

export const setRunDone = (db: Db, questionId: number, done: number, now: string) =>
  db.updateTable('certificateRuns').set({ done, updatedAt: now }).where('questionId', '=', questionId).execute();

export const finishRun = (db: Db, questionId: number, total: number, done: number, now: string) =>
  db.updateTable('certificateRuns').set({ state: CERT_RUN_STATE.done, total, done, updatedAt: now }).where('questionId', '=', questionId).execute();

export const failRun = (db: Db, questionId: number, error: string, now: string) =>
  db.updateTable('certificateRuns').set({ state: CERT_RUN_STATE.failed, error, updatedAt: now }).where('questionId', '=', questionId).execute();

// ---- Writing certificates -----------------------------------------------------------------------------------------------

/** A question's awarded teams with their award, by rank then team number. */
export const awardedTeams = (db: Db, questionId: number) =>
  db
    .selectFrom('grades as g')
    .innerJoin('awardLevels as l', 'l.id', 'g.awardId')
    .innerJoin('teams as t', 't.id', 'g.teamId')
    .select(['g.teamId', 't.name as teamName', 'l.name as awardName'])
    .where('g.questionId', '=', questionId)
    .orderBy('g.rank')
    .orderBy('t.teamNo')
    .execute();

/** What a question's certificates print of it: its title, its competition and the organising body. */
export const questionHeading = (db: Db, questionId: number) =>
  db
    .selectFrom('questions as q')
    .innerJoin('competitions as c', 'c.id', 'q.competitionId')
    .leftJoin('organisations as o', 'o.id', 'c.orgId')
    .select(['q.title', 'q.competitionId', 'c.name as competitionName', 'o.name as organizer'])
    .where('q.id', '=', questionId)
    .executeTakeFirstOrThrow();

/** The certificate a holder already has for the question, if any. */
export const findHolderCertificate = (db: Db, h: { questionId: number; teamId: number; holderKind: string; holderRef: number }) =>
  db
    .selectFrom('certificates')
    .select(['id', 'certNo', 'verifyCode', 'fileKey'])
    .where('questionId', '=', h.questionId)
    .where('teamId', '=', h.teamId)
    .where('holderKind', '=', h.holderKind)
    .where('holderRef', '=', h.holderRef)
    .executeTakeFirst();

export const insertCertificate = async (db: Db, row: Insertable<CertificatesTable>) =>
  (await db.insertInto('certificates').values(row).returning('id').executeTakeFirstOrThrow()).id;

export const updateCertificate = (db: Db, id: number, set: Updateable<CertificatesTable>) =>
  db.updateTable('certificates').set(set).where('id', '=', id).execute();

/** A question's certificates other than the given ones. */
export const certificatesExcept = (db: Db, questionId: number, kept: number[]) =>
  db
    .selectFrom('certificates')
    .select(['id', 'fileKey'])
    .where('questionId', '=', questionId)
    .$if(kept.length > 0, (qb) => qb.where('id', 'not in', kept))
    .execute();

export const deleteCertificate = (db: Db, id: number) => db.deleteFrom('certificates').where('id', '=', id).execute();

// ---- Reading certificates -----------------------------------------------------------------------------------------------

/** Written certificates (a row whose file is not written yet is left out). */
const certificateRows = (db: Db) =>
  db
    .selectFrom('certificates as x')
    .innerJoin('questions as q', 'q.id', 'x.questionId')
    .innerJoin('competitions as c', 'c.id', 'x.competitionId')
    .innerJoin('teams as t', 't.id', 'x.teamId')
    .select([
      'x.id',
      'x.certNo',
      'x.competitionId',
      'c.name as competitionName',
      'x.questionId',
      'q.title as questionTitle',
      'x.teamId',
      't.name as teamName',
      'x.holderKind',
      'x.holderName',
      'x.school',
      'x.awardName',
      'x.createdAt',
    ])
    .where('x.fileKey', '!=', '');
export type CertificateRow = Awaited<ReturnType<ReturnType<typeof certificateRows>['executeTakeFirstOrThrow']>>;

/** A page of a question's certificates; `keyword` matches the holder's name, the team's name or the number. */
export async function questionCertificates(db: Db, questionId: number, q: { keyword?: string; limit: number; offset: number }) {
  let query = certificateRows(db).where('x.questionId', '=', questionId);
  if (q.keyword) {
    const k = q.keyword;
    query = query.where((eb) => eb.or([containsText('x.holderName', k), containsText('t.name', k), containsText('x.certNo', k)]));
  }
  const { total } = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await query.orderBy('x.id').limit(q.limit).offset(q.offset).execute();
  return { rows, total: Number(total) };
}

/** Every certificate of a question the keyword keeps, in `questionCertificates`' order (`x.id`), in batches: the export. */
export function exportQuestionCertificates(db: Db, questionId: number, q: { keyword?: string }, size?: number) {
  let query = certificateRows(db).where('x.questionId', '=', questionId);
  if (q.keyword) {
    const k = q.keyword;
    query = query.where((eb) => eb.or([containsText('x.holderName', k), containsText('t.name', k), containsText('x.certNo', k)]));
  }
  const filtered = query;
  return keysetBatches(
    (after: number | undefined, limit) => (after === undefined ? filtered : filtered.where('x.id', '>', after)).orderBy('x.id').limit(limit).execute(),
    (r) => r.id,
    size,
  );
}

/** A user's own certificates (as a member), newest first, optionally of one competition. */
export function userCertificates(db: Db, userId: number, competitionId?: number) {
  let query = certificateRows(db).where('x.userId', '=', userId);
  if (competitionId) query = query.where('x.competitionId', '=', competitionId);
  return query.orderBy('x.id', 'desc').execute();
}

/** Every certificate of a team, by question, members before teachers. */
export const teamCertificates = (db: Db, teamId: number) =>
  certificateRows(db).where('x.teamId', '=', teamId).orderBy('x.questionId').orderBy('x.holderKind').orderBy('x.id').execute();

export const certificateRow = (db: Db, id: number) => certificateRows(db).where('x.id', '=', id).executeTakeFirstOrThrow();

/** A written certificate by its number, with its verification code. */
export const certificateByNumber = (db: Db, certNo: string) => certificateRows(db).select('x.verifyCode').where('x.certNo', '=', certNo).executeTakeFirst();

/** What access to a certificate and its file is decided on, written or not. */
export const findCertificate = (db: Db, id: number) =>
  db.selectFrom('certificates').select(['teamId', 'competitionId', 'fileKey', 'holderName', 'awardName', 'certNo']).where('id', '=', id).executeTakeFirst();

/** The competition of a team; undefined when there is no such team. */
export const teamCompetition = async (db: Db, teamId: number) =>
  (await db.selectFrom('teams').select('competitionId').where('id', '=', teamId).executeTakeFirst())?.competitionId;
