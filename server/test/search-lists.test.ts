import { EVERY_ORG } from '../src/db/org-scope.ts';
import { CompiledQuery, createQueryId, sql, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usernameKey } from '@contest/shared';
import type { Db } from '../src/db/database.ts';
import { listRegisters } from '../src/modules/registrations/repo.ts';
import { listUsers } from '../src/modules/users/repo.ts';
import { ADMIN_PASSWORD, DATABASES, body, createTestApp, loggedIn, type Client, type TestApp } from './helpers.ts';
import { mulberry32 } from './mulberry32.ts';

/**
 * The back-office lists of users and registrations on the search indexes of migration 0017: the rows any keyword
 * finds are those a plain case-insensitive "contains" finds (checked here in JavaScript over every row), with
 * updates and deletes seen at once; counts and the last pages are right; and the plans use the indexes.
 */
const SURNAMES = ['张', '王', '李', '欧阳', '司马', '赵'];
const GIVEN = ['小明', '晓红', '明', '伟', '大伟', '丽丽', '明明'];
const LATIN = ['alice', 'Bob', 'CAROL', 'dave_x', 'eve%y', 'mallory', 'ALIce'];

interface UserRow {
  id: number;
  usernameKey: string;
  userName: string | null;
  phone: string | null;
  email: string | null;
  status: number;
  orgId: number | null;
  username: string;
}
interface TeamRow {
  id: number;
  teamNo: string;
  name: string;
}
interface RegRow {
  id: number;
  teamId: number;
  userId: number;
  competitionId: number;
  status: number;
}

const has = (v: string | null | undefined, k: string) => (v ?? '').toLowerCase().includes(k.toLowerCase());

