/**
 * Issue 16 item 2, "readiness before audit": what a competition still lacks before it can run online, computed by this
 * one function from facts the server gathers, so that the editor's checklist, the audit page and the server's refusal
 * of a submission for audit say the same thing.
 *
 * Blocking gaps make a competition unrunnable once online (deadlines out of order, no registration form, a question
 * that exists but cannot be scored); they refuse the submission for audit. Advisory ones are what a real contest often
 * adds later or decides otherwise (questions published when the contest starts, stages, the payment methods the
 * platform opens); they are said plainly and never refuse anything.
 */
import { z } from 'zod';
import { MENU_NAMES, type Competition, type Preset } from './api/competitions.ts';
import { CUSTOM_METRIC, JUDGING_NAMES, evaluationName, scoredAutomatically, judgedByExperts, type EvaluationMetric, type Judging } from './api/questions.ts';
import { fenToYuan } from './format.ts';
import { beijingMinute, deadlineSourceText, deadlineText, submissionWindows, WINDOW_NAMES, type LifecycleStage, type WindowKind } from './lifecycle.ts';

/** The competition editor's tabs, where each item is fixed. */
export const EDITOR_TABS = { basic: '基本信息', stages: '竞赛阶段', presets: '菜单设置', questions: '赛题' } as const;
export type EditorTab = keyof typeof EDITOR_TABS;

export type ReadinessLevel = 'blocking' | 'advisory';

export const readinessItemSchema = z.object({
  /** Stable key: `dates`, `regForm`, `question:12`... */
  key: z.string(),
  label: z.string(),
  ok: z.boolean(),
  level: z.enum(['blocking', 'advisory']),
  /** When ok, what is set; when not, what is missing and what it means for participants. */
  detail: z.string(),
  /**
   * Where it is fixed: the editor's tab, said in words; `adminPath` when the platform's back office fixes it instead
   * (a page the organiser cannot open: the platform administrator's).
   */
  fix: z.object({ tab: z.enum(Object.keys(EDITOR_TABS) as [EditorTab, ...EditorTab[]]), text: z.string(), adminPath: z.string().optional() }),
  /** The organiser settles it by saying it is rechecked (`PUT /api/competition/recheck/{id}?key=`): what a copied edition asks. */
  recheck: z.enum(['dates', 'fee']).optional(),
});
export type ReadinessItem = z.infer<typeof readinessItemSchema>;

/** `GET /api/competition/readiness/{id}`. */
export const readinessSchema = z.object({
  /** No blocking gap: the competition may be submitted for audit. */
  ready: z.boolean(),
  items: z.array(readinessItemSchema),
});
export type Readiness = z.infer<typeof readinessSchema>;

/** A question as readiness and the audit read it. `answerRows` is null while no answer file is uploaded. */
export interface ReadinessQuestion {
  id: number;
  title: string;
  /** How its result is made (questions.ts `JUDGING`): a question judged by experts alone needs no evaluation. */
  judging: Judging;
  evaluation: { metric: EvaluationMetric; metricName?: string } | null;
  answerRows: number | null;
  /** An own scoring program is uploaded (what `custom` scores by); anything truthy, as the question list's `scorer`. */
  scorer?: unknown;
  reviewed: boolean;
}

export interface ReadinessFacts {
  competition: Pick<
    Competition,
    | 'regStartTime'
    | 'regEndTime'
    | 'endTime'
    | 'fee'
    | 'invoiceEnable'
    | 'allowIndividual'
    | 'minMembers'
    | 'maxMembers'
    | 'maxTeachers'
    | 'introduce'
    | 'information'
    | 'guide'
    | 'trainingUrl'
  >;
  stages: readonly LifecycleStage[];
  presets: readonly Pick<Preset, 'menuCode' | 'enable' | 'enableStartTime' | 'enableEndTime' | 'deadlineStageId' | 'fieldList'>[];
  questions: readonly ReadinessQuestion[];
  /** The names of the payment methods participants can choose now (the platform's, enabled). */
  paymentMethods: readonly string[];
  /** The platform's 发票配置 takes applications (its switch is on): a competition's own switch decides the rest. */
  platformInvoices: boolean;
  /**
   * A competition copied from an earlier edition (复制为新一届): that edition's name, by how many days the dates moved,
   * what its organiser has not yet said is rechecked, and the questions judged by experts that have no judge yet (judges
   * are people: never copied).
   */
  edition?: { fromName: string; shiftDays: number; recheck: readonly ('dates' | 'fee')[]; judgesMissing: readonly string[] };
}

