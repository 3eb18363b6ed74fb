import fs from 'node:fs';
import path from 'node:path';
import { memoryCsv } from '../server/src/scoring/csv.ts';
import { zipEntries, zipEntryBytes } from '../server/src/scoring/unpack.ts';
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
export const BUDGETS = { listMs: 100, boardMs: 50, eventLoopMs: 50, exportRssBytes: 300 * 1024 * 1024, cloneMs: 2000 };

export interface Single {
  name: string;
  budgetMs: number;
  medianMs: number;
  maxMs: number;
  /** What the answers held (rows of how many), so that a fast answer over nothing shows as such. */
  held: string;
  /** Statuses other than 200, and answers that did not hold what the figure names (either fails the figure). */
  failures: string[];
}

export interface ScaleResult {
  scale: number;
  singles: Single[];
  /** The longest event-loop delay of any second while the single requests ran. */
  eventLoopMaxMs: number;
  broadcast: { answerMs: number; recipients: number; deliveredSeconds: number | null; progress: string; eventLoopMaxMs: number };
  /** `rows`: the data rows counted in the workbook; `expected`: the registrations seeded. */
  export: { rows: number; expected: number; seconds: number; bytes: number; peakRssBytes: number; idleRssBytes: number; status: number };
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

/**
 * What an answer must hold for its figure to count: `check` reads the answer's data and says what it held, and what is
 * wrong with it (an empty page, a board without its teams, a search that found nothing).
 */
type Checked = { held: string; problem?: string };
type Check = (data: Record<string, any>, round: number) => Checked | Promise<Checked>;

async function single(server: Spawned, name: string, budgetMs: number, ask: Ask, check: Check): Promise<Single> {
  // One request first, not counted: the process's first use of a statement or a page of the database.
  await once(server, ask(ROUNDS));
  const times: number[] = [];
  const failures: string[] = [];
  let held = '';
  for (let round = 0; round < ROUNDS; round++) {
    const r = await once(server, ask(round));
    times.push(r.ms);
    if (r.status !== 200) {
      failures.push(`${r.status} ${r.body.slice(0, 120)}`);
      continue;
    }
    // The API answers in an envelope; an embed's JSON (`/embed/…?format=json`) is the data itself.
    const parsed = JSON.parse(r.body) as Record<string, any>;
    const c = await check('status' in parsed && 'data' in parsed ? parsed.data : parsed, round);
    held = c.held;
    if (c.problem) failures.push(c.problem);
  }
  return { name, budgetMs, medianMs: median(times), maxMs: Math.max(...times), held, failures };
}

const count = (n: number) => n.toLocaleString('en-US');
/** A page of a list: as many rows as the page should hold of the total, and a total of at least `least`. */
const page =
  (limit: (round: number) => number, pageOf: (round: number) => number, least = 1, exact?: number): Check =>
  (data, round) => {
    const total = Number(data.total);
    const rows = (data.list as unknown[]).length;
    const want = Math.max(0, Math.min(limit(round), total - (pageOf(round) - 1) * limit(round)));
    const held = `${count(rows)} rows of ${count(total)}`;
    if (exact !== undefined && total !== exact) return { held, problem: `total ${total}, seeded ${exact}` };
    if (total < least) return { held, problem: `total ${total}, expected at least ${least}` };
    return rows === want && rows > 0 ? { held } : { held, problem: `page held ${rows} rows, expected ${want}` };
  };
/** A keyword search: at least one match, each holding the keyword in `field`. */
const matches =
  (keyword: (round: number) => string, field: string): Check =>
  (data, round) => {
    const list = data.list as Record<string, unknown>[];
    const held = `${count(list.length)} matches of ${count(Number(data.total))}`;
    if (!list.length) return { held, problem: `no match for ${keyword(round)}` };
    const stray = list.find((row) => !String(row[field]).includes(keyword(round)));
    return stray ? { held, problem: `${String(stray[field])} does not hold ${keyword(round)}` } : { held };
  };

const json = async (server: Spawned, a: ReturnType<Ask>) => JSON.parse((await once(server, a)).body) as { data: Record<string, unknown> };

/** The number of a list's last page of `limit` entries. */
async function lastPage(server: Spawned, p: string, limit: number, token?: string): Promise<number> {
  const total = Number((await json(server, { path: `${p}${p.includes('?') ? '&' : '?'}page=1&limit=${limit}`, token })).data.total ?? 0);
  return Math.max(1, Math.ceil(total / limit));
}

export async function singleRequests(
  server: Spawned,
  seeded: Seeded,
  reportFile: string,
  log: (t: string) => void,
): Promise<{ singles: Single[]; eventLoopMaxMs: number }> {
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
  const online = seeded.onlineIds;
  const e = seeded.expect;
  const one = () => 1;
  const publicKeyword = (r: number) => `第${online[30 + r]}届`;
  const officeKeyword = (r: number) => `第${41 + r}届`;
  const hotKeyword = (r: number) => `热门队伍${301 + r}`;
  const userKeyword = (r: number) => `选手${1201 + r}`;
  const board = (data: Record<string, any>, round: number): Checked => {
    const entries = data.entries as unknown[];
    const held = `${count(entries.length)} teams of ${count(Number(data.total))} on the board`;
    if (data.total !== e.hotBoardTeams) return { held, problem: `board total ${data.total}, seeded teams with a score ${e.hotBoardTeams}` };
    return entries.length === 50 ? { held } : { held, problem: `page ${round + 1} held ${entries.length} teams` };
  };
  const hotQuestions = ((await json(server, { path: `/api/competition/question/list/${HOT.competitionId}`, token: admin })).data as unknown as unknown[])
    .length;
  const list: [string, number, Ask, Check][] = [
    [
      'public competition list, last page',
      BUDGETS.listMs,
      (r) => ({ path: `/api/competition/public/list?page=${publicLast(r)}&limit=${limit(r)}` }),
      page(limit, publicLast),
    ],
    [
      'public competition list, keyword',
      BUDGETS.listMs,
      (r) => ({ path: `/api/competition/public/list?keyword=${encodeURIComponent(publicKeyword(r))}` }),
      matches(publicKeyword, 'name'),
    ],
    [
      'registrations of all competitions, page 1',
      BUDGETS.listMs,
      (r) => ({ path: `/api/team/register/list?page=1&limit=${limit(r)}`, token: admin }),
      page(limit, one, 1, e.registers),
    ],
    [
      'registrations of all competitions, last page',
      BUDGETS.listMs,
      (r) => ({ path: `/api/team/register/list?page=${registersLast(r)}&limit=${limit(r)}`, token: admin }),
      page(limit, registersLast, 1, e.registers),
    ],
    [
      'registrations of the hot competition, keyword',
      BUDGETS.listMs,
      (r) => ({ path: `/api/team/register/list?competitionId=${HOT.competitionId}&keyword=${encodeURIComponent(hotKeyword(r))}`, token: admin }),
      matches(hotKeyword, 'teamName'),
    ],
    [
      'users, keyword search',
      BUDGETS.listMs,
      (r) => ({ path: `/api/team/userinfo/list?keyword=${encodeURIComponent(userKeyword(r))}`, token: admin }),
      matches(userKeyword, 'userName'),
    ],
    [
      'users, last page',
      BUDGETS.listMs,
      (r) => ({ path: `/api/team/userinfo/list?page=${usersLast(r)}&limit=${limit(r)}`, token: admin }),
      page(limit, usersLast, e.users),
    ],
    [
      'back-office notice list',
      BUDGETS.listMs,
      (r) => ({ path: `/api/message/notice/page?page=1&limit=${limit(r)}`, token: admin }),
      page(limit, one, HOT.notices),
    ],
    [
      'back-office competition list, last page',
      BUDGETS.listMs,
      (r) => ({ path: `/api/competition/list?page=${competitionsLast(r)}&limit=${limit(r)}`, token: admin }),
      page(limit, competitionsLast, 1000 * SCALE),
    ],
    [
      'back-office competition list, keyword',
      BUDGETS.listMs,
      (r) => ({ path: `/api/competition/list?keyword=${encodeURIComponent(officeKeyword(r))}`, token: admin }),
      matches(officeKeyword, 'name'),
    ],
    [
      'back-office question list',
      BUDGETS.listMs,
      (r) => ({ path: `/api/competition/question/page?page=1&limit=${limit(r)}`, token: admin }),
      page(limit, one, 2000 * SCALE),
    ],
    ['back-office orders list', BUDGETS.listMs, (r) => ({ path: `/api/order/list?page=1&limit=${limit(r)}`, token: admin }), page(limit, one, 1, e.orders)],
    [
      "hot question, a team's own submissions",
      BUDGETS.listMs,
      () => ({ path: `/api/review/test/list/${HOT.questionId}`, token: seeded.hotLeaderToken }),
      (data) => {
        const n = (data.list as unknown[]).length;
        return { held: `${n} submissions`, ...(n !== e.hotLeaderSubmissions && { problem: `${n} submissions listed, seeded ${e.hotLeaderSubmissions}` }) };
      },
    ],
    [
      'hot question leaderboard',
      BUDGETS.boardMs,
      (r) => ({ path: `/api/review/test/leaderboard/${HOT.questionId}?board=public&page=${r + 1}&limit=50` }),
      board,
    ],
    [
      "hot question leaderboard, a team's own rank",
      BUDGETS.boardMs,
      (r) => ({ path: `/api/review/test/leaderboard/${HOT.questionId}?board=public&page=${r + 2}&limit=50`, token: seeded.hotLeaderToken }),
      (data, round) => {
        const b = board(data, round + 1);
        const rank = Number(data.mine?.rank);
        if (b.problem) return b;
        return rank >= 1 && rank <= e.hotBoardTeams ? { held: `${b.held}, own rank ${count(rank)}` } : { held: b.held, problem: `own rank ${data.mine?.rank}` };
      },
    ],
    [
      'hot question board embedded elsewhere, as JSON',
      BUDGETS.boardMs,
      (r) => ({ path: `/embed/leaderboard/${HOT.questionId}?format=json&limit=${50 + r}` }),
      (data, round) => {
        const rows = (data.rows as unknown[]).length;
        const held = `${count(rows)} rows of ${count(Number(data.total))}`;
        return rows === 50 + round && Number(data.total) === e.hotBoardTeams
          ? { held }
          : { held, problem: `${rows} rows of ${data.total}, seeded ${e.hotBoardTeams}` };
      },
    ],
    // Last: it adds competitions (drafts, none public), which the figures above count.
    [
      '复制为新一届: the hot competition copied whole',
      BUDGETS.cloneMs,
      (r) => ({
        method: 'POST',
        path: `/api/competition/clone/${HOT.competitionId}`,
        token: admin,
        body: {
          name: `基准新一届${r}`,
          shiftYears: 1,
          shiftDays: 0,
          parts: ['pages', 'stages', 'presets', 'questions', 'review', 'certificates', 'fees', 'notices'],
        },
      }),
      // What was copied: every question of the hot competition, and none of its 30,000 teams.
      async (data) => {
        const made = await json(server, { path: `/api/competition/question/list/${data.id}`, token: admin });
        const page = await json(server, { path: `/api/competition/public/${data.id}`, token: admin });
        const questions = (made.data as unknown as unknown[]).length;
        const teams = Number(page.data.teamNum);
        const held = `new draft ${data.id}: ${questions} of ${hotQuestions} questions, ${teams} teams`;
        return questions === hotQuestions && hotQuestions > 0 && teams === 0 ? { held } : { held, problem: held };
      },
    ],
  ];
  for (const [name, budget, ask, check] of list) {
    log(`single requests: ${name}`);
    singles.push(await single(server, name, budget, ask, check));
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
  const draft = await once(server, {
    method: 'POST',
    path: '/api/message/notice',
    token: seeded.adminToken,
    body: { kind: 0, title: '全体通知（基准）', content: '<p>基准测试</p>', target: { scope: 'all' } },
  });
  const failed = (r: { ms: number; status: number; body: string }) => ({
    answerMs: r.ms,
    recipients: 0,
    deliveredSeconds: null,
    progress: `${r.status} ${r.body.slice(0, 120)}`,
    eventLoopMaxMs: NaN,
  });
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
    const page = (await json(server, { path: '/api/message/notice/page?page=1&limit=20', token: seeded.adminToken })).data as {
      list: Record<string, unknown>[];
    };
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

/**
 * The registrations export of every competition, streamed: its time, size and the server's peak memory, and the rows
 * its workbook holds (counted in the sheet, which must hold every registration seeded).
 */
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
  const rows = res.status === 200 ? (await sheetRows(file)) - 1 : 0;
  fs.rmSync(file, { force: true });
  return { rows, expected: seeded.expect.registers, seconds, bytes, peakRssBytes: server.peakRss(), idleRssBytes, status: res.status };
}

/** The rows of a workbook's first sheet (its header among them), counted in the sheet's XML as it inflates. */
async function sheetRows(file: string): Promise<number> {
  const bytes = fs.readFileSync(file);
  const zip = memoryCsv(bytes);
  const sheet = (await zipEntries(zip, bytes.length)).find((entry) => /^xl\/worksheets\/sheet1\.xml$/.test(entry.name));
  if (!sheet) return 0;
  let rows = 0;
  let carry = '';
  for await (const chunk of await zipEntryBytes(zip, bytes.length, sheet, Number.MAX_SAFE_INTEGER)) {
    const text = carry + chunk.toString('latin1');
    rows += text.split('<row ').length - 1;
    carry = text.slice(-4);
  }
  return rows;
}

export const scaleLabel = () => `${SCALE}x`;
