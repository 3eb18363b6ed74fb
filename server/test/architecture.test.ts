import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The module shape of ARCHITECTURE §3, read from the sources: a module is routes (contract), service (rules), repo
 * (every query), jobs and an index of what other modules may use; object-level permission decisions go through one
 * policy. What does not follow it yet is listed below by name, and the lists only shrink: a new file breaking a rule
 * fails, and so does a listed file that no longer breaks it (take it off the list).
 */

const SRC = path.join(import.meta.dirname, '..', 'src');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}
const FILES = sources(SRC).map((f) => ({ file: path.relative(SRC, f).split(path.sep).join('/'), text: fs.readFileSync(f, 'utf8') }));

/** Where queries may be written: a module's repo, the database layer (migrations), the seed and the job table's runner. */
const QUERY_HOME = /^(db\/|seed\/|jobs\/|modules\/[^/]+\/repo(\.ts|\/))/;
const QUERY = /\.(selectFrom|updateTable|insertInto|deleteFrom|replaceInto|mergeInto)\(/;

/** Modules whose queries still sit in their services or routes (issue 18). */
const QUERY_DEBT: string[] = [];

/** Who may read an actor's permission set directly: the policy and the request's authentication. */
const PERMISSION_HOME = /^(policy\.ts|http\/auth\.ts|http\/access\.ts)$/;
const PERMISSION_DEBT: string[] = [];

/**
 * Routes only route (issue 34): a routes.ts imports its own service, `http/`, the shared package and libraries; the
 * rules and every object-level decision are in the service or the policy. Still importing more, listed by name:
 */
const ROUTES_DEBT: string[] = [];
/** What a routes.ts may import: its service, `http/`, the shared package, and packages (no other relative path). */
const ROUTE_IMPORT = /^(\.\/service\.ts|\.\.\/\.\.\/http\/[^/]+\.ts|@contest\/shared|[a-z@][^.]*)$/;

const offenders = (rule: (f: { file: string; text: string }) => boolean) =>
  FILES.filter(rule)
    .map((f) => f.file)
    .sort();

describe('the module shape', () => {
  it('writes queries only in repos, the database layer and the job runner', () => {
    const found = offenders((f) => !QUERY_HOME.test(f.file) && QUERY.test(f.text));
    expect(
      found.filter((f) => !QUERY_DEBT.includes(f)),
      'queries outside a repo',
    ).toEqual([]);
    expect(
      QUERY_DEBT.filter((f) => !found.includes(f)),
      'no longer writes queries: take it off QUERY_DEBT',
    ).toEqual([]);
  });

  it('opens transactions in services only: a repo function runs in the transaction it is handed', () => {
    const repos = FILES.filter((f) => /^modules\/[^/]+\/repo(\.ts|\/)/.test(f.file));
    expect(repos.length).toBeGreaterThan(20);
    expect(repos.filter((f) => /\.transaction\(\)/.test(f.text)).map((f) => f.file)).toEqual([]);
  });

  it('reads permission sets only in the policy and authentication', () => {
    const found = offenders((f) => !PERMISSION_HOME.test(f.file) && /permissions\.has\(/.test(f.text));
    expect(
      found.filter((f) => !PERMISSION_DEBT.includes(f)),
      'permission checks outside the policy',
    ).toEqual([]);
    expect(
      PERMISSION_DEBT.filter((f) => !found.includes(f)),
      'no longer reads permissions: take it off PERMISSION_DEBT',
    ).toEqual([]);
  });

  it('lets a module use another only through its index.ts', () => {
    const found: string[] = [];
    for (const { file, text } of FILES) {
      const own = /^modules\/([^/]+)\//.exec(file)?.[1];
      if (!own) continue;
      for (const m of text.matchAll(/from '\.\.\/([a-z-]+)\/([^']+)'/g)) if (m[1] !== own && m[2] !== 'index.ts') found.push(`${file} -> ${m[1]}/${m[2]}`);
    }
    expect(found, 'imports of another module other than its index.ts').toEqual([]);
  });

  it('lets routes import only their service, http/ and the shared package, never a repo or the policy', () => {
    const routes = FILES.filter((f) => /^modules\/[^/]+\/routes\.ts$/.test(f.file));
    const imports = (text: string) => [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
    const found = routes
      .filter((f) => imports(f.text).some((i) => !ROUTE_IMPORT.test(i)))
      .map((f) => f.file)
      .sort();
    expect(
      found.filter((f) => !ROUTES_DEBT.includes(f)),
      'routes importing more than their service, http/ and the shared package',
    ).toEqual([]);
    expect(
      ROUTES_DEBT.filter((f) => !found.includes(f)),
      'imports only its service now: take it off ROUTES_DEBT',
    ).toEqual([]);
    // Whatever else the listed ones still import, none reaches a repo or the policy.
    expect(routes.filter((f) => imports(f.text).some((i) => /(^|\/)(repo|policy)\.ts$/.test(i))).map((f) => f.file)).toEqual([]);
  });

  it('names each module alike in the three workspaces: server/src/modules/<m>/, packages/shared/src/api/<m>.ts, web/src/api/<m>.ts', () => {
    const modules = new Set(fs.readdirSync(path.join(SRC, 'modules')));
    const names = (dir: string) =>
      fs
        .readdirSync(path.join(SRC, '..', '..', dir))
        .filter((f) => f.endsWith('.ts'))
        .map((f) => f.slice(0, -3));
    // Files every module uses: the common fields and page query, batches, the first screen's zod-free unread counts,
    // the web's list parameters and confirmable requests.
    const SHARED_BY_ALL = ['batch', 'common', 'fields', 'unread'];
    const WEB_BY_ALL = ['confirmable', 'list'];
    expect(
      names('packages/shared/src/api').filter((n) => !modules.has(n) && !SHARED_BY_ALL.includes(n)),
      'shared contract files not named after a module',
    ).toEqual([]);
    expect(
      names('web/src/api').filter((n) => !modules.has(n) && !WEB_BY_ALL.includes(n)),
      'web API files not named after a module',
    ).toEqual([]);
  });

  it('keeps the module graph through index.ts files acyclic', () => {
    const graph = new Map<string, Set<string>>();
    for (const { file, text } of FILES) {
      const own = /^modules\/([^/]+)\//.exec(file)?.[1];
      if (!own) continue;
      const uses = graph.get(own) ?? new Set<string>();
      graph.set(own, uses);
      for (const m of text.matchAll(/from '\.\.\/([a-z-]+)\/index\.ts'/g)) if (m[1] !== own) uses.add(m[1]!);
    }
    // Depth-first: a module met again while its own dependencies are being walked closes a cycle.
    const cycles: string[] = [];
    const state = new Map<string, 'walking' | 'done'>();
    const walk = (m: string, trail: string[]) => {
      if (state.get(m) === 'done') return;
      if (state.get(m) === 'walking') {
        cycles.push([...trail.slice(trail.indexOf(m)), m].join(' -> '));
        return;
      }
      state.set(m, 'walking');
      for (const next of graph.get(m) ?? []) walk(next, [...trail, m]);
      state.set(m, 'done');
    };
    for (const m of [...graph.keys()].sort()) walk(m, []);
    expect(cycles).toEqual([]);
    // The walk sees the modules' imports at all: teams use registrations, awards use grades.
    expect(graph.get('teams')?.has('registrations')).toBe(true);
    expect(graph.get('awards')?.has('grades')).toBe(true);
  });

  it('keeps the core (context.ts, policy.ts, http/, jobs/, db/, realtime/) free of modules: the composition root wires them', () => {
    // The policy judges the rows services hand it: it reads no repository of its own.
    const core = FILES.filter((f) => /^(context\.ts|policy\.ts|http\/|jobs\/|db\/|realtime\/)/.test(f.file));
    expect(core.length).toBeGreaterThan(20);
    const found = core.filter((f) => /from '[^']*\/modules\//.test(f.text)).map((f) => f.file);
    expect(found, 'core files importing a module').toEqual([]);
  });

  it('uses menu codes as route rules and in the table of staff roles of the policy only, never as a role elsewhere', () => {
    const found: string[] = [];
    for (const { file, text } of FILES) {
      if (file === 'policy.ts') continue;
      const routes = /^modules\/[^/]+\/routes\.ts$/.test(file);
      for (const m of text.matchAll(/(perm\()?ADMIN_MENU_CODES[.[]/g)) if (!routes || !m[1]) found.push(file);
    }
    expect([...new Set(found)], 'menu codes standing for a role (ask the policy by name: isStaff, staffOf, organises)').toEqual([]);
    // The policy's table is where they are: it names the roles.
    expect(FILES.find((f) => f.file === 'policy.ts')!.text).toMatch(/const STAFF_MENUS = \{/);
  });

  it('takes one OrgScope in every repository: no sentinel organisation id, no scope of another shape', () => {
    const repos = FILES.filter((f) => QUERY_HOME.test(f.file) && f.file.startsWith('modules/'));
    expect(repos.length).toBeGreaterThan(20);
    const sentinels = repos.filter((f) => /orgId \?\? -1|orgId\?: number \| null|orgId: number \| null \| undefined/.test(f.text)).map((f) => f.file);
    expect(sentinels).toEqual([]);
  });

  it('climbs no three folders in an import: the web takes #src/…, another workspace is imported by its package name', () => {
    const ROOT = path.join(SRC, '..', '..');
    const walk = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : walk(full);
        return /\.tsx?$/.test(e.name) ? [full] : [];
      });
    const files = ['server', 'web/src', 'desktop', 'packages/shared', 'e2e', 'bench'].flatMap((d) => walk(path.join(ROOT, d)));
    expect(files.length).toBeGreaterThan(500);
    const deep = files.filter((f) => /(from|import\(|vi\.mock\()\s*'(\.\.\/){3,}/.test(fs.readFileSync(f, 'utf8'))).map((f) => path.relative(ROOT, f));
    expect(deep).toEqual([]);
  });

  it('gives every module an index.ts saying what others may use', () => {
    const modules = fs.readdirSync(path.join(SRC, 'modules'));
    const without = modules.filter((m) => !fs.existsSync(path.join(SRC, 'modules', m, 'index.ts')));
    expect(without).toEqual([]);
  });

  it('declares an access rule beside every route', () => {
    // Every route's options carry `config: { rule: … }` (the app refuses to start otherwise); here, the source says so too.
    for (const { file, text } of FILES.filter((f) => /^modules\/[^/]+\/routes\.ts$/.test(f.file))) {
      const routes = [...text.matchAll(/app\.(get|post|put|patch|delete)\(/g)].length;
      const rules = [...text.matchAll(/rule: /g)].length;
      expect(rules, `${file}: ${routes} routes, ${rules} rules`).toBeGreaterThanOrEqual(routes);
    }
  });
});
