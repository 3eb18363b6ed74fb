/**
 * `npm run build:server`: the server compiled to plain JavaScript in server/dist/, so that production runs
 * `node server/dist/main.js` without tsx (docs/deployment.md, "A built server").
 *
 * Each entry (main, worker when server/src/worker.ts exists, backup, restore) is bundled by esbuild into one ESM file
 * with a source map. Our own sources and the workspace package @contest/shared (whose exports name .ts files) are
 * bundled; every other package is left as an import and read from node_modules at run time (native better-sqlite3,
 * pdfkit's font files, swagger-ui's static files...). The build fails if such a package could not be found from the
 * output folder the way it is found from the importing source file.
 *
 * `import.meta.url`, `dirname` and `filename` keep meaning the source file's location in every bundled module but the
 * entry itself: paths computed from them (web/dist, the certificate font, desktop/build.ts and its own child process)
 * stay the ones the unbundled code finds, and a "run me when I am the script" check in an imported module (backup.ts
 * inside restore, desktop/build.ts inside main) stays false. The entry's own `import.meta` is the output file's,
 * which is what its "am I the script" check needs (server/dist sits beside server/src, so relative paths agree).
 *
 * Usage: `node --import tsx server/build.ts [--out=DIR]` (default server/dist).
 */
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'esbuild';

const HERE = import.meta.dirname;
export const SERVER_ENTRIES = ['main', 'worker', 'backup', 'restore'] as const;
export const DEFAULT_OUT_DIR = path.join(HERE, 'dist');
/** Workspace packages whose sources are bundled (TypeScript: the shared package, and the desktop client's build). */
const BUNDLED_PACKAGES = ['@contest/shared', '@contest/desktop'];
const BUILTINS = new Set(builtinModules);

export interface ServerBuild {
  outDir: string;
  /** The entries built, e.g. `main`, `backup`; each is `<outDir>/<name>.js`. */
  entries: string[];
  /** Packages left as imports, read from node_modules at run time. */
  external: string[];
  seconds: number;
}

/** `lodash/fp` -> `lodash`, `@scope/pkg/sub` -> `@scope/pkg`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The folder Node's resolution finds `name` in, looking up from `dir` (null when none). */
function findPackage(name: string, dir: string): string | null {
  for (let d = dir; ; d = path.dirname(d)) {
    const candidate = path.join(d, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate);
    if (path.dirname(d) === d) return null;
  }
}

function buildPlugin(entryFile: string, outDir: string, external: Set<string>): Plugin {
  return {
    name: 'contest-server',
    setup(build) {
      // Packages: external unless a workspace package, and found from outDir as from the importer.
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        const spec = args.path;
        if (spec.startsWith('node:') || BUILTINS.has(spec)) return { path: spec, external: true };
        const name = packageName(spec);
        // JSON data is inlined: an external JSON import would need its `with { type: 'json' }` kept.
        if (BUNDLED_PACKAGES.includes(name) || spec.endsWith('.json')) return undefined;
        const fromSource = findPackage(name, args.resolveDir);
        const fromOut = findPackage(name, outDir);
        if (!fromOut || (fromSource && fromOut !== fromSource)) {
          return {
            errors: [
              {
                text: `package "${name}" (imported by ${path.relative(process.cwd(), args.importer)}) is ${fromOut ? `${fromOut} from ${outDir} but ${fromSource} from its importer` : `not found from ${outDir}`}`,
              },
            ],
          };
        }
        external.add(name);
        return { path: spec, external: true };
      });
      // import.meta in imported modules: the source file's location (see the header).
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
        if (args.path === entryFile || args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const text = fs.readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta')) return undefined;
        // Relative to the output file, so that the repository can be moved after the build; one line, so that the
        // source map's lines stay right.
        const rel = path.relative(outDir, args.path).split(path.sep).join('/');
        const prelude = `import { fileURLToPath as __srcPath } from 'node:url'; import { dirname as __srcDir } from 'node:path'; const __srcUrl = new URL(${JSON.stringify(rel)}, import.meta.url).href; `;
        const contents =
          prelude +
          text
            .replace(/\bimport\.meta\.url\b/g, '__srcUrl')
            .replace(/\bimport\.meta\.dirname\b/g, '__srcDir(__srcPath(__srcUrl))')
            .replace(/\bimport\.meta\.filename\b/g, '__srcPath(__srcUrl)');
        const ext = path.extname(args.path).replace(/^\.[cm]?/, '');
        return { contents, loader: ext as 'ts' | 'tsx' | 'js' | 'jsx', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

/**
 * Builds the server's entries into `outDir`. Each file is written beside its place and renamed over it, so a server
 * running from `outDir`, or a build running at the same time (`npm run backup` builds first), never reads half a file.
 * Output of an entry that no longer exists is removed.
 */
export async function buildServer(options: { outDir?: string } = {}): Promise<ServerBuild> {
  const started = performance.now();
  const { build } = await import('esbuild');
  const outDir = path.resolve(options.outDir ?? DEFAULT_OUT_DIR);
  const entries = SERVER_ENTRIES.filter((name) => fs.existsSync(path.join(HERE, 'src', `${name}.ts`)));
  fs.mkdirSync(outDir, { recursive: true });
  const external = new Set<string>();
  // One build per entry: a module that is one entry and imported by another (backup.ts by restore.ts) is given its
  // own import.meta only where it is the entry.
  const results = await Promise.all(
    entries.map((name) => {
      const entryFile = path.join(HERE, 'src', `${name}.ts`);
      return build({
        entryPoints: [entryFile],
        outfile: path.join(outDir, `${name}.js`),
        write: false,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        sourcemap: true,
        keepNames: true,
        logLevel: 'warning',
        legalComments: 'none',
        absWorkingDir: path.dirname(HERE),
        plugins: [buildPlugin(entryFile, outDir, external)],
      });
    }),
  );
  const files = [
    ...results.flatMap((r) => r.outputFiles.map((f) => ({ path: f.path, contents: f.contents }))),
    { path: path.join(outDir, 'package.json'), contents: Buffer.from('{ "type": "module" }\n') },
  ];
  for (const f of files) {
    // package.json marks the folder as ES modules wherever it is copied.
    const tmp = `${f.path}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, f.contents);
    fs.renameSync(tmp, f.path);
  }
  for (const name of SERVER_ENTRIES.filter((n) => !entries.includes(n))) {
    for (const stale of [`${name}.js`, `${name}.js.map`]) fs.rmSync(path.join(outDir, stale), { force: true });
  }
  return { outDir, entries: [...entries], external: [...external].sort(), seconds: (performance.now() - started) / 1000 };
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const out = process.argv
    .slice(2)
    .find((a) => a.startsWith('--out='))
    ?.slice('--out='.length);
  buildServer({ outDir: out }).then(
    (r) =>
      process.stdout.write(
        `server built: ${r.entries.map((e) => path.relative(process.cwd(), path.join(r.outDir, `${e}.js`))).join(', ')} in ${r.seconds.toFixed(1)} s (${r.external.length} packages from node_modules)\n`,
      ),
    (err: Error) => {
      process.stderr.write(`server build failed: ${err.message}\n`);
      process.exit(1);
    },
  );
}
