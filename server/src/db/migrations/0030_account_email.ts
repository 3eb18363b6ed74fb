import type { Kysely } from 'kysely';
import { idColumn, type MigrationContext } from './helpers.ts';

/**
 * Verified email and the links that prove it (issue 35): `users.verified_email` holds the address an account proved,
 * lower-cased, and is unique, so the same address cannot verify two accounts (the database refuses the second, whatever
 * the timing). `account_tokens` are the single-use links sent by email (verifying the address, resetting a password):
 * only the SHA-256 of a token is kept, with its purpose, the address it was sent to, when it expires and when it was used.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('users').addColumn('verified_email', 'varchar(255)').execute();
  await db.schema.createIndex('users_verified_email').on('users').column('verified_email').unique().execute();
  await db.schema
    .createTable('account_tokens')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(20)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('email', 'varchar(255)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(30)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('account_tokens_user').on('account_tokens').columns(['user_id', 'purpose']).execute();
}
