import { sql, type Kysely } from 'kysely';
import { idColumn, type MigrationContext } from './helpers.ts';

/**
 * 统一缴费 (issue 36 item 2): a school's coordinator pays for many of its teams with one order. `school_orders` holds
 * that order (its number, prefixed S, is what the gateway or the transfer names); each team's own order points at it by
 * `orders.school_order_id` while it is part of it, and is paid with it in one transaction. The school asks for one
 * invoice of the whole amount: `invoices.school_order_id`, with `order_id` then empty (SQLite cannot drop NOT NULL in
 * place, so there the table is rebuilt).
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('school_orders')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('order_no', 'varchar(40)', (c) => c.notNull().unique())
    .addColumn('competition_id', 'integer', (c) => c.notNull().references('competitions.id'))
    .addColumn('school_id', 'integer', (c) => c.notNull().references('schools.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('team_count', 'integer', (c) => c.notNull())
    .addColumn('pay_status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pay_method', 'integer')
    .addColumn('trade_no', 'varchar(100)')
    .addColumn('voucher', 'varchar(200)')
    .addColumn('paid_at', 'varchar(30)')
    .addColumn('closed_at', 'varchar(30)')
    .addColumn('refunded_at', 'varchar(30)')
    .addColumn('refund_reason', 'varchar(500)')
    // Money arrived after the order was closed: to give back (as `orders.refund_flag`).
    .addColumn('refund_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('school_orders_school').on('school_orders').columns(['competition_id', 'school_id']).execute();
  await db.schema
    .alterTable('orders')
    .addColumn('school_order_id', 'integer', (c) => c.references('school_orders.id'))
    .execute();
  await db.schema.createIndex('orders_school_order').on('orders').column('school_order_id').execute();

  if (ctx.dialect === 'postgres') {
    await sql`alter table invoices alter column order_id drop not null`.execute(db);
    await db.schema
      .alterTable('invoices')
      .addColumn('school_order_id', 'integer', (c) => c.references('school_orders.id'))
      .execute();
  } else {
    await db.schema
      .createTable('invoices_new')
      .addColumn('id', 'integer', (c) => idColumn(c, ctx))
      .addColumn('order_id', 'integer', (c) => c.references('orders.id'))
      .addColumn('competition_id', 'integer', (c) => c.notNull().references('competitions.id'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('amount', 'integer', (c) => c.notNull())
      .addColumn('type', 'varchar(10)', (c) => c.notNull())
      .addColumn('title_json', 'text', (c) => c.notNull())
      .addColumn('email', 'varchar(254)')
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('invoice_no', 'varchar(50)')
      .addColumn('file_key', 'varchar(200)')
      .addColumn('reason', 'varchar(500)')
      .addColumn('issued_at', 'varchar(30)')
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('school_order_id', 'integer', (c) => c.references('school_orders.id'))
      .execute();
    await sql`
      insert into invoices_new (id, order_id, competition_id, user_id, amount, type, title_json, email, status, invoice_no, file_key, reason, issued_at, created_at, updated_at)
      select id, order_id, competition_id, user_id, amount, type, title_json, email, status, invoice_no, file_key, reason, issued_at, created_at, updated_at from invoices`.execute(
      db,
    );
    await db.schema.dropTable('invoices').execute();
    await db.schema.alterTable('invoices_new').renameTo('invoices').execute();
    await db.schema.createIndex('invoices_one_per_order').on('invoices').column('order_id').unique().where(sql.ref('status'), '<>', 2).execute();
    await db.schema.createIndex('invoices_user').on('invoices').column('user_id').execute();
    await db.schema.createIndex('invoices_competition').on('invoices').columns(['competition_id', 'status']).execute();
  }
  // A school order is invoiced once, as a team's order is.
  await db.schema.createIndex('invoices_one_per_school_order').on('invoices').column('school_order_id').unique().where(sql.ref('status'), '<>', 2).execute();
}
