import type { KyselyPlugin, OperationNode, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

const keys = new Map<string, string>();
/** One name for a table however it is spelt (`team_members`, `teamMembers`); remembered, as reads ask on every request. */
function key(table: string): string {
  let k = keys.get(table);
  if (k === undefined) keys.set(table, (k = table.replace(/_/g, '').toLowerCase()));
  return k;
}

function tableName(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.kind === 'AliasNode') return tableName((node as unknown as { node: OperationNode }).node);
  if (node.kind === 'TableNode') return (node as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
  return undefined;
}

function writtenTables(node: RootOperationNode): string[] {
  switch (node.kind) {
    case 'InsertQueryNode':
      return [tableName(node.into)].filter((t) => t !== undefined);
    case 'UpdateQueryNode':
      return [tableName(node.table)].filter((t) => t !== undefined);
    case 'DeleteQueryNode':
      return node.from.froms.map(tableName).filter((t) => t !== undefined);
    case 'RawNode':
      // Raw SQL is not parsed: a raw write counts as a write to every table.
      return /^\s*(insert|update|delete|replace)\b/i.test(node.sqlFragments[0] ?? '') ? ['*'] : [];
    default:
      return [];
  }
}

/**
 * Counts the writes this process makes, per table, so that a cache of reads can tell when it is out of date without
 * asking the database. Installed on every database handle by `openDatabase`; transactions share it.
 */
export class WriteWatch implements KyselyPlugin {
  readonly #writes = new Map<string, number>();

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    for (const table of writtenTables(node)) {
      const k = key(table);
      this.#writes.set(k, (this.#writes.get(k) ?? 0) + 1);
    }
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }

  /** A number that grows whenever one of these tables is written. */
  version(tables: readonly string[]): number {
    return tables.reduce((sum, t) => sum + (this.#writes.get(key(t)) ?? 0), this.#writes.get('*') ?? 0);
  }
}

const watches = new WeakMap<object, WriteWatch>();

export function watchWrites(db: object, watch: WriteWatch) {
  watches.set(db, watch);
}

/** The watch of a database handle opened by `openDatabase`; none for a transaction or a handle made elsewhere. */
export const writeWatchOf = (db: object) => watches.get(db);
