import type { Db } from '../../db/database.ts';

/** Every query of the SMS provider's settings and of the development simulator's messages. */

const ROW = 1;

export const findSettings = (db: Db) => db.selectFrom('smsSettings').selectAll().where('id', '=', ROW).executeTakeFirst();

export async function saveSettings(db: Db, v: { provider: string; enable: number; settingsJson: string; updatedAt: string }) {
  await db
    .insertInto('smsSettings')
    .values({ id: ROW, ...v })
    .onConflict((oc) => oc.column('id').doUpdateSet(v))
    .execute();
}

export async function insertSimulated(
  db: Db,
  v: { provider: string; phone: string; signName: string; template: string; paramsJson: string; providerMessageId: string; createdAt: string },
) {
  await db.insertInto('smsSimulatorMessages').values(v).execute();
}

/** The simulator's newest messages, newest first. */
export const latestSimulated = (db: Db, limit: number) => db.selectFrom('smsSimulatorMessages').selectAll().orderBy('id', 'desc').limit(limit).execute();
