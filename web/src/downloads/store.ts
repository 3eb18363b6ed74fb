/**
 * The download lists of spec §3/§9 in IndexedDB through Dexie: database `myDatabase`, version 1.1, the collections
 * `downloading` and `downloaded`, both keyed by [key+userId]. Every change is an event of the shared reducer
 * (`reduceDownloads`): the rows an event can touch are read, reduced, and what changed is written back, all in one
 * transaction, so the rules of spec §4 hold whichever tab or shell sends the event.
 */
import {
  DOWNLOAD_DB_NAME,
  DOWNLOAD_DB_VERSION,
  EMPTY_DOWNLOAD_LISTS,
  reduceAll,
  type DownloadEvent,
  type DownloadLists,
  type DownloadTask,
} from '@contest/shared';
import Dexie, { liveQuery, type DexieOptions, type Table } from 'dexie';
import { useEffect, useState } from 'react';

type RowKey = [string, number];

export class DownloadDb extends Dexie {
  downloading!: Table<DownloadTask, RowKey>;
  downloaded!: Table<DownloadTask, RowKey>;

  constructor(name = DOWNLOAD_DB_NAME, options?: DexieOptions) {
    super(name, options);
    // `userId` is indexed too: every read is one user's part of a collection.
    this.version(DOWNLOAD_DB_VERSION).stores({ downloading: '[key+userId], userId', downloaded: '[key+userId], userId' });
  }
}

let shared: DownloadDb | null = null;
/** The page's database, opened on first use. */
export function downloadDb(): DownloadDb {
  shared ??= new DownloadDb();
  return shared;
}

/** Exactly the fields of spec §3: nothing a caller spread into a task reaches storage. */
export function toRow(task: DownloadTask): DownloadTask {
  const { key, userId, fileName, downloadPath, savePath, state, receivedSize, totalSize, speed, date } = task;
  return { key, userId, fileName, downloadPath, savePath, state, receivedSize, totalSize, speed, date };
}

const collator = new Intl.Collator('zh-CN', { numeric: true });
/**
 * Queue order. The spec's fields hold no insertion order and IndexedDB returns rows by primary key (a hash), so the
 * queue runs in folder-tree order: by save path, which for bulk downloads is question, then team number.
 */
export const byQueueOrder = (a: DownloadTask, b: DownloadTask) => collator.compare(a.savePath, b.savePath) || collator.compare(a.key, b.key);
/** Most recent first (the reducer's order of `downloaded`). */
export const byCompletion = (a: DownloadTask, b: DownloadTask) => (b.date ?? 0) - (a.date ?? 0) || byQueueOrder(a, b);

const idOf = (t: Pick<DownloadTask, 'key' | 'userId'>) => `${t.userId}:${t.key}`;

function usersOf(event: DownloadEvent): number[] {
  return event.type === 'add' ? event.tasks.map((t) => t.userId) : [event.userId];
}

/** Puts what the reducer changed (a new object) and deletes what it dropped. */
async function writeBack(table: Table<DownloadTask, RowKey>, before: readonly DownloadTask[], after: readonly DownloadTask[]) {
  if (before === after) return;
  const old = new Map(before.map((t) => [idOf(t), t]));
  const kept = new Set(after.map(idOf));
  const gone = before.filter((t) => !kept.has(idOf(t))).map((t): RowKey => [t.key, t.userId]);
  const changed = after.filter((t) => old.get(idOf(t)) !== t).map(toRow);
  if (gone.length) await table.bulkDelete(gone);
  if (changed.length) await table.bulkPut(changed);
}

/**
 * Applies events through the shared reducer in one transaction. Only the users' `downloading` rows are read, plus the
 * `downloaded` rows a completion replaces: no other event looks at `downloaded`. Resolves to the tasks that have just
 * completed, which the shell must be told about (spec §4).
 */
export async function dispatchDownloads(events: DownloadEvent | readonly DownloadEvent[], db: DownloadDb = downloadDb()): Promise<DownloadTask[]> {
  const list = Array.isArray(events) ? (events as readonly DownloadEvent[]) : [events as DownloadEvent];
  if (!list.length) return [];
  const users = [...new Set(list.flatMap(usersOf))];
  const completing = list.flatMap((e): RowKey[] => (e.type === 'complete' ? [[e.key, e.userId]] : []));
  return db.transaction('rw', db.downloading, db.downloaded, async () => {
    const downloading = users.length ? (await db.downloading.where('userId').anyOf(users).toArray()).sort(byQueueOrder) : [];
    const downloaded = completing.length ? (await db.downloaded.bulkGet(completing)).filter((t): t is DownloadTask => Boolean(t)) : [];
    const before: DownloadLists = { downloading, downloaded };
    const { lists, notified } = reduceAll(before, list);
    await writeBack(db.downloading, before.downloading, lists.downloading);
    await writeBack(db.downloaded, before.downloaded, lists.downloaded);
    return notified;
  });
}

/** One user's downloading tasks in queue order. */
export async function readDownloading(userId: number, db: DownloadDb = downloadDb()): Promise<DownloadTask[]> {
  return (await db.downloading.where('userId').equals(userId).toArray()).sort(byQueueOrder);
}

/** One user's downloaded tasks, most recent first. */
export async function readDownloaded(userId: number, db: DownloadDb = downloadDb()): Promise<DownloadTask[]> {
  return (await db.downloaded.where('userId').equals(userId).toArray()).sort(byCompletion);
}

export interface Subscription {
  unsubscribe(): void;
}

/** Calls `next` with the user's downloading list now and after every change (from any tab). */
export function watchDownloading(userId: number, next: (tasks: DownloadTask[]) => void, db: DownloadDb = downloadDb()): Subscription {
  return liveQuery(() => readDownloading(userId, db)).subscribe({ next, error: (err) => console.error('下载列表读取失败', err) });
}

export function watchDownloaded(userId: number, next: (tasks: DownloadTask[]) => void, db: DownloadDb = downloadDb()): Subscription {
  return liveQuery(() => readDownloaded(userId, db)).subscribe({ next, error: (err) => console.error('下载记录读取失败', err) });
}

/**
 * The signed-in user's lists, live. Two queries, so that progress (many writes a second to `downloading`) does not
 * re-read the whole `downloaded` history.
 */
export function useDownloadLists(userId: number, db?: DownloadDb): DownloadLists & { loaded: boolean } {
  const [downloading, setDownloading] = useState<readonly DownloadTask[] | null>(null);
  const [downloaded, setDownloaded] = useState<readonly DownloadTask[] | null>(null);
  useEffect(() => {
    const a = watchDownloading(userId, setDownloading, db);
    const b = watchDownloaded(userId, setDownloaded, db);
    return () => {
      a.unsubscribe();
      b.unsubscribe();
    };
  }, [userId, db]);
  return {
    downloading: downloading ?? EMPTY_DOWNLOAD_LISTS.downloading,
    downloaded: downloaded ?? EMPTY_DOWNLOAD_LISTS.downloaded,
    loaded: downloading !== null && downloaded !== null,
  };
}
