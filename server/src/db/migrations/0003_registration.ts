import { sql, type Kysely } from 'kysely';
import { idColumn, type MigrationContext } from './helpers.ts';

/** Teams, registrations with their review flow, orders and payments. */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('teams')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('competition_id', 'integer', (c) => c.notNull().references('competitions.id').onDelete('cascade'))
    .addColumn('team_no', 'varchar(30)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('individual', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('leader_id', 'integer', (c) => c.notNull().references('users.id'))
    // Seats are taken by a conditional UPDATE of this counter, so concurrent joins cannot overfill a team.
    .addColumn('member_count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('join_code', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addUniqueConstraint('teams_competition_name', ['competition_id', 'name'])
    .execute();

  await db.schema
    .createTable('team_members')
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('competition_id', 'integer', (c) => c.notNull().references('competitions.id').onDelete('cascade'))
    .addColumn('leader', 'integer', (c) => c.notNull().defaultTo(0))
    // The member's registration form without the ID number, which is kept encrypted beside its mask.
    .addColumn('info_json', 'text', (c) => c.notNull())
    .addColumn('id_card_enc', 'text')
    .addColumn('id_card_mask', 'varchar(30)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  // A user is in at most one team per competition, which also makes one registration per user per competition.
  await db.schema.createIndex('team_members_one_team').on('team_members').columns(['competition_id', 'user_id']).unique().execute();
  await db.schema.createIndex('team_members_user').on('team_members').column('user_id').execute();

  await db.schema
    .createTable('team_teachers')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('name', 'varchar(50)', (c) => c.notNull())
    .addColumn('phone', 'varchar(30)')
    .addColumn('organization', 'varchar(100)')
    .addColumn('title', 'varchar(50)')
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('team_teachers_team').on('team_teachers').column('team_id').execute();

  await db.schema
    .createTable('team_invitations')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('competition_id', 'integer', (c) => c.notNull().references('competitions.id').onDelete('cascade'))
    .addColumn('inviter_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('invitee_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('decided_at', 'varchar(30)')
    .execute();
  await db.schema
    .createIndex('team_invitations_one_pending')
    .on('team_invitations')
    .columns(['team_id', 'invitee_id'])
    .unique()
    .where(sql.ref('status'), '=', 0)
    .execute();
  await db.schema.createIndex('team_invitations_invitee').on('team_invitations').columns(['invitee_id', 'status']).execute();

  await db.schema
    .createTable('registers')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('competition_id', 'integer', (c) => c.notNull().references('competitions.id').onDelete('cascade'))
    .addColumn('team_id', 'integer', (c) => c.notNull().unique().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reason', 'varchar(500)')
    .addColumn('order_id', 'integer')
    .addColumn('attachments_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('registers_competition').on('registers').columns(['competition_id', 'status']).execute();

  await db.schema
    .createTable('register_flows')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('register_id', 'integer', (c) => c.notNull().references('registers.id').onDelete('cascade'))
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('action', 'varchar(20)', (c) => c.notNull())
    .addColumn('from_status', 'integer')
    .addColumn('to_status', 'integer', (c) => c.notNull())
    .addColumn('reason', 'varchar(500)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('register_flows_register').on('register_flows').column('register_id').execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('order_no', 'varchar(40)', (c) => c.notNull().unique())
    .addColumn('competition_id', 'integer', (c) => c.notNull().references('competitions.id'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('pay_status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pay_method', 'integer')
    .addColumn('trade_no', 'varchar(100)')
    .addColumn('payer_org', 'varchar(200)')
    .addColumn('voucher', 'varchar(200)')
    .addColumn('paid_at', 'varchar(30)')
    .addColumn('closed_at', 'varchar(30)')
    .addColumn('refunded_at', 'varchar(30)')
    .addColumn('refund_reason', 'varchar(500)')
    .addColumn('refund_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  // One open (unpaid) order per team, and never two paid ones.
  await db.schema.createIndex('orders_one_open').on('orders').column('team_id').unique().where(sql.ref('pay_status'), '=', 0).execute();
  await db.schema.createIndex('orders_one_paid').on('orders').column('team_id').unique().where(sql.ref('pay_status'), '=', 1).execute();
  await db.schema.createIndex('orders_competition').on('orders').columns(['competition_id', 'pay_status']).execute();
  await db.schema.createIndex('orders_user').on('orders').column('user_id').execute();

  await db.schema
    .createTable('payment_configs')
    .addColumn('method', 'integer', (c) => c.primaryKey())
    .addColumn('enable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('settings_json', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  // Every notification a gateway sends, kept whatever its outcome: forged, mismatched and late ones are evidence.
  await db.schema
    .createTable('payment_notifications')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('channel', 'integer', (c) => c.notNull())
    .addColumn('order_no', 'varchar(40)')
    .addColumn('trade_no', 'varchar(100)')
    .addColumn('amount', 'integer')
    .addColumn('outcome', 'varchar(30)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payment_notifications_order').on('payment_notifications').column('order_no').execute();
}
