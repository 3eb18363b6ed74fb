import type { Kysely } from 'kysely';
import { idColumn, type MigrationContext } from './helpers.ts';

export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('organisations')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('name', 'varchar(200)', (c) => c.notNull().unique())
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('username_key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'varchar(200)')
    .addColumn('phone', 'varchar(20)')
    .addColumn('email', 'varchar(254)')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('org_id', 'integer', (c) => c.references('organisations.id').onDelete('set null'))
    .addColumn('face_img', 'varchar(500)')
    .addColumn('area', 'varchar(50)')
    .addColumn('user_name', 'varchar(50)')
    .addColumn('birthday', 'varchar(10)')
    .addColumn('sex', 'integer')
    .addColumn('education', 'varchar(50)')
    .addColumn('admission_date', 'varchar(10)')
    .addColumn('at_school', 'integer')
    .addColumn('organization', 'varchar(100)')
    .addColumn('department', 'varchar(100)')
    .addColumn('speciality', 'varchar(100)')
    .addColumn('grade', 'varchar(50)')
    .addColumn('student_id_card', 'varchar(50)')
    .addColumn('province', 'varchar(50)')
    .addColumn('city', 'varchar(50)')
    .addColumn('address', 'varchar(200)')
    .addColumn('company', 'varchar(100)')
    .addColumn('position', 'varchar(100)')
    .addColumn('oidc_issuer', 'varchar(300)')
    .addColumn('oidc_subject', 'varchar(300)')
    .addColumn('last_login_at', 'varchar(30)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_oidc').on('users').columns(['oidc_issuer', 'oidc_subject']).unique().execute();
  await db.schema.createIndex('users_org').on('users').column('org_id').execute();

  await db.schema
    .createTable('roles')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('code', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(50)', (c) => c.notNull())
    .addColumn('description', 'varchar(200)')
    .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('role_permissions')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('code', 'varchar(100)', (c) => c.notNull())
    .addPrimaryKeyConstraint('role_permissions_pk', ['role_id', 'code'])
    .execute();

  await db.schema
    .createTable('user_roles')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_id'])
    .execute();
  await db.schema.createIndex('user_roles_role').on('user_roles').column('role_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('csrf_token', 'varchar(64)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(300)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('last_seen_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('oidc_states')
    .addColumn('state', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('nonce', 'varchar(64)', (c) => c.notNull())
    .addColumn('code_verifier', 'varchar(128)', (c) => c.notNull())
    .addColumn('return_to', 'varchar(500)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('actor_id', 'integer')
    .addColumn('action', 'varchar(100)', (c) => c.notNull())
    .addColumn('entity', 'varchar(50)', (c) => c.notNull())
    .addColumn('entity_id', 'varchar(64)')
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .addColumn('ip', 'varchar(64)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_entity').on('audit_log').columns(['entity', 'entity_id']).execute();

  await db.schema
    .createTable('files')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('key', 'varchar(200)', (c) => c.notNull().unique())
    .addColumn('original_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('mime', 'varchar(100)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('visibility', 'varchar(10)', (c) => c.notNull())
    .addColumn('purpose', 'varchar(30)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
}
