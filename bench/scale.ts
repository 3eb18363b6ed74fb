import fs from 'node:fs';
import path from 'node:path';
import type { Spawned } from './processes.ts';
import { HOT, SCALE, type Seeded } from './seed.ts';

/**
 * Single requests at volume (issue 22): each endpoint a person uses in the three entries, asked ROUNDS times one at a
 * time with nothing else running, each time with a query of its own (another page size, another keyword) so that no
 * answer comes from the one-second read cache; median and maximum beside the budget. While they run, the server
 * reports each second's longest event-loop delay (EVENT_LOOP_REPORT, server/src/http/event-loop.ts): no request may
 * hold the loop that all of them share for more than 50 ms.
 */
export const ROUNDS = 7;
export const BUDGETS = { listMs: 100, boardMs: 50, eventLoopMs: 50, exportRssBytes: 300 * 1024 * 1024 };

export interface Single {
  name: string;
  budgetMs: number;
  medianMs: number;
  maxMs: number;
  /** Statuses other than 200 seen (a failed request is a failed figure). */
  failures: string[];
}

export interface ScaleResult {
  scale: number;
  singles: Single[];
  /** The longest event-loop delay of any second while the single requests ran. */
  eventLoopMaxMs: number;
  broadcast: { answerMs: number; recipients: number; deliveredSeconds: number | null; progress: string; eventLoopMaxMs: number };
  export: { rows: number; seconds: number; bytes: number; peakRssBytes: number; idleRssBytes: number; status: number };
}

type Ask = (round: number) => { path: string; token?: string; method?: string; body?: unknown };

async function once(server: Spawned, a: ReturnType<Ask>): Promise<{ ms: number; status: number; body: string }> {
  const t = performance.now();
  const res = await fetch(`${server.url}${a.path}`, {
    method: a.method ?? 'GET',
    headers: { ...(a.token ? { authorization: `Bearer ${a.token}` } : {}), ...(a.body ? { 'content-type': 'application/json' } : {}) },
    body: a.body ? JSON.stringify(a.body) : undefined,
  });
  const body = await res.text();
  return { ms: performance.now() - t, status: res.status, body };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function single(server: Spawned, name: string, budgetMs: number, ask: Ask): Promise<Single> {
  // One request first, not counted: the process's first use of a statement or a page of the database.
  await once(server, ask(ROUNDS));
  const times: number[] = [];
  const failures: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const r = await once(server, ask(round));
    times.push(r.ms);
    if (r.status !== 200) failures.push(`${r.status} ${r.body.slice(0, 120)}`);
  }
  return { name, budgetMs, medianMs: median(times), maxMs: Math.max(...times), failures };
}

const json = async (server: Spawned, a: ReturnType<Ask>) => JSON.parse((await once(server, a)).body) as { data: Record<string, unknown> };

/** The number of a list's last page of `limit` entries. */
async function lastPage(server: Spawned, p: string, limit: number, token?: string): Promise<number> {
  const total = Number((await json(server, { path: `${p}${p.includes('?') ? '&' : '?'}page=1&limit=${limit}`, token })).data.total ?? 0);
  return Math.max(1, Math.ceil(total / limit));
}

export async function singleRequests(server: Spawned, seeded: Seeded, reportFile: string, log: (t: string) => void): Promise<{ singles: Single[]; eventLoopMaxMs: number }> {
  const admin = seeded.adminToken;
  const started = Date.now();
  const singles: Single[] = [];
  const limit = (round: number) => 20 + round;
  const last = async (p: string, token?: string) => {
    const pages = await Promise.all(Array.from({ length: ROUNDS + 1 }, (_, r) => lastPage(server, p, limit(r), token)));
    return (round: number) => pages[round]!;
  };
  const publicLast = await last('/api/competition/public/list');
  const registersLast = await last('/api/team/register/list', admin);
  const usersLast = await last('/api/team/userinfo/list', admin);
  const competitionsLast = await last('/api/competition/list', admin);
  const list: [string, number, Ask][] = [
    ['public competition list, last page', BUDGETS.listMs, (r) => ({ path: `/api/competition/public/list?page=${publicLast(r)}&limit=${limit(r)}` })],
    ['public competition list, keyword', BUDGETS.listMs, (r) => ({ path: `/api/competition/public/list?keyword=${encodeURIComponent(`第${31 + r}届`)}` })],
    ['registrations of all competitions, page 1', BUDGETS.listMs, (r) => ({ path: `/api/team/register/list?page=1&limit=${limit(r)}`, token: admin })],
    ['registrations of all competitions, last page', BUDGETS.listMs, (r) => ({ path: `/api/team/register/list?page=${registersLast(r)}&limit=${limit(r)}`, token: admin })],
    ['registrations of the hot competition, keyword', BUDGETS.listMs, (r) => ({ path: `/api/team/register/list?competitionId=${HOT.competitionId}&keyword=${encodeURIComponent(`热门队伍${301 + r}`)}`, token: admin })],
    ['users, keyword search', BUDGETS.listMs, (r) => ({ path: `/api/team/userinfo/list?keyword=${encodeURIComponent(`选手${1201 + r}`)}`, token: admin })],
    ['users, last page', BUDGETS.listMs, (r) => ({ path: `/api/team/userinfo/list?page=${usersLast(r)}&limit=${limit(r)}`, token: admin })],
    ['back-office notice list', BUDGETS.listMs, (r) => ({ path: `/api/message/notice/page?page=1&limit=${limit(r)}`, token: admin })],
    ['back-office competition list, last page', BUDGETS.listMs, (r) => ({ path: `/api/competition/list?page=${competitionsLast(r)}&limit=${limit(r)}`, token: admin })],
    ['back-office competition list, keyword', BUDGETS.listMs, (r) => ({ path: `/api/competition/list?keyword=${encodeURIComponent(`第${41 + r}届`)}`, token: admin })],
    ['back-office question list', BUDGETS.listMs, (r) => ({ path: `/api/competition/question/page?page=1&limit=${limit(r)}`, token: admin })],
    ['back-office orders list', BUDGETS.listMs, (r) => ({ path: `/api/order/list?page=1&limit=${limit(r)}`, token: admin })],
    ["hot question, a team's own submissions", BUDGETS.listMs, () => ({ path: `/api/review/test/list/${HOT.questionId}`, token: seeded.hotLeaderToken })],
    ['hot question leaderboard', BUDGETS.boardMs, (r) => ({ path: `/api/review/test/leaderboard/${HOT.questionId}?board=public&page=${r + 1}&limit=50` })],
    ["hot question leaderboard, a team's own rank", BUDGETS.boardMs, (r) => ({ path: `/api/review/test/leaderboard/${HOT.questionId}?board=public&page=${r + 2}&limit=50`, token: seeded.hotLeaderToken })],
  ];
  for (const [name, budget, ask] of list) {
    log(`single requests: ${name}`);
    singles.push(await single(server, name, budget, ask));
  }
  // The report is written once a second: wait for the second that holds the last request.
  await new Promise((r) => setTimeout(r, 1200));
  return { singles, eventLoopMaxMs: eventLoopMax(reportFile, started, Date.now()) };
}

