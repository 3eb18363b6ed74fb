import { sql, type Kysely } from 'kysely';
import { idColumn, type MigrationContext } from './helpers.ts';

export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('organisations').addColumn('contact_name', 'varchar(50)').execute();
  await db.schema.alterTable('organisations').addColumn('contact_phone', 'varchar(30)').execute();
  await db.schema.alterTable('organisations').addColumn('contact_email', 'varchar(254)').execute();

  await db.schema
    .createTable('partner_applications')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('org_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('contact_name', 'varchar(50)', (c) => c.notNull())
    .addColumn('contact_phone', 'varchar(30)', (c) => c.notNull())
    .addColumn('contact_email', 'varchar(254)')
    .addColumn('description', 'varchar(1000)')
    .addColumn('applicant_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reason', 'varchar(500)')
    .addColumn('org_id', 'integer', (c) => c.references('organisations.id').onDelete('set null'))
    .addColumn('reviewed_by', 'integer')
    .addColumn('reviewed_at', 'varchar(30)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  // One pending application per applicant, enforced by the database.
  await db.schema
    .createIndex('partner_applications_one_pending')
    .on('partner_applications')
    .column('applicant_id')
    .unique()
    .where(sql<boolean>`status = 0`)
    .execute();

  await db.schema
    .createTable('competition_types')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('name', 'varchar(50)', (c) => c.notNull().unique())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('brands')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('name', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('short_name', 'varchar(20)', (c) => c.notNull())
    .addColumn('logo', 'varchar(200)')
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('recommend', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('description', 'varchar(500)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('brand_navs')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('brand_id', 'integer', (c) => c.notNull().unique().references('brands.id').onDelete('cascade'))
    .addColumn('nav_list', 'text', (c) => c.notNull())
    .addColumn('sublinks_list', 'text', (c) => c.notNull())
    .addColumn('frendlinks_list', 'text', (c) => c.notNull())
    .addColumn('top_logo_path', 'varchar(200)')
    .addColumn('bottom_logo_path', 'varchar(200)')
    .addColumn('rcode_path', 'varchar(200)')
    .addColumn('copyright', 'varchar(200)')
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('competitions')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('brand_id', 'integer', (c) => c.notNull().references('brands.id'))
    .addColumn('type_id', 'integer', (c) => c.references('competition_types.id'))
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('cover', 'varchar(200)')
    .addColumn('summary', 'varchar(500)')
    .addColumn('introduce', 'text')
    .addColumn('information', 'text')
    .addColumn('guide', 'text')
    .addColumn('training_url', 'varchar(500)')
    .addColumn('reg_start_time', 'varchar(30)', (c) => c.notNull())
    .addColumn('reg_end_time', 'varchar(30)', (c) => c.notNull())
    .addColumn('end_time', 'varchar(30)', (c) => c.notNull())
    .addColumn('allow_individual', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('min_members', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('max_members', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('max_teachers', 'integer', (c) => c.notNull().defaultTo(2))
    .addColumn('fee', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('audit_status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('audit_reply', 'varchar(500)')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('competitions_public').on('competitions').columns(['audit_status', 'brand_id', 'reg_start_time']).execute();
  await db.schema.createIndex('competitions_org').on('competitions').columns(['org_id', 'audit_status']).execute();
  await db.schema.createIndex('competitions_type').on('competitions').column('type_id').execute();

  await db.schema
    .createTable('competition_stages')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('competition_id', 'integer', (c) => c.notNull().references('competitions.id').onDelete('cascade'))
    .addColumn('name', 'varchar(50)', (c) => c.notNull())
    .addColumn('start_date', 'varchar(30)', (c) => c.notNull())
    .addColumn('end_date', 'varchar(30)')
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('competition_stages_competition').on('competition_stages').column('competition_id').execute();

  await db.schema
    .createTable('competition_presets')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('competition_id', 'integer', (c) => c.notNull().references('competitions.id').onDelete('cascade'))
    .addColumn('menu_code', 'varchar(30)', (c) => c.notNull())
    .addColumn('name', 'varchar(20)', (c) => c.notNull())
    .addColumn('enable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enable_start_time', 'varchar(30)')
    .addColumn('enable_end_time', 'varchar(30)')
    .addColumn('field_list', 'text', (c) => c.notNull())
    .addUniqueConstraint('competition_presets_code', ['competition_id', 'menu_code'])
    .execute();

  await db.schema
    .createTable('questions')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('competition_id', 'integer', (c) => c.notNull().references('competitions.id').onDelete('cascade'))
    .addColumn('title', 'varchar(200)', (c) => c.notNull())
    .addColumn('content', 'text')
    .addColumn('reviewed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('questions_competition').on('questions').column('competition_id').execute();

  await db.schema
    .createTable('question_files')
    .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('file_key', 'varchar(200)', (c) => c.notNull().references('files.key'))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('question_files_pk', ['question_id', 'file_key'])
    .execute();
}
