import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database_ } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { writeWatchOf } from '../src/db/write-watch.ts';
import { readCache } from '../src/http/read-cache.ts';

describe('cached public reads', () => {
  let dir: string;
  let database: Database_;
  let now = Date.parse('2026-03-01T00:00:00Z');
  const clock = { now: () => new Date(now) };
  const ctx = () => ({ db: database.db, clock });
  const addType = (name: string) =>
    database.db
      .insertInto('competitionTypes')
      .values({ name, sort: 0, createdAt: new Date(now).toISOString() })
      .execute();

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contest-read-cache-'));
    database = openDatabase({ dataDir: dir });
    await migrateToLatest(database);
  });
  afterAll(async () => {
    await database.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('counts writes per table, in transactions too, and not reads', async () => {
    const watch = writeWatchOf(database.db)!;
    const before = watch.version(['competition_types']);
    const brands = watch.version(['brands']);
    await addType('数据挖掘');
    await database.db.transaction().execute((trx) => trx.updateTable('competitionTypes').set({ sort: 1 }).execute());
    await database.db.deleteFrom('competitionTypes as t').where('t.name', '=', '数据挖掘').execute();
    await database.db.selectFrom('competitionTypes').selectAll().execute();
    expect(watch.version(['competition_types'])).toBe(before + 3);
    expect(watch.version(['brands'])).toBe(brands);
  });

  it('answers from the cache until a write to its tables or the time-to-live, and shares a load between callers', async () => {
    const cached = readCache(['competition_types'], 1000);
    let loads = 0;
    const read = () =>
      cached(ctx(), 'types', async () => {
        loads++;
        return database.db.selectFrom('competitionTypes').select('name').execute();
      });
    await Promise.all([read(), read(), read()]);
    expect(loads).toBe(1);
    await database.db
      .insertInto('brands')
      .values({ name: '品牌', shortName: '品牌', sort: 0, recommend: 0, logo: null, description: null, createdAt: '', updatedAt: '' })
      .execute();
    await read();
    expect(loads).toBe(1);
    await addType('机器学习');
    expect((await read()).map((r) => r.name)).toContain('机器学习');
    expect(loads).toBe(2);
    now += 999;
    await read();
    expect(loads).toBe(2);
    now += 1;
    await read();
    expect(loads).toBe(3);
  });

  it('keeps no failed load', async () => {
    const cached = readCache(['competition_types'], 1000);
    await expect(cached(ctx(), 'k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cached(ctx(), 'k', async () => 'up')).toBe('up');
  });
});
