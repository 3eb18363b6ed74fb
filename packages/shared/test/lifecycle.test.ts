import { describe, expect, it } from 'vitest';
import {
  ARCHIVE_AFTER_DAYS,
  beijingMinute,
  beijingShort,
  competitionPhase,
  competitionStatus,
  countdownNextChangeMs,
  countdownStage,
  countdownText,
  earlyActionWarning,
  earlyWarningText,
  openSubmission,
  nextDeadlineText,
  PHASES,
  publishRefusal,
  publishRefusalText,
  deadlineText,
  reopenedWindows,
  reopenWarningText,
  registrationRefusal,
  submissionWindow,
  submissionWindows,
  windowRefusal,
  windowState,
  type LifecyclePreset,
} from '../src/index.ts';

// Beijing 2026-03-01 08:00 .. 03-10 08:00 registration, ends 03-31 08:00 (UTC midnight).
const c = { regStartTime: '2026-03-01T00:00:00.000Z', regEndTime: '2026-03-10T00:00:00.000Z', endTime: '2026-03-31T00:00:00.000Z', auditStatus: 3 };
const at = (iso: string) => new Date(iso);
const works = (over: Partial<LifecyclePreset> = {}): LifecyclePreset => ({
  menuCode: 'SUBMIT_WORKS',
  enable: true,
  enableStartTime: null,
  enableEndTime: null,
  deadlineStageId: null,
  ...over,
});
const test = (over: Partial<LifecyclePreset> = {}): LifecyclePreset => ({
  menuCode: 'SUBMIT_TEST',
  enable: true,
  enableStartTime: null,
  enableEndTime: null,
  deadlineStageId: null,
  ...over,
});

describe('Beijing time', () => {
  it('shows UTC storage in UTC+8, across the date line', () => {
    expect(beijingMinute('2026-03-20T04:00:00.000Z')).toBe('2026-03-20 12:00');
    expect(beijingMinute('2026-03-20T16:30:00.000Z')).toBe('2026-03-21 00:30');
    expect(beijingMinute('2026-12-31T16:00:00.000Z')).toBe('2027-01-01 00:00');
    expect(beijingShort('2026-03-20T04:05:00.000Z')).toBe('03-20 12:05');
  });
});

