/**
 * Issue 16 item 1, "one lifecycle": the phase a competition is in, derived from its dates, its audit state, its
 * presets and the state of its grades, by this one function, so the back office, the participant site and the server's
 * refusals all say the same thing. Times are stored as UTC ISO strings and shown in Beijing time (UTC+8, no DST).
 *
 * Only types are imported: competitions.ts calls back into this file for the public status filter.
 */
import type { Preset, Stage } from './api/competitions.ts';

export const PHASES = {
  draft: '草稿',
  audit: '审核中',
  upcoming: '即将开始',
  registration: '报名中',
  inProgress: '进行中',
  submissionClosed: '提交已截止',
  review: '评审中',
  published: '成绩已公布',
  archived: '已归档',
} as const;
export type PhaseCode = keyof typeof PHASES;
/** The order phases follow; a later phase never comes back to an earlier one while the dates stay put. */
export const PHASE_ORDER: readonly PhaseCode[] = [
  'draft',
  'audit',
  'upcoming',
  'registration',
  'inProgress',
  'submissionClosed',
  'review',
  'published',
  'archived',
];

/** Results stay in 成绩已公布 this long after both the competition's end and the publication, then the competition is 已归档. */
export const ARCHIVE_AFTER_DAYS = 30;
const DAY_MS = 24 * 3600_000;

export type SubmissionKind = 'SUBMIT_WORKS' | 'SUBMIT_TEST';
export const SUBMISSION_NAMES: Record<SubmissionKind, string> = { SUBMIT_WORKS: '提交作品', SUBMIT_TEST: '提交测试' };
/** The windows a participant acts in: the two submissions and the choice of a question. */
export type WindowKind = SubmissionKind | 'CHOICE_SET';
export const WINDOW_NAMES: Record<WindowKind, string> = { ...SUBMISSION_NAMES, CHOICE_SET: '选择赛题' };

export interface LifecycleCompetition {
  regStartTime: string;
  regEndTime: string;
  endTime: string;
  /** AUDIT_STATUS: 0 draft, 1 pending, 2 rejected, 3 online, 4 offline. */
  auditStatus: number;
}
export type LifecycleStage = Pick<Stage, 'id' | 'name' | 'startDate' | 'endDate'>;
export type LifecyclePreset = Pick<Preset, 'menuCode' | 'enable' | 'enableStartTime' | 'enableEndTime' | 'deadlineStageId'>;
/** The menus whose end is a deadline participants act before: each may take a stage's end as its deadline. */
export const WINDOW_KINDS: readonly WindowKind[] = ['CHOICE_SET', 'SUBMIT_WORKS', 'SUBMIT_TEST'];

/** What the dates cannot tell: how far the grading of the competition's questions has gone. */
export interface LifecycleFacts {
  /** Grades of at least one question have been calculated (or confirmed). */
  reviewStarted?: boolean;
  /** When the last question's grades were confirmed, once every question with a review rule is confirmed; else null. */
  resultsPublishedAt?: string | null;
}

// ---- Beijing time ---------------------------------------------------------------------------------------------

const BEIJING_OFFSET_MS = 8 * 3600_000;
const pad2 = (n: number) => String(n).padStart(2, '0');
/** `2026-03-20T04:00:00.000Z` -> `2026-03-20 12:00` (Beijing time). */
export function beijingMinute(iso: string): string {
  const d = new Date(new Date(iso).getTime() + BEIJING_OFFSET_MS);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
}
/** `2026-03-20T04:00:00.000Z` -> `03-20 12:00` (Beijing time), for tags and cards. */
export const beijingShort = (iso: string) => beijingMinute(iso).slice(5);

// ---- Submission windows ---------------------------------------------------------------------------------------

