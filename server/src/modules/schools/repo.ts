import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { containsText } from '../../db/like.ts';
import type { SchoolsTable } from '../../db/schema.ts';

/** Every query of the schools' list. */

const withUsers = (db: Db) =>
  db
    .selectFrom('schools as s')
    .select(['s.id', 's.name', 's.code', 's.province', 's.department', 's.kind', 's.initials'])
    .select((eb) => eb.selectFrom('users as u').whereRef('u.schoolId', '=', 's.id').select(eb.fn.countAll<number>().as('n')).as('users'));

/** A page of the list, by name, initials or code, and by province and kind. */
export async function schoolPage(db: Db, q: { keyword?: string; province?: string; kind?: string; limit: number; offset: number }) {
  let query = withUsers(db);
  if (q.keyword) {
    const k = q.keyword;
    query = query.where((eb) => eb.or([containsText('s.name', k), containsText('s.initials', k.toLowerCase()), eb('s.code', '=', k)]));
  }
  if (q.province) query = query.where('s.province', '=', q.province);
  if (q.kind) query = query.where('s.kind', '=', q.kind);
  const { total } = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await query.orderBy('s.id').limit(q.limit).offset(q.offset).execute();
  return { rows, total: Number(total) };
}

/** Up to `limit` schools for a picker: names starting with the words first, then containing them, then by initials. */
export async function schoolOptions(db: Db, keyword: string, limit: number) {
  const k = keyword.trim();
  let query = db.selectFrom('schools').select(['id', 'name', 'province', 'kind']);
  if (k)
    query = query.where((eb) => eb.or([containsText('name', k), eb('initials', 'like', `${k.toLowerCase().replace(/[%_\\]/g, '')}%`), eb('code', '=', k)]));
  return query.orderBy('id').limit(limit).execute();
}

export const findSchool = (db: Db, id: number) => withUsers(db).where('s.id', '=', id).executeTakeFirst();

export const schoolByKey = (db: Db, nameKey: string) => db.selectFrom('schools').selectAll().where('nameKey', '=', nameKey).executeTakeFirst();
export const schoolByCode = (db: Db, code: string) => db.selectFrom('schools').selectAll().where('code', '=', code).executeTakeFirst();

export async function insertSchool(db: Db, v: Insertable<SchoolsTable>) {
  return (await db.insertInto('schools').values(v).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateSchool(db: Db, id: number, v: Updateable<SchoolsTable>) {
  await db.updateTable('schools').set(v).where('id', '=', id).execute();
}

export async function deleteSchool(db: Db, id: number) {
  await db.deleteFrom('schools').where('id', '=', id).execute();
}

/** Every school's id by its normalised name (linking free-text schools after an import). */
export const schoolKeys = (db: Db) => db.selectFrom('schools').select(['id', 'nameKey', 'name']).execute();

/** Profiles with a free-text school not yet linked to a record, after `after` by id: a batch of the linking's read. */
export const unlinkedProfiles = (db: Db, after: number | undefined, limit: number) => {
  let query = db.selectFrom('users').select(['id', 'organization']).where('schoolId', 'is', null).where('organization', 'is not', null);
  if (after !== undefined) query = query.where('id', '>', after);
  return query.orderBy('id').limit(limit).execute();
};

/** Links these profiles to the school; answers how many. */
export async function linkProfiles(db: Db, userIds: number[], schoolId: number) {
  const res = await db.updateTable('users').set({ schoolId }).where('id', 'in', userIds).where('schoolId', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** The profiles that chose a renamed school show its new name. */
export async function renameInProfiles(db: Db, schoolId: number, name: string) {
  await db.updateTable('users').set({ organization: name }).where('schoolId', '=', schoolId).execute();
}