/**
 * Why a question cannot run as its judging says, or null when it can: a question judged by experts alone needs nothing
 * here (its review rule is set before judging starts); one scored automatically needs its evaluation and, for it, the
 * answer file (and an own program).
 */
export function questionGap(q: Pick<ReadinessQuestion, 'judging' | 'evaluation' | 'answerRows' | 'scorer'>): string | null {
  if (!scoredAutomatically(q.judging)) return null;
  if (!q.evaluation) return `评判方式为“${JUDGING_NAMES[q.judging]}”，但未设置评分指标，提交的测试无法评分，也不能审核公开`;
  if (q.answerRows === null) return `已设置评分指标（${evaluationName(q.evaluation)}），但未上传答案文件，提交的测试无法评分`;
  if (q.evaluation.metric === CUSTOM_METRIC && !q.scorer) return '评分指标为自定义评分程序，但未上传评分程序，提交的测试无法评分';
  return null;
}
/** A question that can run: approving its competition approves it too. */
export const questionScorable = (q: Pick<ReadinessQuestion, 'judging' | 'evaluation' | 'answerRows' | 'scorer'>) => questionGap(q) === null;

/** What a question that can run is, in the readiness checklist's words. */
function questionReady(q: ReadinessQuestion) {
  const reviewed = q.reviewed ? '，已审核公开' : '';
  if (q.judging === 'review') return `${JUDGING_NAMES.review}：参赛队伍提交作品，由专家评审（评审规则在「评审管理」中设置）${reviewed}`;
  return `${JUDGING_NAMES[q.judging]}：评分指标 ${evaluationName(q.evaluation!)}，答案文件 ${q.answerRows} 行${reviewed}`;
}

/** Rich text with nothing a reader would see. */
function blankHtml(html: string | null | undefined): boolean {
  if (!html) return true;
  if (/<(img|video|iframe|table)\b/i.test(html)) return false;
  return (
    html
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;/g, ' ')
      .trim() === ''
  );
}

const t = beijingMinute;
const DAY_MS = 24 * 3600_000;