export interface SubmissionWindow {
  kind: WindowKind;
  /** The preset exists and is switched on. */
  enabled: boolean;
  start: string | null;
  /** The deadline: always known for an enabled window. */
  end: string | null;
  /** What set the deadline: the preset's own end, the stage that covers submission, or the competition's end. */
  source: 'preset' | 'stage' | 'competition' | null;
  stageName: string | null;
}

/** The stage a preset names as its deadline, when it still has an end. */
function deadlineStage(stages: readonly LifecycleStage[], preset: LifecyclePreset | undefined): LifecycleStage | null {
  if (!preset?.deadlineStageId) return null;
  return stages.find((s) => s.id === preset.deadlineStageId && s.endDate) ?? null;
}

/**
 * When participants may act. The preset must be on. Its deadline is the one the organiser set: the end of the stage
 * chosen as its deadline, else the competition's end; a date of the preset's own (its 开放时间's end) narrows it (the
 * earlier of the two wins), never widens it. A stage's name decides nothing. Choosing a question (CHOICE_SET) without a
 * stage of its own closes with the later of the stages chosen for works and tests: a team cannot choose a question
 * after it can no longer submit anything for it.
 */
export function submissionWindow(
  competition: Pick<LifecycleCompetition, 'endTime'>,
  stages: readonly LifecycleStage[],
  presets: readonly LifecyclePreset[],
  kind: WindowKind = 'SUBMIT_WORKS',
): SubmissionWindow {
  const preset = presets.find((p) => p.menuCode === kind);
  const submissionStages = () =>
    (['SUBMIT_WORKS', 'SUBMIT_TEST'] as const)
      .map((k) =>
        deadlineStage(
          stages,
          presets.find((p) => p.menuCode === k),
        ),
      )
      .filter((x): x is LifecycleStage => x !== null)
      .reduce<LifecycleStage | null>((a, b) => (a && a.endDate! >= b.endDate! ? a : b), null);
  const stage = deadlineStage(stages, preset) ?? (kind === 'CHOICE_SET' ? submissionStages() : null);
  const defaultEnd = stage?.endDate ?? competition.endTime;
  const defaultSource = stage ? 'stage' : 'competition';
  const presetEnd = preset?.enableEndTime ?? null;
  const byPreset = presetEnd !== null && presetEnd < defaultEnd;
  return {
    kind,
    enabled: Boolean(preset?.enable),
    start: preset?.enableStartTime ?? null,
    end: byPreset ? presetEnd : defaultEnd,
    source: byPreset ? 'preset' : defaultSource,
    stageName: !byPreset && stage ? stage.name : null,
  };
}

/** Every window of a competition (choice, works, tests), enabled or not. */
export const submissionWindows = (competition: Pick<LifecycleCompetition, 'endTime'>, stages: readonly LifecycleStage[], presets: readonly LifecyclePreset[]) =>
  WINDOW_KINDS.map((k) => submissionWindow(competition, stages, presets, k));

/** Where a window's deadline comes from, in the editor's words: 「阶段「复赛」结束」, 「开放时间结束」, 「竞赛结束时间」. */
export const deadlineSourceText = (w: Pick<SubmissionWindow, 'source' | 'stageName'>) =>
  w.source === 'preset' ? '开放时间结束' : w.source === 'stage' ? `阶段「${w.stageName}」结束` : '竞赛结束时间';

/** 「2026-06-30 12:00（阶段「复赛」结束）」: a window's deadline and where it comes from. */
export const deadlineText = (w: SubmissionWindow) => (w.end ? `${beijingMinute(w.end)}（${deadlineSourceText(w)}）` : '未设置');

export type WindowState = 'open' | 'disabled' | 'notStarted' | 'closed';
export function windowState(w: SubmissionWindow, now: Date): WindowState {
  const t = now.toISOString();
  if (!w.enabled) return 'disabled';
  if (w.start && t < w.start) return 'notStarted';
  if (w.end && t > w.end) return 'closed';
  return 'open';
}

