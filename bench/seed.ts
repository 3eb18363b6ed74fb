import { createHash, randomBytes } from 'node:crypto';
import { MENU_CODES, MENU_NAMES, REG_FIELDS, ROLE_CODES } from '@contest/shared';
import { sql, type Kysely } from 'kysely';
import type { Database_ } from '../server/src/db/database.ts';
import { backfillBoards } from '../server/src/db/migrations/0016_board_scores.ts';
import type { DB } from '../server/src/db/schema.ts';
import { mulberry32 } from '../server/test/mulberry32.ts';

/** The volumes issue 9 asks for; everything else (presets, stages, members...) follows from them. */
export const VOLUMES = { brands: 50, competitions: 1_000, teams: 30_000, users: 100_000, testSubmissions: 200_000 };
/** `BENCH_SCALE=10 npm run bench` seeds ten times the volumes (a national contest, issue 22); 1 is the default. */
export const SCALE = Math.max(1, Number(process.env.BENCH_SCALE ?? 1));
/**
 * The hot competition (issue 22), seeded on top of the volumes at every scale: competition 2 with this many more teams,
 * all on its first question, which holds this many scored test submissions; and broadcast notices read by a share of
 * their recipients.
 */
export const HOT = { competitionId: 2, questionId: 3, teams: 30_000, testSubmissions: 200_000, notices: 10, noticeRecipients: 20_000 };
/** Teams of the deadline-rush competition, each with its leader's bearer token. */
export const RUSH_TEAMS = 200;

const DAY = 24 * 3600_000;
const QUESTIONS_PER_COMPETITION = 2;
const STAGES = ['报名', '初赛', '复赛', '决赛'];
// Most competitions are online (audit status 3); the rest are drafts, pending, rejected or offline, as in a real catalogue.
const AUDIT_MIX = [3, 3, 3, 3, 3, 3, 3, 3, 0, 4];

export interface Seeded {
  counts: Record<string, number>;
  /** Online competitions the page benchmark reads. */
  onlineIds: number[];
  brandIds: number[];
  rush: { competitionId: number; questionId: number; tokens: string[]; teamIds: number[] };
  /** Bearer tokens: the administrator's, and the leader's of a team on the hot question's board. */
  adminToken: string;
  hotLeaderToken: string;
  /**
   * What the figures must find, counted as the rows were made: the hot question's teams with a score (its board's
   * total), the hot leader's team's submissions, the registrations and users in all, the online competitions (ids), and
   * the orders.
   */
  expect: { hotBoardTeams: number; hotLeaderSubmissions: number; registers: number; users: number; orders: number };
  seconds: number;
}

const PARAGRAPH =
  '本竞赛面向全国高校学生，以真实业务数据为基础，考察参赛者的数据分析、建模与表达能力。参赛队伍需在规定时间内完成赛题任务，提交作品与测试结果，由专家评审委员会按评分细则评定成绩。';
const introduce = (n: number) =>
  `<h2>竞赛简介</h2>${Array.from({ length: 6 }, (_, i) => `<p>${PARAGRAPH}（第${n}届，第${i + 1}段）</p>`).join('')}<h2>奖项设置</h2><ul><li>一等奖</li><li>二等奖</li><li>三等奖</li></ul>`;

/**
 * Multi-row inserts in batches that stay under both dialects' bound-parameter limits (SQLite 32,766; PostgreSQL 65,535).
 */
async function insertAll<T extends keyof DB & string>(db: Database_['db'], table: T, rows: Record<string, unknown>[]) {
  if (!rows.length) return;
  const per = Math.max(1, Math.floor(30_000 / Object.keys(rows[0]!).length));
  for (let i = 0; i < rows.length; i += per) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + per) as never)
      .execute();
  }
}

/**
 * Fills a migrated, seeded (roles and administrator only) database with a realistic catalogue through direct batched
 * inserts: going through the API would take hours at these volumes. Ids are given explicitly so that rows can point at
 * each other without reading back; PostgreSQL's identity sequences are moved past them afterwards.
 */