describe('submissionWindow', () => {
  it('defaults to the competition end', () => {
    const w = submissionWindow(c, [], [works()]);
    expect(w).toMatchObject({ enabled: true, end: c.endTime, source: 'competition', stageName: null });
  });
  it('uses the end of the stage chosen as its deadline, whatever the stages are called', () => {
    const stages = [
      { id: 1, name: '初赛', startDate: '2026-03-10T00:00:00.000Z', endDate: '2026-03-15T00:00:00.000Z' },
      { id: 2, name: '作品提交', startDate: '2026-03-15T00:00:00.000Z', endDate: '2026-03-20T04:00:00.000Z' },
      { id: 3, name: '答辩', startDate: '2026-03-21T00:00:00.000Z', endDate: null },
    ];
    // No stage chosen: the competition's end, even beside a stage called 作品提交.
    expect(submissionWindow(c, stages, [works()])).toMatchObject({ end: c.endTime, source: 'competition', stageName: null });
    // The stage chosen, named 初赛, closes works; tests keep their own choice.
    expect(submissionWindow(c, stages, [works({ deadlineStageId: 1 })])).toMatchObject({ end: '2026-03-15T00:00:00.000Z', source: 'stage', stageName: '初赛' });
    expect(submissionWindow(c, stages, [works({ deadlineStageId: 1 }), test()], 'SUBMIT_TEST').source).toBe('competition');
    // Renaming the stage changes nothing but the name said.
    const renamed = stages.map((s) => (s.id === 2 ? { ...s, name: '复赛' } : s));
    expect(submissionWindow(c, stages, [works({ deadlineStageId: 2 })]).end).toBe(submissionWindow(c, renamed, [works({ deadlineStageId: 2 })]).end);
    expect(submissionWindow(c, renamed, [works({ deadlineStageId: 2 })]).stageName).toBe('复赛');
    // A stage without an end (or gone) cannot close anything: the competition's end.
    expect(submissionWindow(c, stages, [works({ deadlineStageId: 3 })]).source).toBe('competition');
    expect(submissionWindow(c, stages, [works({ deadlineStageId: 99 })]).source).toBe('competition');
    expect(deadlineText(submissionWindow(c, stages, [works({ deadlineStageId: 2 })]))).toBe('2026-03-20 12:00（阶段「作品提交」结束）');
    expect(deadlineText(submissionWindow(c, stages, [works()]))).toBe('2026-03-31 08:00（竞赛结束时间）');
  });
  it('a preset end narrows the window but never widens it', () => {
    expect(submissionWindow(c, [], [works({ enableEndTime: '2026-03-20T04:00:00.000Z' })])).toMatchObject({
      end: '2026-03-20T04:00:00.000Z',
      source: 'preset',
    });
    expect(submissionWindow(c, [], [works({ enableEndTime: '2026-04-20T00:00:00.000Z' })])).toMatchObject({ end: c.endTime, source: 'competition' });
  });
  it('is disabled without an enabled preset', () => {
    expect(submissionWindow(c, [], []).enabled).toBe(false);
    expect(submissionWindow(c, [], [works({ enable: false })]).enabled).toBe(false);
    expect(windowRefusal(submissionWindow(c, [], []), at('2026-03-12T00:00:00.000Z'))).toBe('不在提交作品的时间内');
  });
  it('refuses before the start and after the end, naming the time; the end minute itself is still open', () => {
    const w = submissionWindow(c, [], [works({ enableStartTime: '2026-03-10T00:00:00.000Z', enableEndTime: '2026-03-20T04:00:00.000Z' })]);
    expect(windowState(w, at('2026-03-09T23:59:59.999Z'))).toBe('notStarted');
    expect(windowRefusal(w, at('2026-03-09T23:59:59.999Z'))).toBe('提交作品将于 2026-03-10 08:00 开始');
    expect(windowRefusal(w, at('2026-03-10T00:00:00.000Z'))).toBeNull();
    expect(windowRefusal(w, at('2026-03-20T04:00:00.000Z'))).toBeNull();
    expect(windowRefusal(w, at('2026-03-20T04:00:00.001Z'))).toBe('提交作品已于 2026-03-20 12:00 截止');
    const t = submissionWindow(c, [], [test()], 'SUBMIT_TEST');
    expect(windowRefusal(t, at('2026-03-31T00:00:01.000Z'))).toBe('提交测试已于 2026-03-31 08:00 截止');
  });
});

describe('the choice window', () => {
  const choice = (over: Partial<LifecyclePreset> = {}): LifecyclePreset => ({
    menuCode: 'CHOICE_SET',
    enable: true,
    enableStartTime: null,
    enableEndTime: null,
    deadlineStageId: null,
    ...over,
  });
  const submit = { id: 7, name: '初赛', startDate: '2026-03-15T00:00:00.000Z', endDate: '2026-03-20T04:00:00.000Z' };
  const tests = { id: 8, name: '测评', startDate: '2026-03-15T00:00:00.000Z', endDate: '2026-03-22T04:00:00.000Z' };
  it('closes with the later submission deadline stage by default, or with a stage of its own, and a preset end narrows it', () => {
    expect(submissionWindow(c, [], [choice()], 'CHOICE_SET')).toMatchObject({ end: c.endTime, source: 'competition' });
    expect(submissionWindow(c, [submit], [choice(), works({ deadlineStageId: 7 })], 'CHOICE_SET')).toMatchObject({
      end: submit.endDate,
      source: 'stage',
      stageName: '初赛',
    });
    expect(submissionWindow(c, [submit, tests], [choice(), works({ deadlineStageId: 7 }), test({ deadlineStageId: 8 })], 'CHOICE_SET')).toMatchObject({
      end: tests.endDate,
      stageName: '测评',
    });
    const own = { id: 9, name: '第一阶段', startDate: '2026-03-10T00:00:00.000Z', endDate: '2026-03-14T00:00:00.000Z' };
    expect(submissionWindow(c, [own, submit], [choice({ deadlineStageId: 9 }), works({ deadlineStageId: 7 })], 'CHOICE_SET')).toMatchObject({
      end: own.endDate,
      stageName: '第一阶段',
    });
    expect(submissionWindow(c, [submit], [choice({ enableEndTime: '2026-03-18T00:00:00.000Z' }), works({ deadlineStageId: 7 })], 'CHOICE_SET')).toMatchObject({
      end: '2026-03-18T00:00:00.000Z',
      source: 'preset',
    });
  });
  it('names itself in its refusals', () => {
    const w = submissionWindow(c, [submit], [choice(), works({ deadlineStageId: 7 })], 'CHOICE_SET');
    expect(windowRefusal(w, at('2026-03-20T04:00:00.000Z'))).toBeNull();
    expect(windowRefusal(w, at('2026-03-20T04:00:00.001Z'))).toBe('选择赛题已于 2026-03-20 12:00 截止');
    expect(windowRefusal(submissionWindow(c, [], [choice({ enable: false })], 'CHOICE_SET'), at('2026-03-12T00:00:00.000Z'))).toBe('不在选择赛题的时间内');
  });
});

