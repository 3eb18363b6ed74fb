import type { Kysely } from 'kysely';
import { idColumn, type MigrationContext } from './helpers.ts';

/**
 * Text messages (issue 35). `users.verified_phone` holds the number an account proved by a code, unique, so the same
 * phone cannot verify two accounts whatever the timing. `phone_codes` are the 6-digit codes sent by SMS: only their
 * keyed hash is kept, with what they are for, the account that asked (verifying a phone while signed in), how many
 * tries were spent (five at most), when they expire and when they were used. `sms_settings` is the platform's one SMS
 * provider (its secret sealed like the payment keys). `sms_simulator_messages` are what the development simulator
 * "sent", for its page (never used in production, where the simulator is refused).
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('users').addColumn('verified_phone', 'varchar(20)').execute();
  await db.schema.createIndex('users_verified_phone').on('users').column('verified_phone').unique().execute();
  await db.schema
    .createTable('phone_codes')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('phone', 'varchar(20)', (c) => c.notNull())
    .addColumn('purpose', 'varchar(20)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(30)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('phone_codes_phone').on('phone_codes').columns(['phone', 'purpose', 'id']).execute();
  await db.schema
    .createTable('sms_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('provider', 'varchar(20)', (c) => c.notNull())
    .addColumn('enable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('settings_json', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sms_simulator_messages')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('provider', 'varchar(20)', (c) => c.notNull())
    .addColumn('phone', 'varchar(20)', (c) => c.notNull())
    .addColumn('sign_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('template', 'varchar(100)', (c) => c.notNull())
    .addColumn('params_json', 'text', (c) => c.notNull())
    .addColumn('provider_message_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
}
