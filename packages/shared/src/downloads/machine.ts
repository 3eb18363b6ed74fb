/**
 * The download state machine of spec §4 as a pure reducer, plus the selectors the drawer needs. The web drawer and
 * the desktop client both run it; persisting the lists and talking to a shell are the caller's business.
 */
import { DOWNLOAD_STATES, type DownloadState, type DownloadTask } from './task.ts';

export interface DownloadLists {
  downloading: readonly DownloadTask[];
  /** Most recent first. */
  downloaded: readonly DownloadTask[];
}

/** Tasks are stored keyed by [key, userId] (spec §9), so that pair is a task's identity. */
export interface TaskRef {
  userId: number;
  key: string;
}

/** A shell's report on a task; fields left out keep their value. */
export interface ProgressReport {
  state?: DownloadState;
  receivedSize?: number;
  totalSize?: number;
  speed?: number;
}

export type DownloadEvent =
  | { type: 'add'; tasks: readonly DownloadTask[] }
  | { type: 'openPanel'; userId: number }
  | ({ type: 'progress' } & TaskRef & ProgressReport)
  | ({ type: 'pause' | 'resume' | 'cancel' } & TaskRef)
  | { type: 'pauseAll' | 'resumeAll' | 'cancelAll'; userId: number }
  | ({ type: 'complete'; date: number; receivedSize?: number; totalSize?: number } & TaskRef);

export interface DownloadResult {
  /** The same object as before when the event changed nothing, so a caller can skip writing to storage. */
  lists: DownloadLists;
  /** The task that has just completed: the shell must be told (spec §4). */
  notifyShell: DownloadTask | null;
}

export const EMPTY_DOWNLOAD_LISTS: DownloadLists = { downloading: [], downloaded: [] };

const same = (a: TaskRef, b: TaskRef) => a.key === b.key && a.userId === b.userId;
const identity = (t: TaskRef) => `${t.userId}:${t.key}`;
const isSize = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;

// Lets an event that changes no field (a repeated report, pausing twice) keep the lists object, see DownloadResult.
const sameFields = (a: DownloadTask, b: DownloadTask) => (Object.keys(a) as (keyof DownloadTask)[]).every((field) => Object.is(a[field], b[field]));

/** Changes the downloading tasks that match; hands back the very same lists when nothing actually changed. */
function updateWhere(lists: DownloadLists, match: (task: DownloadTask) => boolean, change: (task: DownloadTask) => DownloadTask): DownloadLists {
  let changed = false;
  const downloading = lists.downloading.map((task) => {
    if (!match(task)) return task;
    const next = change(task);
    if (sameFields(task, next)) return task;
    changed = true;
    return next;
  });
  return changed ? { ...lists, downloading } : lists;
}

/** Drops the downloading tasks that match; hands back the very same lists when none does. */
function removeWhere(lists: DownloadLists, match: (task: DownloadTask) => boolean): DownloadLists {
  const downloading = lists.downloading.filter((task) => !match(task));
  return downloading.length === lists.downloading.length ? lists : { ...lists, downloading };
}

// A task that is not transferring has no speed; a stale one would keep a remaining-time estimate on screen.
const toWaiting = (task: DownloadTask): DownloadTask => ({ ...task, state: 'waiting', speed: 0 });
const toPaused = (task: DownloadTask): DownloadTask => ({ ...task, state: 'paused', speed: 0 });

function applyProgress(task: DownloadTask, report: ProgressReport): DownloadTask {
  const next = { ...task };
  if (report.state !== undefined && DOWNLOAD_STATES.includes(report.state)) next.state = report.state;
  // A shell sending garbage must not corrupt a stored task; such fields are ignored one by one.
  if (isSize(report.receivedSize)) next.receivedSize = report.receivedSize;
  if (isSize(report.totalSize)) next.totalSize = report.totalSize;
  if (isSize(report.speed)) next.speed = report.speed;
  return next;
}

