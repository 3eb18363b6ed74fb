import { readdirSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CamelCasePlugin,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { format } from 'sql-formatter';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/schema.ts';

/**
 * The SQL every repository function writes, on both dialects, kept in `server/queries/<dialect>/<module>.sql` (as Immich
 * keeps its queries/*.sql): a change of query shows in review as a change of these files. Each exported function whose
 * first parameter is the database (or a service context) is called once against a Kysely that compiles and logs every
 * query but runs none (DummyDriver: every read finds no row), with arguments made from its parameters' declared types
 * (numbers 1, strings "x" or a fixed time, every optional field present, so that every filter shows). A function stops
 * at its first query that needs a row; what it wrote until then is kept.
 *
 * `UPDATE_SQL_SNAPSHOTS=1` rewrites the files; without it, a difference fails with the function that changed.
 */

const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MODULES = path.join(SERVER, 'src', 'modules');
const OUT = path.join(SERVER, 'queries');
const FIXED_TIME = '2026-01-01T00:00:00.000Z';

type Sample = unknown;
const DB_ARG = Symbol('db');
const CTX_ARG = Symbol('ctx');
interface RepoFunction {
  name: string;
  params: { name: string; sample: Sample }[];
}

/** Each repo file's exported functions with sample arguments, read from the declared types by the TypeScript checker. */
function repoSignatures(files: string[]): Map<string, RepoFunction[]> {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(SERVER, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const program = ts.createProgram(files, { ...config!.options, noEmit: true });
  const checker = program.getTypeChecker();

  const sample = (type: ts.Type, name: string, depth: number): Sample => {
    if (depth > 6) return undefined;
    const text = checker.typeToString(type);
    if (text === 'Db' || text.startsWith('Kysely<') || text.startsWith('Transaction<')) return DB_ARG;
    if (text === 'Ctx' || text === 'AuthedCtx') return CTX_ARG;
    if (text === 'Date') return new Date(FIXED_TIME);
    if (type.isUnion()) {
      const members = type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
      if (members.length === 0) return null;
      if (members.every((t) => t.flags & ts.TypeFlags.BooleanLiteral)) return true;
      // Of several shapes, the one with the most fields (an organisation's scope rather than every one, say).
      const richest = [...members].sort((a, b) => checker.getPropertiesOfType(b).length - checker.getPropertiesOfType(a).length)[0]!;
      return sample(richest, name, depth);
    }
    if (type.isNumberLiteral() || type.isStringLiteral()) return type.value;
    if (type.flags & ts.TypeFlags.BooleanLiteral) return text === 'true';
    if (type.flags & ts.TypeFlags.NumberLike) return 1;
    if (type.flags & ts.TypeFlags.BooleanLike) return true;
    if (type.flags & ts.TypeFlags.StringLike) {
      if (/(^|[a-z])(at|At|now|Now|before|Before|since|until|time|Time)$/.test(name) || /At$/.test(name)) return FIXED_TIME;
      if (/^days?$|Day$/.test(name)) return FIXED_TIME.slice(0, 10);
      return 'x';
    }
    if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return 1;
    if (checker.isArrayType(type) || checker.isTupleType(type)) {
      const args = checker.getTypeArguments(type as ts.TypeReference);
      return checker.isTupleType(type) ? args.map((a) => sample(a, name, depth + 1)) : [sample(args[0]!, name.replace(/s$/, ''), depth + 1)];
    }
    if (type.getCallSignatures().length > 0) return (x: unknown) => x;
    if (type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) {
      const value: Record<string, Sample> = {};
      for (const property of checker.getPropertiesOfType(type)) {
        const declaration = property.valueDeclaration ?? property.declarations?.[0];
        const propertyType = declaration ? checker.getTypeOfSymbolAtLocation(property, declaration) : checker.getTypeOfSymbol(property);
        value[property.name] = sample(propertyType, property.name, depth + 1);
      }
      return value;
    }
    return undefined;
  };

  const result = new Map<string, RepoFunction[]>();
  for (const file of files) {
    const source = program.getSourceFile(file)!;
    const moduleSymbol = checker.getSymbolAtLocation(source)!;
    const functions: RepoFunction[] = [];
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declaration = symbol.valueDeclaration;
      if (!declaration) continue;
      const [signature] = checker.getTypeOfSymbolAtLocation(symbol, declaration).getCallSignatures();
      if (!signature) continue;
      const params = signature.parameters.map((p) => {
        const at = p.valueDeclaration ?? declaration;
        return { name: p.name, sample: sample(checker.getTypeOfSymbolAtLocation(p, at), p.name, 0) };
      });
      if (params[0]?.sample !== DB_ARG && params[0]?.sample !== CTX_ARG) continue;
      functions.push({ name: exported.name, params });
    }
    result.set(
      file,
      functions.sort((a, b) => a.name.localeCompare(b.name)),
    );
  }
  return result;
}

/** A Kysely of the dialect that compiles and logs every query and runs none. */
function recordingDb(dialect: 'sqlite' | 'postgres', log: string[]) {
  const sqlite = dialect === 'sqlite';
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => (sqlite ? new SqliteAdapter() : new PostgresAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => (sqlite ? new SqliteIntrospector(db) : new PostgresIntrospector(db)),
      createQueryCompiler: () => (sqlite ? new SqliteQueryCompiler() : new PostgresQueryCompiler()),
    },
    plugins: [new CamelCasePlugin()],
    log: (event) => {
      log.push(event.query.sql);
    },
  });
}

