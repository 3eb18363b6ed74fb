import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * Notices delivered in batches, with counters (issue 22). Publishing no longer copies every recipient inside the request:
 * the notice keeps how many it is to reach (`recipients`), how many boxes hold it so far (`delivered`), where delivery
 * stands (`delivery_cursor`, the last user id done, under `delivery_ceiling`, the greatest user id when it was published)
 * and when it finished (`delivered_at`); `reads` counts the copies read. The back-office list reads these columns and no
 * recipient row. Existing notices are filled in from their copies: delivered and finished when published.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('notices')
    .addColumn('delivered', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('notices')
    .addColumn('reads', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('notices')
    .addColumn('delivery_cursor', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('notices').addColumn('delivery_ceiling', 'integer').execute();
  await db.schema.alterTable('notices').addColumn('delivered_at', 'varchar(30)').execute();

  await sql`UPDATE notices SET
      delivered = (SELECT count(*) FROM notice_recipients r WHERE r.notice_id = notices.id),
      recipients = (SELECT count(*) FROM notice_recipients r WHERE r.notice_id = notices.id),
      reads = (SELECT count(*) FROM notice_recipients r WHERE r.notice_id = notices.id AND r.read_at IS NOT NULL),
      delivered_at = CASE WHEN status = 2 THEN coalesce(published_at, updated_at) ELSE NULL END`.execute(db);

  // Notices still being delivered, for the back office and the delivery job's checks.
  await db.schema.createIndex('notices_delivering').on('notices').columns(['status', 'delivered_at']).execute();
}
