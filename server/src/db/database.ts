import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  CamelCasePlugin,
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Dialect,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';
import pg from 'pg';
import type { DB } from './schema.ts';
import { WriteWatch, watchWrites } from './write-watch.ts';

export type Dialect_ = 'sqlite' | 'postgres';
export type Db = Kysely<DB>;

export interface Database_ {
  db: Db;
  dialect: Dialect_;
  destroy(): Promise<void>;
}

// int8 (count(*), sums) arrives as a string from pg; every such value here fits a JS number.
pg.types.setTypeParser(20, (v) => Number(v));

/** SQLite write transactions take the write lock at BEGIN, so two writers never deadlock mid-transaction. */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** Prepared statements kept per connection, least recently used dropped first. */
const STATEMENT_CACHE_SIZE = 300;

/**
 * Kysely prepares every query afresh; preparing costs about as much as running a small indexed read, so a connection
 * keeps its statements by SQL text. Safe because Kysely runs each statement to completion (`all` or `run`) at once.
 */
function withStatementCache(sqlite: Database.Database) {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(source: string) {
      let statement = statements.get(source);
      if (statement) statements.delete(source);
      else {
        statement = sqlite.prepare(source);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      }
      statements.set(source, statement);
      return statement;
    },
  };
}

function sqliteDialect(file: string): Dialect {
  const config = {
    database: async () => {
      const sqlite = new Database(file);
      sqlite.pragma('journal_mode = WAL');
      sqlite.pragma('synchronous = FULL');
      sqlite.pragma('foreign_keys = ON');
      sqlite.pragma('busy_timeout = 5000');
      // A 32 MB page cache per connection (the default is 2 MB), so lists and counts over a national year's tables keep
      // their indexes' inner pages in memory. No memory map: its pages count in the process's resident memory, and an
      // export reading every registration would push the server past its memory budget with them (the kernel's page
      // cache serves re-reads of the file as well, outside the process).
      sqlite.pragma('cache_size = -32768');
      return withStatementCache(sqlite);
    },
  };
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new ImmediateSqliteDriver(config),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}

/**
 * Kysely's PostgreSQL introspector reads the tables of every schema in the database and looks each schema up again by
 * name; a schema dropped while it runs (another platform's, another test file's, in the same database) fails it with
 * "schema … does not exist", and with it the migrations. Its one user here, the migrator, asks only whether its own
 * tables exist in the schema this connection works in, so that is all this one reads.
 */
class CurrentSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string | null }>`select current_schema() as name`.execute(this.db);
    return rows.flatMap((r) => (r.name ? [{ name: r.name }] : []));
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, n.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'v', 'p')`.execute(this.db);
    return rows.map((r) => ({ name: r.name, schema: r.schema, isView: r.kind === 'v', columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}

/** Every handle counts its writes (see write-watch.ts), for the caches of public reads. */
function watched(db: Db): Db {
  const watch = new WriteWatch();
  const withWatch = db.withPlugin(watch);
  watchWrites(withWatch, watch);
  return withWatch;
}

export function openDatabase(options: { databaseUrl?: string; dataDir: string; sqliteFile?: string; onConnectionError?: (err: Error) => void }): Database_ {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection the server closed (restart, failover, idle timeout) is reported here after the pool has
    // dropped it; the next query opens a fresh one. Without a listener the error would end the process.
    pool.on('error', (err) => options.onConnectionError?.(err));
    // A connection lost while checked out, just after its query failed, emits on the client itself; the failed query
    // has already reported it, and the pool discards the client when it comes back.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = watched(new Kysely<DB>({ dialect: new CurrentSchemaPostgresDialect({ pool }), plugins: [new CamelCasePlugin()] }));
    return { db, dialect: 'postgres', destroy: () => db.destroy() };
  }
  const file = options.sqliteFile ?? path.join(options.dataDir, 'contest.sqlite');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = watched(new Kysely<DB>({ dialect: sqliteDialect(file), plugins: [new CamelCasePlugin()] }));
  return { db, dialect: 'sqlite', destroy: () => db.destroy() };
}
