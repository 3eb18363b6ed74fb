import { createTask, type DownloadTask, type TaskInput } from '@contest/shared';
import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DownloadDb, dispatchDownloads, readDownloaded, readDownloading, watchDownloading } from './store.ts';

const FIELDS = ['date', 'downloadPath', 'fileName', 'key', 'receivedSize', 'savePath', 'speed', 'state', 'totalSize', 'userId'];
let databases: DownloadDb[] = [];
// liveQuery runs only where Dexie found a global IndexedDB when it loaded.
beforeAll(() => void Object.assign(Dexie.dependencies, { indexedDB: new IDBFactory(), IDBKeyRange }));
afterEach(() => {
  databases.forEach((db) => db.close());
  databases = [];
});

/** A fresh IndexedDB per test. */
function openDb(factory = new IDBFactory()) {
  const db = new DownloadDb(undefined, { indexedDB: factory, IDBKeyRange });
  databases.push(db);
  return db;
}

const input = (name: string, dir = 'A题,001-数据先锋队'): TaskInput => ({ dir, fileName: name, downloadPath: `/api/file/common/download?fileUri=${name}` });
const task = (name: string, userId = 7, dir?: string) => createTask(input(name, dir), { userId, root: '' });

describe('the download store', () => {
  it('is myDatabase version 1.1 with downloading and downloaded keyed by [key+userId]', async () => {
    const factory = new IDBFactory();
    const db = openDb(factory);
    await db.open();
    expect(db.name).toBe('myDatabase');
    expect(db.verno).toBe(1.1);
    for (const table of [db.downloading, db.downloaded]) {
      expect(table.schema.primKey.keyPath).toEqual(['key', 'userId']);
      expect(table.schema.primKey.compound).toBe(true);
    }
    db.close();
    // Dexie stores version 1.1 as IndexedDB version 11.
    const raw = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = factory.open('myDatabase');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    expect(raw.version).toBe(11);
    expect([...raw.objectStoreNames].sort()).toEqual(['downloaded', 'downloading']);
    raw.close();
  });

  it('adds new tasks as waiting rows with exactly the spec fields, once per key and user', async () => {
    const db = openDb();
    const a = { ...task('report.zip'), state: 'paused' as const, extra: 'not stored' } as DownloadTask;
    await dispatchDownloads({ type: 'add', tasks: [a, task('data.csv'), task('report.zip')] }, db);
    const rows = await db.downloading.toArray();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual(FIELDS);
      expect(row).toMatchObject({ state: 'waiting', userId: 7, receivedSize: 0, speed: 0, date: null });
    }
    expect((await readDownloading(7, db)).map((t) => t.savePath)).toEqual(['A题/001-数据先锋队/data.csv', 'A题/001-数据先锋队/report.zip']);
  });

  it('keeps the same file of two users apart', async () => {
    const db = openDb();
    await dispatchDownloads({ type: 'add', tasks: [task('a.zip', 7), task('a.zip', 8)] }, db);
    await dispatchDownloads({ type: 'cancelAll', userId: 7 }, db);
    expect(await readDownloading(7, db)).toEqual([]);
    expect((await readDownloading(8, db)).map((t) => t.userId)).toEqual([8]);
  });

  it("opening the panel turns the user's progressing tasks back to waiting, and no one else's", async () => {
    const db = openDb();
    const [a, b, c] = [task('a.zip'), task('b.zip'), task('a.zip', 8)];
    await dispatchDownloads({ type: 'add', tasks: [a, b, c] }, db);
    await dispatchDownloads(
      [a, b, c].map((t) => ({
        type: 'progress' as const,
        userId: t.userId,
        key: t.key,
        state: 'progressing' as const,
        receivedSize: 5,
        totalSize: 10,
        speed: 3,
      })),
      db,
    );
    await dispatchDownloads({ type: 'pause', userId: 7, key: b.key }, db);
    await dispatchDownloads({ type: 'openPanel', userId: 7 }, db);
    const mine = await readDownloading(7, db);
    expect(mine.map((t) => [t.fileName, t.state, t.receivedSize, t.speed])).toEqual([
      ['a.zip', 'waiting', 5, 0],
      ['b.zip', 'paused', 5, 0],
    ]);
    expect((await readDownloading(8, db))[0]!.state).toBe('progressing');
  });

  it('ignores progress for a paused task, and for one that is gone', async () => {
    const db = openDb();
    const a = task('a.zip');
    await dispatchDownloads({ type: 'add', tasks: [a] }, db);
    await dispatchDownloads({ type: 'pause', userId: 7, key: a.key }, db);
    await dispatchDownloads({ type: 'progress', userId: 7, key: a.key, state: 'progressing', receivedSize: 9 }, db);
    expect(await readDownloading(7, db)).toMatchObject([{ state: 'paused', receivedSize: 0 }]);
    await dispatchDownloads({ type: 'resume', userId: 7, key: a.key }, db);
    expect(await readDownloading(7, db)).toMatchObject([{ state: 'waiting' }]);
    await dispatchDownloads({ type: 'cancel', userId: 7, key: a.key }, db);
    await dispatchDownloads({ type: 'progress', userId: 7, key: a.key, state: 'progressing', receivedSize: 9 }, db);
    expect(await db.downloading.count()).toBe(0);
  });

  it('moves a completed task to downloaded, replacing an earlier download of the same file, and says whom to tell', async () => {
    const db = openDb();
    const a = task('a.zip');
    await dispatchDownloads({ type: 'add', tasks: [a] }, db);
    expect(await dispatchDownloads({ type: 'complete', userId: 7, key: a.key, date: 1000, totalSize: 10 }, db)).toMatchObject([{ key: a.key, date: 1000 }]);
    await dispatchDownloads({ type: 'add', tasks: [a] }, db);
    const told = await dispatchDownloads({ type: 'complete', userId: 7, key: a.key, date: 2000, totalSize: 12 }, db);
    expect(told).toHaveLength(1);
    expect(await db.downloading.count()).toBe(0);
    const done = await readDownloaded(7, db);
    expect(done).toMatchObject([{ key: a.key, date: 2000, receivedSize: 12, totalSize: 12, speed: 0 }]);
    expect(Object.keys(done[0]!).sort()).toEqual(FIELDS);
    // A late completion of a task no longer downloading tells no one.
    expect(await dispatchDownloads({ type: 'complete', userId: 7, key: a.key, date: 3000 }, db)).toEqual([]);
    expect((await readDownloaded(7, db))[0]!.date).toBe(2000);
  });

  it('writes back only what an event changed', async () => {
    const db = openDb();
    const [a, b] = [task('a.zip'), task('b.zip')];
    await dispatchDownloads({ type: 'add', tasks: [a, b] }, db);
    const put = vi.spyOn(db.downloading, 'bulkPut');
    await dispatchDownloads({ type: 'progress', userId: 7, key: a.key, receivedSize: 4 }, db);
    expect(put).toHaveBeenCalledTimes(1);
    expect(put.mock.calls[0]![0].map((t) => t.fileName)).toEqual(['a.zip']);
    await dispatchDownloads({ type: 'progress', userId: 7, key: a.key, receivedSize: 4 }, db);
    expect(put).toHaveBeenCalledTimes(1);
  });

  it('tells a watcher about every change to the list', async () => {
    const db = openDb();
    const seen: string[][] = [];
    const sub = watchDownloading(7, (tasks) => seen.push(tasks.map((t) => `${t.fileName}:${t.state}`)), db);
    const a = task('a.zip');
    await vi.waitFor(() => expect(seen).toEqual([[]]));
    await dispatchDownloads({ type: 'add', tasks: [a] }, db);
    await vi.waitFor(() => expect(seen.at(-1)).toEqual(['a.zip:waiting']));
    await dispatchDownloads({ type: 'pauseAll', userId: 7 }, db);
    await vi.waitFor(() => expect(seen.at(-1)).toEqual(['a.zip:paused']));
    sub.unsubscribe();
  });
});
