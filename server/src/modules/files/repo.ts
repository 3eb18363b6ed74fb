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

/**
 * Whether a record still holds the stored file: copied editions (复制为新一届) share answer files, scoring programs,
 * data files, exclusions, covers and certificate backgrounds by key, so a file goes only with the last record holding it.
 */
export async function isHeld(db: Db, key: string): Promise<boolean> {
  const row = await db
    .selectNoFrom(({ exists, selectFrom, or }) =>
      or([
        exists(
          selectFrom('questions')
            .select('id')
            .where((eb) => eb.or([eb('answerKey', '=', key), eb('answerIndexKey', '=', key), eb('scorerKey', '=', key)])),
        ),
        exists(selectFrom('questionFiles').select('questionId').where('fileKey', '=', key)),
        exists(selectFrom('similarityExclusions').select('id').where('fileKey', '=', key)),
        exists(selectFrom('certificateTemplates').select('id').where('backgroundKey', '=', key)),
        exists(selectFrom('competitions').select('id').where('cover', '=', key)),
      ]).as('held'),
    )
    .executeTakeFirstOrThrow();
  return Boolean(row.held);
}

export const deleteFileRecord = (db: Db, key: string) => db.deleteFrom('files').where('key', '=', key).execute();