describe('reopening after publication', () => {
  const stages = [{ id: 1, name: '复赛', startDate: '2026-03-10T00:00:00.000Z', endDate: '2026-03-20T00:00:00.000Z' }];
  const now = at('2026-03-25T00:00:00.000Z');
  it('finds the windows a change opens again, and only those', () => {
    const before = submissionWindows(c, stages, [works({ deadlineStageId: 1 }), test({ enableEndTime: '2026-03-20T00:00:00.000Z' })]);
    // Renaming the stage reopens nothing.
    expect(
      reopenedWindows(
        before,
        submissionWindows(c, [{ ...stages[0]!, name: '复赛提交' }], [works({ deadlineStageId: 1 }), test({ enableEndTime: '2026-03-20T00:00:00.000Z' })]),
        now,
      ),
    ).toEqual([]);
    // Moving the stage's end past now reopens works; dropping the stage as deadline falls back to the competition's end.
    const moved = submissionWindows(
      c,
      [{ ...stages[0]!, endDate: '2026-03-28T00:00:00.000Z' }],
      [works({ deadlineStageId: 1 }), test({ enableEndTime: '2026-03-20T00:00:00.000Z' })],
    );
    expect(reopenedWindows(before, moved, now).map((w) => w.kind)).toEqual(['SUBMIT_WORKS']);
    const dropped = submissionWindows(c, stages, [works(), test({ enableEndTime: '2026-03-20T00:00:00.000Z' })]);
    expect(reopenedWindows(before, dropped, now).map((w) => w.kind)).toEqual(['SUBMIT_WORKS']);
    // Moving it earlier, or turning a closed menu off, reopens nothing; turning on a menu that was off does.
    expect(
      reopenedWindows(before, submissionWindows(c, [{ ...stages[0]!, endDate: '2026-03-15T00:00:00.000Z' }], [works({ deadlineStageId: 1 })]), now),
    ).toEqual([]);
    const off = submissionWindows(c, stages, [works({ deadlineStageId: 1 })]);
    expect(reopenedWindows(off, submissionWindows(c, stages, [works({ deadlineStageId: 1 }), test()]), now).map((w) => w.kind)).toEqual(['SUBMIT_TEST']);
    expect(reopenWarningText(reopenedWindows(before, moved, now))).toBe(
      '成绩已公布，此修改将重新开放「提交作品」（至 2026-03-28 08:00 截止）。已公布的成绩、获奖和证书不会随之改变；重新开放期间的新提交会进入排行榜，可能与已公布的结果不一致。确定重新开放吗？',
    );
  });
});

