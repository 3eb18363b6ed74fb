import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Database_ } from '../../src/db/database.ts';

/**
 * The whole state a request could change: every table's rows (sorted, hashed) and every file under the data
 * directory (path, size and content hash). Two equal snapshots mean nothing was written in between.
 */
export interface Snapshot {
  tables: Record<string, { rows: number; hash: string }>;
  files: Record<string, string>;
}

async function tableNames(database: Database_): Promise<string[]> {
  if (database.dialect === 'sqlite') {
    const r = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(database.db);
    return r.rows.map((x) => x.name);
  }
  const r = await sql<{
    tableName: string;
  }>`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(
    database.db,
  );
  return r.rows.map((x) => x.tableName);
}

const stable = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x) && !(x instanceof Date) && !Buffer.isBuffer(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)))
      : typeof x === 'bigint'
        ? String(x)
        : x,
  );

const tablesOf = new WeakMap<Database_, string[]>();

export async function snapshotDb(database: Database_): Promise<Snapshot['tables']> {
  let names = tablesOf.get(database);
  if (!names) tablesOf.set(database, (names = await tableNames(database)));
  const out: Snapshot['tables'] = {};
  if (database.dialect === 'postgres') {
    // One round trip: the server hashes each table's rows, sorted by their text form.
    const parts = names.map(
      (name) =>
        sql`select ${name}::text as name, count(*)::int as rows, md5(coalesce(string_agg(t::text, E'\n' order by t::text), '')) as hash from ${sql.table(name)} t`,
    );
    const r = await sql<{ name: string; rows: number; hash: string }>`${sql.join(parts, sql` union all `)}`.execute(database.db);
    for (const row of r.rows) out[row.name] = { rows: row.rows, hash: row.hash };
    return out;
  }
  for (const name of names) {
    const r = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(database.db);
    const rows = r.rows.map(stable).sort();
    out[name] = { rows: rows.length, hash: createHash('sha256').update(rows.join('\n')).digest('hex') };
  }
  return out;
}

const fileHashes = new Map<string, { key: string; hash: string }>();

export function snapshotFiles(root: string): Snapshot['files'] {
  const out: Snapshot['files'] = {};
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      const rel = path.relative(root, full);
      if (e.isDirectory()) {
        out[rel + '/'] = 'dir';
        walk(full);
        continue;
      }
      // The database itself is compared by its rows; its files change with every read-write cycle of WAL.
      if (/^contest\.sqlite(-wal|-shm|-journal)?$/.test(e.name)) continue;
      const st = fs.statSync(full);
      const key = `${st.size}:${st.mtimeMs}`;
      let cached = fileHashes.get(full);
      if (!cached || cached.key !== key) {
        cached = { key, hash: createHash('sha256').update(fs.readFileSync(full)).digest('hex') };
        fileHashes.set(full, cached);
      }
      out[rel] = `${st.size}:${cached.hash}`;
    }
  };
  if (fs.existsSync(root)) walk(root);
  return out;
}

const COUNTER = 'hostile_write_counter';

/**
 * Installs the PostgreSQL write counter: a statement trigger on every table bumps one row, inside the writer's
 * own transaction (so a rolled-back write leaves it as it was). SQLite needs none: its count of changed rows on
 * the app's one connection serves.
 */
export async function installWriteCounter(database: Database_) {
  if (database.dialect !== 'postgres') return;
  const names = await tableNames(database);
  await sql`create table ${sql.table(COUNTER)} (n bigint not null)`.execute(database.db);
  await sql`insert into ${sql.table(COUNTER)} values (0)`.execute(database.db);
  await sql
    .raw(`create function hostile_count_write() returns trigger language plpgsql as $$ begin update ${COUNTER} set n = n + 1; return null; end $$`)
    .execute(database.db);
  for (const name of names) {
    await sql
      .raw(
        `create trigger hostile_count_write after insert or update or delete or truncate on "${name}" for each statement execute function hostile_count_write()`,
      )
      .execute(database.db);
  }
  tablesOf.set(database, names);
}

/** A cheap marker that moves whenever anything is written (it may move when nothing changed, never the reverse). */
export async function writeMarker(database: Database_): Promise<string> {
  if (database.dialect === 'sqlite') {
    const r = await sql<{ n: number }>`select total_changes() as n`.execute(database.db);
    return String(r.rows[0]!.n);
  }
  const r = await sql<{ n: string }>`select n::text as n from ${sql.table(COUNTER)}`.execute(database.db);
  return r.rows[0]!.n;
}

export async function snapshot(database: Database_, dataDir: string): Promise<Snapshot> {
  return { tables: await snapshotDb(database), files: snapshotFiles(dataDir) };
}

/** What differs between two snapshots, as short lines for a failure message. */
export function diffSnapshots(a: Snapshot, b: Snapshot): string[] {
  const out: string[] = [];
  for (const name of new Set([...Object.keys(a.tables), ...Object.keys(b.tables)])) {
    const x = a.tables[name];
    const y = b.tables[name];
    if (x?.hash !== y?.hash) out.push(`table ${name}: ${x?.rows ?? '-'} -> ${y?.rows ?? '-'} rows${x?.rows === y?.rows ? ' (rows changed)' : ''}`);
  }
  for (const f of new Set([...Object.keys(a.files), ...Object.keys(b.files)])) {
    if (a.files[f] !== b.files[f]) out.push(`file ${f}: ${a.files[f] ?? 'absent'} -> ${b.files[f] ?? 'absent'}`);
  }
  return out;
}
