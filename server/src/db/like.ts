import { sql, type RawBuilder } from 'kysely';

/** A LIKE pattern matching values that contain `keyword` literally (its % and _ are not wildcards). */
export function contains(keyword: string): RawBuilder<string> {
  const escaped = keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<string>`${`%${escaped}%`} escape '\\'`;
}
