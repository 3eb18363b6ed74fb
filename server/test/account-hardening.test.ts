import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { COMMON_PASSWORD_MESSAGE, WORD_DIGITS_PASSWORD_MESSAGE } from '@contest/shared';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database_ } from '../src/db/database.ts';
import * as m0001 from '../src/db/migrations/0001_foundation.ts';
import * as m0002 from '../src/db/migrations/0002_catalogue.ts';
import * as m0003 from '../src/db/migrations/0003_registration.ts';
import * as m0004 from '../src/db/migrations/0004_invoices.ts';
import * as m0005 from '../src/db/migrations/0005_questions.ts';
import * as m0006 from '../src/db/migrations/0006_tests.ts';
import * as m0007 from '../src/db/migrations/0007_works.ts';
import * as m0008 from '../src/db/migrations/0008_review.ts';
import * as m0009 from '../src/db/migrations/0009_notices.ts';
import * as m0010 from '../src/db/migrations/0010_indexes.ts';
import * as m0011 from '../src/db/migrations/0011_lookalikes_pools_invitations.ts';
import { ADMIN_PASSWORD, DATABASES, body, createTestApp, loggedIn, registerUser, type Client, type DbKind, type TestApp } from './helpers.ts';

const LOOKALIKE = '该用户名与已有用户名过于相似，请换一个';
const TAKEN = '用户名已被注册';

describe.each(DATABASES)('accounts that cannot be mistaken or guessed on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let caller = 0;

  /** Each registration from its own address, so that the per-address throttle of registrations stays out of the way. */
  const register = (username: string, password = 'Passw0rd1') =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { username, password },
      remoteAddress: `10.77.${Math.floor(++caller / 200)}.${caller % 200}`,
    });
  const userCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    for (const name of ['alice', 'will', 'john', 'modern', 'paypal']) expect((await register(name)).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it.each([
    ['аlice', 'a Cyrillic а'],
    ['alıce', 'a dotless ı'],
    ['álice', 'a combining accent'],
    ['wiIl', 'a capital I for l'],
    ['wi1l', 'the digit 1 for l'],
    ['j0hn', 'the digit 0 for o'],
    ['rnodern', 'rn for m'],
    ['раураl', 'Cyrillic р, а, у'],
  ])('refuses %s (%s), which looks like an existing name', async (username) => {
    const before = await userCount();
    const res = await register(username);
    expect([res.statusCode, body(res).message, body(res).data.fields.username]).toEqual([409, LOOKALIKE, LOOKALIKE]);
    expect(await userCount()).toBe(before);
  });

  it('still calls a name of the same key taken, and lets a different name register', async () => {
    for (const username of ['ALICE', 'ａｌｉｃｅ', '𝐚𝐥𝐢𝐜𝐞']) {
      const res = await register(username);
      expect([res.statusCode, body(res).message]).toEqual([409, TAKEN]);
    }
    expect((await register('alicia')).statusCode).toBe(200);
  });

  it('lets exactly one of several look-alikes registering at once win, by the unique skeleton', async () => {
    const names = ['racer', 'rаcer', 'rасer', 'ｒacer', 'raсеr'];
    const results = await Promise.all(names.map((n) => register(n)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect([TAKEN, LOOKALIKE]).toContain(body(r).message);
    const rows = await t.database.db.selectFrom('users').select('usernameSkeleton').where('usernameSkeleton', '=', 'racer').execute();
    expect(rows).toHaveLength(1);
  });

  it.each([
    ['password123', COMMON_PASSWORD_MESSAGE],
    ['qwerty1234', COMMON_PASSWORD_MESSAGE],
    ['woaini1314', COMMON_PASSWORD_MESSAGE],
    ['1qaz2wsx', COMMON_PASSWORD_MESSAGE],
    ['zhangsan2024', WORD_DIGITS_PASSWORD_MESSAGE],
    ['Admin12345', COMMON_PASSWORD_MESSAGE],
    ['liuxiaoming88', WORD_DIGITS_PASSWORD_MESSAGE],
  ])('refuses the password %s when registering', async (password, message) => {
    const res = await register(`pw${randomBytes(3).toString('hex')}`, password);
    expect([res.statusCode, body(res).data.fields.password]).toEqual([400, message]);
  });

  it('refuses such passwords when a user changes theirs and when an administrator resets one', async () => {
    const { id } = await registerUser(t.app, 'pwchanger');
    const user = await loggedIn(t.app, 'pwchanger');
    const change = await user.put('/api/auth/password', { oldPassword: 'Passw0rd1', newPassword: 'pwchanger2024' });
    expect([change.statusCode, body(change).data.fields.newPassword]).toEqual([400, WORD_DIGITS_PASSWORD_MESSAGE]);
    const reset = await admin.put(`/api/system/user/${id}/password`, { password: 'qq123456' });
    expect([reset.statusCode, body(reset).data.fields.password]).toEqual([400, COMMON_PASSWORD_MESSAGE]);
    // Nothing changed: the old password still opens the account, and a strong one is taken.
    await loggedIn(t.app, 'pwchanger');
    expect((await user.put('/api/auth/password', { oldPassword: 'Passw0rd1', newPassword: 'Tr0ub4dor&3' })).statusCode).toBe(200);
    await loggedIn(t.app, 'pwchanger', 'Tr0ub4dor&3');
  });

  it('leaves the configured administrator password, which seeding sets, as it is', async () => {
    // CONTEST_ADMIN_PASSWORD of the tests is a word plus digits: only passwords set through the API are checked.
    expect(ADMIN_PASSWORD).toBe('Admin12345');
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'admin', password: ADMIN_PASSWORD } })).statusCode).toBe(200);
  });
});