export async function seedVolume(database: Database_, now: Date): Promise<Seeded> {
  const started = performance.now();
  const { db } = database;
  // Seeded, so both databases get the same rows.
  const rnd = mulberry32(9);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const iso = now.toISOString();
  const at = (days: number) => new Date(now.getTime() + days * DAY).toISOString();
  const counts: Record<string, number> = {};
  const tokens: string[] = [];
  const V = {
    brands: VOLUMES.brands,
    competitions: VOLUMES.competitions * SCALE,
    teams: VOLUMES.teams * SCALE,
    users: VOLUMES.users * SCALE,
    testSubmissions: VOLUMES.testSubmissions * SCALE,
  };
  const bearer = (userId: number) => {
    const token = randomBytes(32).toString('base64url');
    return {
      token,
      row: {
        id: createHash('sha256').update(token).digest('hex'),
        userId,
        kind: 'token',
        csrfToken: randomBytes(16).toString('hex'),
        ip: null,
        userAgent: 'bench',
        createdAt: iso,
        lastSeenAt: iso,
        expiresAt: at(1),
      },
    };
  };
  const adminId = (await db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
  const admin = bearer(adminId);
  let hotLeaderToken = '';
  let hotBoardTeams = 0;
  let hotLeaderSubmissions = 0;

  const participantRole = (await db.selectFrom('roles').select('id').where('code', '=', ROLE_CODES.participant).executeTakeFirstOrThrow()).id;
  const userBase = Number(
    (
      await db
        .selectFrom('users')
        .select((eb) => eb.fn.max('id').as('m'))
        .executeTakeFirstOrThrow()
    ).m ?? 0,
  );

  await db.transaction().execute(async (trx) => {
    const put = async <T extends keyof DB & string>(table: T, rows: Record<string, unknown>[]) => {
      await insertAll(trx, table, rows);
      counts[table] = (counts[table] ?? 0) + rows.length;
    };

    const orgs = Array.from({ length: 100 }, (_, i) => ({
      id: i + 1,
      name: `基准大学${i + 1}`,
      kind: 'school',
      contactName: '王老师',
      contactPhone: '13800138000',
      contactEmail: null,
      createdAt: iso,
    }));
    await put('organisations', orgs);
    await put(
      'competitionTypes',
      ['数据挖掘', '机器学习', '数据可视化', '自然语言处理', '计算机视觉', '运筹优化', '统计建模', '创新创业'].map((name, i) => ({
        id: i + 1,
        name,
        sort: i,
        createdAt: iso,
      })),
    );
    await put(
      'brands',
      Array.from({ length: V.brands }, (_, i) => ({
        id: i + 1,
        name: `基准品牌${i + 1}`,
        shortName: `品牌${i + 1}`,
        logo: null,
        sort: i,
        recommend: i < 8 ? 1 : 0,
        description: `第${i + 1}个竞赛品牌，面向高校的系列赛事`,
        createdAt: iso,
        updatedAt: iso,
      })),
    );

    const users = Array.from({ length: V.users }, (_, i) => {
      const id = userBase + 1 + i;
      return {
        id,
        username: `bench${id}`,
        usernameKey: `bench${id}`,
        passwordHash: null,
        phone: `138${String(id).padStart(8, '0')}`,
        email: null,
        status: 1,
        userName: `选手${id}`,
        organization: `基准大学${(id % 100) + 1}`,
        province: '广东省',
        city: '广州市',
        createdAt: iso,
        updatedAt: iso,
      };
    });
    // The hot competition's teams need members of their own: up to three each.
    const hotUsers = Array.from({ length: HOT.teams * 3 }, (_, i) => {
      const id = userBase + 1 + V.users + i;
      return {
        id,
        username: `hot${id}`,
        usernameKey: `hot${id}`,
        passwordHash: null,
        phone: `139${String(id).padStart(8, '0')}`,
        email: null,
        status: 1,
        userName: `热门选手${id}`,
        organization: `基准大学${(id % 100) + 1}`,
        province: '北京市',
        city: '北京市',
        createdAt: iso,
        updatedAt: iso,
      };
    });
    users.push(...hotUsers);
    await put('users', users);
    await put(
      'userRoles',
      users.map((u) => ({ userId: u.id, roleId: participantRole })),
    );

    // Competition 1 is the deadline-rush one: online, registration open, works window open around now.
    const competitions = Array.from({ length: V.competitions }, (_, i) => {
      const id = i + 1;
      const start = id === 1 ? -10 : Math.floor(rnd() * 460) - 400;
      return {
        id,
        name: `第${id}届基准数据挑战赛`,
        brandId: (i % V.brands) + 1,
        typeId: (i % 8) + 1,
        orgId: (i % orgs.length) + 1,
        cover: null,
        summary: `第${id}届竞赛：以真实业务数据为基础，考察数据分析、建模与表达能力。`,
        introduce: introduce(id),
        information: `<p>${PARAGRAPH}</p>`,
        guide: `<p>${PARAGRAPH}</p>`,
        trainingUrl: null,
        regStartTime: at(start),
        regEndTime: at(start + 30),
        endTime: at(start + 90),
        allowIndividual: 1,
        minMembers: 1,
        maxMembers: 3,
        maxTeachers: 2,
        fee: id % 5 === 0 ? 5000 : 0,
        auditStatus: id === 1 || id === HOT.competitionId ? 3 : pick(AUDIT_MIX),
        auditReply: null,
        createdBy: 1,
        createdAt: iso,
        updatedAt: iso,
        worksMaxMb: 500,
        worksTypes: 'zip,rar,7z,pdf,docx',
      };
    });
    await put('competitions', competitions);

    const stages: Record<string, unknown>[] = [];
    const presets: Record<string, unknown>[] = [];
    const questions: Record<string, unknown>[] = [];
    const regFields = JSON.stringify(REG_FIELDS.slice(0, 4).map((f) => ({ ...f, description: null, otherParams: { required: true } })));
    for (const c of competitions) {
      const start = Date.parse(c.regStartTime);
      STAGES.forEach((name, k) =>
        stages.push({
          id: stages.length + 1,
          competitionId: c.id,
          name,
          startDate: new Date(start + k * 30 * DAY).toISOString(),
          endDate: new Date(start + (k + 1) * 30 * DAY).toISOString(),
          sort: k,
        }),
      );
      for (const menuCode of MENU_CODES) {
        const open =
          c.id === 1 && menuCode === 'SUBMIT_WORKS' ? { enableStartTime: at(-1), enableEndTime: at(1) } : { enableStartTime: null, enableEndTime: null };
        presets.push({
          id: presets.length + 1,
          competitionId: c.id,
          menuCode,
          name: MENU_NAMES[menuCode],
          enable: c.auditStatus === 3 ? 1 : 0,
          ...open,
          fieldList: menuCode === 'REG_SET' ? regFields : '[]',
        });
      }
      for (let k = 0; k < QUESTIONS_PER_COMPETITION; k++) {
        questions.push({
          id: questions.length + 1,
          competitionId: c.id,
          title: `赛题${String.fromCharCode(65 + k)}：销售预测`,
          content: `<p>${PARAGRAPH}</p>`,
          reviewed: 1,
          sort: k,
          creatorId: null,
          metric: 'rmse',
          idColumn: 'id',
          targetColumn: 'target',
          publicPercent: 30,
          dailyLimit: 5,
          salt: randomBytes(8).toString('hex'),
          answerKey: null,
          answerRows: null,
          createdAt: iso,
          updatedAt: iso,
        });
      }
    }
    await put('competitionStages', stages);
    await put('competitionPresets', presets);
    await put('questions', questions);

    // Team sizes by competition are skewed, as popular competitions draw most teams; the rush competition has its 200.
    const teams: Record<string, unknown>[] = [];
    const members: Record<string, unknown>[] = [];
    const registers: Record<string, unknown>[] = [];
    const choices: Record<string, unknown>[] = [];
    const sessions: Record<string, unknown>[] = [];
    const orders: Record<string, unknown>[] = [];
    const teamQuestion: { teamId: number; competitionId: number; questionId: number; userId: number }[] = [];
    let nextUser = userBase + 1;
    for (let i = 0; i < V.teams; i++) {
      const id = i + 1;
      const competitionId = i < RUSH_TEAMS ? 1 : 2 + Math.floor(rnd() ** 2 * (V.competitions - 1));
      const size = 1 + Math.floor(rnd() * 3);
      const leaderId = nextUser;
      teams.push({
        id,
        competitionId,
        teamNo: `B${String(id).padStart(8, '0')}`,
        name: `队伍${id}`,
        individual: size === 1 ? 1 : 0,
        leaderId,
        memberCount: size,
        joinCode: randomBytes(8).toString('hex'),
        createdAt: iso,
        updatedAt: iso,
      });
      for (let k = 0; k < size; k++) {
        members.push({
          teamId: id,
          userId: nextUser,
          competitionId,
          leader: k === 0 ? 1 : 0,
          infoJson: JSON.stringify({ userName: `选手${nextUser}`, tel: '13800138000' }),
          idCardEnc: null,
          idCardMask: null,
          createdAt: iso,
        });
        nextUser++;
      }
      // A competition with a fee: the registration has its order, most of them paid, as the finance lists show them.
      const fee = competitions[competitionId - 1]!.fee;
      const orderId = fee ? orders.length + 1 : null;
      if (orderId) {
        const paid = rnd() < 0.8;
        orders.push({
          id: orderId,
          orderNo: `B${String(orderId).padStart(12, '0')}`,
          competitionId,
          teamId: id,
          userId: leaderId,
          amount: fee,
          payStatus: paid ? 1 : 0,
          payMethod: paid ? 1 + (orderId % 2) : null,
          tradeNo: paid ? `T${orderId}` : null,
          payerOrg: null,
          voucher: null,
          paidAt: paid ? iso : null,
          closedAt: null,
          refundedAt: null,
          refundReason: null,
          createdAt: iso,
          updatedAt: iso,
        });
      }
      registers.push({
        id,
        competitionId,
        teamId: id,
        userId: leaderId,
        status: 1,
        reason: null,
        orderId,
        attachmentsJson: '[]',
        createdAt: iso,
        updatedAt: iso,
      });
      const questionId = (competitionId - 1) * QUESTIONS_PER_COMPETITION + 1 + (id % QUESTIONS_PER_COMPETITION === 0 || i < RUSH_TEAMS ? 0 : 1);
      choices.push({ teamId: id, questionId, chosenBy: leaderId, chosenAt: iso });
      teamQuestion.push({ teamId: id, competitionId, questionId, userId: leaderId });
      if (i < RUSH_TEAMS) {
        const token = randomBytes(32).toString('base64url');
        tokens.push(token);
        sessions.push({
          id: createHash('sha256').update(token).digest('hex'),
          userId: leaderId,
          kind: 'token',
          csrfToken: randomBytes(16).toString('hex'),
          ip: null,
          userAgent: 'bench',
          createdAt: iso,
          lastSeenAt: iso,
          expiresAt: at(1),
        });
      }
    }
    // The hot competition: HOT.teams more teams, every one on its first question.
    let hotUser = userBase + 1 + V.users;
    const hotTeams: { teamId: number; userId: number }[] = [];
    for (let i = 0; i < HOT.teams; i++) {
      const id = teams.length + 1;
      const size = 1 + Math.floor(rnd() * 3);
      const leaderId = hotUser;
      teams.push({
        id,
        competitionId: HOT.competitionId,
        teamNo: `H${String(id).padStart(8, '0')}`,
        name: `热门队伍${id}`,
        individual: size === 1 ? 1 : 0,
        leaderId,
        memberCount: size,
        joinCode: randomBytes(8).toString('hex'),
        createdAt: iso,
        updatedAt: iso,
      });
      for (let k = 0; k < size; k++) {
        members.push({
          teamId: id,
          userId: hotUser,
          competitionId: HOT.competitionId,
          leader: k === 0 ? 1 : 0,
          infoJson: JSON.stringify({ userName: `热门选手${hotUser}`, tel: '13900139000' }),
          idCardEnc: null,
          idCardMask: null,
          createdAt: iso,
        });
        hotUser++;
      }
      hotUser += 3 - size;
      registers.push({
        id,
        competitionId: HOT.competitionId,
        teamId: id,
        userId: leaderId,
        status: 1,
        reason: null,
        orderId: null,
        attachmentsJson: '[]',
        createdAt: iso,
        updatedAt: iso,
      });
      choices.push({ teamId: id, questionId: HOT.questionId, chosenBy: leaderId, chosenAt: iso });
      hotTeams.push({ teamId: id, userId: leaderId });
    }
    const hotLeader = bearer(hotTeams[0]!.userId);
    sessions.push(admin.row, hotLeader.row);
    hotLeaderToken = hotLeader.token;
    await put('teams', teams);
    await put('teamMembers', members);
    await put('orders', orders);
    await put('registers', registers);
    await put('teamChoices', choices);
    await put('sessions', sessions);

    const submissions: Record<string, unknown>[] = [];
    // The teams with a score on the hot question: its board's total. Teams of the volume that chose it count too.
    const hotScored = new Set<number>();
    for (let i = 0; i < V.testSubmissions; i++) {
      const t = teamQuestion[RUSH_TEAMS + Math.floor(rnd() * (teamQuestion.length - RUSH_TEAMS))]!;
      if (t.questionId === HOT.questionId) hotScored.add(t.teamId);
      const day = at(-Math.floor(rnd() * 60));
      const score = rnd() * 10;
      submissions.push({
        id: i + 1,
        competitionId: t.competitionId,
        questionId: t.questionId,
        teamId: t.teamId,
        userId: t.userId,
        fileKey: `tests/${randomBytes(8).toString('hex')}`,
        fileName: 'result.csv',
        size: 1024 + Math.floor(rnd() * 1e6),
        status: 2,
        reason: null,
        publicScore: score,
        privateScore: score + rnd(),
        rows: 10_000,
        selected: 0,
        day: day.slice(0, 10),
        createdAt: day,
        scoredAt: day,
      });
    }
    // The hot question's board: HOT.testSubmissions scored files spread over its teams, the first team among them.
    for (let i = 0; i < HOT.testSubmissions; i++) {
      const t = hotTeams[i < hotTeams.length ? i : Math.floor(rnd() * hotTeams.length)]!;
      hotScored.add(t.teamId);
      if (t === hotTeams[0]) hotLeaderSubmissions++;
      const day = at(-Math.floor(rnd() * 60));
      const score = rnd() * 10;
      submissions.push({
        id: submissions.length + 1,
        competitionId: HOT.competitionId,
        questionId: HOT.questionId,
        teamId: t.teamId,
        userId: t.userId,
        fileKey: `tests/${randomBytes(8).toString('hex')}`,
        fileName: 'result.csv',
        size: 1024 + Math.floor(rnd() * 1e6),
        status: 2,
        reason: null,
        publicScore: score,
        privateScore: score + rnd(),
        rows: 10_000,
        selected: 0,
        day: day.slice(0, 10),
        createdAt: day,
        scoredAt: day,
      });
    }
    await put('testSubmissions', submissions);
    // The boards' table as the product keeps it: each team's best score per board, by the rule the scoring job writes
    // (the same statement that filled it at migration 0016, checked against that rule in boards.test.ts).
    await backfillBoards(trx as unknown as Kysely<unknown>);
    counts.boardScores = Number(
      (
        await trx
          .selectFrom('boardScores')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    hotBoardTeams = hotScored.size;

    // Broadcast notices of the past, each delivered to HOT.noticeRecipients x SCALE users, a third of whom read it.
    const notices: Record<string, unknown>[] = [];
    const recipients: Record<string, unknown>[] = [];
    for (let n = 0; n < HOT.notices; n++) {
      const id = n + 1;
      const count = Math.min(users.length, HOT.noticeRecipients * SCALE);
      notices.push({
        id,
        kind: 0,
        title: `系统通知${id}`,
        content: `<p>${PARAGRAPH}</p>`,
        targetJson: JSON.stringify({ scope: 'all' }),
        competitionId: null,
        orgId: null,
        status: 1,
        publishAt: null,
        publishedAt: at(-n),
        source: null,
        recipients: count,
        authorId: adminId,
        createdAt: at(-n),
        updatedAt: at(-n),
      });
      const from = Math.floor(rnd() * (users.length - count));
      for (let k = 0; k < count; k++)
        recipients.push({ noticeId: id, userId: users[from + k]!.id, kind: 0, publishedAt: at(-n), readAt: k % 3 === 0 ? at(-n) : null });
    }
    await put('notices', notices);
    for (let i = 0; i < recipients.length; i += 200_000) await put('noticeRecipients', recipients.slice(i, i + 200_000));
  });

  if (database.dialect === 'postgres') {
    for (const table of [
      'organisations',
      'competition_types',
      'brands',
      'users',
      'competitions',
      'competition_stages',
      'competition_presets',
      'questions',
      'teams',
      'orders',
      'registers',
      'test_submissions',
      'notices',
    ]) {
      await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(db);
    }
  }
  // Fresh statistics, as a database that has lived a while would have: the planner chooses by them. PostgreSQL's
  // tables are vacuumed too, so that autovacuum does not start on the fresh inserts while throughput is measured, and
  // the pages the seeding dirtied are written out now rather than by the checkpointer during the measurement.
  if (database.dialect === 'postgres') {
    await sql`vacuum analyze`.execute(db);
    await sql`checkpoint`.execute(db);
  } else await sql`analyze`.execute(db);

  const online = await db.selectFrom('competitions').select('id').where('auditStatus', '=', 3).orderBy('id').execute();
  return {
    counts,
    onlineIds: online.map((r) => r.id),
    brandIds: Array.from({ length: VOLUMES.brands }, (_, i) => i + 1),
    rush: { competitionId: 1, questionId: 1, tokens, teamIds: Array.from({ length: RUSH_TEAMS }, (_, i) => i + 1) },
    adminToken: admin.token,
    hotLeaderToken,
    expect: { hotBoardTeams, hotLeaderSubmissions, registers: counts.registers ?? 0, users: (counts.users ?? 0) + userBase, orders: counts.orders ?? 0 },
    seconds: (performance.now() - started) / 1000,
  };
}
