import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * 微信扫码登录 (issue 35): the WeChat identity bound to an account, by its unionid (the same person across the open
 * platform's applications), unique both ways: one WeChat signs in to one account, an account has one WeChat.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('user_wechat')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('unionid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('openid', 'varchar(64)', (c) => c.notNull())
    .addColumn('nickname', 'varchar(100)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
}