describe('competitionPhase', () => {
  const phase = (now: string, facts = {}, over = {}, stages: Parameters<typeof competitionPhase>[1] = []) =>
    competitionPhase({ ...c, ...over }, stages, { presets: [works()], ...facts }, at(now));

  it('draft and rejected are 草稿, pending audit is 审核中, whatever the dates', () => {
    expect(phase('2026-03-05T00:00:00.000Z', {}, { auditStatus: 0 })).toMatchObject({ code: 'draft', name: '草稿' });
    expect(phase('2026-03-05T00:00:00.000Z', {}, { auditStatus: 2 }).code).toBe('draft');
    expect(phase('2026-03-05T00:00:00.000Z', {}, { auditStatus: 1 })).toMatchObject({ code: 'audit', name: '审核中' });
  });
  it('follows the dates once published (online or offline), with inclusive ends', () => {
    expect(phase('2026-02-28T23:59:59.999Z')).toMatchObject({ code: 'upcoming', name: '即将开始', next: { label: '报名截止', at: c.regEndTime } });
    expect(phase('2026-03-01T00:00:00.000Z').code).toBe('registration');
    expect(phase('2026-03-10T00:00:00.000Z', {}, { auditStatus: 4 })).toMatchObject({ code: 'registration', name: '报名中' });
    const running = phase('2026-03-10T00:00:00.001Z');
    expect(running).toMatchObject({
      code: 'inProgress',
      name: '进行中',
      next: { label: '提交截止', at: c.endTime },
      submissionDeadline: c.endTime,
      registrationEnd: c.regEndTime,
    });
    expect(nextDeadlineText(running)).toBe('提交截止 03-31 08:00');
    expect(phase('2026-03-31T00:00:00.000Z').code).toBe('inProgress');
    expect(phase('2026-03-31T00:00:00.001Z')).toMatchObject({ code: 'submissionClosed', name: '提交已截止', next: null });
  });
  it('names the active stage while in progress', () => {
    const stages = [
      { id: 1, name: '初赛', startDate: '2026-03-10T00:00:00.000Z', endDate: null },
      { id: 2, name: '复赛', startDate: '2026-03-20T00:00:00.000Z', endDate: null },
    ];
    expect(phase('2026-03-15T00:00:00.000Z', {}, {}, stages).stageName).toBe('初赛');
    expect(phase('2026-03-25T00:00:00.000Z', {}, {}, stages).stageName).toBe('复赛');
  });
  it('closes submission at the narrowed deadline, the latest of the enabled windows', () => {
    const presets = [works({ enableEndTime: '2026-03-20T04:00:00.000Z' }), test({ enableEndTime: '2026-03-18T00:00:00.000Z' })];
    const p = (now: string) => competitionPhase(c, [], { presets }, at(now));
    expect(p('2026-03-20T04:00:00.000Z')).toMatchObject({ code: 'inProgress', submissionDeadline: '2026-03-20T04:00:00.000Z' });
    expect(nextDeadlineText(p('2026-03-19T00:00:00.000Z'))).toBe('提交截止 03-20 12:00');
    expect(p('2026-03-20T04:00:00.001Z').code).toBe('submissionClosed');
    // Without any enabled window the competition's end is the deadline.
    expect(competitionPhase(c, [], {}, at('2026-03-30T00:00:00.000Z')).code).toBe('inProgress');
  });
  it('moves to 评审中, 成绩已公布 and 已归档 by the grades', () => {
    expect(phase('2026-04-01T00:00:00.000Z', { reviewStarted: true })).toMatchObject({ code: 'review', name: '评审中' });
    expect(phase('2026-04-01T00:00:00.000Z', { reviewStarted: true, resultsPublishedAt: '2026-04-01T00:00:00.000Z' })).toMatchObject({
      code: 'published',
      name: '成绩已公布',
    });
    const archiveAt = new Date(Date.parse('2026-04-01T00:00:00.000Z') + ARCHIVE_AFTER_DAYS * 86400_000).toISOString();
    expect(phase(new Date(Date.parse(archiveAt) - 1).toISOString(), { resultsPublishedAt: '2026-04-01T00:00:00.000Z' }).code).toBe('published');
    expect(phase(archiveAt, { resultsPublishedAt: '2026-04-01T00:00:00.000Z' })).toMatchObject({ code: 'archived', name: '已归档' });
    // Published before the end: the archive waits for the competition's end.
    expect(phase('2026-04-20T00:00:00.000Z', { resultsPublishedAt: '2026-03-01T00:00:00.000Z' }, {}, []).code).toBe('published');
  });
  it('shows published results and grading as such even while registration is still open', () => {
    // Registration open until 04-10, submission closed 03-31 with the competition's end.
    const late = { regEndTime: '2026-04-10T00:00:00.000Z', endTime: '2026-04-30T00:00:00.000Z' };
    const presets = [works({ enableEndTime: '2026-03-31T00:00:00.000Z' })];
    const p = (facts: object) => competitionPhase({ ...c, ...late }, [], { presets, ...facts }, at('2026-04-05T00:00:00.000Z'));
    expect(p({}).code).toBe('registration');
    expect(p({ reviewStarted: true }).code).toBe('review');
    expect(p({ reviewStarted: true, resultsPublishedAt: '2026-04-04T00:00:00.000Z' }).code).toBe('published');
  });
  it('covers every phase name', () => {
    expect(Object.values(PHASES)).toEqual(['草稿', '审核中', '即将开始', '报名中', '进行中', '提交已截止', '评审中', '成绩已公布', '已归档']);
  });
});

