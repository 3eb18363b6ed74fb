import type { Db } from '../../db/database.ts';

/** Every query of payment settings and received gateway notifications. */

export const findConfig = (db: Db, method: number) => db.selectFrom('paymentConfigs').selectAll().where('method', '=', method).executeTakeFirst();

export const enabledConfigs = (db: Db) => db.selectFrom('paymentConfigs').selectAll().where('enable', '=', 1).orderBy('method').execute();

export async function saveConfig(db: Db, method: number, values: { enable: number; settingsJson: string; updatedAt: string }) {
  await db
    .insertInto('paymentConfigs')
    .values({ method, ...values })
    .onConflict((oc) => oc.column('method').doUpdateSet(values))
    .execute();
}

export async function insertNotification(
  db: Db,
  v: { channel: number; orderNo: string | null; tradeNo: string | null; amount: number | null; outcome: string; body: string; ip: string; createdAt: string },
) {
  await db.insertInto('paymentNotifications').values(v).execute();
}
