import type { ColumnDefinitionBuilder } from 'kysely';

export interface MigrationContext {
  dialect: 'sqlite' | 'postgres';
}

/** Integer surrogate key on both dialects: identity on PostgreSQL, rowid alias on SQLite. */
export function idColumn(c: ColumnDefinitionBuilder, ctx: MigrationContext): ColumnDefinitionBuilder {
  return ctx.dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}
