import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * Whose rows a caller sees, in the one shape every repository takes (issue 34): every organisation's (the platform), or
 * one organisation's. An account of no organisation (`orgId` null) sees none. The policy makes it (policy.orgScope).
 */
export type OrgScope = { readonly all: true } | { readonly all: false; readonly orgId: number | null };

/** The platform's scope: every organisation. */
export const EVERY_ORG: OrgScope = Object.freeze({ all: true });

/** One organisation's scope (none when `orgId` is null). */
export const oneOrg = (orgId: number | null): OrgScope => Object.freeze({ all: false, orgId });

/**
 * The condition keeping the rows whose `column` (an organisation id, as `table.column`) is in the scope: always true for
 * the platform, never for an account of no organisation.
 */
export function inOrgScope(column: string, scope: OrgScope): Expression<SqlBool> {
  if (scope.all) return sql<SqlBool>`1 = 1`;
  if (scope.orgId === null) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`${sql.ref(column)} = ${scope.orgId}`;
}
