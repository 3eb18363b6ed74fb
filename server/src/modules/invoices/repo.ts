import type { Invoice, InvoiceListQuery, InvoiceTitle, InvoiceType } from '@contest/shared';
import { inOrgScope, type OrgScope } from '../../db/org-scope.ts';
import type { Db } from '../../db/database.ts';
import type { Insertable, Updateable } from 'kysely';
import type { InvoiceConfigTable, InvoicesTable, InvoiceTitlesTable } from '../../db/schema.ts';
import { containsText } from '../../db/like.ts';
import { keysetBatches } from '../../db/batches.ts';

const TITLE_COLUMNS = ['id', 'kind', 'name', 'taxNo', 'bank', 'bankAccount', 'address', 'phone', 'createdAt'] as const;

export const listTitles = (db: Db, userId: number) =>
  db.selectFrom('invoiceTitles').select(TITLE_COLUMNS).where('userId', '=', userId).orderBy('id', 'desc').execute() as Promise<InvoiceTitle[]>;

export const findTitle = (db: Db, id: number, userId: number) =>
  db.selectFrom('invoiceTitles').select(TITLE_COLUMNS).where('id', '=', id).where('userId', '=', userId).executeTakeFirst() as Promise<
    InvoiceTitle | undefined
  >;

const base = (db: Db) =>
  db
    .selectFrom('invoices as i')
    // A team's order, or a school's 统一缴费 order (whose invoice names the school and its number of teams).
    .leftJoin('orders as o', 'o.id', 'i.orderId')
    .leftJoin('teams as t', 't.id', 'o.teamId')
    .leftJoin('schoolOrders as so', 'so.id', 'i.schoolOrderId')
    .leftJoin('schools as s', 's.id', 'so.schoolId')
    .innerJoin('competitions as c', 'c.id', 'i.competitionId')
    .innerJoin('users as u', 'u.id', 'i.userId')
    .select([
      'i.id',
      'i.orderId',
      'i.schoolOrderId',
      'o.orderNo as teamOrderNo',
      'so.orderNo as schoolOrderNo',
      'i.competitionId',
      'c.name as competitionName',
      'c.orgId',
      't.name as teamNameOf',
      's.name as schoolName',
      'so.teamCount',
      'i.userId',
      'u.username',
      'i.amount',
      'i.type',
      'i.titleJson',
      'i.email',
      'i.status',
      'i.invoiceNo',
      'i.fileKey',
      'i.reason',
      'i.issuedAt',
      'i.createdAt',
    ]);
type Row = Awaited<ReturnType<ReturnType<typeof base>['executeTakeFirstOrThrow']>>;
export type InvoiceWithOrg = Invoice & { orgId: number };

const toInvoice = ({ titleJson, fileKey, type, teamOrderNo, schoolOrderNo, teamNameOf, schoolName, teamCount, ...r }: Row): InvoiceWithOrg => ({
  ...r,
  orderNo: teamOrderNo ?? schoolOrderNo ?? '',
  teamName: teamNameOf ?? `${schoolName ?? ''}（统一缴费${teamCount ?? 0}支队伍）`,
  type: type as InvoiceType,
  title: JSON.parse(titleJson),
  fileUri: fileKey,
});

export async function findInvoice(db: Db, id: number) {
  const r = await base(db).where('i.id', '=', id).executeTakeFirst();
  return r && toInvoice(r);
}

/** The invoice applications among `ids` of the scope's competitions. */
export async function findInvoices(db: Db, ids: number[], scope: OrgScope) {
  const query = base(db).where('i.id', 'in', ids).where(inOrgScope('c.orgId', scope));
  return (await query.execute()).map(toInvoice);
}

/** The invoice applications a list's filters and the caller's scope keep (an applicant: its own; an organiser: its own). */
/** Whose applications a list holds: an applicant's own (the personal list), or an organisation scope's (finance). */
export type ListScope = { applicant: number } | OrgScope;

function filteredInvoices(db: Db, q: Omit<InvoiceListQuery, 'page' | 'limit'>, scope: ListScope) {
  let query = base(db);
  query = 'applicant' in scope ? query.where('i.userId', '=', scope.applicant) : query.where(inOrgScope('c.orgId', scope));
  if (q.competitionId) query = query.where('i.competitionId', '=', q.competitionId);
  if (q.status !== undefined) query = query.where('i.status', '=', q.status);
  if (q.ids?.length) query = query.where('i.id', 'in', q.ids);
  if (q.keyword) {
    const k = q.keyword;
    query = query.where((eb) =>
      eb.or([
        containsText('o.orderNo', k),
        containsText('so.orderNo', k),
        containsText('i.titleJson', k),
        containsText('u.username', k),
        containsText('i.invoiceNo', k),
      ]),
    );
  }
  return query;
}

export async function listInvoices(db: Db, q: InvoiceListQuery, scope: ListScope, max = q.limit) {
  const query = filteredInvoices(db, q, scope);
  const { total } = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await query
    .orderBy('i.id', 'desc')
    .limit(max)
    .offset((q.page - 1) * q.limit)
    .execute();
  return { list: rows.map(toInvoice), total: Number(total) };
}

/**
 * Every invoice application the filters keep, newest first, in batches (keyset on `i.id`): what the export streams.
 * The same filters and scope as `listInvoices`; no page, no cap.
 */
export function exportInvoices(db: Db, q: Omit<InvoiceListQuery, 'page' | 'limit'>, scope: OrgScope, size?: number) {
  const filtered = filteredInvoices(db, q, scope);
  return keysetBatches(
    async (after: number | undefined, limit) =>
      (await (after === undefined ? filtered : filtered.where('i.id', '<', after)).orderBy('i.id', 'desc').limit(limit).execute()).map(toInvoice),
    (i) => i.id,
    size,
  );
}

/** Moves an application out of pending; false when it was no longer pending. */
export async function decide(
  db: Db,
  id: number,
  values: { status: number; invoiceNo?: string; fileKey?: string; reason?: string; issuedAt?: string; updatedAt: string },
) {
  const r = await db.updateTable('invoices').set(values).where('id', '=', id).where('status', '=', 0).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertTitle(db: Db, v: Insertable<InvoiceTitlesTable>) {
  const { id } = await db.insertInto('invoiceTitles').values(v).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** False when the title is not the user's (or is gone). */
export async function updateOwnTitle(db: Db, id: number, userId: number, v: Updateable<InvoiceTitlesTable>) {
  const r = await db.updateTable('invoiceTitles').set(v).where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function deleteOwnTitle(db: Db, id: number, userId: number) {
  const r = await db.deleteFrom('invoiceTitles').where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

export const findConfig = (db: Db) => db.selectFrom('invoiceConfig').selectAll().where('id', '=', 1).executeTakeFirst();

export async function saveConfig(db: Db, values: Omit<Insertable<InvoiceConfigTable>, 'id'>) {
  await db
    .insertInto('invoiceConfig')
    .values({ id: 1, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

export async function insertInvoice(db: Db, v: Insertable<InvoicesTable>) {
  const { id } = await db.insertInto('invoices').values(v).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** Who may read an issued invoice's file: its applicant and its competition's organisation. */
export const invoicesWithFile = (db: Db, key: string) =>
  db
    .selectFrom('invoices as i')
    .innerJoin('competitions as c', 'c.id', 'i.competitionId')
    .select(['i.userId', 'c.orgId'])
    .where('i.fileKey', '=', key)
    .execute();