const isCompilable = (v: unknown): v is { compile(): { sql: string } } => typeof (v as { compile?: unknown })?.compile === 'function';
const isAsyncIterable = (v: unknown): v is AsyncIterable<unknown> => typeof (v as { [Symbol.asyncIterator]?: unknown })?.[Symbol.asyncIterator] === 'function';

/** What one call of the function writes: its queries, formatted, and where it stopped if it needed a row. */
async function queriesOf(fn: (...args: unknown[]) => unknown, params: RepoFunction['params'], dialect: 'sqlite' | 'postgres') {
  const log: string[] = [];
  const db = recordingDb(dialect, log);
  // A service context: the database, a fixed clock, and a caller of organisation 1.
  const ctx = { db, clock: { now: () => new Date(FIXED_TIME) }, actor: { userId: 1, username: 'x', orgId: 1 }, ip: '127.0.0.1', userAgent: null };
  const args = params.map((p) => (p.sample === DB_ARG ? db : p.sample === CTX_ARG ? ctx : structuredCloneSample(p.sample)));
  let stopped = '';
  try {
    const result = await fn(...args);
    if (isCompilable(result)) log.push(result.compile().sql);
    if (isAsyncIterable(result)) for await (const _ of result) break;
  } catch (err) {
    stopped = `-- stops here: ${(err as Error).message === 'no result' ? 'no row' : (err as Error).message.split('\n')[0]}`;
  }
  const language = dialect === 'sqlite' ? 'sqlite' : 'postgresql';
  return [...log.map((q) => `${format(q, { language, keywordCase: 'lower' })};`), ...(stopped ? [stopped] : [])];
}

/** Samples are made once; each call gets its own copy (a function may change what it is handed). */
function structuredCloneSample(v: Sample): Sample {
  if (typeof v === 'function' || v === null || typeof v !== 'object') return v;
  if (v instanceof Date) return new Date(v);
  if (Array.isArray(v)) return v.map(structuredCloneSample);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, structuredCloneSample(x)]));
}

const describeArgs = (params: RepoFunction['params']) =>
  params
    .slice(1)
    .map((p) => p.name)
    .join(', ');

describe('the SQL of every repository function', () => {
  const modules = readdirSync(MODULES).filter((m) => existsSync(path.join(MODULES, m, 'repo.ts')));
  const files = modules.map((m) => path.join(MODULES, m, 'repo.ts'));
  let signatures: Map<string, RepoFunction[]>;
  beforeAll(() => {
    signatures = repoSignatures(files);
  }, 120_000);

  it('reads every repository and its functions', () => {
    expect(modules.length).toBeGreaterThan(20);
    const total = [...signatures.values()].reduce((n, fns) => n + fns.length, 0);
    expect(total).toBeGreaterThan(300);
  });

  for (const dialect of ['sqlite', 'postgres'] as const) {
    it(`matches server/queries/${dialect}/ on ${dialect} (UPDATE_SQL_SNAPSHOTS=1 rewrites it)`, async () => {
      const changed: string[] = [];
      let written = 0;
      for (const module of modules) {
        const file = path.join(MODULES, module, 'repo.ts');
        const repo = (await import(file)) as Record<string, (...args: unknown[]) => unknown>;
        const parts = [`-- The SQL of server/src/modules/${module}/repo.ts on ${dialect} (server/test/sql-snapshots.test.ts writes this file).`];
        for (const fn of signatures.get(file)!) {
          const queries = await queriesOf(repo[fn.name]!, fn.params, dialect);
          written += queries.length;
          parts.push('', `-- ${module}.${fn.name}(${describeArgs(fn.params)})`, ...(queries.length ? queries : ['-- writes no query']));
        }
        const text = `${parts.join('\n')}\n`;
        const target = path.join(OUT, dialect, `${module}.sql`);
        const before = existsSync(target) ? readFileSync(target, 'utf8') : '';
        if (before === text) continue;
        if (process.env.UPDATE_SQL_SNAPSHOTS) {
          mkdirSync(path.dirname(target), { recursive: true });
          writeFileSync(target, text);
        } else changed.push(`${dialect}/${module}.sql`);
      }
      // The snapshots hold queries (a harness that compiled none would write comments only).
      expect(written).toBeGreaterThan(300);
      expect(
        changed,
        'repositories whose SQL changed: run UPDATE_SQL_SNAPSHOTS=1 npx vitest run server/test/sql-snapshots.test.ts and review the diff',
      ).toEqual([]);
    }, 120_000);
  }
});
