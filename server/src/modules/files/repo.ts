import type { Db } from '../../db/database.ts';
import type { FilesTable } from '../../db/schema.ts';

export async function insertFile(db: Db, file: Omit<FilesTable, 'id'>) {
  await db.insertInto('files').values(file).execute();
}

export async function findFile(db: Db, key: string) {
  return db.selectFrom('files').selectAll().where('key', '=', key).executeTakeFirst();
}

/** Who uploaded a file and what for (an image reference must name the caller's own image). */
export const fileOwner = (db: Db, key: string) => db.selectFrom('files').select(['ownerId', 'purpose']).where('key', '=', key).executeTakeFirst();