/** The checklist of a competition at `now`, in the order an organiser fills the editor. */
export function competitionReadiness(facts: ReadinessFacts, now: Date): Readiness {
  const c = facts.competition;
  const items: ReadinessItem[] = [];
  const add = (item: ReadinessItem) => items.push(item);
  const basic = (text: string) => ({ tab: 'basic' as const, text: `在「基本信息」中${text}` });

  // Deadlines in order: registration opens, closes, then the competition ends.
  const datesOk = c.regStartTime < c.regEndTime && c.regEndTime <= c.endTime;
  add({
    key: 'dates',
    label: '报名与竞赛时间',
    ok: datesOk,
    level: 'blocking',
    detail: datesOk
      ? `报名 ${t(c.regStartTime)} 至 ${t(c.regEndTime)}，竞赛 ${t(c.endTime)} 结束`
      : c.regStartTime >= c.regEndTime
        ? `报名截止时间（${t(c.regEndTime)}）须晚于报名开始时间（${t(c.regStartTime)}）`
        : `竞赛结束时间（${t(c.endTime)}）早于报名截止时间（${t(c.regEndTime)}）`,
    fix: basic('修改报名时间和竞赛结束时间'),
  });

  // Dates already past: a competition approved now would open to nobody.
  const iso = now.toISOString();
  const ended = c.endTime < iso;
  const closed = c.regEndTime < iso;
  add({
    key: 'schedule',
    label: '报名尚未截止',
    ok: !closed,
    level: 'advisory',
    detail: ended
      ? `竞赛结束时间（${t(c.endTime)}）已过，上线后参赛者既不能报名也不能提交`
      : closed
        ? `报名截止时间（${t(c.regEndTime)}）已过，上线后无人能报名`
        : `距报名截止还有 ${Math.max(1, Math.ceil((new Date(c.regEndTime).getTime() - now.getTime()) / DAY_MS))} 天；审核通常需要一些时间，请留出余量`,
    fix: basic('推迟报名截止时间和竞赛结束时间'),
  });

  const teamOk = c.minMembers <= c.maxMembers;
  add({
    key: 'team',
    label: '组队规则',
    ok: teamOk,
    level: 'blocking',
    detail: teamOk
      ? `每队 ${c.minMembers}–${c.maxMembers} 人，指导老师最多 ${c.maxTeachers} 人；${c.allowIndividual ? '允许' : '不允许'}个人参赛`
      : `每队最少人数（${c.minMembers}）多于最多人数（${c.maxMembers}），任何队伍都无法成队`,
    fix: basic('修改每队人数'),
  });

  // A fee and a way to pay it. The methods are the platform's: without any, participants can still pay the organiser
  // offline and finance records a collective payment, so this is said plainly without refusing.
  const methods = facts.paymentMethods;
  const payOk = c.fee === 0 || methods.length > 0;
  add({
    key: 'fee',
    label: '报名费与支付方式',
    ok: payOk,
    level: 'advisory',
    detail:
      c.fee === 0
        ? '免费参赛，无需支付'
        : payOk
          ? `报名费 ${fenToYuan(c.fee)} 元，参赛者可用${methods.join('、')}支付`
          : `报名费 ${fenToYuan(c.fee)} 元，但平台尚未开通任何支付方式：参赛者只能联系主办方线下缴费，再由财务登记集体缴费。请联系平台管理员在「支付配置」中开通，或将报名费改为 0`,
    fix: { ...basic('修改报名费'), adminPath: '/payment/custom' },
  });

  // Invoices of the fee: Chinese universities reimburse a fee against an invoice, so a paid competition without them
  // is said plainly; whether to open them is the organiser's choice.
  if (c.fee > 0) {
    const invoiceOk = c.invoiceEnable && facts.platformInvoices;
    add({
      key: 'invoice',
      label: '发票申请',
      ok: invoiceOk,
      level: 'advisory',
      detail: !c.invoiceEnable
        ? '未开放发票申请：缴费的参赛者不能在平台上为报名费申请发票（学校报销通常需要发票）'
        : !facts.platformInvoices
          ? '本竞赛已开放发票申请，但平台的「发票配置」暂停了发票申请，参赛者暂时无法申请。请联系平台管理员'
          : '已开放发票申请：缴费的队伍可在个人中心为报名费申请发票',
      fix: c.invoiceEnable ? { ...basic('勾选「开放发票申请」'), adminPath: '/financial/invoiceConfig' } : basic('勾选「开放发票申请」'),
    });
  }

  // The registration form: the menu on, fields chosen, its window meeting the registration dates.
  const reg = facts.presets.find((p) => p.menuCode === 'REG_SET');
  let regGap: string | null = null;
  if (!reg?.enable) regGap = `「${MENU_NAMES.REG_SET}」未启用，参赛者无法报名`;
  else if (!reg.fieldList.length) regGap = '报名表没有任何字段，请至少选择姓名等一项';
  else if (reg.enableEndTime && reg.enableEndTime < c.regStartTime)
    regGap = `「${MENU_NAMES.REG_SET}」的开放时间在 ${t(reg.enableEndTime)} 结束，早于报名开始时间，参赛者无法报名`;
  else if (reg.enableStartTime && reg.enableStartTime > c.regEndTime)
    regGap = `「${MENU_NAMES.REG_SET}」的开放时间从 ${t(reg.enableStartTime)} 开始，晚于报名截止时间，参赛者无法报名`;
  add({
    key: 'regForm',
    label: '报名表',
    ok: regGap === null,
    level: 'blocking',
    detail: regGap ?? `报名表填写${reg!.fieldList.map((f) => f.label).join('、')}共 ${reg!.fieldList.length} 项`,
    fix: { tab: 'presets', text: `在「菜单设置」的「${MENU_NAMES.REG_SET}」中启用报名并选择报名字段` },
  });

  // Deadlines: each enabled window (choice, works, tests) closes when the organiser set, and must open before it closes.
  const windows = submissionWindows(c, facts.stages, facts.presets).filter((w) => w.enabled);
  const badWindow = windows.find((w) => w.start && w.end && w.start >= w.end);
  add({
    key: 'deadlines',
    label: '截止时间',
    ok: !badWindow,
    level: 'blocking',
    detail: badWindow
      ? `「${WINDOW_NAMES[badWindow.kind]}」从 ${t(badWindow.start!)} 开放，却在 ${t(badWindow.end!)} 截止（${deadlineSourceText(badWindow)}），参赛者将无法提交`
      : windows.length
        ? windows.map((w) => `${WINDOW_NAMES[w.kind]}截止于 ${deadlineText(w)}`).join('；')
        : `「${MENU_NAMES.CHOICE_SET}」「${MENU_NAMES.SUBMIT_WORKS}」「${MENU_NAMES.SUBMIT_TEST}」尚未启用，可在上线后启用；各自的截止时间在「菜单设置」中选择（某个阶段结束时，或竞赛结束时间）`,
    fix: { tab: 'presets', text: `在「菜单设置」中为「${MENU_NAMES.CHOICE_SET}」「${MENU_NAMES.SUBMIT_WORKS}」「${MENU_NAMES.SUBMIT_TEST}」选择截止时间` },
  });

  // A deadline before registration closes: a team registering late finds it already past.
  const early = windows.filter((w) => w.end && w.end < c.regEndTime);
  if (early.length) {
    add({
      key: 'deadlineOrder',
      label: '截止时间早于报名截止',
      ok: false,
      level: 'advisory',
      detail: `${early.map((w) => `「${WINDOW_NAMES[w.kind]}」于 ${t(w.end!)} 截止`).join('、')}，早于报名截止时间（${t(c.regEndTime)}）：之后报名的队伍将无法${early.map((w) => WINDOW_VERBS[w.kind]).join('、')}`,
      fix: { tab: 'presets', text: '在「菜单设置」中推迟截止时间，或在「基本信息」中提前报名截止时间' },
    });
  }

  // Stages: optional, but those set must fall inside the competition; overlapping ones confuse the timeline.
  const stageGap = facts.stages.find((s) => s.startDate > c.endTime || (s.endDate && s.endDate > c.endTime));
  const ordered = [...facts.stages].sort((a, b) => (a.startDate < b.startDate ? -1 : a.startDate > b.startDate ? 1 : 0));
  const overlap = ordered
    .slice(1)
    .map((s, i) => [ordered[i]!, s] as const)
    .find(([a, b]) => a.endDate !== null && a.endDate > b.startDate);
  add({
    key: 'stages',
    label: '竞赛阶段',
    ok: facts.stages.length > 0 && !stageGap && !overlap,
    level: stageGap ? 'blocking' : 'advisory',
    detail: stageGap
      ? `阶段「${stageGap.name}」${stageGap.startDate > c.endTime ? `开始于 ${t(stageGap.startDate)}` : `结束于 ${t(stageGap.endDate!)}`}，晚于竞赛结束时间（${t(c.endTime)}）`
      : overlap
        ? `阶段「${overlap[0].name}」（至 ${t(overlap[0].endDate!)}）与「${overlap[1].name}」（自 ${t(overlap[1].startDate)}）时间重叠，参赛者看到的赛程会前后矛盾`
        : facts.stages.length
          ? facts.stages.map((s) => `${s.name}（${t(s.startDate)}${s.endDate ? ` 至 ${t(s.endDate)}` : ' 起'}）`).join('、')
          : '尚未设置竞赛阶段。阶段可在上线后添加；在「菜单设置」中可选择某个阶段的结束作为选题或提交的截止时间',
    fix: { tab: 'stages', text: '在「竞赛阶段」中添加或修改阶段' },
  });

  const on = (code: Preset['menuCode']) => facts.presets.some((p) => p.menuCode === code && p.enable);

  // Questions: none yet is normal (they are often published when the contest starts); each one present must be scorable.
  const scorable = facts.questions.filter(questionScorable).length;
  add({
    key: 'questions',
    label: '赛题',
    ok: facts.questions.length > 0,
    level: 'advisory',
    detail: facts.questions.length
      ? `共 ${facts.questions.length} 道赛题，其中 ${scorable} 道已准备好（专家评审的赛题无需评分设置，自动评分的赛题需评分指标和答案文件）；竞赛审核通过时，准备好的赛题一并审核公开`
      : '尚未添加赛题。赛题可在上线后添加（例如比赛开始时再公布），添加后需平台审核才对参赛者可见',
    fix: { tab: 'questions', text: '在「赛题」中新建赛题' },
  });
  for (const q of facts.questions) {
    const gap = questionGap(q);
    add({
      key: `question:${q.id}`,
      label: `赛题「${q.title}」`,
      ok: gap === null,
      level: 'blocking',
      detail: gap ?? questionReady(q),
      fix: {
        tab: 'questions',
        text:
          gap && !q.evaluation
            ? '在「赛题」中编辑该题，开启自动评分并设置评分指标'
            : q.answerRows !== null && gap
              ? '在「赛题」中点该题的“评分程序”，上传并试运行评分程序'
              : '在「赛题」中为该题上传答案文件',
      },
    });
  }

  // The menus a team goes through once there are questions: choosing one, and submitting works and, where a question
  // is scored automatically, test results. Often opened when the contest starts, so advice, but said before approval:
  // a team that finds them closed has no way on.
  if (facts.questions.length) {
    // Works where experts judge a question, test files where one is scored automatically.
    const needed: Preset['menuCode'][] = [
      'CHOICE_SET',
      ...(facts.questions.some((q) => judgedByExperts(q.judging)) ? (['SUBMIT_WORKS'] as const) : []),
      ...(facts.questions.some((q) => scoredAutomatically(q.judging)) ? (['SUBMIT_TEST'] as const) : []),
    ];
    const off = needed.filter((code) => !on(code));
    add({
      key: 'flowMenus',
      label: '选题与提交栏目',
      ok: off.length === 0,
      level: 'advisory',
      detail: off.length
        ? `${off.map((code) => `「${MENU_NAMES[code]}」`).join('')}尚未启用：启用之前，参赛队伍${off.map((code) => FLOW_GAPS[code]).join('，也')}（可以到开放时再启用）`
        : needed.map((code) => `「${MENU_NAMES[code]}」`).join('') + '已启用',
      fix: { tab: 'presets', text: `在「菜单设置」中启用${off.map((code) => `「${MENU_NAMES[code]}」`).join('')}并设置开放时间` },
    });
  }

  add({
    key: 'introduce',
    label: '竞赛介绍',
    ok: !blankHtml(c.introduce),
    level: 'advisory',
    detail: blankHtml(c.introduce) ? '竞赛介绍为空：它是参赛者打开竞赛页面首先看到的内容' : '已填写',
    fix: basic('填写竞赛介绍'),
  });

  // Menus turned on whose page would be empty.
  const empty = [
    on('COMP_INFO') && blankHtml(c.information) ? `「${MENU_NAMES.COMP_INFO}」已启用，但竞赛信息为空` : null,
    on('BEFORE_GUIDE') && blankHtml(c.guide) ? `「${MENU_NAMES.BEFORE_GUIDE}」已启用，但赛前指导为空` : null,
    on('TRAINING_PLATFORM') && !c.trainingUrl ? `「${MENU_NAMES.TRAINING_PLATFORM}」已启用，但未填写训练平台地址` : null,
  ].filter((x): x is string => x !== null);
  add({
    key: 'menuContent',
    label: '栏目内容',
    ok: empty.length === 0,
    level: 'advisory',
    detail: empty.length ? `${empty.join('；')}，参赛者会看到空白页` : '已启用的栏目都有内容',
    fix: basic('填写对应内容，或在「菜单设置」中关闭该栏目'),
  });

  if (facts.edition) editionItems(facts.edition, c, add);

  return { ready: !items.some(isGap), items };
}

