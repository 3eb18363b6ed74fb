import { sql, type Kysely } from 'kysely';
import { idColumn, type MigrationContext } from './helpers.ts';

/** Invoice titles, invoice applications and the invoice configuration. */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('invoice_titles')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('tax_no', 'varchar(30)')
    .addColumn('bank', 'varchar(100)')
    .addColumn('bank_account', 'varchar(50)')
    .addColumn('address', 'varchar(200)')
    .addColumn('phone', 'varchar(30)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invoice_titles_user').on('invoice_titles').column('user_id').execute();

  await db.schema
    .createTable('invoices')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('competition_id', 'integer', (c) => c.notNull().references('competitions.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('type', 'varchar(10)', (c) => c.notNull())
    // The title as it was when applied for: later edits of the saved title do not change an application.
    .addColumn('title_json', 'text', (c) => c.notNull())
    .addColumn('email', 'varchar(254)')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invoice_no', 'varchar(50)')
    .addColumn('file_key', 'varchar(200)')
    .addColumn('reason', 'varchar(500)')
    .addColumn('issued_at', 'varchar(30)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  // An order is invoiced once: one application pending or issued at a time (a rejected one may be applied for again).
  await db.schema.createIndex('invoices_one_per_order').on('invoices').column('order_id').unique().where(sql.ref('status'), '<>', 2).execute();
  await db.schema.createIndex('invoices_user').on('invoices').column('user_id').execute();
  await db.schema.createIndex('invoices_competition').on('invoices').columns(['competition_id', 'status']).execute();

  await db.schema
    .createTable('invoice_config')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('enable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('issuer_name', 'varchar(200)')
    .addColumn('issuer_tax_no', 'varchar(30)')
    .addColumn('allowed_types', 'varchar(50)', (c) => c.notNull())
    .addColumn('apply_start', 'varchar(30)')
    .addColumn('apply_end', 'varchar(30)')
    .addColumn('notice', 'varchar(1000)')
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
}