/** The longest event-loop delay reported for a second between `from` and `to`. */
export function eventLoopMax(file: string, from: number, to: number): number {
  if (!fs.existsSync(file)) return NaN;
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
  const seconds = lines.map((l) => JSON.parse(l) as { t: number; maxMs: number }).filter((s) => s.t >= from && s.t <= to + 1000);
  return seconds.length ? Math.max(...seconds.map((s) => s.maxMs)) : NaN;
}

/**
 * A notice to all users, as the back office sends it (a draft, then 发布): the time to the publishing answer, how long
 * delivery takes (the server runs its job worker, which delivers in batches), and the longest event-loop delay of any
 * second meanwhile, from the server's report (`reportFile`): delivery must not hold the loop the requests share.
 */
export async function broadcast(server: Spawned, seeded: Seeded, reportFile: string, log: (t: string) => void): Promise<ScaleResult['broadcast']> {
  log('broadcast notice to all users');
  const draft = await once(server, { method: 'POST', path: '/api/message/notice', token: seeded.adminToken, body: { kind: 0, title: '全体通知（基准）', content: '<p>基准测试</p>', target: { scope: 'all' } } });
  const failed = (r: { ms: number; status: number; body: string }) => ({ answerMs: r.ms, recipients: 0, deliveredSeconds: null, progress: `${r.status} ${r.body.slice(0, 120)}`, eventLoopMaxMs: NaN });
  if (draft.status !== 200) return failed(draft);
  const id = (JSON.parse(draft.body) as { data: { id: number } }).data.id;
  const started = Date.now();
  const r = await once(server, { method: 'POST', path: `/api/message/notice/${id}`, token: seeded.adminToken, body: {} });
  if (r.status !== 200) return failed(r);
  const t = performance.now();
  let progress = '';
  let recipients = 0;
  let deliveredSeconds: number | null = null;
  // Delivery progress as the sender sees it in the back office, until done (or five minutes).
  while (performance.now() - t < 300_000) {
    const page = (await json(server, { path: '/api/message/notice/page?page=1&limit=20', token: seeded.adminToken })).data as { list: Record<string, unknown>[] };
    const row = page.list.find((n) => n.id === id) ?? {};
    recipients = Number(row.recipients ?? 0);
    progress = `${row.delivered}/${recipients}`;
    if (row.deliveredAt) {
      deliveredSeconds = (performance.now() - t) / 1000;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await new Promise((resolve) => setTimeout(resolve, 1200));
  return { answerMs: r.ms, recipients, deliveredSeconds, progress, eventLoopMaxMs: eventLoopMax(reportFile, started, Date.now()) };
}

/** The registrations export of every competition, streamed: its time, size and the server's peak memory. */
export async function exportAll(server: Spawned, seeded: Seeded, dir: string, log: (t: string) => void): Promise<ScaleResult['export']> {
  log('export of every registration');
  const idleRssBytes = server.rss();
  const t = performance.now();
  const res = await fetch(`${server.url}/api/team/register/list?export=xlsx`, { headers: { authorization: `Bearer ${seeded.adminToken}` } });
  const file = path.join(dir, 'registrations.xlsx');
  const out = fs.createWriteStream(file);
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    out.write(chunk);
  }
  await new Promise((r) => out.end(r));
  const seconds = (performance.now() - t) / 1000;
  fs.rmSync(file, { force: true });
  return { rows: seeded.counts.registers ?? 0, seconds, bytes, peakRssBytes: server.peakRss(), idleRssBytes, status: res.status };
}

export const scaleLabel = () => `${SCALE}x`;