/** What a copied edition's organiser is to recheck: the dates moved, the fee copied, the judges not copied. */
function editionItems(e: NonNullable<ReadinessFacts['edition']>, c: ReadinessFacts['competition'], add: (item: ReadinessItem) => void) {
  const from = `本届由“${e.fromName}”复制`;
  const datesOpen = e.recheck.includes('dates');
  add({
    key: 'recheck:dates',
    label: '复核日期',
    ok: !datesOpen,
    level: 'advisory',
    detail: datesOpen
      ? `${from}，所有日期已整体${e.shiftDays < 0 ? `提前 ${-e.shiftDays}` : `顺延 ${e.shiftDays}`} 天：请逐一核对报名时间、竞赛阶段、各栏目的开放时间和定时通知（节假日、考试周可能不同），核对后点“已复核”`
      : `已复核（由往届${e.shiftDays < 0 ? `提前 ${-e.shiftDays}` : `顺延 ${e.shiftDays}`} 天）`,
    fix: { tab: 'basic', text: '在「基本信息」「竞赛阶段」「菜单设置」中核对日期' },
    recheck: 'dates',
  });
  const feeOpen = e.recheck.includes('fee');
  add({
    key: 'recheck:fee',
    label: '复核报名费与发票',
    ok: !feeOpen,
    level: 'advisory',
    detail: feeOpen
      ? `${from}，报名费 ${c.fee === 0 ? '免费' : `${fenToYuan(c.fee)} 元`}、${c.invoiceEnable ? '可' : '不'}开发票沿用往届：请确认本届标准，核对后点“已复核”`
      : `已复核：报名费 ${c.fee === 0 ? '免费' : `${fenToYuan(c.fee)} 元`}`,
    fix: { tab: 'basic', text: '在「基本信息」中修改报名费和发票设置' },
    recheck: 'fee',
  });
  add({
    key: 'recheck:judges',
    label: '评审专家',
    ok: e.judgesMissing.length === 0,
    level: 'advisory',
    detail: e.judgesMissing.length
      ? `评审专家不随往届复制：${e.judgesMissing.map((t) => `“${t}”`).join('')}尚未指定评审专家，作品提交后无人评审`
      : '需要专家评审的赛题都已指定评审专家',
    fix: { tab: 'questions', text: '在「评审管理」中为赛题指定评审专家' },
  });
}

/** What a team cannot do once a window has closed. */
const WINDOW_VERBS: Record<WindowKind, string> = { CHOICE_SET: '选题', SUBMIT_WORKS: '提交作品', SUBMIT_TEST: '提交测试' };

/** What a team cannot do while a menu of the contest's flow is off. */
const FLOW_GAPS: Partial<Record<Preset['menuCode'], string>> = {
  CHOICE_SET: '无法选择赛题',
  SUBMIT_WORKS: '无法提交作品',
  SUBMIT_TEST: '无法提交测试结果',
};

/** A blocking item not met: it refuses the submission for audit. */
export const isGap = (i: ReadinessItem) => !i.ok && i.level === 'blocking';

/** The refusal of a submission for audit, listing every blocking gap; null when there is none. */
export function readinessRefusal(r: Readiness): string | null {
  const gaps = r.items.filter(isGap);
  if (!gaps.length) return null;
  return `还有 ${gaps.length} 项必须补齐才能提交审核：${gaps.map((g, i) => `${i + 1}. ${g.label}：${g.detail}`).join('；')}`;
}