/** Why a submission is refused now, naming the time that matters; null when it is accepted. */
export function windowRefusal(w: SubmissionWindow, now: Date): string | null {
  const name = WINDOW_NAMES[w.kind];
  switch (windowState(w, now)) {
    case 'open':
      return null;
    case 'disabled':
      return `不在${name}的时间内`;
    case 'notStarted':
      return `${name}将于 ${beijingMinute(w.start!)} 开始`;
    case 'closed':
      return `${name}已于 ${beijingMinute(w.end!)} 截止`;
  }
}

// ---- Phases ---------------------------------------------------------------------------------------------------

export interface CompetitionPhase {
  code: PhaseCode;
  name: string;
  /** While in progress, the stage whose start has passed last (spec §4's active stage). */
  stageName: string | null;
  registrationEnd: string;
  /** The last of the enabled submission windows' deadlines; without any enabled window, the competition's end. */
  submissionDeadline: string;
  /** The next deadline still ahead, with what it closes, for 「提交截止 03-20 12:00」; null when none is ahead. */
  next: { label: string; at: string } | null;
}

/** The public list's statuses (spec §4): 1 not started, 2 registration, 3 in progress, 4 ended; by dates only. */
export function publicStatus(c: Pick<LifecycleCompetition, 'regStartTime' | 'regEndTime' | 'endTime'>, now: Date): 1 | 2 | 3 | 4 {
  const t = now.toISOString();
  if (t < c.regStartTime) return 1;
  if (t <= c.regEndTime) return 2;
  if (t <= c.endTime) return 3;
  return 4;
}

/**
 * The phase of a competition at `now`:
 * 草稿 (draft or rejected) and 审核中 (pending audit) by the audit state; once published (online, or taken offline) by
 * dates: 即将开始 before registration, 报名中 during it, 进行中 until the submission deadline, then 提交已截止; 评审中 once
 * grades are calculated; 成绩已公布 once every question's grades are confirmed; 已归档 ARCHIVE_AFTER_DAYS after both the
 * competition's end and the publication.
 */
export function competitionPhase(
  competition: LifecycleCompetition,
  stages: readonly LifecycleStage[],
  facts: LifecycleFacts & { presets?: readonly LifecyclePreset[] },
  now: Date,
): CompetitionPhase {
  const t = now.toISOString();
  const presets = facts.presets ?? [];
  const windows = (['SUBMIT_WORKS', 'SUBMIT_TEST'] as const).map((k) => submissionWindow(competition, stages, presets, k)).filter((w) => w.enabled);
  const submissionDeadline = windows.length ? windows.map((w) => w.end!).reduce((a, b) => (a > b ? a : b)) : competition.endTime;
  const started = [...stages].filter((s) => s.startDate <= t).sort((a, b) => (a.startDate < b.startDate ? -1 : a.startDate > b.startDate ? 1 : 0));
  const base = { stageName: null as string | null, registrationEnd: competition.regEndTime, submissionDeadline };
  const phase = (code: PhaseCode, extra: Partial<CompetitionPhase> = {}): CompetitionPhase => {
    const next =
      code === 'upcoming' || code === 'registration'
        ? { label: '报名截止', at: competition.regEndTime }
        : code === 'inProgress' && t <= submissionDeadline
          ? { label: '提交截止', at: submissionDeadline }
          : null;
    return { code, name: PHASES[code], ...base, next, ...extra };
  };
  if (competition.auditStatus === 0 || competition.auditStatus === 2) return phase('draft');
  if (competition.auditStatus === 1) return phase('audit');
  // Published results outrank the dates: the header never says 报名中 beside published grades.
  if (facts.resultsPublishedAt) {
    const since = Math.max(new Date(facts.resultsPublishedAt).getTime(), new Date(competition.endTime).getTime());
    return phase(now.getTime() >= since + ARCHIVE_AFTER_DAYS * DAY_MS ? 'archived' : 'published');
  }
  if (t < competition.regStartTime) return phase('upcoming');
  const submitting = t <= submissionDeadline;
  // Registration left open after submission closed is 报名中 only until grading starts.
  if (t <= competition.regEndTime && (submitting || !facts.reviewStarted)) return phase('registration');
  if (submitting) return phase('inProgress', { stageName: started.length ? started[started.length - 1]!.name : null });
  return phase(facts.reviewStarted ? 'review' : 'submissionClosed');
}

