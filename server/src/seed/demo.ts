import { AUDIT_STATUS, MENU_CODES, MENU_NAMES, REG_FIELDS, usernameKey, type MenuCode, type RoleCode } from '@contest/shared';
import * as competitions from '../modules/competitions/index.ts';
import { insertUser } from '../modules/users/index.ts';
import type { Db } from '../db/database.ts';

export interface DemoAccount {
  username: string;
  passwordHash: string;
  role: RoleCode;
}

const DAY = 24 * 3600_000;

const INTRODUCE = `<h2>竞赛简介</h2><p>本竞赛面向全国高校学生，以真实业务数据为基础，考察参赛者的数据分析、建模与表达能力。</p>
<h2>参赛对象</h2><ul><li>全日制本科生、研究生</li><li>每队1至3人，可配1名指导老师</li></ul>
<h2>奖项设置</h2><p>一等奖、二等奖、三等奖及优秀奖若干，获奖队伍颁发电子证书。</p>`;

/** Demo content a newcomer can click through: an organisation, brands, and competitions in each status. */
export async function seedDemo(db: Db, now: Date, accounts: DemoAccount[]) {
  const iso = now.toISOString();
  const at = (days: number) => new Date(now.getTime() + days * DAY).toISOString();
  const { id: orgId } = await db
    .insertInto('organisations')
    .values({ name: '示例大学', kind: 'school', contactName: '王老师', contactPhone: null, contactEmail: null, createdAt: iso })
    .returning('id')
    .executeTakeFirstOrThrow();
  const names: Record<string, string> = { demo: '张同学', judge: '李评审', organiser: '王老师' };
  const ids: Record<string, number> = {};
  for (const a of accounts) {
    ids[a.username] = await insertUser(
      db,
      {
        username: a.username,
        usernameKey: usernameKey(a.username),
        passwordHash: a.passwordHash,
        phone: null,
        email: null,
        userName: names[a.username] ?? null,
        orgId: a.role === 'participant' ? null : orgId,
      },
      [a.role],
      iso,
    );
  }
  // The demo judge is in the expert pool, from an organisation of its own, so it may review the demo school's works.
  if (ids.judge)
    await db.insertInto('experts').values({ userId: ids.judge, organization: '示例评审中心', speciality: '数据挖掘', title: '教授', createdAt: iso }).execute();

  const typeIds: number[] = [];
  for (const [i, name] of ['数据挖掘', '机器学习', '数据可视化'].entries()) {
    typeIds.push((await db.insertInto('competitionTypes').values({ name, sort: i, createdAt: iso }).returning('id').executeTakeFirstOrThrow()).id);
  }
  const brand = async (name: string, shortName: string, sort: number, recommend: number, description: string) =>
    (
      await db
        .insertInto('brands')
        .values({ name, shortName, sort, recommend, description, logo: null, createdAt: iso, updatedAt: iso })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const teddy = await brand('泰迪杯数据挖掘挑战赛', '泰迪杯', 1, 1, '面向高校的数据挖掘竞赛品牌');
  const smart = await brand('数智杯机器学习挑战赛', '数智杯', 2, 1, '聚焦机器学习与人工智能应用');
  const campus = await brand('校园数据分析系列赛', '校园赛', 3, 0, '校内数据分析练习与选拔');
  await db
    .insertInto('brandNavs')
    .values({
      brandId: teddy,
      navList: JSON.stringify([
        { name: '竞赛首页', url: `/competitionList/${teddy}`, type: 0, children: [] },
        { name: '全部竞赛', url: '/competitionList', type: 0, children: [] },
      ]),
      sublinksList: JSON.stringify([{ name: '竞赛章程', url: `/competitionList/${teddy}`, type: 0 }]),
      frendlinksList: JSON.stringify([{ name: 'Kaggle', url: 'https://www.kaggle.com', type: 1 }]),
      topLogoPath: null,
      bottomLogoPath: null,
      rcodePath: null,
      copyright: '© 2026 泰迪杯竞赛组委会',
      updatedAt: iso,
    })
    .execute();

  const open: MenuCode[] = ['REG_SET', 'QUES_AND_DATA', 'COMP_INFO', 'BEFORE_GUIDE', 'TRAINING_PLATFORM'];
  const demo = [
    {
      name: '第十四届泰迪杯数据挖掘挑战赛',
      brandId: teddy,
      typeId: typeIds[0]!,
      reg: [-10, 30],
      end: 90,
      status: AUDIT_STATUS.online,
      fee: 20000,
      menus: open,
    },
    {
      name: '2026数智杯机器学习挑战赛',
      brandId: smart,
      typeId: typeIds[1]!,
      reg: [-60, -5],
      end: 40,
      status: AUDIT_STATUS.online,
      fee: 0,
      menus: ['QUES_AND_DATA', 'COMP_INFO'] as MenuCode[],
    },
    {
      name: '2025校园数据可视化大赛',
      brandId: campus,
      typeId: typeIds[2]!,
      reg: [-200, -170],
      end: -100,
      status: AUDIT_STATUS.online,
      fee: 0,
      menus: ['COMP_INFO'] as MenuCode[],
    },
    {
      name: '2026春季数据分析练习赛',
      brandId: campus,
      typeId: typeIds[0]!,
      reg: [15, 45],
      end: 75,
      status: AUDIT_STATUS.online,
      fee: 0,
      menus: ['COMP_INFO'] as MenuCode[],
    },
    {
      name: '泰迪杯暑期训练营（待审核）',
      brandId: teddy,
      typeId: typeIds[0]!,
      reg: [20, 50],
      end: 80,
      status: AUDIT_STATUS.pending,
      fee: 5000,
      menus: [] as MenuCode[],
    },
    { name: '新建竞赛（草稿）', brandId: campus, typeId: null, reg: [30, 60], end: 90, status: AUDIT_STATUS.draft, fee: 0, menus: [] as MenuCode[] },
  ];
  for (const c of demo) {
    const id = await competitions.insertCompetition(db, {
      name: c.name,
      brandId: c.brandId,
      typeId: c.typeId,
      orgId,
      cover: null,
      summary: `${c.name}，欢迎全国高校学生组队参加。`,
      introduce: INTRODUCE,
      information: '<p>竞赛日程、评审规则与提交要求请见各阶段说明。</p>',
      guide: '<p>赛前请熟悉数据格式，完成一次测试提交。</p>',
      trainingUrl: 'https://www.kaggle.com/learn',
      regStartTime: at(c.reg[0]!),
      regEndTime: at(c.reg[1]!),
      endTime: at(c.end),
      allowIndividual: 1,
      minMembers: 1,
      maxMembers: 3,
      maxTeachers: 1,
      fee: c.fee,
      auditStatus: c.status,
      auditReply: null,
      createdBy: ids.organiser ?? null,
      createdAt: iso,
      updatedAt: iso,
    });
    await competitions.insertPresets(
      db,
      MENU_CODES.map((menuCode) => ({
        competitionId: id,
        menuCode,
        name: MENU_NAMES[menuCode],
        enable: c.menus.includes(menuCode) ? 1 : 0,
        enableStartTime: null,
        enableEndTime: null,
        fieldList: JSON.stringify(
          menuCode === 'REG_SET'
            ? REG_FIELDS.filter((f) => ['userName', 'tel', 'email', 'organization', 'region'].includes(f.name)).map((f) => ({
                ...f,
                description: null,
                otherParams: { required: f.name !== 'region' },
              }))
            : [],
        ),
      })),
    );
    for (const [i, stage] of ['初赛', '复赛', '决赛'].entries()) {
      const start = c.reg[0]! + ((c.end - c.reg[0]!) * i) / 3;
      await competitions.insertStage(db, { competitionId: id, name: stage, startDate: at(start), endDate: at(start + (c.end - c.reg[0]!) / 3 - 1), sort: i });
    }
    await db
      .insertInto('questions')
      .values({
        competitionId: id,
        title: 'A题：电商用户购买行为预测',
        content: '<p>根据用户历史行为数据，预测其未来7天内是否会下单。</p>',
        reviewed: 1,
        sort: 0,
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
  }
}
