import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * Keyword search and deep pages of the back-office lists (users, registrations) served by indexes:
 * - SQLite: FTS5 trigram tables over the searched columns (external content, kept in step by triggers); a keyword of
 *   three or more characters narrows to the rows the table matches, and the same LIKE as before then decides.
 * - PostgreSQL: pg_trgm GIN indexes on the very expressions the LIKEs read, so the unchanged query uses them.
 * - Both: indexes that serve each list's order (newest first) under its usual filters.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  if (ctx.dialect === 'sqlite') await sqliteSearch(db);
  else await postgresSearch(db);

  // Registrations newest first, of one competition or in one review state, and the registrant's own (keyword search
  // by username goes from the user to the registration).
  await db.schema.createIndex('registers_competition_order').on('registers').columns(['competition_id', 'id']).execute();
  await db.schema.createIndex('registers_status_order').on('registers').columns(['status', 'id']).execute();
  await db.schema.createIndex('registers_user').on('registers').column('user_id').execute();
  // Users newest first in one state or organisation (SQLite's `users_org` already ends in the rowid).
  await db.schema.createIndex('users_status_order').on('users').columns(['status', 'id']).execute();
  if (ctx.dialect === 'postgres') await db.schema.createIndex('users_org_order').on('users').columns(['org_id', 'id']).execute();
}

/** Each FTS table mirrors `columns` of `table` by its integer id; the triggers are the only writers. */
async function ftsTable(db: Kysely<unknown>, table: string, columns: string[]) {
  const fts = `${table}_fts`;
  const cols = columns.join(', ');
  const values = (prefix: string) => columns.map((c) => `${prefix}.${c}`).join(', ');
  const watched = columns.join(', ');
  await sql.raw(`create virtual table ${fts} using fts5(${cols}, content='${table}', content_rowid='id', tokenize='trigram')`).execute(db);
  await sql
    .raw(`create trigger ${fts}_insert after insert on ${table} begin
    insert into ${fts}(rowid, ${cols}) values (new.id, ${values('new')});
  end`)
    .execute(db);
  await sql
    .raw(`create trigger ${fts}_delete after delete on ${table} begin
    insert into ${fts}(${fts}, rowid, ${cols}) values ('delete', old.id, ${values('old')});
  end`)
    .execute(db);
  await sql
    .raw(`create trigger ${fts}_update after update of ${watched} on ${table} begin
    insert into ${fts}(${fts}, rowid, ${cols}) values ('delete', old.id, ${values('old')});
    insert into ${fts}(rowid, ${cols}) values (new.id, ${values('new')});
  end`)
    .execute(db);
  await sql.raw(`insert into ${fts}(${fts}) values ('rebuild')`).execute(db);
}

async function sqliteSearch(db: Kysely<unknown>) {
  await ftsTable(db, 'users', ['username', 'username_key', 'user_name', 'phone', 'email']);
  await ftsTable(db, 'teams', ['team_no', 'name']);
}

/**
 * pg_trgm lives in one schema per database (`public` when it has to be created), never in the schema these tables
 * are in: dropping that schema would take every other schema's trigram indexes with it. When the extension cannot be
 * had, the searches run as before, without these indexes.
 */
async function postgresSearch(db: Kysely<unknown>) {
  const schema = await trigramSchema(db);
  if (!schema) {
    console.warn('pg_trgm is not available: keyword searches run without trigram indexes');
    return;
  }
  const ops = `${quoteIdent(schema)}.gin_trgm_ops`;
  const indexes: [string, string, string][] = [
    ['users_search_username', 'users', 'lower(username)'],
    ['users_search_key', 'users', 'username_key'],
    ['users_search_name', 'users', "lower(coalesce(user_name, ''))"],
    ['users_search_phone', 'users', 'phone'],
    ['users_search_email', 'users', "lower(coalesce(email, ''))"],
    ['teams_search_no', 'teams', 'lower(team_no)'],
    ['teams_search_name', 'teams', 'lower(name)'],
  ];
  for (const [name, table, expression] of indexes) {
    await sql.raw(`create index ${name} on ${table} using gin ((${expression}) ${ops})`).execute(db);
  }
}

async function trigramSchema(db: Kysely<unknown>): Promise<string | undefined> {
  const installed = async () =>
    (
      await sql<{
        schema: string;
      }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.schema;
  const found = await installed();
  if (found) return found;
  // Inside the migration's transaction: a refusal (no privilege, not installed, another migration creating it at the
  // same moment) rolls back to the savepoint only.
  for (const statement of ['create extension if not exists pg_trgm schema public', 'create extension if not exists pg_trgm']) {
    await sql`savepoint pg_trgm`.execute(db);
    try {
      await sql.raw(statement).execute(db);
      await sql`release savepoint pg_trgm`.execute(db);
      return await installed();
    } catch {
      await sql`rollback to savepoint pg_trgm`.execute(db);
      const raced = await installed();
      if (raced) return raced;
    }
  }
  return undefined;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
