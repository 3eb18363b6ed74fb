import { type Kysely, sql } from 'kysely';
import { idColumn, type MigrationContext } from './helpers.ts';

/**
 * 实名认证 (issue 35). `real_name_checks` holds every attempt an account made to prove who it is: a mainland ID card
 * checked at once by the provider (`auto`), or a passport or 港澳台 document reviewed by the platform (`manual`). The
 * document number is sealed like other secrets and shown masked; `number_key` is a keyed hash (SECRET_KEY) of the
 * number normalised, held only while an attempt is being checked, waits for review or stands verified, and unique:
 * the same person's number cannot prove a second account, whatever the timing, and an account holds one at a time. `users.verified_name` is the name an
 * account proved (certificates print it). A menu of a competition may require it (`competition_presets.real_name`):
 * 报名 to register or join, 赛题与数据 to download the data, 提交作品 / 提交测试 to submit. `idcheck_simulator_people`
 * is the development simulator's register of people (never used in production, where the simulator is refused).
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('users').addColumn('verified_name', 'varchar(50)').execute();
  await db.schema
    .alterTable('competition_presets')
    .addColumn('real_name', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('real_name_checks')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('doc_type', 'varchar(20)', (c) => c.notNull())
    .addColumn('name', 'varchar(50)', (c) => c.notNull())
    .addColumn('number_enc', 'text', (c) => c.notNull())
    .addColumn('number_mask', 'varchar(30)', (c) => c.notNull())
    .addColumn('number_key', 'varchar(64)', (c) => c.unique())
    .addColumn('method', 'varchar(10)', (c) => c.notNull())
    .addColumn('state', 'varchar(12)', (c) => c.notNull())
    .addColumn('reason', 'varchar(500)')
    .addColumn('file_key', 'varchar(200)')
    .addColumn('provider_ref', 'varchar(100)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('decided_at', 'varchar(30)')
    .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('real_name_checks_user').on('real_name_checks').columns(['user_id', 'id']).execute();
  // One attempt of an account at a time holds a document (checking, waiting for review, or verified): an account sending
  // two numbers at once cannot end verified twice.
  await db.schema
    .createIndex('real_name_checks_one_open')
    .on('real_name_checks')
    .column('user_id')
    .unique()
    .where(sql.ref('number_key'), 'is not', null)
    .execute();
  await db.schema.createIndex('real_name_checks_state').on('real_name_checks').columns(['state', 'id']).execute();
  await db.schema
    .createTable('idcheck_simulator_people')
    .addColumn('number', 'varchar(30)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(50)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
}
