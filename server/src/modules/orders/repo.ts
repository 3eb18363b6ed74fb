import { PAY_STATUS, type Order, type OrderListQuery } from '@contest/shared';
import type { ExpressionBuilder, Updateable } from 'kysely';
import { inOrgScope, type OrgScope } from '../../db/org-scope.ts';
import type { Db } from '../../db/database.ts';
import type { DB, OrdersTable } from '../../db/schema.ts';
import { containsText } from '../../db/like.ts';
import { keysetBatches } from '../../db/batches.ts';
import { orderColumn, pageWindow, trigramFilter } from '../../db/search.ts';

const base = (db: Db) =>
  db
    .selectFrom('orders as o')
    .innerJoin('competitions as c', 'c.id', 'o.competitionId')
    .innerJoin('teams as t', 't.id', 'o.teamId')
    .innerJoin('users as u', 'u.id', 'o.userId')
    .select([
      'o.id',
      'o.orderNo',
      'o.competitionId',
      'c.name as competitionName',
      'c.orgId',
      'o.teamId',
      't.teamNo',
      't.name as teamName',
      't.schoolName',
      't.groupName',
      'o.userId',
      'u.username',
      'o.amount',
      'o.payStatus',
      'o.payMethod',
      'o.tradeNo',
      'o.payerOrg',
      'o.voucher',
      'o.paidAt',
      'o.closedAt',
      'o.refundedAt',
      'o.refundReason',
      'o.refundFlag',
      'c.invoiceEnable',
      'o.createdAt',
    ]);

type Row = Awaited<ReturnType<ReturnType<typeof base>['executeTakeFirstOrThrow']>>;
export type OrderWithOrg = Order & { orgId: number };

const toOrder = ({ refundFlag, invoiceEnable, ...r }: Row): OrderWithOrg => ({
  ...r,
  refundFlag: refundFlag === 1,
  invoiceEnable: invoiceEnable === 1,
  competitionVisible: r.payStatus === PAY_STATUS.paid,
});

export async function findOrder(db: Db, id: number): Promise<OrderWithOrg | undefined> {
  const r = await base(db).where('o.id', '=', id).executeTakeFirst();
  return r && toOrder(r);
}

/** Whether the user is a member of the order's team (members read and pay their team's orders). */
export const isTeamMember = async (db: Db, teamId: number, userId: number) =>
  Boolean(await db.selectFrom('teamMembers').select('userId').where('teamId', '=', teamId).where('userId', '=', userId).executeTakeFirst());

export async function findOrderByNo(db: Db, orderNo: string): Promise<OrderWithOrg | undefined> {
  const r = await base(db).where('o.orderNo', '=', orderNo).executeTakeFirst();
  return r && toOrder(r);
}

/** The orders among `ids` of the scope's competitions. */
export async function findOrders(db: Db, ids: number[], scope: OrgScope): Promise<OrderWithOrg[]> {
  const query = base(db).where('o.id', 'in', ids).where(inOrgScope('c.orgId', scope));
  return (await query.execute()).map(toOrder);
}

/** The team's current order: the open one, else the paid one, else the latest. */
export async function currentOrderOfTeam(db: Db, teamId: number): Promise<OrderWithOrg | undefined> {
  const rows = await base(db).where('o.teamId', '=', teamId).orderBy('o.id', 'desc').execute();
  const pick = rows.find((r) => r.payStatus === PAY_STATUS.unpaid) ?? rows.find((r) => r.payStatus === PAY_STATUS.paid) ?? rows[0];
  return pick && toOrder(pick);
}

/**
 * The orders a list's filters and the caller's scope keep (a member: its teams' orders; an organiser: its own), read
 * from `orders` and only what the filters need: the list counts and pages them, the export reads them in batches, and
 * the rows of a page or a batch alone are joined for display. A keyword of three or more characters finds its teams
 * and users through the trigram indexes (db/search.ts); a shorter one is checked order by order. The same LIKEs decide.
 */
