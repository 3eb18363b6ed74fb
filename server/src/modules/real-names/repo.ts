import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { containsText } from '../../db/like.ts';
import type { RealNameChecksTable } from '../../db/schema.ts';

/** Every query of 实名认证: the attempts, the verified names, and the simulator's register. */

export type CheckState = 'checking' | 'pending' | 'verified' | 'rejected' | 'mismatch' | 'no_record' | 'failed';

export const latestCheck = (db: Db, userId: number) =>
  db.selectFrom('realNameChecks').selectAll().where('userId', '=', userId).orderBy('id', 'desc').limit(1).executeTakeFirst();

/** Attempts checked by the provider since `since` (what the daily limit counts). */
export async function providerChecksSince(db: Db, userId: number, since: string) {
  const row = await db
    .selectFrom('realNameChecks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('userId', '=', userId)
    .where('method', '=', 'auto')
    .where('state', '!=', 'failed')
    .where('createdAt', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The attempt holding a document's key (checking, pending or verified), if any. */
export const holderOfKey = (db: Db, numberKey: string) =>
  db.selectFrom('realNameChecks').select(['id', 'userId', 'state', 'createdAt']).where('numberKey', '=', numberKey).executeTakeFirst();

/** Inserts an attempt; the unique key refuses a document another attempt holds (the caller answers 409). */
export async function insertCheck(db: Db, values: Insertable<RealNameChecksTable>) {
  const row = await db.insertInto('realNameChecks').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** The account's attempt that holds a document (checking, pending or verified), if any. */
export const openOfUser = (db: Db, userId: number) =>
  db.selectFrom('realNameChecks').select(['id', 'state', 'createdAt']).where('userId', '=', userId).where('numberKey', 'is not', null).executeTakeFirst();

/**
 * Lets go of the document held by a check that never settled (its process died during the provider's call), found by
 * the document or by its account.
 */
export async function releaseStale(db: Db, holder: { numberKey: string } | { userId: number }, before: string, now: string) {
  await db
    .updateTable('realNameChecks')
    .set({ numberKey: null, state: 'failed', reason: '核验未完成', decidedAt: now })
    .where((eb) => ('numberKey' in holder ? eb('numberKey', '=', holder.numberKey) : eb('userId', '=', holder.userId)))
    .where('state', '=', 'checking')
    .where('createdAt', '<', before)
    .execute();
}

/** Settles an attempt in `from` state; answers whether it was still there to settle (two reviewers: one wins). */
export async function settle(
  db: Db,
  id: number,
  from: CheckState,
  v: { state: CheckState; keepKey: boolean; reason?: string | null; providerRef?: string | null; decidedAt: string; decidedBy?: number | null },
) {
  const res = await db
    .updateTable('realNameChecks')
    .set({
      state: v.state,
      ...(v.keepKey ? {} : { numberKey: null }),
      reason: v.reason ?? null,
      ...(v.providerRef !== undefined ? { providerRef: v.providerRef } : {}),
      decidedAt: v.decidedAt,
      decidedBy: v.decidedBy ?? null,
    })
    .where('id', '=', id)
    .where('state', '=', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** The account's proved name; its profile's 姓名 becomes it too. */
export async function setVerifiedName(db: Db, userId: number, name: string, now: string) {
  await db.updateTable('users').set({ verifiedName: name, userName: name, updatedAt: now }).where('id', '=', userId).execute();
}

export async function verifiedName(db: Db, userId: number) {
  const row = await db.selectFrom('users').select('verifiedName').where('id', '=', userId).executeTakeFirst();
  return row?.verifiedName ?? null;
}

/** The members of a team not verified, with their names (for the message that names them). */
export const unverifiedMembers = (db: Db, teamId: number) =>
  db
    .selectFrom('teamMembers as m')
    .innerJoin('users as u', 'u.id', 'm.userId')
    .select(['u.id', 'u.username', 'u.userName'])
    .where('m.teamId', '=', teamId)
    .where('u.verifiedName', 'is', null)
    .orderBy('m.leader', 'desc')
    .orderBy('u.id')
    .execute();

const rows = (db: Db) =>
  db
    .selectFrom('realNameChecks as c')
    .innerJoin('users as u', 'u.id', 'c.userId')
    .leftJoin('users as d', 'd.id', 'c.decidedBy')
    .leftJoin('files as f', 'f.key', 'c.fileKey')
    .select([
      'f.mime as fileMime',
      'c.id',
      'c.userId',
      'u.username',
      'c.docType',
      'c.name',
      'c.numberMask',
      'c.numberEnc',
      'c.method',
      'c.state',
      'c.reason',
      'c.fileKey',
      'c.createdAt',
      'c.decidedAt',
      'd.username as decidedBy',
    ]);

/** A page of attempts: the review queue (pending, oldest first) or the history (newest first). */
export async function listChecks(db: Db, q: { state: 'pending' | 'verified' | 'rejected' | 'all'; keyword?: string; limit: number; offset: number }) {
  let query = rows(db);
  if (q.state === 'pending') query = query.where('c.state', '=', 'pending');
  else if (q.state === 'verified') query = query.where('c.state', '=', 'verified');
  else if (q.state === 'rejected') query = query.where('c.state', 'in', ['rejected', 'mismatch', 'no_record']);
  if (q.keyword) {
    const k = q.keyword;
    query = query.where((eb) => eb.or([containsText('u.username', k), containsText('c.name', k)]));
  }
  const { total } = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const list = await query
    .orderBy('c.id', q.state === 'pending' ? 'asc' : 'desc')
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  return { rows: list, total: Number(total) };
}

export const findCheck = (db: Db, id: number) => rows(db).where('c.id', '=', id).executeTakeFirst();

/** Whether `fileKey` is the document photo of an attempt (the reviewers may read it). */
export async function isDocumentPhoto(db: Db, fileKey: string) {
  const row = await db.selectFrom('realNameChecks').select('id').where('fileKey', '=', fileKey).executeTakeFirst();
  return Boolean(row);
}

// ---- the simulator's register

export const simulatedPerson = (db: Db, number: string) =>
  db.selectFrom('idcheckSimulatorPeople').select('name').where('number', '=', number).executeTakeFirst();

export async function enterSimulatedPerson(db: Db, number: string, name: string, now: string) {
  await db
    .insertInto('idcheckSimulatorPeople')
    .values({ number, name, createdAt: now })
    .onConflict((oc) => oc.column('number').doNothing())
    .execute();
}

export const simulatedPeople = (db: Db, limit: number) =>
  db.selectFrom('idcheckSimulatorPeople').selectAll().orderBy('createdAt', 'desc').limit(limit).execute();
