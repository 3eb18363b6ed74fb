import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillBoards } from '../src/db/migrations/0016_board_scores.ts';
import { runDueJobs } from '../src/jobs/runner.ts';
import { refreshTeamBoards, wholeBoard } from '../src/modules/test-submissions/repo.ts';
import { mulberry32 } from './mulberry32.ts';
import {
  ADMIN_PASSWORD,
  DATABASES,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  multipart,
  onlineCompetition,
  registerUser,
  type Client,
  type TestApp,
  REG_INFO as info,
} from './helpers.ts';
import type { Kysely } from 'kysely';

const IDS = Array.from({ length: 40 }, (_, i) => `u${i}`);
const TRUTH = IDS.map((_, i) => (i * 3) % 10);
const ANSWER = ['id,y', ...IDS.map((id, i) => `${id},${TRUTH[i]}`)].join('\n');
/** Predictions off by `err` on every row: RMSE = err exactly, on both boards. */
const prediction = (err: number) => ['id,y', ...IDS.map((id, i) => `${id},${TRUTH[i]! + err}`)].join('\n');

type Row = { id: number; teamId: number; publicScore: number | null; privateScore: number | null; selected: number };

/**
 * The boards' rule written out plainly, as the boards ranked in JavaScript before the boards' table: the public board
 * takes each team's best public score; the private board the best private score among the team's selected submissions
 * or, when it selected none, the private score of its best public one; the earliest of equal scores counts, and of two
 * teams tied the one that reached the score first ranks first.
 */
function reference(rows: Row[], higher: boolean, board: 'public' | 'private') {
  const better = (a: number, b: number) => (higher ? a > b : a < b);
  const byTeam = new Map<number, Row[]>();
  for (const r of [...rows].sort((a, b) => a.id - b.id)) byTeam.set(r.teamId, [...(byTeam.get(r.teamId) ?? []), r]);
  const pick = (list: Row[], key: 'publicScore' | 'privateScore') => {
    let best: Row | null = null;
    for (const r of list) if (r[key] !== null && (!best || better(r[key]!, best[key]!))) best = r;
    return best;
  };
  const entries: { teamId: number; score: number; by: number }[] = [];
  for (const [teamId, list] of byTeam) {
    const chosen = list.filter((r) => r.selected === 1);
    const by = board === 'public' ? pick(list, 'publicScore') : chosen.length ? pick(chosen, 'privateScore') : pick(list, 'publicScore');
    const score = by ? (board === 'public' ? by.publicScore : by.privateScore) : null;
    if (by && score !== null) entries.push({ teamId, score, by: by.id });
  }
  entries.sort((a, b) => (a.score === b.score ? a.by - b.by : better(a.score, b.score) ? -1 : 1));
  return entries.map((e) => ({ teamId: e.teamId, score: e.score }));
}