describe('competitionStatus (spec §4 filter) agrees with the lifecycle', () => {
  it.each([
    ['2026-02-28T23:59:59.999Z', 1, 'upcoming'],
    ['2026-03-01T00:00:00.000Z', 2, 'registration'],
    ['2026-03-10T00:00:00.000Z', 2, 'registration'],
    ['2026-03-10T00:00:00.001Z', 3, 'inProgress'],
    ['2026-03-31T00:00:00.000Z', 3, 'inProgress'],
    ['2026-03-31T00:00:00.001Z', 4, 'submissionClosed'],
  ] as const)('%s -> %i', (now, status, code) => {
    expect(competitionStatus(c, at(now))).toBe(status);
    expect(competitionPhase(c, [], {}, at(now)).code).toBe(code);
  });
});

describe('earlyActionWarning', () => {
  it('names the open window and its deadline, and is silent once closed or switched off', () => {
    const w = submissionWindow(c, [], [works({ enableEndTime: '2026-03-20T04:00:00.000Z' })]);
    expect(earlyActionWarning([w], at('2026-03-15T00:00:00.000Z'))).toBe('提交作品尚未截止（03-20 12:00），现在计算的成绩可能不是最终成绩，确定继续？');
    expect(earlyActionWarning([w], at('2026-03-20T04:00:01.000Z'))).toBeNull();
    expect(earlyActionWarning([submissionWindow(c, [], [])], at('2026-03-15T00:00:00.000Z'))).toBeNull();
  });
  it('counts a window still to open, and names the latest of those open', () => {
    const w = submissionWindow(c, [], [works({ enableStartTime: '2026-03-12T00:00:00.000Z', enableEndTime: '2026-03-20T04:00:00.000Z' })]);
    const t = submissionWindow(c, [], [test()], 'SUBMIT_TEST');
    expect(openSubmission([w, t], at('2026-03-11T00:00:00.000Z'))).toEqual({ kind: 'SUBMIT_TEST', name: '提交测试', end: c.endTime });
    expect(openSubmission([w], at('2026-03-11T00:00:00.000Z'))).toEqual({ kind: 'SUBMIT_WORKS', name: '提交作品', end: '2026-03-20T04:00:00.000Z' });
    expect(earlyWarningText({ kind: 'SUBMIT_WORKS', name: '提交作品', end: '2026-03-20T04:00:00.000Z' }, '现在评定的奖项可能不是最终结果')).toBe(
      '提交作品尚未截止（03-20 12:00），现在评定的奖项可能不是最终结果，确定继续？',
    );
    expect(openSubmission([w, t], at('2026-03-31T00:00:00.001Z'))).toBeNull();
  });
});

describe('publishRefusal', () => {
  it('refuses publishing while any enabled window is open or still to open, naming the latest deadline in full', () => {
    const w = submissionWindow(c, [], [works({ enableEndTime: '2026-03-20T04:00:00.000Z' })]);
    const t = submissionWindow(c, [], [test({ enableEndTime: '2026-03-25T10:30:00.000Z' })], 'SUBMIT_TEST');
    expect(publishRefusal([w, t], at('2026-03-15T00:00:00.000Z'))).toBe('提交测试将于 2026-03-25 18:30 截止，截止前不能公布成绩');
    // Works closed, tests still open: the tests' deadline is the one that matters.
    expect(publishRefusal([w, t], at('2026-03-21T00:00:00.000Z'))).toBe('提交测试将于 2026-03-25 18:30 截止，截止前不能公布成绩');
    expect(publishRefusal([w], at('2026-03-20T04:00:00.000Z'))).toBe('提交作品将于 2026-03-20 12:00 截止，截止前不能公布成绩');
    expect(publishRefusal([w], at('2026-03-20T04:00:00.001Z'))).toBeNull();
    expect(publishRefusal([w, t], at('2026-03-25T10:30:00.001Z'))).toBeNull();
    // A window still to open counts; a window switched off does not.
    const later = submissionWindow(c, [], [works({ enableStartTime: '2026-03-22T00:00:00.000Z', enableEndTime: '2026-03-24T04:00:00.000Z' })]);
    expect(publishRefusal([later], at('2026-03-21T00:00:00.000Z'))).toBe('提交作品将于 2026-03-24 12:00 截止，截止前不能公布成绩');
    expect(publishRefusal([submissionWindow(c, [], [works({ enable: false })])], at('2026-03-15T00:00:00.000Z'))).toBeNull();
    expect(publishRefusalText({ kind: 'SUBMIT_WORKS', name: '提交作品', end: '2026-06-30T04:00:00.000Z' })).toBe(
      '提交作品将于 2026-06-30 12:00 截止，截止前不能公布成绩',
    );
  });
});

