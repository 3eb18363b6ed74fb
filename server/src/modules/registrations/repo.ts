import type { Register, RegisterFlow, RegisterListQuery } from '@contest/shared';
import type { ExpressionBuilder } from 'kysely';
import { inOrgScope, type OrgScope } from '../../db/org-scope.ts';
import type { Db } from '../../db/database.ts';
import { containsText } from '../../db/like.ts';
import { keysetBatches } from '../../db/batches.ts';
import { orderColumn, pageWindow, trigramFilter } from '../../db/search.ts';
import type { DB } from '../../db/schema.ts';

export async function insertRegister(
  db: Db,
  v: { competitionId: number; teamId: number; userId: number; orderId: number | null; attachments: string[]; schoolStatus?: number | null; now: string },
) {
  const row = await db
    .insertInto('registers')
    .values({
      competitionId: v.competitionId,
      teamId: v.teamId,
      userId: v.userId,
      status: 0,
      // 两级审核: the school reviews it first.
      schoolStatus: v.schoolStatus ?? null,
      orderId: v.orderId,
      attachmentsJson: JSON.stringify(v.attachments),
      createdAt: v.now,
      updatedAt: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertFlow(
  db: Db,
  v: { registerId: number; actorId: number; action: RegisterFlow['action']; fromStatus: number | null; toStatus: number; reason: string | null; now: string },
) {
  await db
    .insertInto('registerFlows')
    .values({
      registerId: v.registerId,
      actorId: v.actorId,
      action: v.action,
      fromStatus: v.fromStatus,
      toStatus: v.toStatus,
      reason: v.reason,
      createdAt: v.now,
    })
    .execute();
}

/** Moves a registration between review states only from the expected one. */
/**
 * Moves a registration from one state to another, only if it is still in the first (and, with `schoolPassed`, not
 * waiting for its school: an organiser's approval never overtakes the school, even one that read it a moment before).
 */
export async function transition(
  db: Db,
  id: number,
  from: number,
  to: number,
  v: { reason: string | null; now: string; schoolPassed?: boolean },
): Promise<boolean> {
  const r = await db
    .updateTable('registers')
    .set({ status: to, reason: v.reason, updatedAt: v.now })
    .where('id', '=', id)
    .where('status', '=', from)
    .$if(Boolean(v.schoolPassed), (q) => q.where((eb) => eb.or([eb('schoolStatus', 'is', null), eb('schoolStatus', '!=', 0)])))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

const base = (db: Db) =>
  db
    .selectFrom('registers as r')
    .innerJoin('teams as t', 't.id', 'r.teamId')
    .innerJoin('competitions as c', 'c.id', 'r.competitionId')
    .innerJoin('users as u', 'u.id', 'r.userId')
    .leftJoin('orders as o', 'o.id', 'r.orderId')
    .select([
      'r.id',
      'r.competitionId',
      'c.name as competitionName',
      'c.orgId',
      'r.teamId',
      't.teamNo',
      't.name as teamName',
      't.individual',
      't.schoolName',
      't.groupName',
      't.memberCount as memberNum',
      'r.userId',
      'u.username',
      'r.status',
      'r.reason',
      'r.schoolStatus',
      'r.schoolReason',
      'r.orderId',
      'o.payStatus',
      'r.attachmentsJson',
      'r.createdAt',
      'r.updatedAt',
    ]);
type Row = Awaited<ReturnType<ReturnType<typeof base>['executeTakeFirstOrThrow']>>;
export type RegisterWithOrg = Register & { orgId: number };

async function withAttachments(db: Db, rows: Row[]): Promise<RegisterWithOrg[]> {
  const keys = [...new Set(rows.flatMap((r) => JSON.parse(r.attachmentsJson) as string[]))];
  const files = keys.length ? await db.selectFrom('files').select(['key', 'originalName', 'size']).where('key', 'in', keys).execute() : [];
  const byKey = new Map(files.map((f) => [f.key, f]));
  return rows.map(({ attachmentsJson, individual, ...r }) => ({
    ...r,
    individual: individual === 1,
    payStatus: r.payStatus ?? null,
    attachments: (JSON.parse(attachmentsJson) as string[]).flatMap((k) => {
      const f = byKey.get(k);
      return f ? [{ fileUri: k, name: f.originalName, size: f.size }] : [];
    }),
  }));
}

export async function findRegister(db: Db, id: number) {
  const row = await base(db).where('r.id', '=', id).executeTakeFirst();
  return row && (await withAttachments(db, [row]))[0];
}

/** The registrations among `ids` of the scope's competitions (those the caller may review). */
export async function findRegisters(db: Db, ids: number[], scope: OrgScope) {
  const query = base(db).where('r.id', 'in', ids).where(inOrgScope('c.orgId', scope));
  return withAttachments(db, await query.execute());
}

export async function findRegisterOfTeam(db: Db, teamId: number) {
  const row = await base(db).where('r.teamId', '=', teamId).executeTakeFirst();
  return row && (await withAttachments(db, [row]))[0];
}

/**
 * A page of registrations, newest first. The count and the page's ids read `registers` and only what the filters
 * need; the page's rows alone are joined for display. The page is read from the nearer end of the list. A keyword of
 * three or more characters finds its teams and registrants through the trigram indexes (db/search.ts); a shorter one
 * is checked registration by registration. Either way the same LIKEs decide.
 */
export async function listRegisters(db: Db, q: RegisterListQuery & { teamId?: number }, scope: OrgScope, max = q.limit) {
  let query = db.selectFrom('registers as r');
  if (q.teamId) query = query.where('r.teamId', '=', q.teamId);
  if (!scope.all) query = query.where('r.competitionId', 'in', (eb) => eb.selectFrom('competitions as c').select('c.id').where(inOrgScope('c.orgId', scope)));
  if (q.competitionId) query = query.where('r.competitionId', '=', q.competitionId);
  if (q.status !== undefined) query = query.where('r.status', '=', q.status);
  if (q.ids?.length) query = query.where('r.id', 'in', q.ids);
  if (q.keyword) {
    const k = q.keyword;
    const teamLike = (eb: ExpressionBuilder<DB, 'teams'>) => eb.or([containsText('teams.teamNo', k), containsText('teams.name', k)]);
    const userLike = () => containsText('users.username', k);
    if ([...k.toLowerCase()].length >= 3) {
      const teamHits = trigramFilter(db, 'teams.id', 'teams', ['team_no', 'name'], k);
      const userHits = trigramFilter(db, 'users.id', 'users', ['username'], k);
      query = query.where((eb) =>
        eb.or([
          eb(
            'r.teamId',
            'in',
            db
              .selectFrom('teams')
              .select('teams.id')
              .$if(Boolean(teamHits), (s) => s.where(teamHits!))
              .where(teamLike),
          ),
          eb(
            'r.userId',
            'in',
            db
              .selectFrom('users')
              .select('users.id')
              .$if(Boolean(userHits), (s) => s.where(userHits!))
              .where(userLike),
          ),
        ]),
      );
    } else {
      query = query.where((eb) =>
        eb.or([
          eb.exists(eb.selectFrom('teams').select('teams.id').whereRef('teams.id', '=', 'r.teamId').where(teamLike)),
          eb.exists(eb.selectFrom('users').select('users.id').whereRef('users.id', '=', 'r.userId').where(userLike)),
        ]),
      );
    }
  }
  const total = Number((await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total);
  const window = pageWindow(total, q.page, q.limit, max);
  if (!window) return { list: [], total };
  const ids = (
    await query
      .select('r.id')
      .orderBy(orderColumn('r.id', q.keyword, total), window.reverse ? 'asc' : 'desc')
      .limit(window.limit)
      .offset(window.offset)
      .execute()
  ).map((r) => r.id);
  const rows = ids.length ? await base(db).where('r.id', 'in', ids).orderBy('r.id', 'desc').execute() : [];
  return { list: await withAttachments(db, rows), total };
}

export async function listFlows(db: Db, registerId: number): Promise<RegisterFlow[]> {
  const rows = await db
    .selectFrom('registerFlows as f')
    .leftJoin('users as u', 'u.id', 'f.actorId')
    .select(['f.id', 'f.action', 'u.username', 'f.fromStatus', 'f.toStatus', 'f.reason', 'f.createdAt'])
    .where('f.registerId', '=', registerId)
    .orderBy('f.id')
    .execute();
  return rows.map(({ username, action, ...r }) => ({ ...r, action: action as RegisterFlow['action'], actorName: username ?? '已删除用户' }));
}

/** The user's team in the competition, if any. */
export const teamOfUser = async (db: Db, competitionId: number, userId: number) =>
  (await db.selectFrom('teamMembers').select('teamId').where('competitionId', '=', competitionId).where('userId', '=', userId).executeTakeFirst())?.teamId;

/** Registrations whose attachments may hold the file, with their competition's organisation and whether the user is in the team. */
export const registersWithAttachment = (db: Db, key: string, userId: number) =>
  db
    .selectFrom('registers as r')
    .innerJoin('competitions as c', 'c.id', 'r.competitionId')
    .leftJoin('teamMembers as m', (j) => j.onRef('m.teamId', '=', 'r.teamId').on('m.userId', '=', userId))
    .select(['c.orgId', 'r.attachmentsJson', 'm.userId as memberId'])
    .where('r.attachmentsJson', 'like', `%"${key}"%`)
    .execute();

/** The registration forms that hold a file (a custom file field), with the caller's membership of their team. */
export const formsWithFile = (db: Db, key: string, userId: number) =>
  db
    .selectFrom('teamMembers as f')
    .innerJoin('teams as t', 't.id', 'f.teamId')
    .innerJoin('competitions as c', 'c.id', 't.competitionId')
    .leftJoin('teamMembers as m', (j) => j.onRef('m.teamId', '=', 'f.teamId').on('m.userId', '=', userId))
    .select(['c.orgId', 'f.infoJson', 'm.userId as memberId'])
    .where('f.infoJson', 'like', `%"${key}"%`)
    .execute();

/**
 * Every registration the filters keep, newest first, in batches (keyset on `r.id`) with their attachments: what the
 * export streams. The same filters as the list (`listRegisters`), decided by the same LIKEs; no page, no cap.
 */
export function exportRegisters(db: Db, q: Omit<RegisterListQuery, 'page' | 'limit'> & { teamId?: number }, scope: OrgScope, size?: number) {
  let query = base(db).where(inOrgScope('c.orgId', scope));
  if (q.teamId) query = query.where('r.teamId', '=', q.teamId);
  if (q.competitionId) query = query.where('r.competitionId', '=', q.competitionId);
  if (q.status !== undefined) query = query.where('r.status', '=', q.status);
  if (q.ids?.length) query = query.where('r.id', 'in', q.ids);
  if (q.keyword) {
    const k = q.keyword;
    query = query.where((eb) => eb.or([containsText('t.teamNo', k), containsText('t.name', k), containsText('u.username', k)]));
  }
  const filtered = query;
  return keysetBatches(
    async (after: number | undefined, limit) =>
      withAttachments(db, await (after === undefined ? filtered : filtered.where('r.id', '<', after)).orderBy('r.id', 'desc').limit(limit).execute()),
    (r) => r.id,
    size,
  );
}

// ---- 两级审核: the school's level (issue 36) ------------------------------------------------------------------------

/** What a school's review of a registration needs: its state, and the competition and school it belongs to. */
export const schoolReviewTarget = (db: Db, id: number) =>
  db
    .selectFrom('registers as r')
    .innerJoin('teams as t', 't.id', 'r.teamId')
    .innerJoin('competitions as c', 'c.id', 'r.competitionId')
    .select(['r.id', 'r.teamId', 't.name as teamName', 'r.competitionId', 'c.name as competitionName', 'c.orgId', 'r.status', 'r.schoolStatus', 't.schoolKey'])
    .where('r.id', '=', id)
    .executeTakeFirst();

/** The school's decision, only while the registration waits for it (and for the organiser): racing clicks decide once. */
export async function schoolTransition(db: Db, id: number, to: number, v: { reason: string | null; now: string }): Promise<boolean> {
  const r = await db
    .updateTable('registers')
    .set({ schoolStatus: to, schoolReason: v.reason, updatedAt: v.now })
    .where('id', '=', id)
    .where('schoolStatus', '=', 0)
    .where('status', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** A registration sent again after a refusal goes back to its school first (where the competition has 两级审核). */
export const reopenAtSchool = (db: Db, id: number) =>
  db.updateTable('registers').set({ schoolStatus: 0, schoolReason: null }).where('id', '=', id).where('schoolStatus', 'is not', null).execute();
