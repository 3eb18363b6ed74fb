import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TSX_ENTRY, startServer, useBuiltServer } from './processes.ts';

/**
 * The built server (`node server/dist/main.js`, what `npm start` runs) against the same sources through tsx: idle
 * memory and start time, each side started ROUNDS times in turn on one migrated SQLite database, medians reported.
 * Alone: `node --import tsx bench/startup.ts` (builds the server into server/.tmp, prints the figures as JSON).
 */

export const ROUNDS = 3;
/** After the first answer, the process is left this long before its memory is read, so that start-up work settles. */
const SETTLE_MS = 3000;

export interface StartSide {
  /** Median resident set size once started and idle, in bytes. */
  idleRssBytes: number;
  /** Median time from the spawn to the first answered request, in milliseconds (migrations already done). */
  startMs: number;
  runs: { idleRssBytes: number; startMs: number }[];
}

export interface StartupResult {
  built: StartSide;
  tsx: StartSide;
  rounds: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function once(dataDir: string, entry: string) {
  const server = await startServer(dataDir, undefined, entry);
  try {
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    return { idleRssBytes: server.rss(), startMs: server.startMs };
  } finally {
    await server.stop();
  }
}

/** `builtEntry`: the built server's main.js. `dataDir` is used for a fresh SQLite database. */
export async function startupComparison(dataDir: string, builtEntry: string): Promise<StartupResult> {
  // Migrations and the first seed are done once, untimed, so that every measured start finds the same database.
  await (await startServer(dataDir, undefined, builtEntry)).stop();
  const runs: Record<'built' | 'tsx', StartSide['runs']> = { built: [], tsx: [] };
  for (let i = 0; i < ROUNDS; i++) {
    // In turn, so that whatever else the machine does weighs on both sides alike.
    runs.tsx.push(await once(dataDir, TSX_ENTRY));
    runs.built.push(await once(dataDir, builtEntry));
  }
  const side = (r: StartSide['runs']): StartSide => ({ idleRssBytes: median(r.map((x) => x.idleRssBytes)), startMs: median(r.map((x) => x.startMs)), runs: r });
  return { built: side(runs.built), tsx: side(runs.tsx), rounds: ROUNDS };
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contest-startup-'));
  const built = await useBuiltServer();
  try {
    const r = await startupComparison(dir, built.entry);
    const MB = 1024 * 1024;
    process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
    process.stdout.write(
      `built: ${(r.built.idleRssBytes / MB).toFixed(1)} MB idle, ${r.built.startMs.toFixed(0)} ms to start; tsx: ${(r.tsx.idleRssBytes / MB).toFixed(1)} MB, ${r.tsx.startMs.toFixed(0)} ms; ${((r.tsx.idleRssBytes - r.built.idleRssBytes) / MB).toFixed(1)} MB lower\n`,
    );
  } finally {
    built.remove();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
