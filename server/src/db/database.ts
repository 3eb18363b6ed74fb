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
  type DatabaseConnection,
  type Dialect,
} from 'kysely';
import pg from 'pg';
import type { DB } from './schema.ts';

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

function sqliteDialect(file: string): Dialect {
  const config = {
    database: async () => {
      const sqlite = new Database(file);
      sqlite.pragma('journal_mode = WAL');
      sqlite.pragma('synchronous = FULL');
      sqlite.pragma('foreign_keys = ON');
      sqlite.pragma('busy_timeout = 5000');
      return sqlite;
    },
  };
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new ImmediateSqliteDriver(config),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}

export function openDatabase(options: { databaseUrl?: string; dataDir: string; sqliteFile?: string }): Database_ {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] });
    return { db, dialect: 'postgres', destroy: () => db.destroy() };
  }
  const file = options.sqliteFile ?? path.join(options.dataDir, 'contest.sqlite');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Kysely<DB>({ dialect: sqliteDialect(file), plugins: [new CamelCasePlugin()] });
  return { db, dialect: 'sqlite', destroy: () => db.destroy() };
}