describe.each(DATABASES)('searches and deep pages of the back-office lists on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let db: Db;
  let competitions: number[];

  beforeAll(async () => {
    t = await createTestApp(kind, { seedDemo: true });
    db = t.database.db;
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    competitions = (await db.selectFrom('competitions').select('id').orderBy('id').limit(2).execute()).map((c) => c.id);
    expect(competitions).toHaveLength(2);
    const org = (await db.selectFrom('organisations').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const random = mulberry32(22);
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
    const now = new Date().toISOString();
    for (let i = 0; i < 300; i++) {
      const username = `${pick(LATIN)}${i}`;
      const chinese = random() < 0.6;
      const { id } = await db
        .insertInto('users')
        .values({
          username,
          usernameKey: usernameKey(username),
          passwordHash: null,
          phone: random() < 0.8 ? `13${String(800000000 + i * 7919).slice(0, 9)}` : null,
          email: random() < 0.7 ? `${username.toUpperCase()}@Example${i % 3}.COM` : null,
          userName: chinese ? `${pick(SURNAMES)}${pick(GIVEN)}` : random() < 0.5 ? `Mr ${pick(LATIN)}` : null,
          status: random() < 0.2 ? 0 : 1,
          orgId: random() < 0.3 ? org : null,
          createdAt: now,
          updatedAt: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (i % 3 === 0) continue;
      const competitionId = competitions[i % 2]!;
      const team = await db
        .insertInto('teams')
        .values({
          competitionId,
          teamNo: `T${kind}${String(i).padStart(5, '0')}`,
          name: `${pick(['星火', '飞鸟', 'Alpha', 'beta'])}队${pick(GIVEN)}${i}`,
          individual: 0,
          leaderId: id,
          memberCount: 1,
          joinCode: `j${i}`,
          createdAt: now,
          updatedAt: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('registers')
        .values({
          competitionId,
          teamId: team.id,
          userId: id,
          status: i % 3 === 1 ? 0 : 1,
          orderId: null,
          attachmentsJson: '[]',
          createdAt: now,
          updatedAt: now,
        })
        .execute();
    }
  });
  afterAll(() => t.close());

  const allUsers = () =>
    db
      .selectFrom('users')
      .select(['id', 'username', 'usernameKey', 'userName', 'phone', 'email', 'status', 'orgId'])
      .orderBy('id', 'desc')
      .execute() as Promise<UserRow[]>;
  const allRegs = async () => {
    const regs = (await db.selectFrom('registers').select(['id', 'teamId', 'userId', 'competitionId', 'status']).orderBy('id', 'desc').execute()) as RegRow[];
    const teams = new Map(((await db.selectFrom('teams').select(['id', 'teamNo', 'name']).execute()) as TeamRow[]).map((r) => [r.id, r]));
    const users = new Map((await allUsers()).map((u) => [u.id, u]));
    return regs.map((r) => ({ ...r, team: teams.get(r.teamId)!, user: users.get(r.userId)! }));
  };
  const userMatches = (u: UserRow, k: string) => has(u.usernameKey, k) || has(u.userName, k) || has(u.phone, k) || has(u.email, k);

  /** Every id the list answers, page by page. */
  async function pages(url: string, limit = 7): Promise<{ ids: number[]; total: number }> {
    const ids: number[] = [];
    let total = 0;
    for (let page = 1; ; page++) {
      const data = body(await admin.get(`${url}&page=${page}&limit=${limit}`)).data;
      total = data.total;
      ids.push(...data.list.map((r: { id: number }) => r.id));
      if (data.list.length < limit) break;
    }
    return { ids, total };
  }

  const KEYWORDS = [
    'alice',
    'ALI',
    'example1',
    '%y',
    'e%y',
    '_x',
    'e_x',
    '138',
    '欧阳明',
    '小明',
    '明',
    '张小明',
    '司马大伟',
    'x',
    'mr a',
    '"al',
    '不存在的人',
    '队小明',
    'T' + kind.slice(0, 2),
  ];

  it('finds by keyword exactly the users a case-insensitive "contains" finds, over every column searched', async () => {
    const users = await allUsers();
    let nonEmpty = 0;
    for (const k of KEYWORDS) {
      const expected = users.filter((u) => userMatches(u, k)).map((u) => u.id);
      if (expected.length) nonEmpty++;
      const got = await pages(`/api/team/userinfo/list?keyword=${encodeURIComponent(k)}`, 50);
      expect(got.ids, k).toEqual(expected);
      expect(got.total, k).toBe(expected.length);
    }
    expect(nonEmpty).toBeGreaterThan(12);
  });

  it('finds by keyword exactly the registrations whose team number, team name or registrant contains it', async () => {
    const regs = await allRegs();
    const match = (r: (typeof regs)[number], k: string) => has(r.team.teamNo, k) || has(r.team.name, k) || has(r.user.username, k);
    for (const k of [...KEYWORDS, '星火队', '飞鸟', 'ALPHA队']) {
      const expected = regs.filter((r) => match(r, k)).map((r) => r.id);
      expect((await pages(`/api/team/register/list?keyword=${encodeURIComponent(k)}`, 50)).ids, k).toEqual(expected);
      const inOne = regs.filter((r) => r.competitionId === competitions[1] && r.status === 1 && match(r, k)).map((r) => r.id);
      const got = await pages(`/api/team/register/list?competitionId=${competitions[1]}&status=1&keyword=${encodeURIComponent(k)}`, 50);
      expect(got.ids, k).toEqual(inOne);
      expect(got.total, k).toBe(inOne.length);
    }
  });

  it('finds by keyword exactly the orders whose number, team number, team name or payer contains it, and pages from both ends', async () => {
    const regs = await allRegs();
    const now = new Date().toISOString();
    for (const [i, r] of regs.entries()) {
      await db
        .insertInto('orders')
        .values({
          orderNo: `DD${kind}${String(i).padStart(6, '0')}`,
          competitionId: r.competitionId,
          teamId: r.teamId,
          userId: r.userId,
          amount: 100,
          payStatus: i % 3 === 0 ? 1 : 0,
          createdAt: now,
          updatedAt: now,
        })
        .execute();
    }
    const orders = (
      await db.selectFrom('orders').select(['id', 'orderNo', 'teamId', 'userId', 'competitionId', 'payStatus']).orderBy('id', 'desc').execute()
    ).map((o) => ({ ...o, reg: regs.find((r) => r.teamId === o.teamId)! }));
    const match = (o: (typeof orders)[number], k: string) =>
      has(o.orderNo, k) || has(o.reg.team.teamNo, k) || has(o.reg.team.name, k) || has(o.reg.user.username, k);
    for (const k of [...KEYWORDS, 'DD', `dd${kind}00001`, '星火队', '0']) {
      const expected = orders.filter((o) => match(o, k)).map((o) => o.id);
      const got = await pages(`/api/order/list?keyword=${encodeURIComponent(k)}`, 50);
      expect(got.ids, k).toEqual(expected);
      expect(got.total, k).toBe(expected.length);
      const paid = orders.filter((o) => o.competitionId === competitions[0] && o.payStatus === 1 && match(o, k)).map((o) => o.id);
      expect((await pages(`/api/order/list?competitionId=${competitions[0]}&payStatus=1&keyword=${encodeURIComponent(k)}`, 50)).ids, k).toEqual(paid);
    }
    // Every page, the last ones read from the far end, holds what the whole list holds at its place.
    expect((await pages('/api/order/list?', 7)).ids).toEqual(orders.map((o) => o.id));
    // The next test deletes teams and users: these orders would hold them.
    await db
      .deleteFrom('orders')
      .where(
        'id',
        'in',
        orders.map((o) => o.id),
      )
      .execute();
  });

  it('sees renames, new rows and deletions at once (the FTS triggers)', async () => {
    const [victim, renamed] = (await allUsers()).filter((u) => u.userName && !u.userName.includes('诸葛'));
    await db.updateTable('users').set({ userName: '诸葛孔明', email: 'kongming@shu.example' }).where('id', '=', renamed!.id).execute();
    const found = async (url: string) => (await pages(url, 50)).ids;
    expect(await found(`/api/team/userinfo/list?keyword=${encodeURIComponent('诸葛孔')}`)).toEqual([renamed!.id]);
    expect(await found(`/api/team/userinfo/list?keyword=${encodeURIComponent('葛孔')}`)).toEqual([renamed!.id]);
    expect(await found(`/api/team/userinfo/list?keyword=KONGMING@shu`)).toEqual([renamed!.id]);
    if (renamed!.userName!.length >= 3)
      expect(await found(`/api/team/userinfo/list?keyword=${encodeURIComponent(renamed!.userName!)}`)).not.toContain(renamed!.id);

    await db.deleteFrom('registers').where('userId', '=', victim!.id).execute();
    await db.deleteFrom('teams').where('leaderId', '=', victim!.id).execute();
    await db.deleteFrom('users').where('id', '=', victim!.id).execute();
    expect(await found(`/api/team/userinfo/list?keyword=${encodeURIComponent(victim!.usernameKey)}`)).not.toContain(victim!.id);

    const reg = (await allRegs()).find((r) => r.competitionId === competitions[0])!;
    await db.updateTable('teams').set({ name: '卧龙凤雏队' }).where('id', '=', reg.teamId).execute();
    expect(await found(`/api/team/register/list?keyword=${encodeURIComponent('龙凤雏')}`)).toEqual([reg.id]);
    expect(await found(`/api/team/register/list?keyword=${encodeURIComponent(reg.team.name)}`)).not.toContain(reg.id);
    await db.updateTable('teams').set({ teamNo: 'ZZ-SEARCH-1' }).where('id', '=', reg.teamId).execute();
    expect(await found(`/api/team/register/list?keyword=zz-search`)).toEqual([reg.id]);

    const { id } = await db
      .insertInto('users')
      .values({
        username: 'newcomer',
        usernameKey: 'newcomer',
        passwordHash: null,
        phone: null,
        email: null,
        userName: '新来的同学',
        status: 1,
        createdAt: 'x',
        updatedAt: 'x',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await found(`/api/team/userinfo/list?keyword=${encodeURIComponent('来的同')}`)).toEqual([id]);
    expect(await found(`/api/team/userinfo/list?keyword=WCOM`)).toEqual([id]);
  });

  it('counts with and without filters and serves every page, the last ones read from the end', async () => {
    const users = await allUsers();
    const org = users.find((u) => u.orgId)!.orgId!;
    for (const [query, expected] of [
      ['', users],
      ['status=0', users.filter((u) => u.status === 0)],
      [`orgId=${org}`, users.filter((u) => u.orgId === org)],
      [`status=1&keyword=a`, users.filter((u) => u.status === 1 && userMatches(u, 'a'))],
    ] as const) {
      const ids = expected.map((u) => u.id);
      for (const limit of [7, 20]) {
        const got = await pages(`/api/team/userinfo/list?${query}`, limit);
        expect(got.total, query).toBe(ids.length);
        expect(got.ids, `${query} by ${limit}`).toEqual(ids);
      }
      const lastPage = Math.ceil(ids.length / 20);
      const last = body(await admin.get(`/api/team/userinfo/list?${query}&page=${lastPage}&limit=20`)).data;
      expect(last.list.map((u: { id: number }) => u.id)).toEqual(ids.slice((lastPage - 1) * 20));
      const beyond = body(await admin.get(`/api/team/userinfo/list?${query}&page=${lastPage + 1}&limit=20`)).data;
      expect(beyond).toMatchObject({ list: [], total: ids.length });
    }
    const regs = await allRegs();
    for (const [query, expected] of [
      ['', regs],
      [`competitionId=${competitions[0]}`, regs.filter((r) => r.competitionId === competitions[0])],
      ['status=0', regs.filter((r) => r.status === 0)],
    ] as const) {
      const got = await pages(`/api/team/register/list?${query}`, 9);
      expect(got.total, query).toBe(expected.length);
      expect(got.ids, query).toEqual(expected.map((r) => r.id));
    }
    // Rows of a page carry the joined fields whichever end they were read from.
    const lastReg = body(await admin.get(`/api/team/register/list?page=${Math.ceil(regs.length / 9)}&limit=9`)).data.list.at(-1);
    expect(lastReg).toMatchObject({
      id: regs.at(-1)!.id,
      teamName: regs.at(-1)!.team.name,
      username: regs.at(-1)!.user.username,
      competitionId: regs.at(-1)!.competitionId,
    });
  });

  /** The SQL statements `run` sends (not the subqueries built on the way), compiled as they are sent. */
  async function statements(run: (spy: Db) => Promise<unknown>) {
    const nodes = new Map<unknown, RootOperationNode>();
    const sent: RootOperationNode[] = [];
    const plugin: KyselyPlugin = {
      transformQuery: ({ node, queryId }) => (nodes.set(queryId, node), node),
      transformResult: async ({ result, queryId }) => (sent.push(nodes.get(queryId)!), result),
    };
    await run(db.withPlugin(plugin));
    return sent.map((n) => db.getExecutor().compileQuery(n, createQueryId()));
  }

  async function plan(query: { sql: string; parameters: readonly unknown[] }): Promise<string> {
    const explain = async (on: Db, prefix: string) =>
      (await on.executeQuery<Record<string, string>>(CompiledQuery.raw(`${prefix} ${query.sql}`, [...query.parameters]))).rows
        .map((r) => (kind === 'sqlite' ? r.detail : Object.values(r)[0]))
        .join('\n');
    if (kind === 'sqlite') return explain(db, 'explain query plan');
    return db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      return explain(trx, 'explain');
    });
  }

  it('answers keywords from the trigram index and deep pages from an index in the list’s order', async () => {
    if (kind === 'postgres') await sql`analyze`.execute(db);
    const noSort = (p: string) => (kind === 'sqlite' ? !/TEMP B-TREE/.test(p) : !/\bSort\b/.test(p));
    const noBaseScan = (p: string, table: string) =>
      kind === 'sqlite' ? !new RegExp(`SCAN ${table}( |$)(?!.*USING)`, 'm').test(p) : !new RegExp(`Seq Scan on ${table}\\b`).test(p);

    const [userCount, userPage] = await statements((spy) => listUsers(spy, { keyword: '欧阳明', page: 1, limit: 20 }));
    for (const q of [userCount!, userPage!]) {
      const p = await plan(q);
      expect(p, q.sql).toMatch(kind === 'sqlite' ? /users_fts VIRTUAL TABLE/ : /Bitmap Index Scan on users_search_name/);
      expect(noBaseScan(p, 'users'), p).toBe(true);
    }

    const [regCount, regPage] = await statements((spy) =>
      listRegisters(spy, { keyword: '星火队', competitionId: competitions[0], page: 1, limit: 20 }, EVERY_ORG),
    );
    for (const q of [regCount!, regPage!]) {
      const p = await plan(q);
      expect(p, q.sql).toMatch(
        kind === 'sqlite'
          ? /teams_fts VIRTUAL TABLE[\s\S]*users_fts VIRTUAL TABLE|users_fts VIRTUAL TABLE[\s\S]*teams_fts VIRTUAL TABLE/
          : /Bitmap Index Scan on teams_search_name/,
      );
      expect(noBaseScan(p, 'teams') && noBaseScan(p, 'users'), p).toBe(true);
    }

    const total = (await allUsers()).length;
    const [, deepUsers] = await statements((spy) => listUsers(spy, { page: Math.ceil(total / 20 / 2), limit: 20 }));
    const deepUsersPlan = await plan(deepUsers!);
    expect(noSort(deepUsersPlan), deepUsersPlan).toBe(true);
    if (kind === 'postgres') expect(deepUsersPlan).toMatch(/Index (Only )?Scan (Backward )?using users_pkey/);

    const [, deepRegs] = await statements((spy) => listRegisters(spy, { competitionId: competitions[0], page: 5, limit: 10 }, EVERY_ORG));
    const deepRegsPlan = await plan(deepRegs!);
    expect(noSort(deepRegsPlan), deepRegsPlan).toBe(true);
    // PostgreSQL may walk the primary key backwards instead when the competition holds a large share of the rows.
    expect(deepRegsPlan).toMatch(kind === 'sqlite' ? /registers_competition_order/ : /Index (Only )?Scan (Backward )?using registers_(competition_order|pkey)/);
  });
});
