import type { Organisation, PartnerApplication } from '@contest/shared';
import { sql, type Insertable, type Updateable } from 'kysely';
import { contains } from '../../db/like.ts';
import type { Db } from '../../db/database.ts';
import type { OrganisationsTable, PartnerApplicationsTable } from '../../db/schema.ts';

export async function listOrganisations(db: Db, q: { page: number; limit: number; keyword?: string }) {
  let base = db.selectFrom('organisations');
  if (q.keyword) base = base.where(sql`lower(name)`, 'like', contains(q.keyword));
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const list = await base
    .select((eb) => [
      'organisations.id',
      'organisations.name',
      'organisations.kind',
      'organisations.contactName',
      'organisations.contactPhone',
      'organisations.contactEmail',
      'organisations.createdAt',
      eb.selectFrom('users').select(eb.fn.countAll<number>().as('n')).whereRef('users.orgId', '=', 'organisations.id').as('memberNum'),
      eb.selectFrom('competitions').select(eb.fn.countAll<number>().as('n')).whereRef('competitions.orgId', '=', 'organisations.id').as('competitionNum'),
    ])
    .orderBy('organisations.id', 'desc')
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .execute();
  return {
    list: list.map((r) => ({ ...r, memberNum: Number(r.memberNum ?? 0), competitionNum: Number(r.competitionNum ?? 0) })) as Organisation[],
    total: Number(n),
  };
}

export const findOrganisation = (db: Db, id: number) => db.selectFrom('organisations').selectAll().where('id', '=', id).executeTakeFirst();
export const findOrganisationByName = (db: Db, name: string) => db.selectFrom('organisations').selectAll().where('name', '=', name).executeTakeFirst();

export async function insertOrganisation(db: Db, v: Insertable<OrganisationsTable>) {
  return (await db.insertInto('organisations').values(v).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateOrganisation(db: Db, id: number, v: Updateable<OrganisationsTable>) {
  await db.updateTable('organisations').set(v).where('id', '=', id).execute();
}

export async function deleteOrganisation(db: Db, id: number) {
  await db.deleteFrom('organisations').where('id', '=', id).execute();
}

export async function usage(db: Db, id: number) {
  const [users, competitions] = await Promise.all([
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('orgId', '=', id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('competitions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('orgId', '=', id)
      .executeTakeFirstOrThrow(),
  ]);
  return { users: Number(users.n), competitions: Number(competitions.n) };
}

const fromApplications = (db: Db) => db.selectFrom('partnerApplications as a');

function withApplicationColumns(base: ReturnType<typeof fromApplications>) {
  return base
    .innerJoin('users as u', 'u.id', 'a.applicantId')
    .select([
      'a.id',
      'a.orgName',
      'a.kind',
      'a.contactName',
      'a.contactPhone',
      'a.contactEmail',
      'a.description',
      'a.applicantId',
      'u.username as applicantName',
      'a.status',
      'a.reason',
      'a.orgId',
      'a.createdAt',
      'a.reviewedAt',
    ]);
}

export async function listApplications(db: Db, q: { page: number; limit: number; status?: number }, applicantId?: number) {
  let base = fromApplications(db);
  if (q.status !== undefined) base = base.where('a.status', '=', q.status);
  if (applicantId !== undefined) base = base.where('a.applicantId', '=', applicantId);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const list = (await withApplicationColumns(base)
    .orderBy('a.id', 'desc')
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .execute()) as PartnerApplication[];
  return { list, total: Number(n) };
}

export const findApplication = (db: Db, id: number) =>
  withApplicationColumns(fromApplications(db).where('a.id', '=', id)).executeTakeFirst() as Promise<PartnerApplication | undefined>;

export async function insertApplication(db: Db, v: Insertable<PartnerApplicationsTable>) {
  return (await db.insertInto('partnerApplications').values(v).returning('id').executeTakeFirstOrThrow()).id;
}

/** Decides a pending application; false when it was no longer pending (someone decided first). */
export async function decideApplication(db: Db, id: number, v: Updateable<PartnerApplicationsTable>) {
  const res = await db.updateTable('partnerApplications').set(v).where('id', '=', id).where('status', '=', 0).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** The applicant joins the organisation and gets the organiser role (kept once if already held). */
export async function makeOrganiser(db: Db, userId: number, orgId: number | null, roleCode: string, now: string) {
  await db.updateTable('users').set({ orgId, updatedAt: now }).where('id', '=', userId).execute();
  const role = await db.selectFrom('roles').select('id').where('code', '=', roleCode).executeTakeFirstOrThrow();
  await db
    .insertInto('userRoles')
    .values({ userId, roleId: role.id })
    .onConflict((oc) => oc.columns(['userId', 'roleId']).doNothing())
    .execute();
}

export const countOrganisations = async (db: Db) =>
  Number(
    (
      await db
        .selectFrom('organisations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Every organisation's id and name, by name (the user form's choices). */
export const organisationOptions = (db: Db) => db.selectFrom('organisations').select(['id', 'name']).orderBy('name').execute();