/** Whose orders a list holds: a member's own teams' (the personal list), or an organisation scope's (finance). */
export type ListScope = { member: number } | OrgScope;

function filteredOrders(db: Db, q: Omit<OrderListQuery, 'page' | 'limit'>, scope: ListScope) {
  let query = db.selectFrom('orders as o');
  if ('member' in scope) {
    const userId = scope.member;
    // A member sees the orders of every team they are in, whoever placed them.
    query = query.where((eb) =>
      eb.exists(eb.selectFrom('teamMembers as m').select('m.userId').whereRef('m.teamId', '=', 'o.teamId').where('m.userId', '=', userId)),
    );
  } else if (!scope.all) {
    query = query.where('o.competitionId', 'in', (eb) => eb.selectFrom('competitions as c').select('c.id').where(inOrgScope('c.orgId', scope)));
  }
  if (q.competitionId) query = query.where('o.competitionId', '=', q.competitionId);
  if (q.payStatus !== undefined) query = query.where('o.payStatus', '=', q.payStatus);
  if (q.payMethod !== undefined) query = query.where('o.payMethod', '=', q.payMethod);
  if (q.waiting) query = query.where('o.payStatus', '=', PAY_STATUS.unpaid).where('o.voucher', 'is not', null);
  if (q.ids?.length) query = query.where('o.id', 'in', q.ids);
  if (q.keyword) {
    const k = q.keyword;
    const teamLike = (eb: ExpressionBuilder<DB, 'teams'>) => eb.or([containsText('teams.teamNo', k), containsText('teams.name', k)]);
    const userLike = () => containsText('users.username', k);
    if ([...k.toLowerCase()].length >= 3) {
      const teamHits = trigramFilter(db, 'teams.id', 'teams', ['team_no', 'name'], k);
      const userHits = trigramFilter(db, 'users.id', 'users', ['username'], k);
      query = query.where((eb) =>
        eb.or([
          containsText('o.orderNo', k),
          eb(
            'o.teamId',
            'in',
            db
              .selectFrom('teams')
              .select('teams.id')
              .$if(Boolean(teamHits), (s) => s.where(teamHits!))
              .where(teamLike),
          ),
          eb(
            'o.userId',
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
          containsText('o.orderNo', k),
          eb.exists(eb.selectFrom('teams').select('teams.id').whereRef('teams.id', '=', 'o.teamId').where(teamLike)),
          eb.exists(eb.selectFrom('users').select('users.id').whereRef('users.id', '=', 'o.userId').where(userLike)),
        ]),
      );
    }
  }
  return query;
}

/** The orders of `ids` with what a list shows of them, newest first. */
const ordersOf = async (db: Db, ids: number[]) => (ids.length ? (await base(db).where('o.id', 'in', ids).orderBy('o.id', 'desc').execute()).map(toOrder) : []);

/** A page of orders, newest first, read from the nearer end of the list (db/search.ts `pageWindow`). */
export async function listOrders(db: Db, q: OrderListQuery, scope: ListScope) {
  const query = filteredOrders(db, q, scope);
  const total = Number((await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total);
  const window = pageWindow(total, q.page, q.limit);
  if (!window) return { list: [], total };
  const ids = (
    await query
      .select('o.id')
      .orderBy(orderColumn('o.id', q.keyword, total), window.reverse ? 'asc' : 'desc')
      .limit(window.limit)
      .offset(window.offset)
      .execute()
  ).map((r) => r.id);
  return { list: await ordersOf(db, ids), total };
}

/**
 * Every order the filters keep, newest first, in batches (keyset on `o.id`): what the export streams. The same filters
 * and scope as `listOrders`; no page, no cap.
 */
export function exportOrders(db: Db, q: Omit<OrderListQuery, 'page' | 'limit'>, scope: OrgScope, size?: number) {
  const filtered = filteredOrders(db, q, scope);
  return keysetBatches(
    async (after: number | undefined, limit) =>
      ordersOf(
        db,
        (await (after === undefined ? filtered : filtered.where('o.id', '<', after)).select('o.id').orderBy('o.id', 'desc').limit(limit).execute()).map(
          (r) => r.id,
        ),
      ),
    (o) => o.id,
    size,
  );
}

export async function insertOrder(db: Db, v: { orderNo: string; competitionId: number; teamId: number; userId: number; amount: number; now: string }) {
  const row = await db
    .insertInto('orders')
    .values({
      orderNo: v.orderNo,
      competitionId: v.competitionId,
      teamId: v.teamId,
      userId: v.userId,
      amount: v.amount,
      payStatus: PAY_STATUS.unpaid,
      createdAt: v.now,
      updatedAt: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Moves an order between states only from the expected one; false when another request got there first. */
export async function transition(db: Db, id: number, from: number, values: Updateable<OrdersTable> & { payStatus?: number }): Promise<boolean> {
  const r = await db.updateTable('orders').set(values).where('id', '=', id).where('payStatus', '=', from).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** How many of the orders belong to competitions of the organisation. */
/** Money arrived for an order that is closed or paid another way: kept visible for a refund. */
export async function flagRefund(db: Db, id: number, tradeNo: string, now: string) {
  await db.updateTable('orders').set({ refundFlag: 1, tradeNo, updatedAt: now }).where('id', '=', id).execute();
}

export async function countOrdersOfOrg(db: Db, ids: number[], scope: OrgScope): Promise<number> {
  const { n } = await db
    .selectFrom('orders as o')
    .innerJoin('competitions as c', 'c.id', 'o.competitionId')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('o.id', 'in', ids)
    .where(inOrgScope('c.orgId', scope))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Marks paid those of `ids` that are unpaid and of the scope's competitions; returns them. */
export async function payUnpaid(db: Db, ids: number[], scope: OrgScope, values: Updateable<OrdersTable>): Promise<number[]> {
  let q = db.updateTable('orders').set(values).where('id', 'in', ids).where('payStatus', '=', PAY_STATUS.unpaid);
  if (!scope.all) q = q.where('competitionId', 'in', (eb) => eb.selectFrom('competitions').select('id').where(inOrgScope('orgId', scope)));
  const rows = await q.returning('id').execute();
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

export async function closeExpired(db: Db, createdBefore: string, now: string): Promise<number[]> {
  const rows = await db
    .updateTable('orders')
    .set({ payStatus: PAY_STATUS.closed, closedAt: now, updatedAt: now })
    .where('payStatus', '=', PAY_STATUS.unpaid)
    .where('createdAt', '<', createdBefore)
    // An order whose payer has sent a transfer voucher waits for finance, however long that takes.
    .where('voucher', 'is', null)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export const teamIdByNo = async (db: Db, teamNo: string) => (await db.selectFrom('teams').select('id').where('teamNo', '=', teamNo).executeTakeFirst())?.id;

/** The team, when the user is one of its members, with its competition's fee and registration end. */
export const memberTeamWithFee = (db: Db, teamId: number, userId: number) =>
  db
    .selectFrom('teams as t')
    .innerJoin('competitions as c', 'c.id', 't.competitionId')
    .innerJoin('teamMembers as m', (j) => j.onRef('m.teamId', '=', 't.id').on('m.userId', '=', userId))
    .select(['t.id', 't.competitionId', 'c.fee', 'c.regEndTime'])
    .where('t.id', '=', teamId)
    .executeTakeFirst();

/** The team's registration now points at its new order. */
export const pointRegisterAt = (db: Db, teamId: number, orderId: number, now: string) =>
  db.updateTable('registers').set({ orderId, updatedAt: now }).where('teamId', '=', teamId).execute();

export const ordersWithVoucher = (db: Db, key: string) => db.selectFrom('orders').select('id').where('voucher', '=', key).execute();