/** Leaderboards read from the boards' table (issue 22): paged, the caller's own row and rank, fresh on every score. */
describe.each(DATABASES)('leaderboards computed where the data is on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let competitionId: number;
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, {
      clock: { now: () => new Date('2026-03-20T02:00:00Z') },
      env: { SESSION_TTL_HOURS: String(24 * 365), REGISTER_MAX_PER_IP: '100000' },
    });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'boardOrg', '榜单大学');
    competitionId = await onlineCompetition(admin, org);
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    for (const code of ['CHOICE_SET', 'SUBMIT_TEST'])
      await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === code)!.id}`, { enable: true });
  });
  afterAll(() => t.close());

  /** Each test's own question, so that its board holds its teams only. */
  async function newQuestion() {
    const id = body(
      await org.post(`/api/competition/question/${competitionId}`, {
        title: `榜单题${++seq}`,
        evaluation: { metric: 'rmse', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 5 },
      }),
    ).data.id as number;
    await org.request({ method: 'POST', url: `/api/competition/question/${id}/answer`, ...multipart('answer.csv', Buffer.from(ANSWER), 'text/csv') });
    await admin.put(`/api/competition/question/review/${id}`, { reviewed: true });
    return id;
  }

  async function team(questionId: number) {
    const username = `bt${++seq}x`;
    await registerUser(t.app, username);
    const leader = await loggedIn(t.app, username);
    const res = await leader.post(`/api/team/register/${competitionId}`, { teamName: `榜单队${username}`, info });
    expect([res.statusCode, body(res).message]).toEqual([200, expect.anything()]);
    const r = body(res).data;
    await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
    expect((await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId })).statusCode).toBe(200);
    return { leader, teamId: r.teamId as number };
  }
  const submit = (questionId: number, who: Client, err: number) =>
    who.request({ method: 'POST', url: `/api/review/test/${questionId}`, ...multipart('pred.csv', Buffer.from(prediction(err)), 'text/csv') });
  const board = async (questionId: number, who: Client, query = '') =>
    body(await who.get(`/api/review/test/leaderboard/${questionId}?board=public${query}`)).data;

  it('serves the board a page at a time, with each caller’s own row and rank wherever it stands, and a new score at once', async () => {
    const questionId = await newQuestion();
    const teams = [];
    for (const err of [3, 1, 5, 2, 4]) {
      const tm = await team(questionId);
      expect((await submit(questionId, tm.leader, err)).statusCode).toBe(200);
      teams.push({ ...tm, err });
    }
    await runDueJobs(t.deps);
    const first = await board(questionId, admin, '&page=1&limit=2');
    expect(first.total).toBe(5);
    expect(first.entries.map((e: { rank: number; score: number }) => [e.rank, e.score])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    const last = await board(questionId, admin, '&page=3&limit=2');
    expect(last.entries.map((e: { rank: number; score: number }) => [e.rank, e.score])).toEqual([[5, 5]]);
    expect(last.mine).toBeUndefined();
    // The worst team reads page 1 and still gets its own row, ranked fifth.
    const worst = teams.find((x) => x.err === 5)!;
    const seen = await board(questionId, worst.leader, '&page=1&limit=2');
    expect(seen.entries).toHaveLength(2);
    expect(seen.mine).toMatchObject({ rank: 5, teamId: worst.teamId, score: 5, submissions: 1 });
    // A page past the end is empty, with the total.
    expect(await board(questionId, admin, '&page=9&limit=2')).toMatchObject({ entries: [], total: 5 });
    // A limit beyond the maximum is refused with a message.
    const tooMany = await admin.get(`/api/review/test/leaderboard/${questionId}?limit=201`);
    expect([tooMany.statusCode, body(tooMany).message]).toEqual([400, '每页最多200条']);

    // The page was just read (and cached); a better score lands and the next read shows it, on the first page.
    const fresh = teams.find((x) => x.err === 3)!;
    expect((await submit(questionId, fresh.leader, 0.5)).statusCode).toBe(200);
    await runDueJobs(t.deps);
    const after = await board(questionId, fresh.leader, '&page=1&limit=2');
    expect(after.entries[0]).toMatchObject({ rank: 1, teamId: fresh.teamId, score: 0.5, submissions: 2 });
    expect(after.mine).toMatchObject({ rank: 1, teamId: fresh.teamId });
    expect(after.total).toBe(5);
  });

  it('keeps in its table, and fills at migration, exactly the boards the rule ranks, on random histories', async () => {
    const questionId = await newQuestion();
    const db = t.database.db;
    const teams = await Promise.all(Array.from({ length: 4 }, () => team(questionId)));
    const q = await db.selectFrom('questions').select(['scoringVersion']).where('id', '=', questionId).executeTakeFirstOrThrow();
    const rnd = mulberry32(22);
    const scoreOrNull = () => (rnd() < 0.15 ? null : Math.floor(rnd() * 6) / 2);
    const now = new Date().toISOString();
    // Random histories, with repeated scores (ties within and across teams), missing scores and selections.
    const inserted = Array.from({ length: 60 }, () => {
      const tm = teams[Math.floor(rnd() * teams.length)]!;
      return {
        competitionId,
        questionId,
        teamId: tm.teamId,
        userId: 1,
        fileKey: 'none',
        fileName: 'random.csv',
        size: 1,
        status: 2,
        reason: null,
        publicScore: scoreOrNull(),
        privateScore: scoreOrNull(),
        rows: 40,
        selected: rnd() < 0.2 ? 1 : 0,
        day: '2026-01-01',
        createdAt: now,
        scoredAt: now,
        scoringVersion: q.scoringVersion,
      };
    });
    await db.insertInto('testSubmissions').values(inserted).execute();
    const rows: Row[] = await db
      .selectFrom('testSubmissions')
      .select(['id', 'teamId', 'publicScore', 'privateScore', 'selected'])
      .where('questionId', '=', questionId)
      .where('status', '=', 2)
      .where('scoringVersion', '=', q.scoringVersion)
      .execute();
    const read = async (which: 'public' | 'private') => (await wholeBoard(db, questionId, which)).map((e) => ({ teamId: e.teamId, score: e.score }));
    const expectRule = async () => {
      for (const which of ['public', 'private'] as const) expect(await read(which)).toEqual(reference(rows, false, which));
    };

    // Kept team by team, as scoring and selections do.
    const allTeams = [...new Set(rows.map((r) => r.teamId))];
    for (const teamId of allTeams)
      await db.transaction().execute((trx) => refreshTeamBoards(trx, { questionId, teamId, version: q.scoringVersion, higher: false }));
    await expectRule();
    // Filled in one statement, as migration 0016 does for a platform upgraded with scores in it.
    await db.deleteFrom('boardScores').execute();
    await backfillBoards(db as unknown as Kysely<unknown>);
    await expectRule();
    // And through the API: the whole public board, in pages, is the rule's.
    const ranked = [];
    for (let page = 1; ; page++) {
      const b = await board(questionId, admin, `&page=${page}&limit=3`);
      ranked.push(...b.entries.map((e: { teamId: number; score: number }) => ({ teamId: e.teamId, score: e.score })));
      if (b.entries.length < 3) break;
    }
    expect(ranked).toEqual(reference(rows, false, 'public'));
  });
});