/**
 * Why a competition takes no registration (nor a new member) now, or null: before and after its window, and once its
 * grading has started or its results are out, whatever the window says (a registration end left after the submission
 * deadline must not sign teams up for a finished contest).
 */
export function registrationRefusal(c: Pick<LifecycleCompetition, 'regStartTime' | 'regEndTime'>, phase: PhaseCode, now: Date): string | null {
  const t = now.toISOString();
  if (t < c.regStartTime) return '报名尚未开始';
  if (t > c.regEndTime) return '报名已截止';
  if (phase === 'published' || phase === 'archived') return '成绩已公布，报名已结束';
  if (phase === 'review' || phase === 'submissionClosed') return '评审已开始，报名已结束';
  return null;
}

/** 「提交截止 03-20 12:00」, or '' when no deadline is ahead. */
export const nextDeadlineText = (p: Pick<CompetitionPhase, 'next'>) => (p.next ? `${p.next.label} ${beijingShort(p.next.at)}` : '');

/** A submission window still open (or not yet started) at the moment asked: actions of a later phase are early. */
export interface OpenSubmission {
  kind: WindowKind;
  name: string;
  end: string;
}

/** Of the enabled windows, the one open (or still to open) with the latest deadline; null once all are closed. */
export function openSubmission(windows: readonly SubmissionWindow[], now: Date): OpenSubmission | null {
  const open = windows.filter((w) => ['open', 'notStarted'].includes(windowState(w, now)) && w.end);
  if (!open.length) return null;
  const w = open.reduce((a, b) => (a.end! >= b.end! ? a : b));
  return { kind: w.kind, name: WINDOW_NAMES[w.kind], end: w.end! };
}

/** 「提交作品尚未截止（03-20 12:00），现在计算的成绩可能不是最终成绩，确定继续？」 */
export const earlyWarningText = (o: OpenSubmission, consequence = '现在计算的成绩可能不是最终成绩') =>
  `${o.name}尚未截止（${beijingShort(o.end)}），${consequence}，确定继续？`;

/**
 * Why an action of a later phase is early, or null: computing grades, awarding or generating certificates while a
 * submission window is still open. The text asks the organiser to confirm.
 */
export function earlyActionWarning(windows: readonly SubmissionWindow[], now: Date, consequence?: string): string | null {
  const o = openSubmission(windows, now);
  return o && earlyWarningText(o, consequence);
}

/** 「提交作品将于 2026-06-30 12:00 截止，截止前不能公布成绩」: the server's refusal and the grade page's reason, word for word. */
export const publishRefusalText = (o: OpenSubmission) => `${o.name}将于 ${beijingMinute(o.end)} 截止，截止前不能公布成绩`;

/**
 * Why results cannot be published (grades confirmed) now, or null: unlike the early actions, publishing waits until
 * every enabled submission window (works and tests, open or still to open) has closed; the latest deadline is named.
 */
export function publishRefusal(windows: readonly SubmissionWindow[], now: Date): string | null {
  const o = openSubmission(windows, now);
  return o && publishRefusalText(o);
}

/**
 * What assigning works to judges risks while works can still be submitted, asked before it is done; null once the
 * works deadline has passed (or works are off). A version replaced after a judge scored gives the score back.
 */
export function earlyAssignWarning(works: SubmissionWindow, now: Date): string | null {
  const state = windowState(works, now);
  if (state !== 'open' && state !== 'notStarted') return null;
  return `提交作品尚未截止（${beijingMinute(works.end!)}），现在分配后队伍仍可上传新版本：专家评过的版本被替换时，评分会退回给专家重新评审。确定现在分配吗？`;
}

