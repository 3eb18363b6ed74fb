import { sql, type RawBuilder, type SqlBool } from 'kysely';

/** A LIKE pattern matching values that contain `keyword` literally (its % and _ are not wildcards). */
export function contains(keyword: string): RawBuilder<string> {
  const escaped = keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<string>`${`%${escaped}%`} escape '\\'`;
}

/** `column` contains `keyword`, ignoring case on both dialects (PostgreSQL's LIKE is case-sensitive). */
export function containsText(column: string, keyword: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${contains(keyword)}`;
}
