import { describe, expect, it } from 'vitest';
import {
  competitionReadiness,
  EDITOR_TABS,
  isGap,
  MENU_CODES,
  questionGap,
  questionScorable,
  readinessRefusal,
  REG_FIELDS,
  type ReadinessFacts,
  type ReadinessItem,
} from '../src/index.ts';

// Registration 03-10 .. 04-10, the competition ends 06-30 (Beijing midnight).
const competition: ReadinessFacts['competition'] = {
  regStartTime: '2026-03-09T16:00:00.000Z',
  regEndTime: '2026-04-09T16:00:00.000Z',
  endTime: '2026-06-29T16:00:00.000Z',
  fee: 0,
  invoiceEnable: true,
  allowIndividual: true,
  minMembers: 1,
  maxMembers: 3,
  maxTeachers: 2,
  introduce: '<p>欢迎参赛</p>',
  information: null,
  guide: null,
  trainingUrl: null,
};
const NOW = new Date('2026-03-01T00:00:00Z');

/** A new competition's presets, as the server creates them: registration (three fields), questions and information on. */
const presets = (): ReadinessFacts['presets'] =>
  MENU_CODES.map((menuCode) => ({
    menuCode,
    enable: ['REG_SET', 'QUES_AND_DATA', 'COMP_INFO'].includes(menuCode),
    enableStartTime: null,
    enableEndTime: null,
    deadlineStageId: null,
    fieldList: menuCode === 'REG_SET' ? REG_FIELDS.slice(0, 3).map((f) => ({ ...f, description: null, otherParams: { required: true } })) : [],
  }));

/** What the test fixtures publish: no fee, the default form, no questions, no stages. */
const facts = (over: Partial<ReadinessFacts> = {}): ReadinessFacts => ({
  competition,
  stages: [],
  presets: presets(),
  questions: [],
  paymentMethods: [],
  platformInvoices: true,
  ...over,
});
const withPreset = (code: string, change: object) => presets().map((p) => (p.menuCode === code ? { ...p, ...change } : p));
const item = (f: ReadinessFacts, key: string, now = NOW): ReadinessItem => competitionReadiness(f, now).items.find((i) => i.key === key)!;
const gapKeys = (f: ReadinessFacts, now = NOW) =>
  competitionReadiness(f, now)
    .items.filter(isGap)
    .map((i) => i.key);

