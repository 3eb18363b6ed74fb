import { sql, SqliteAdapter, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from './database.ts';

/** The connection is SQLite's (the FTS5 tables of migration 0017 exist there only). */
export const isSqlite = (db: Db) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * `idColumn` is among the rows of `table`'s trigram table (SQLite's `<table>_fts`, migration 0017) that contain
 * `keyword` in one of `columns`: a superset of the rows the LIKE on those columns keeps (both fold ASCII case; the
 * trigram table folds more), so callers keep the LIKE beside it and get exactly its rows. Undefined when the keyword
 * is shorter than a trigram, or on PostgreSQL, whose trigram indexes serve the LIKE itself: the LIKE alone decides.
 */
export function trigramFilter(db: Db, idColumn: string, table: 'users' | 'teams', columns: string[], keyword: string): RawBuilder<SqlBool> | undefined {
  const k = keyword.toLowerCase();
  if (!isSqlite(db) || [...k].length < 3) return undefined;
  const query = `{${columns.join(' ')}} : "${k.replace(/"/g, '""')}"`;
  const fts = sql.raw(`${table}_fts`);
  return sql<SqlBool>`${sql.ref(idColumn)} in (select rowid from ${fts} where ${fts} match ${query})`;
}

/**
 * The rows of page `page` (newest first) out of `total`: read from the nearer end, so the last pages cost what the
 * first do. `reverse`: read oldest first at `offset` and reverse the `limit` rows read. Null when the page is empty.
 */
export function pageWindow(total: number, page: number, pageSize: number, max = pageSize) {
  const offset = (page - 1) * pageSize;
  if (offset >= total) return null;
  const limit = Math.min(max, total - offset);
  const fromEnd = total - offset - limit;
  return fromEnd < offset ? { reverse: true, offset: fromEnd, limit } : { reverse: false, offset, limit };
}

/** Matches of an indexed keyword up to which a page is taken by sorting them rather than by walking the list's order. */
const FEW_MATCHES = 10_000;

/**
 * What to order a keyword's page by: with few matches, an expression no index serves, so that the planner gathers
 * the matches from the trigram index and sorts them, rather than walking the whole list newest first in the hope of
 * meeting a page of matches early (PostgreSQL's choice under LIMIT, a scan of every row when the keyword is rare).
 */
export function orderColumn(column: string, keyword: string | undefined, total: number): RawBuilder<number> {
  const indexed = keyword !== undefined && [...keyword.toLowerCase()].length >= 3 && total <= FEW_MATCHES;
  return indexed ? sql<number>`(${sql.ref(column)} + 0)` : sql<number>`${sql.ref(column)}`;
}
