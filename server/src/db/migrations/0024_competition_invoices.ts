import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * Invoices are opened per competition (issue 33): the organiser turns them on beside the fee, and the platform's
 * 发票配置 says who issues them, which types and when. Competitions that existed keep what the platform's switch said
 * for all of them.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('competitions')
    .addColumn('invoice_enable', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update competitions set invoice_enable = coalesce((select enable from invoice_config where id = 1), 0)`.execute(db);
}