describe('the readiness of a competition before audit', () => {
  it('finds nothing blocking in a new free competition with its default form and no questions yet', () => {
    const r = competitionReadiness(facts(), NOW);
    expect(r.ready).toBe(true);
    expect(readinessRefusal(r)).toBeNull();
    // Questions and stages come later in a real contest: advice, said plainly.
    expect(item(facts(), 'questions')).toMatchObject({ ok: false, level: 'advisory', fix: { tab: 'questions' } });
    expect(item(facts(), 'questions').detail).toBe('尚未添加赛题。赛题可在上线后添加（例如比赛开始时再公布），添加后需平台审核才对参赛者可见');
    expect(item(facts(), 'stages')).toMatchObject({ ok: false, level: 'advisory', fix: { tab: 'stages' } });
    expect(item(facts(), 'fee')).toMatchObject({ ok: true, detail: '免费参赛，无需支付' });
    expect(item(facts(), 'regForm')).toMatchObject({ ok: true, level: 'blocking', detail: '报名表填写姓名、身份证号、手机号共 3 项' });
    // Every item says where it is fixed, on a tab the editor has, in Chinese.
    for (const i of r.items) {
      expect(Object.keys(EDITOR_TABS)).toContain(i.fix.tab);
      expect(i.label).toMatch(/[\u4e00-\u9fa5]/);
      expect(i.detail).toMatch(/[\u4e00-\u9fa5]/);
    }
  });

  it('refuses a competition nobody can register for', () => {
    expect(gapKeys(facts({ presets: withPreset('REG_SET', { enable: false }) }))).toEqual(['regForm']);
    expect(item(facts({ presets: withPreset('REG_SET', { enable: false }) }), 'regForm').detail).toBe('「报名设置」未启用，参赛者无法报名');
    expect(gapKeys(facts({ presets: withPreset('REG_SET', { fieldList: [] }) }))).toEqual(['regForm']);
    expect(gapKeys(facts({ presets: presets().filter((p) => p.menuCode !== 'REG_SET') }))).toEqual(['regForm']);
    // A registration menu whose window misses the registration dates entirely.
    const early = withPreset('REG_SET', { enableEndTime: '2026-03-05T00:00:00.000Z' });
    expect(item(facts({ presets: early }), 'regForm')).toMatchObject({
      ok: false,
      detail: '「报名设置」的开放时间在 2026-03-05 08:00 结束，早于报名开始时间，参赛者无法报名',
    });
    const late = withPreset('REG_SET', { enableStartTime: '2026-05-01T00:00:00.000Z' });
    expect(gapKeys(facts({ presets: late }))).toEqual(['regForm']);
    // A window inside the registration dates is fine.
    expect(
      gapKeys(facts({ presets: withPreset('REG_SET', { enableStartTime: '2026-03-12T00:00:00.000Z', enableEndTime: '2026-04-01T00:00:00.000Z' }) })),
    ).toEqual([]);
  });

  it('refuses a question scored automatically that cannot be scored, and says what it lacks; a question judged by experts needs no evaluation', () => {
    const questions = [
      { id: 1, title: '无评分', judging: 'both' as const, evaluation: null, answerRows: null, reviewed: false },
      { id: 2, title: '无答案', judging: 'auto' as const, evaluation: { metric: 'auc' as const }, answerRows: null, reviewed: false },
      { id: 3, title: '齐全', judging: 'both' as const, evaluation: { metric: 'rmse' as const }, answerRows: 120, reviewed: false },
      { id: 5, title: '论文题', judging: 'review' as const, evaluation: null, answerRows: null, reviewed: false },
    ];
    const f = facts({ questions });
    expect(gapKeys(f)).toEqual(['question:1', 'question:2']);
    expect(item(f, 'question:1')).toMatchObject({
      label: '赛题「无评分」',
      detail: '评判方式为“专家评审 + 自动评分”，但未设置评分指标，提交的测试无法评分，也不能审核公开',
      fix: { tab: 'questions' },
    });
    expect(item(f, 'question:1').fix.text).toContain('开启自动评分');
    expect(item(f, 'question:2').detail).toBe('已设置评分指标（AUC），但未上传答案文件，提交的测试无法评分');
    expect(item(f, 'question:2').fix.text).toContain('上传答案文件');
    expect(item(f, 'question:3')).toMatchObject({ ok: true, detail: '专家评审 + 自动评分：评分指标 均方根误差（RMSE），答案文件 120 行' });
    expect(item(f, 'question:5')).toMatchObject({ ok: true, detail: '专家评审（提交作品）：参赛队伍提交作品，由专家评审（评审规则在「评审管理」中设置）' });
    expect(item(f, 'questions')).toMatchObject({
      ok: true,
      detail: '共 4 道赛题，其中 2 道已准备好（专家评审的赛题无需评分设置，自动评分的赛题需评分指标和答案文件）；竞赛审核通过时，准备好的赛题一并审核公开',
    });
    expect(questions.map(questionScorable)).toEqual([false, false, true, true]);
    expect(questionGap(questions[2]!)).toBeNull();
  });

  it('asks for the works menu only where experts judge, and the test menu only where files are scored', () => {
    const paper = { id: 6, title: '论文题', judging: 'review' as const, evaluation: null, answerRows: null, reviewed: true };
    const prediction = { id: 7, title: '预测题', judging: 'auto' as const, evaluation: { metric: 'rmse' as const }, answerRows: 10, reviewed: true };
    expect(item(facts({ questions: [paper] }), 'flowMenus').detail).toContain('「选择赛题」「提交作品」尚未启用');
    expect(item(facts({ questions: [paper] }), 'flowMenus').detail).not.toContain('提交测试');
    expect(item(facts({ questions: [prediction] }), 'flowMenus').detail).toContain('「选择赛题」「提交测试」尚未启用');
    expect(item(facts({ questions: [paper, prediction] }), 'flowMenus').detail).toContain('「选择赛题」「提交作品」「提交测试」尚未启用');
  });

  it('wants the program of a question scored by its organiser’s own program', () => {
    const own = { id: 4, title: '自定义', judging: 'auto' as const, evaluation: { metric: 'custom' as const }, answerRows: 50, reviewed: false };
    const f = facts({ questions: [own] });
    expect(gapKeys(f)).toEqual(['question:4']);
    expect(item(f, 'question:4')).toMatchObject({
      detail: '评分指标为自定义评分程序，但未上传评分程序，提交的测试无法评分',
      fix: { text: '在「赛题」中点该题的“评分程序”，上传并试运行评分程序' },
    });
    expect(questionScorable({ ...own, scorer: true })).toBe(true);
    expect(item(facts({ questions: [{ ...own, scorer: true }] }), 'question:4')).toMatchObject({
      ok: true,
      detail: '自动评分（提交测试）：评分指标 自定义评分程序，答案文件 50 行',
    });
  });

  it('refuses deadlines out of order: registration, stages outside the competition, a submission window closing before it opens', () => {
    expect(gapKeys(facts({ competition: { ...competition, regEndTime: competition.regStartTime } }))).toEqual(['dates']);
    const endsEarly = facts({ competition: { ...competition, endTime: '2026-04-01T00:00:00.000Z' } });
    expect(item(endsEarly, 'dates').detail).toBe('竞赛结束时间（2026-04-01 08:00）早于报名截止时间（2026-04-10 00:00）');

    const stage = { id: 1, name: '颁奖', startDate: '2026-07-01T00:00:00.000Z', endDate: null };
    expect(gapKeys(facts({ stages: [stage] }))).toEqual(['stages']);
    expect(item(facts({ stages: [stage] }), 'stages').detail).toBe('阶段「颁奖」开始于 2026-07-01 08:00，晚于竞赛结束时间（2026-06-30 00:00）');
    const overrun = { id: 2, name: '作品提交', startDate: '2026-05-01T00:00:00.000Z', endDate: '2026-07-10T00:00:00.000Z' };
    expect(gapKeys(facts({ stages: [overrun] }))).toEqual(['stages']);
    const fine = { id: 3, name: '初赛', startDate: '2026-05-01T00:00:00.000Z', endDate: '2026-06-20T04:00:00.000Z' };
    expect(item(facts({ stages: [fine] }), 'stages')).toMatchObject({ ok: true, level: 'advisory', detail: '初赛（2026-05-01 08:00 至 2026-06-20 12:00）' });

    // Works open after the stage chosen as their deadline has closed: nobody could ever submit.
    const works = withPreset('SUBMIT_WORKS', { enable: true, enableStartTime: '2026-06-25T00:00:00.000Z', deadlineStageId: 3 });
    expect(gapKeys(facts({ presets: works, stages: [fine] }))).toEqual(['deadlines']);
    expect(item(facts({ presets: works, stages: [fine] }), 'deadlines').detail).toBe(
      '「提交作品」从 2026-06-25 08:00 开放，却在 2026-06-20 12:00 截止（阶段「初赛」结束），参赛者将无法提交',
    );
    const open = withPreset('SUBMIT_WORKS', { enable: true, deadlineStageId: 3 });
    expect(item(facts({ presets: open, stages: [fine] }), 'deadlines')).toMatchObject({
      ok: true,
      detail: '提交作品截止于 2026-06-20 12:00（阶段「初赛」结束）',
    });
    // A stage's name decides nothing: without a stage chosen, the competition's end.
    const named = { ...fine, name: '作品提交' };
    expect(item(facts({ presets: withPreset('SUBMIT_WORKS', { enable: true }), stages: [named] }), 'deadlines').detail).toBe(
      '提交作品截止于 2026-06-30 00:00（竞赛结束时间）',
    );
  });

  it('flags a deadline before registration closes and overlapping stages, without refusing', () => {
    const early = { id: 4, name: '初赛', startDate: '2026-03-10T00:00:00.000Z', endDate: '2026-04-01T00:00:00.000Z' };
    const f = facts({ presets: withPreset('SUBMIT_WORKS', { enable: true, deadlineStageId: 4 }), stages: [early] });
    expect(competitionReadiness(f, NOW).ready).toBe(true);
    expect(item(f, 'deadlineOrder')).toMatchObject({
      ok: false,
      level: 'advisory',
      detail: '「提交作品」于 2026-04-01 08:00 截止，早于报名截止时间（2026-04-10 00:00）：之后报名的队伍将无法提交作品',
    });
    expect(item(facts({ presets: withPreset('SUBMIT_WORKS', { enable: true }) }), 'deadlineOrder')).toBeUndefined();
    const next = { id: 5, name: '复赛', startDate: '2026-03-25T00:00:00.000Z', endDate: '2026-05-01T00:00:00.000Z' };
    expect(item(facts({ stages: [next, early] }), 'stages')).toMatchObject({
      ok: false,
      level: 'advisory',
      detail: '阶段「初赛」（至 2026-04-01 08:00）与「复赛」（自 2026-03-25 08:00）时间重叠，参赛者看到的赛程会前后矛盾',
    });
  });

  it('refuses team rules no team can meet', () => {
    const f = facts({ competition: { ...competition, minMembers: 4, maxMembers: 3 } });
    expect(gapKeys(f)).toEqual(['team']);
    expect(item(f, 'team').detail).toBe('每队最少人数（4）多于最多人数（3），任何队伍都无法成队');
    expect(item(facts(), 'team').detail).toBe('每队 1–3 人，指导老师最多 2 人；允许个人参赛');
  });

  it('advises, without refusing, on a fee nobody can pay online, past dates and empty pages', () => {
    const fee = facts({ competition: { ...competition, fee: 8800 } });
    expect(competitionReadiness(fee, NOW).ready).toBe(true);
    expect(item(fee, 'fee')).toMatchObject({ ok: false, level: 'advisory', fix: { tab: 'basic', adminPath: '/payment/custom' } });
    expect(item(fee, 'fee').detail).toContain('报名费 88.00 元，但平台尚未开通任何支付方式');
    expect(item({ ...fee, paymentMethods: ['支付宝', '工商银行'] }, 'fee')).toMatchObject({
      ok: true,
      detail: '报名费 88.00 元，参赛者可用支付宝、工商银行支付',
    });
    // Invoices of the fee: open by the competition's own switch, under the platform's 发票配置.
    expect(item(facts(), 'invoice')).toBeUndefined();
    expect(item(fee, 'invoice')).toMatchObject({ ok: true, level: 'advisory', detail: '已开放发票申请：缴费的队伍可在个人中心为报名费申请发票' });
    const noInvoice = facts({ competition: { ...competition, fee: 8800, invoiceEnable: false } });
    expect(competitionReadiness(noInvoice, NOW).ready).toBe(true);
    expect(item(noInvoice, 'invoice')).toMatchObject({
      ok: false,
      level: 'advisory',
      detail: '未开放发票申请：缴费的参赛者不能在平台上为报名费申请发票（学校报销通常需要发票）',
      fix: { tab: 'basic', text: '在「基本信息」中勾选「开放发票申请」' },
    });
    expect(item({ ...fee, platformInvoices: false }, 'invoice')).toMatchObject({ ok: false, fix: { adminPath: '/financial/invoiceConfig' } });
    expect(item({ ...fee, platformInvoices: false }, 'invoice').detail).toContain('平台的「发票配置」暂停了发票申请');

    const later = new Date('2026-05-01T00:00:00Z');
    expect(competitionReadiness(facts(), later).ready).toBe(true);
    expect(item(facts(), 'schedule', later)).toMatchObject({ ok: false, level: 'advisory', detail: '报名截止时间（2026-04-10 00:00）已过，上线后无人能报名' });
    expect(item(facts(), 'schedule', new Date('2026-08-01T00:00:00Z')).detail).toContain('竞赛结束时间（2026-06-30 00:00）已过');
    expect(item(facts(), 'schedule')).toMatchObject({ ok: true, detail: '距报名截止还有 40 天；审核通常需要一些时间，请留出余量' });

    const blank = facts({ competition: { ...competition, introduce: '<p><br></p>' }, presets: withPreset('TRAINING_PLATFORM', { enable: true }) });
    expect(item(blank, 'introduce')).toMatchObject({ ok: false, level: 'advisory' });
    expect(item(blank, 'menuContent').detail).toBe('「竞赛信息」已启用，但竞赛信息为空；「训练平台」已启用，但未填写训练平台地址，参赛者会看到空白页');
    expect(item(facts({ competition: { ...competition, introduce: '<p><img src="a.png"></p>', information: '<p>信息</p>' } }), 'menuContent').ok).toBe(true);
    expect(item(facts({ competition: { ...competition, introduce: '<p><img src="a.png"></p>' } }), 'introduce').ok).toBe(true);
  });

  it('advises turning on the menus a team goes through once there are questions: choosing, works, and tests where scored', () => {
    const scored = { id: 3, title: '题A', judging: 'both' as const, evaluation: { metric: 'accuracy' as const }, answerRows: 10, reviewed: false };
    // No questions yet: nothing to choose or submit, nothing said.
    expect(item(facts(), 'flowMenus')).toBeUndefined();
    const closed = item(facts({ questions: [scored] }), 'flowMenus');
    expect(closed).toMatchObject({
      ok: false,
      level: 'advisory',
      fix: { tab: 'presets', text: '在「菜单设置」中启用「选择赛题」「提交作品」「提交测试」并设置开放时间' },
    });
    expect(closed.detail).toBe(
      '「选择赛题」「提交作品」「提交测试」尚未启用：启用之前，参赛队伍无法选择赛题，也无法提交作品，也无法提交测试结果（可以到开放时再启用）',
    );
    expect(competitionReadiness(facts({ questions: [scored] }), NOW).ready).toBe(true);
    // A question judged by experts alone needs no test menu.
    const unscored = { ...scored, judging: 'review' as const, evaluation: null, answerRows: null };
    const open = presets().map((p) => (['CHOICE_SET', 'SUBMIT_WORKS'].includes(p.menuCode) ? { ...p, enable: true } : p));
    expect(item(facts({ questions: [unscored], presets: open }), 'flowMenus')).toMatchObject({ ok: true, detail: '「选择赛题」「提交作品」已启用' });
    expect(item(facts({ questions: [scored], presets: open }), 'flowMenus').detail).toBe(
      '「提交测试」尚未启用：启用之前，参赛队伍无法提交测试结果（可以到开放时再启用）',
    );
  });

  it('lists every blocking gap in one refusal', () => {
    const f = facts({
      presets: withPreset('REG_SET', { enable: false }),
      questions: [{ id: 9, title: '题A', judging: 'auto', evaluation: null, answerRows: null, reviewed: false }],
    });
    expect(readinessRefusal(competitionReadiness(f, NOW))).toBe(
      '还有 2 项必须补齐才能提交审核：1. 报名表：「报名设置」未启用，参赛者无法报名；2. 赛题「题A」：评判方式为“自动评分（提交测试）”，但未设置评分指标，提交的测试无法评分，也不能审核公开',
    );
  });
});