describe('countdownText', () => {
  const DAY = 24 * 3600_000;
  const HOUR = 3600_000;
  const MIN = 60_000;
  it('counts whole days while at least a day is left, then hours and minutes, then hh:mm:ss in the last hour, then 已截止', () => {
    expect(countdownText(3 * DAY + 5 * HOUR)).toBe('还剩 3 天');
    expect(countdownText(2 * DAY - 1)).toBe('还剩 1 天');
    // The 1-day boundary: exactly a day left is still 1 day; a millisecond less is the last day.
    expect(countdownText(DAY)).toBe('还剩 1 天');
    expect(countdownText(DAY - 1)).toBe('还剩 23 小时 59 分');
    expect(countdownText(5 * HOUR + 42 * MIN + 30_000)).toBe('还剩 5 小时 42 分');
    expect(countdownText(HOUR)).toBe('还剩 1 小时 0 分');
    // The last hour counts seconds: three minutes never read like three hours.
    expect(countdownText(HOUR - 1)).toBe('还剩 01:00:00');
    expect(countdownText(3 * MIN + 12_000)).toBe('还剩 00:03:12');
    expect(countdownText(3 * MIN + 11_001)).toBe('还剩 00:03:12');
    expect(countdownText(MIN)).toBe('还剩 00:01:00');
    expect(countdownText(1)).toBe('还剩 00:00:01');
    // The deadline itself and after.
    expect(countdownText(0)).toBe('已截止');
    expect(countdownText(-DAY)).toBe('已截止');
  });
  it('tells the stage and when the text next changes', () => {
    expect([countdownStage(DAY), countdownStage(DAY - 1), countdownStage(HOUR), countdownStage(HOUR - 1), countdownStage(1), countdownStage(0)]).toEqual([
      'days',
      'lastDay',
      'lastDay',
      'lastHour',
      'lastHour',
      'closed',
    ]);
    expect(countdownNextChangeMs(DAY)).toBe(1);
    expect(countdownNextChangeMs(DAY - 1)).toBe(MIN);
    expect(countdownNextChangeMs(HOUR + 500)).toBe(501);
    expect(countdownNextChangeMs(HOUR)).toBe(1);
    expect(countdownNextChangeMs(MIN)).toBe(1000);
    expect(countdownNextChangeMs(2500)).toBe(500);
    expect(countdownNextChangeMs(0)).toBeNull();
    // After waiting that long the text has changed, at every stage and boundary.
    for (const ms of [DAY, DAY - 1, 5 * HOUR + 42 * MIN + 30_000, HOUR + 500, HOUR, HOUR - 1, 3 * MIN + 12_000, MIN, 2500, 1])
      expect(countdownText(ms - countdownNextChangeMs(ms)!)).not.toBe(countdownText(ms));
  });
});

describe('registrationRefusal', () => {
  const c = { regStartTime: '2026-03-10T00:00:00.000Z', regEndTime: '2026-04-10T00:00:00.000Z' };
  const at = (iso: string) => new Date(iso);
  it('refuses outside the window, and inside it once grading started or results are out', () => {
    expect(registrationRefusal(c, 'upcoming', at('2026-03-01T00:00:00Z'))).toBe('报名尚未开始');
    expect(registrationRefusal(c, 'registration', at('2026-03-20T00:00:00Z'))).toBeNull();
    expect(registrationRefusal(c, 'inProgress', at('2026-04-11T00:00:00Z'))).toBe('报名已截止');
    expect(registrationRefusal(c, 'review', at('2026-03-20T00:00:00Z'))).toBe('评审已开始，报名已结束');
    expect(registrationRefusal(c, 'published', at('2026-03-20T00:00:00Z'))).toBe('成绩已公布，报名已结束');
    expect(registrationRefusal(c, 'archived', at('2026-03-20T00:00:00Z'))).toBe('成绩已公布，报名已结束');
  });
});
