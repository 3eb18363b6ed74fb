import { PAY_STATUS, type Order, type OrderListQuery, type SchoolOrderListQuery } from '@contest/shared';
import type { ExpressionBuilder, Insertable, Updateable } from 'kysely';
import { inOrgScope, type OrgScope } from '../../db/org-scope.ts';
import type { Db } from '../../db/database.ts';
import type { DB, OrdersTable, SchoolOrdersTable } from '../../db/schema.ts';
import { containsText } from '../../db/like.ts';
import { keysetBatches } from '../../db/batches.ts';
import { orderColumn, pageWindow, trigramFilter } from '../../db/search.ts';

const base = (db: Db) =>
  db
    .selectFrom('orders as o')
    .innerJoin('competitions as c', 'c.id', 'o.competitionId')
    .innerJoin('teams as t', 't.id', 'o.teamId')
    .innerJoin('users as u', 'u.id', 'o.userId')
    .leftJoin('schoolOrders as so', 'so.id', 'o.schoolOrderId')
    .select([
      'o.id',
      'o.orderNo',
      'so.orderNo as schoolOrderNo',
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
/**
 * Moves an order from one state to another, if it is still in the first: a conditional UPDATE. An unpaid order that is
 * part of a school's 统一缴费 order moves only with it (`paySchoolTeams`, `releaseSchoolTeams`).
 */
export async function transition(db: Db, id: number, from: number, values: Updateable<OrdersTable> & { payStatus?: number }): Promise<boolean> {
  let q = db.updateTable('orders').set(values).where('id', '=', id).where('payStatus', '=', from);
  if (from === PAY_STATUS.unpaid) q = q.where('schoolOrderId', 'is', null);
  return Number((await q.executeTakeFirst()).numUpdatedRows) === 1;
}

/** Money arrived for an order that is closed or paid another way: kept visible for a refund. */
export async function flagRefund(db: Db, id: number, tradeNo: string, now: string) {
  await db.updateTable('orders').set({ refundFlag: 1, tradeNo, updatedAt: now }).where('id', '=', id).execute();
}

/** How many of the orders belong to competitions of the organisation. */
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
  let q = db.updateTable('orders').set(values).where('id', 'in', ids).where('payStatus', '=', PAY_STATUS.unpaid).where('schoolOrderId', 'is', null);
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
    // So does one its school pays for (the school closes its own order).
    .where('schoolOrderId', 'is', null)
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

// ---- 统一缴费: a school's order for many of its teams ------------------------------------------------------------------

const schoolBase = (db: Db) =>
  db
    .selectFrom('schoolOrders as so')
    .innerJoin('competitions as c', 'c.id', 'so.competitionId')
    .innerJoin('schools as s', 's.id', 'so.schoolId')
    .innerJoin('users as u', 'u.id', 'so.userId')
    .select([
      'so.id',
      'so.orderNo',
      'so.competitionId',
      'c.name as competitionName',
      'c.orgId',
      'so.schoolId',
      's.name as schoolName',
      'so.userId',
      'u.username',
      'so.amount',
      'so.teamCount',
      'so.payStatus',
      'so.payMethod',
      'so.tradeNo',
      'so.voucher',
      'so.paidAt',
      'so.closedAt',
      'so.refundedAt',
      'so.refundReason',
      'so.refundFlag',
      'c.invoiceEnable',
      'so.createdAt',
    ])
    .select((eb) =>
      eb.selectFrom('invoices as i').select('i.status').whereRef('i.schoolOrderId', '=', 'so.id').where('i.status', '<>', 2).limit(1).as('invoiceStatus'),
    );
type SchoolRow = Awaited<ReturnType<ReturnType<typeof schoolBase>['executeTakeFirstOrThrow']>>;
export type SchoolOrderRow = Omit<SchoolRow, 'refundFlag' | 'invoiceEnable'> & { refundFlag: boolean; invoiceEnable: boolean };
const toSchoolOrder = ({ refundFlag, invoiceEnable, ...r }: SchoolRow): SchoolOrderRow => ({
  ...r,
  refundFlag: refundFlag === 1,
  invoiceEnable: invoiceEnable === 1,
});

export async function findSchoolOrder(db: Db, id: number) {
  const r = await schoolBase(db).where('so.id', '=', id).executeTakeFirst();
  return r && toSchoolOrder(r);
}

export async function findSchoolOrderByNo(db: Db, orderNo: string) {
  const r = await schoolBase(db).where('so.orderNo', '=', orderNo).executeTakeFirst();
  return r && toSchoolOrder(r);
}

/** A school's orders in a competition, newest first. */
export const schoolOrdersOf = async (db: Db, competitionId: number, schoolId: number) =>
  (await schoolBase(db).where('so.competitionId', '=', competitionId).where('so.schoolId', '=', schoolId).orderBy('so.id', 'desc').execute()).map(
    toSchoolOrder,
  );

/** A page of the scope's school orders, newest first: finance's list. */
export async function listSchoolOrders(db: Db, q: SchoolOrderListQuery, scope: OrgScope) {
  let query = schoolBase(db).where(inOrgScope('c.orgId', scope));
  if (q.competitionId) query = query.where('so.competitionId', '=', q.competitionId);
  if (q.payStatus !== undefined) query = query.where('so.payStatus', '=', q.payStatus);
  if (q.keyword) query = query.where((eb) => eb.or([containsText('so.orderNo', q.keyword!), containsText('s.name', q.keyword!)]));
  const { total } = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await query
    .orderBy('so.id', 'desc')
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .execute();
  return { list: rows.map(toSchoolOrder), total: Number(total) };
}

/** The teams' orders each school order pays (or paid) for. */
export const teamsOfSchoolOrders = (db: Db, ids: number[]) =>
  ids.length
    ? db
        .selectFrom('orders as o')
        .innerJoin('teams as t', 't.id', 'o.teamId')
        .select(['o.schoolOrderId', 't.id as teamId', 't.teamNo', 't.name as teamName', 'o.orderNo', 'o.amount', 'o.payStatus'])
        .where('o.schoolOrderId', 'in', ids)
        .orderBy('t.teamNo')
        .execute()
    : Promise.resolve([]);

/**
 * The open orders of the teams among `teamIds` that a school may pay for: of the competition and the school, waiting for
 * payment, with no transfer sent and in no other school order, their registration neither refused nor waiting for the
 * school. Teams not returned cannot be paid for.
 */
export const schoolPayableOrders = (db: Db, competitionId: number, schoolKey: string, teamIds: number[]) =>
  db
    .selectFrom('orders as o')
    .innerJoin('teams as t', 't.id', 'o.teamId')
    .innerJoin('registers as r', 'r.teamId', 't.id')
    .select(['o.id', 'o.teamId', 'o.amount'])
    .where('o.competitionId', '=', competitionId)
    .where('t.schoolKey', '=', schoolKey)
    .where('o.teamId', 'in', teamIds)
    .where('o.payStatus', '=', PAY_STATUS.unpaid)
    .where('o.voucher', 'is', null)
    .where('o.schoolOrderId', 'is', null)
    .where('r.status', '<>', 2)
    .where((eb) => eb.or([eb('r.schoolStatus', 'is', null), eb('r.schoolStatus', '=', 1)]))
    .execute();

export async function insertSchoolOrder(db: Db, v: Insertable<SchoolOrdersTable>) {
  return (await db.insertInto('schoolOrders').values(v).returning('id').executeTakeFirstOrThrow()).id;
}

/** Links the orders to the school order, those still open and free only; says how many it linked. */
export async function linkToSchoolOrder(db: Db, schoolOrderId: number, orderIds: number[], now: string) {
  const r = await db
    .updateTable('orders')
    .set({ schoolOrderId, updatedAt: now })
    .where('id', 'in', orderIds)
    .where('payStatus', '=', PAY_STATUS.unpaid)
    .where('voucher', 'is', null)
    .where('schoolOrderId', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * Moves a school order from one state to another if it is still in the first; `noVoucher`: only while no transfer
 * voucher waits for finance (closing).
 */
export async function transitionSchoolOrder(db: Db, id: number, from: number, values: Updateable<SchoolOrdersTable>, noVoucher = false) {
  let q = db.updateTable('schoolOrders').set(values).where('id', '=', id).where('payStatus', '=', from);
  if (noVoucher) q = q.where('voucher', 'is', null);
  return Number((await q.executeTakeFirst()).numUpdatedRows) === 1;
}

/** Unpaid school orders with no transfer voucher made before `createdBefore`: the sweeper closes them. */
export const staleSchoolOrders = (db: Db, createdBefore: string) =>
  db
    .selectFrom('schoolOrders')
    .select(['id', 'userId', 'orderNo'])
    .where('payStatus', '=', PAY_STATUS.unpaid)
    .where('voucher', 'is', null)
    .where('createdAt', '<', createdBefore)
    .execute();

/** Refunds the paid orders of a school order (its teams' money goes back with the school's); returns them. */
export async function refundSchoolTeams(db: Db, schoolOrderId: number, values: Updateable<OrdersTable>) {
  const rows = await db
    .updateTable('orders')
    .set(values)
    .where('schoolOrderId', '=', schoolOrderId)
    .where('payStatus', '=', PAY_STATUS.paid)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** A closed school order gives its teams' open orders back to them. */
export async function releaseSchoolTeams(db: Db, schoolOrderId: number, now: string) {
  await db
    .updateTable('orders')
    .set({ schoolOrderId: null, updatedAt: now })
    .where('schoolOrderId', '=', schoolOrderId)
    .where('payStatus', '=', PAY_STATUS.unpaid)
    .execute();
}

/** Pays the open orders of a school order; returns them. */
export async function paySchoolTeams(db: Db, schoolOrderId: number, values: Updateable<OrdersTable>) {
  const rows = await db
    .updateTable('orders')
    .set(values)
    .where('schoolOrderId', '=', schoolOrderId)
    .where('payStatus', '=', PAY_STATUS.unpaid)
    .returning('id')
    .execute();
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** Money arrived for a school order that is closed or paid another way: kept visible for a refund. */
export async function flagSchoolRefund(db: Db, id: number, tradeNo: string, now: string) {
  await db.updateTable('schoolOrders').set({ refundFlag: 1, tradeNo, updatedAt: now }).where('id', '=', id).execute();
}

/** The organisations of the school orders whose transfer voucher is the file (their finance may read it). */
export const schoolOrdersWithVoucher = (db: Db, key: string) =>
  db.selectFrom('schoolOrders as so').innerJoin('competitions as c', 'c.id', 'so.competitionId').select('c.orgId').where('so.voucher', '=', key).execute();