/** A database migrated up to the release before 0011, with rows as that release wrote them. */
async function legacyDatabase(kind: DbKind): Promise<{ database: Database_; close(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'contest-legacy-'));
  let drop = async () => {};
  let databaseUrl: string | undefined;
  if (kind === 'postgres') {
    const base = process.env.TEST_DATABASE_URL!;
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`create schema ${schema}`);
    await c.end();
    const url = new URL(base);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
    drop = async () => {
      const d = new pg.Client({ connectionString: base });
      await d.connect();
      await d.query(`drop schema ${schema} cascade`);
      await d.end();
    };
  }
  const database = openDatabase({ dataDir, databaseUrl });
  const db = database.db as unknown as Kysely<unknown>;
  for (const m of [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008, m0009, m0010]) await m.up(db, { dialect: database.dialect });
  return {
    database,
    async close() {
      await database.destroy();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe.each(DATABASES)('migration 0011 over existing rows on %s', (kind) => {
  it('keeps look-alike users, gives experts the organisation that added them, and keeps invitations', async () => {
    const legacy = await legacyDatabase(kind);
    try {
      const db = legacy.database.db as unknown as Kysely<unknown>;
      const now = '2026-01-01T00:00:00.000Z';
      const one = async <T>(q: ReturnType<typeof sql<T>>) => (await q.execute(db)).rows[0]!;
      const orgId = (await one(sql<{ id: number }>`insert into organisations (name, kind, created_at) values ('甲大学', 'school', ${now}) returning id`)).id;
      const user = async (username: string, key: string, org: number | null = null) =>
        (
          await one(
            sql<{
              id: number;
            }>`insert into users (username, username_key, status, org_id, created_at, updated_at) values (${username}, ${key}, 1, ${org}, ${now}, ${now}) returning id`,
          )
        ).id;
      const admin = await user('admin', 'admin');
      const organiser = await user('organiser', 'organiser', orgId);
      const alice = await user('alice', 'alice');
      const fake = await user('аlice', 'аlice');
      const judges = { byOrg: await user('judge1', 'judge1'), byAdmin: await user('judge2', 'judge2'), unknown: await user('judge3', 'judge3') };
      for (const id of Object.values(judges)) await sql`insert into experts (user_id, organization, created_at) values (${id}, '评审中心', ${now})`.execute(db);
      const audit = (actor: number, entityId: number) =>
        sql`insert into audit_log (actor_id, action, entity, entity_id, created_at) values (${actor}, 'review.expert.add', 'user', ${String(entityId)}, ${now})`.execute(
          db,
        );
      await audit(organiser, judges.byOrg);
      await audit(admin, judges.byAdmin);
      const brand = (
        await one(sql<{ id: number }>`insert into brands (name, short_name, created_at, updated_at) values ('品牌', '品', ${now}, ${now}) returning id`)
      ).id;
      const competition = (
        await one(sql<{ id: number }>`insert into competitions (name, brand_id, org_id, reg_start_time, reg_end_time, end_time, created_at, updated_at)
          values ('旧竞赛', ${brand}, ${orgId}, ${now}, ${now}, ${now}, ${now}, ${now}) returning id`)
      ).id;
      const team = (
        await one(
          sql<{
            id: number;
          }>`insert into teams (competition_id, team_no, name, leader_id, join_code, created_at, updated_at) values (${competition}, '0000000001', '旧队', ${alice}, 'code', ${now}, ${now}) returning id`,
        )
      ).id;
      await sql`insert into team_invitations (team_id, competition_id, inviter_id, invitee_id, status, created_at) values (${team}, ${competition}, ${alice}, ${judges.unknown}, 0, ${now})`.execute(
        db,
      );

      await m0011.up(db, { dialect: legacy.database.dialect });

      // Rows come back camelCased, as everywhere in the app.
      const skeletons = await sql<{ username: string; usernameSkeleton: string | null }>`select username, username_skeleton from users order by id`.execute(db);
      expect(skeletons.rows.map((r) => [r.username, r.usernameSkeleton])).toEqual([
        ['admin', 'adrnin'],
        ['organiser', 'organiser'],
        ['alice', 'alice'],
        // Registered after alice and looking like her: kept, without a skeleton.
        ['аlice', null],
        ['judge1', 'judgel'],
        ['judge2', 'judge2'],
        ['judge3', 'judge3'],
      ]);
      await expect(
        sql`insert into users (username, username_key, username_skeleton, status, created_at, updated_at) values ('alicе', 'alicе', 'alice', 1, ${now}, ${now})`.execute(
          db,
        ),
      ).rejects.toThrow();

      const experts = await sql<{ userId: number; orgId: number | null }>`select user_id, org_id from experts order by user_id`.execute(db);
      expect(experts.rows.map((r) => [r.userId, r.orgId])).toEqual([
        [judges.byOrg, orgId],
        [judges.byAdmin, null],
        [judges.unknown, null],
      ]);
      expect(fake).toBeGreaterThan(alice);

      const invitations = await sql<{ inviteeId: number | null; account: string }>`select invitee_id, account from team_invitations`.execute(db);
      expect(invitations.rows).toEqual([{ inviteeId: judges.unknown, account: 'judge3' }]);
      // The account typed is what a pending invitation is unique by; nobody stands behind some.
      await sql`insert into team_invitations (team_id, competition_id, inviter_id, invitee_id, status, created_at, account) values (${team}, ${competition}, ${alice}, null, 0, ${now}, '13900000000')`.execute(
        db,
      );
      await expect(
        sql`insert into team_invitations (team_id, competition_id, inviter_id, invitee_id, status, created_at, account) values (${team}, ${competition}, ${alice}, null, 0, ${now}, '13900000000')`.execute(
          db,
        ),
      ).rejects.toThrow();
    } finally {
      await legacy.close();
    }
  });
});