export function reduceDownloads(lists: DownloadLists, event: DownloadEvent): DownloadResult {
  const result = (next: DownloadLists, notifyShell: DownloadTask | null = null) => ({ lists: next, notifyShell });
  switch (event.type) {
    case 'add': {
      // A task already downloading is not queued twice. One already downloaded is fetched again, since the file may
      // have changed on the server; its record in downloaded is replaced when the new download completes.
      const seen = new Set(lists.downloading.map(identity));
      const added: DownloadTask[] = [];
      for (const task of event.tasks) {
        if (seen.has(identity(task))) continue;
        seen.add(identity(task));
        added.push({ ...task, state: 'waiting', speed: 0, date: null });
      }
      return result(added.length ? { ...lists, downloading: [...lists.downloading, ...added] } : lists);
    }
    case 'openPanel':
      // Nothing runs before the panel is open (the shell has just started), so "progressing" is stale.
      return result(updateWhere(lists, (t) => t.userId === event.userId && t.state === 'progressing', toWaiting));
    case 'progress':
      // Pausing is the user's decision; a report already on its way when they paused must not undo it. Reports for
      // a task no longer in the list (cancelled, completed) are late, and ignored.
      return result(
        updateWhere(
          lists,
          (t) => same(t, event) && t.state !== 'paused',
          (t) => applyProgress(t, event),
        ),
      );
    case 'pause':
      return result(updateWhere(lists, (t) => same(t, event) && t.state !== 'paused', toPaused));
    case 'resume':
      return result(updateWhere(lists, (t) => same(t, event) && t.state === 'paused', toWaiting));
    case 'cancel':
      return result(removeWhere(lists, (t) => same(t, event)));
    case 'pauseAll':
      return result(updateWhere(lists, (t) => t.userId === event.userId && t.state !== 'paused', toPaused));
    case 'resumeAll':
      return result(updateWhere(lists, (t) => t.userId === event.userId && t.state === 'paused', toWaiting));
    case 'cancelAll':
      return result(removeWhere(lists, (t) => t.userId === event.userId));
    case 'complete': {
      // Accepted in any state, paused included: the file is whole on disk, whatever the user clicked meanwhile.
      const task = lists.downloading.find((t) => same(t, event));
      if (!task) return result(lists);
      const done: DownloadTask = { ...task, speed: 0, date: event.date };
      if (isSize(event.totalSize)) done.totalSize = event.totalSize;
      done.receivedSize = isSize(event.receivedSize) ? event.receivedSize : done.totalSize;
      return result(
        {
          downloading: lists.downloading.filter((t) => t !== task),
          downloaded: [done, ...lists.downloaded.filter((t) => !same(t, done))],
        },
        done,
      );
    }
  }
}

/** The same reducer over a list of events, collecting the tasks the shell must be told about. */
export function reduceAll(lists: DownloadLists, events: readonly DownloadEvent[]): DownloadResult & { notified: DownloadTask[] } {
  const notified: DownloadTask[] = [];
  let current: DownloadResult = { lists, notifyShell: null };
  for (const event of events) {
    current = reduceDownloads(current.lists, event);
    if (current.notifyShell) notified.push(current.notifyShell);
  }
  return { ...current, notified };
}

/** One user's part of the lists: the drawer shows and acts on the signed-in user's tasks only. */
export function forUser(lists: DownloadLists, userId: number): DownloadLists {
  return {
    downloading: lists.downloading.filter((t) => t.userId === userId),
    downloaded: lists.downloaded.filter((t) => t.userId === userId),
  };
}

/** Spec §4 button enablement for the batch buttons over the downloading list. */
export interface BatchActions {
  resumeAll: boolean;
  pauseAll: boolean;
  cancelAll: boolean;
}

export function batchActions(downloading: readonly DownloadTask[]): BatchActions {
  return {
    resumeAll: downloading.some((t) => t.state === 'paused'),
    pauseAll: downloading.some((t) => t.state === 'progressing' || t.state === 'waiting'),
    cancelAll: downloading.length > 0,
  };
}

/**
 * Completed / (completed + downloading) as a whole percentage, 0 when both are empty. Rounded down so that 100 is
 * shown only once nothing is left to download.
 */
export function overallProgress(lists: DownloadLists): number {
  const total = lists.downloaded.length + lists.downloading.length;
  return total === 0 ? 0 : Math.floor((lists.downloaded.length / total) * 100);
}

/** Spec §9: each list shows at most 50 tasks, with a footer saying so. */
export const DOWNLOAD_LIST_LIMIT = 50;
export const DOWNLOAD_LIST_FOOTER = `仅显示${DOWNLOAD_LIST_LIMIT}条下载任务`;

export function visibleTasks(list: readonly DownloadTask[]): { tasks: readonly DownloadTask[]; truncated: boolean } {
  return { tasks: list.slice(0, DOWNLOAD_LIST_LIMIT), truncated: list.length > DOWNLOAD_LIST_LIMIT };
}

/**
 * Spec §4's queue, the one scheduler of the web manager and the desktop client's engine: the waiting tasks to start
 * now, in queue order, so that at most `parallel` are progressing. The caller marks each one progressing (the web: a
 * progress event with state 'progressing'; the engine: its task's state) when it starts it, or it is offered again.
 */
export function tasksToStart<T extends { state: string }>(downloading: readonly T[], parallel: number): T[] {
  const running = downloading.filter((t) => t.state === 'progressing').length;
  const free = Math.max(0, Math.floor(parallel) - running);
  return downloading.filter((t) => t.state === 'waiting').slice(0, free);
}
