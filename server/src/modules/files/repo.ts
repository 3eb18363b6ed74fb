import type { Db } from '../../db/database.ts';
import type { FilesTable } from '../../db/schema.ts';

export async function insertFile(db: Db, file: Omit<FilesTable, 'id'>) {
  await db.insertInto('files').values(file).execute();
}

export async function findFile(db: Db, key: string) {
  return db.selectFrom('files').selectAll().where('key', '=', key).executeTakeFirst();
}