// ---- Reopening after publication --------------------------------------------------------------------------------

/**
 * The windows a change reopens at `now`: closed (or off) before it, open or still to open after it. Once results are
 * published, such a change is made only when the organiser confirms `reopenWarningText`.
 */
export function reopenedWindows(before: readonly SubmissionWindow[], after: readonly SubmissionWindow[], now: Date): SubmissionWindow[] {
  return after.filter((a) => {
    const b = before.find((w) => w.kind === a.kind);
    const was = b ? windowState(b, now) : 'disabled';
    const is = windowState(a, now);
    return (was === 'closed' || was === 'disabled') && (is === 'open' || is === 'notStarted');
  });
}

/** What reopening does to published results, asked before the change is made (the server's refusal says the same). */
export const reopenWarningText = (reopened: readonly SubmissionWindow[]) =>
  `成绩已公布，此修改将重新开放${reopened.map((w) => `「${WINDOW_NAMES[w.kind]}」（至 ${beijingMinute(w.end!)} 截止）`).join('、')}。` +
  '已公布的成绩、获奖和证书不会随之改变；重新开放期间的新提交会进入排行榜，可能与已公布的结果不一致。确定重新开放吗？';

/** A list or detail reply with its phase, as the server computes it (competitions module). */
export interface WithPhase {
  phase: CompetitionPhase;
}

// ---- Countdown ------------------------------------------------------------------------------------------------

const SECOND_MS = 1000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
export const COUNTDOWN_CLOSED = '已截止';
export type CountdownStage = 'days' | 'lastDay' | 'lastHour' | 'closed';

/**
 * Which part of the countdown a remaining time is in: whole days, the last day (under 24 hours), the last hour (when
 * it counts seconds), or past the deadline.
 */
export const countdownStage = (remainingMs: number): CountdownStage =>
  remainingMs <= 0 ? 'closed' : remainingMs >= DAY_MS ? 'days' : remainingMs >= HOUR_MS ? 'lastDay' : 'lastHour';

/**
 * What is left before a deadline, for 「提交截止 03-20 12:00 · 还剩 3 天」: whole days while at least a day is left
 * (「还剩 3 天」, cut down: 1 day 23 hours is 「还剩 1 天」), then hours and minutes in the last day (「还剩 5 小时 42 分」,
 * cut down), then hh:mm:ss in the last hour (「还剩 00:03:12」, so three minutes never read like three hours), and
 * 「已截止」 from the deadline on.
 */
export function countdownText(remainingMs: number): string {
  switch (countdownStage(remainingMs)) {
    case 'closed':
      return COUNTDOWN_CLOSED;
    case 'days':
      return `还剩 ${Math.floor(remainingMs / DAY_MS)} 天`;
    case 'lastDay': {
      const minutes = Math.floor(remainingMs / MINUTE_MS);
      return `还剩 ${Math.floor(minutes / 60)} 小时 ${minutes % 60} 分`;
    }
    case 'lastHour': {
      // Rounded up: the last second reads 00:00:01 until the deadline, never 00:00:00 before it.
      const seconds = Math.ceil(remainingMs / SECOND_MS);
      return `还剩 ${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor((seconds % 3600) / 60))}:${pad2(seconds % 60)}`;
    }
  }
}

/**
 * How long until the countdown's text may next change: when the remaining time next falls below a whole minute (the
 * minutes are cut down) before the last hour, then at each second (rounded up) in it; null once closed.
 */
export function countdownNextChangeMs(remainingMs: number): number | null {
  if (remainingMs <= 0) return null;
  if (remainingMs < HOUR_MS) return remainingMs % SECOND_MS || SECOND_MS;
  // Just under the hour the text turns to seconds.
  return Math.min((remainingMs % MINUTE_MS) + 1, remainingMs - HOUR_MS + 1);
}
