import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { startBaseline, type Spawned } from './processes.ts';

export const CONNECTIONS = 50;
const WARMUP_SECONDS = 2;
const ROUND_SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = 3;

export interface LoadResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  failures: number;
}

export interface Comparison {
  /** What was requested, in the order each connection cycles through. */
  paths: string[];
  bodyBytes: number;
  /** Items the answers held, the fewest of any path (a list page's rows; 1 for an object). */
  items: number;
  server: LoadResult;
  baseline: LoadResult;
  /** Server rps / baseline rps. */
  ratio: number;
}

async function load(url: string, paths: string[], seconds: number): Promise<LoadResult> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, requests: paths.map((p) => ({ method: 'GET', path: p })) });
  return { rps: Math.round(r.requests.average), p50Ms: r.latency.p50, p99Ms: r.latency.p99, requests: r['2xx'], failures: r.non2xx + r.errors + r.timeouts };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Warms both up (JIT, caches, connection pools), then measures them in alternating rounds and keeps each one's median
 * round: the machine is shared, and a burst of someone else's work should not land on one side only.
 */
async function measurePair(baselineUrl: string, serverUrl: string, paths: string[]): Promise<{ baseline: LoadResult; server: LoadResult }> {
  await load(baselineUrl, paths, WARMUP_SECONDS);
  await load(serverUrl, paths, WARMUP_SECONDS);
  const rounds: { baseline: LoadResult[]; server: LoadResult[] } = { baseline: [], server: [] };
  for (let i = 0; i < ROUNDS; i++) {
    rounds.baseline.push(await load(baselineUrl, paths, ROUND_SECONDS));
    rounds.server.push(await load(serverUrl, paths, ROUND_SECONDS));
  }
  const pick = (rs: LoadResult[]): LoadResult => ({
    rps: median(rs.map((r) => r.rps)),
    p50Ms: median(rs.map((r) => r.p50Ms)),
    p99Ms: median(rs.map((r) => r.p99Ms)),
    requests: rs.reduce((n, r) => n + r.requests, 0),
    failures: rs.reduce((n, r) => n + r.failures, 0),
  });
  return { baseline: pick(rounds.baseline), server: pick(rounds.server) };
}

/**
 * The bodies each path answers, which the baseline then serves; each must hold what its figure names (a page of a list
 * holds items, a competition its data), or the load would measure an empty answer.
 */
async function capture(server: Spawned, paths: string[]): Promise<Record<string, string>> {
  const bodies: Record<string, string> = {};
  for (const p of paths) {
    const res = await fetch(server.url + p);
    if (!res.ok) throw new Error(`GET ${p} answered ${res.status}`);
    bodies[p] = await res.text();
    if (itemsOf(bodies[p]!) === 0) throw new Error(`GET ${p} answered nothing to measure: ${bodies[p]!.slice(0, 120)}`);
  }
  return bodies;
}

/** Items a list page of `body` holds (1 for a single object); an embedded page's (HTML) are its table's rows. */
function itemsOf(body: string): number {
  if (body.startsWith('<')) return (body.match(/<tr><td/g) ?? []).length;
  const data = (JSON.parse(body) as { data?: { list?: unknown[] } | null }).data;
  if (data === null || data === undefined) return 0;
  return Array.isArray(data.list) ? data.list.length : 1;
}

/**
 * Each scenario against the running server and against a bare Fastify process serving the same bodies as constants,
 * measured in the same run, so that the ratio holds on a noisy machine.
 */
export async function compare(server: Spawned, scenarios: Record<string, string[]>, workDir: string): Promise<Record<string, Comparison>> {
  const all = Object.values(scenarios).flat();
  const bodies = await capture(server, all);
  const bodiesFile = path.join(workDir, 'baseline-bodies.json');
  fs.writeFileSync(bodiesFile, JSON.stringify(bodies));
  const baseline = await startBaseline(bodiesFile);
  try {
    const out: Record<string, Comparison> = {};
    for (const [name, paths] of Object.entries(scenarios)) {
      const { baseline: base, server: real } = await measurePair(baseline.url, server.url, paths);
      const bodyBytes = Math.round(paths.reduce((n, p) => n + Buffer.byteLength(bodies[p]!), 0) / paths.length);
      out[name] = { paths, bodyBytes, items: Math.min(...paths.map((p) => itemsOf(bodies[p]!))), server: real, baseline: base, ratio: real.rps / base.rps };
    }
    return out;
  } finally {
    await baseline.stop();
  }
}
