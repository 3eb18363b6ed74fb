import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Spawned {
  url: string;
  pid: number;
  /** Milliseconds from the spawn to the first 200 on the ready path. */
  startMs: number;
  /** Resident set size now, in bytes (VmRSS). */
  rss(): number;
  /** The highest resident set size since the process started, in bytes (VmHWM). */
  peakRss(): number;
  stop(): Promise<void>;
}

function status(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return m ? Number(m[1]) * 1024 : 0;
}

async function waitReady(child: ChildProcess, url: string, log: () => string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    // Often enough for the start time to be read to within a few tens of milliseconds.
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`server did not answer ${url} within 60 s:\n${log()}`);
}

/**
 * Runs an entry as its own Node process, so that the load generator never shares its event loop, and waits until
 * `readyPath` answers 200. A `.ts` entry runs through tsx, a `.js` one (the built server) on plain Node.
 */
export async function spawnNode(entry: string, args: string[], env: Record<string, string>, port: number, readyPath: string): Promise<Spawned> {
  const started = performance.now();
  const child = spawn(process.execPath, [...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []), entry, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitReady(child, url + readyPath, () => output);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  const startMs = performance.now() - started;
  const pid = child.pid!;
  return {
    url,
    pid,
    startMs,
    rss: () => status(pid, 'VmRSS'),
    peakRss: () => status(pid, 'VmHWM'),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

export const ADMIN_PASSWORD = 'BenchAdmin12345';

/**
 * The built server's entry (`npm run build:server` into a folder of the bench's own), set by `useBuiltServer`; until
 * then, and for the comparison's other side, the sources through tsx.
 */
export const TSX_ENTRY = 'server/src/main.ts';
let serverEntry = TSX_ENTRY;

/** Builds the server into a folder under server/.tmp (removed by the returned clean-up) and runs it from there on. */
export async function useBuiltServer(): Promise<{ entry: string; buildSeconds: number; remove: () => void }> {
  const { buildServer } = await import('../server/build.ts');
  fs.mkdirSync(path.join(ROOT, 'server/.tmp'), { recursive: true });
  const outDir = fs.mkdtempSync(path.join(ROOT, 'server/.tmp/bench-'));
  const built = await buildServer({ outDir });
  serverEntry = path.join(outDir, 'main.js');
  return { entry: serverEntry, buildSeconds: built.seconds, remove: () => fs.rmSync(outDir, { recursive: true, force: true }) };
}

/** The platform as `npm start` runs it (the built server, once `useBuiltServer` ran), on the given data directory or PostgreSQL database. */
export async function startServer(dataDir: string, databaseUrl?: string, entry = serverEntry, extraEnv: Record<string, string> = {}): Promise<Spawned> {
  const port = await freePort();
  return spawnNode(
    entry,
    [],
    {
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      JOB_WORKER: '0',
      SEED_DEMO: '0',
      CONTEST_ADMIN_PASSWORD: ADMIN_PASSWORD,
      NODE_ENV: 'production',
      ...extraEnv,
    },
    port,
    '/api/competition/public/list',
  );
}

/** The baseline: a bare Fastify process serving the given bodies as constants. */
export async function startBaseline(bodiesFile: string): Promise<Spawned> {
  const port = await freePort();
  return spawnNode(path.join(ROOT, 'bench/baseline-server.ts'), [bodiesFile], { NODE_ENV: 'production' }, port, '/__ready');
}
