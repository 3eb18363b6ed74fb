import ExcelJS from 'exceljs';
import { SESSION_COOKIE } from '@contest/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exportBatches } from '../src/db/batches.ts';
import {
  ADMIN_PASSWORD,
  DATABASES,
  REG_INFO,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  onlineCompetition,
  registerUser,
  type Client,
  type TestApp,
} from './helpers.ts';

/**
 * Exports that are complete and bounded (issue 22): every export streams its workbook from the database in batches
 * (keyset paging on the list's order), holding one batch at a time, with every row that matches and no cap. Here the
 * batches are made tiny so that a handful of rows crosses many of them.
 */
describe.each(DATABASES)('exports streamed in batches on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let competitionId: number;
  const now = new Date('2026-03-20T00:00:00Z');
  const TEAMS = 9;

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { SESSION_TTL_HOURS: String(24 * 365), REGISTER_MAX_PER_IP: '1000' } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'exportOrg', '导出大学');
    competitionId = await onlineCompetition(admin, org, { fee: 5000 });
    for (let i = 0; i < TEAMS; i++) {
      const username = `export${i}`;
      await registerUser(t.app, username);
      const leader = await loggedIn(t.app, username);
      expect((await leader.post(`/api/team/register/${competitionId}`, { teamName: `导出队${i}`, info: REG_INFO })).statusCode).toBe(200);
    }
  }, 60_000);
  afterAll(() => t.close());
  afterEach(() => {
    exportBatches.size = 1000;
    exportBatches.onRead = undefined;
  });

  async function sheetRows(payload: Buffer | ArrayBuffer) {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(payload as ArrayBuffer);
    const rows: string[][] = [];
    book.worksheets[0]!.eachRow((row, n) => n > 1 && rows.push((row.values as unknown[]).slice(1).map(String)));
    return rows;
  }
  /** Counts the batches read while `run` goes. */
  async function counting<T>(size: number, run: () => Promise<T>) {
    exportBatches.size = size;
    let reads = 0;
    exportBatches.onRead = () => void reads++;
    const out = await run();
    return { out, reads };
  }

  it('exports every registration, newest first, across batches, as the list shows them', async () => {
    const list = body(await org.get(`/api/team/register/list?competitionId=${competitionId}&limit=100`)).data.list as { teamNo: string }[];
    expect(list).toHaveLength(TEAMS);
    const { out: res, reads } = await counting(2, () => org.get(`/api/team/register/list?competitionId=${competitionId}&export=xlsx`));
    expect(res.statusCode).toBe(200);
    // Five batches of two and the empty read that ends them: the rows were never read all at once.
    expect(reads).toBe(Math.ceil(TEAMS / 2) + (TEAMS % 2 === 0 ? 1 : 0));
    const rows = await sheetRows(res.rawPayload);
    expect(rows.map((r) => r[2])).toEqual(list.map((r) => r.teamNo));
  });

  it('exports every order across batches, each once', async () => {
    const list = body(await org.get('/api/order/list?limit=100')).data.list as { orderNo: string }[];
    expect(list.length).toBeGreaterThanOrEqual(TEAMS);
    const { out: res, reads } = await counting(3, () => org.get('/api/order/list?export=xlsx'));
    expect(res.statusCode).toBe(200);
    expect(reads).toBeGreaterThanOrEqual(3);
    const rows = await sheetRows(res.rawPayload);
    expect(rows.map((r) => r[0])).toEqual(list.map((o) => o.orderNo));
    expect(new Set(rows.map((r) => r[0])).size).toBe(rows.length);
  });

  it('refuses before the first byte with a message, and breaks the download rather than send a short workbook', async () => {
    // A participant's export: refused as JSON with its message, nothing streamed.
    const participant = await loggedIn(t.app, 'export0');
    const refused = await participant.get(`/api/team/register/list?competitionId=${competitionId}&export=xlsx`);
    expect([refused.statusCode, refused.headers['content-type']]).toEqual([403, expect.stringContaining('application/json')]);
    expect(body(refused).message).toBeTruthy();
    // Another organiser's export of this competition holds none of its rows.
    const other = await makeOrganiser(t, admin, 'exportOther', '别的导出大学');
    const foreign = await other.get(`/api/team/register/list?competitionId=${competitionId}&export=xlsx`);
    expect(await sheetRows(foreign.rawPayload)).toEqual([]);

    // A database failure after the first batch was sent: the connection is cut, the client never gets a whole file.
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    exportBatches.size = 2;
    let reads = 0;
    exportBatches.onRead = () => {
      if (++reads === 3) throw new Error('数据库连接中断');
    };
    // Whether the cut comes before or after the headers left, the download fails: no short file looks whole.
    const download = fetch(`${address}/api/team/register/list?competitionId=${competitionId}&export=xlsx`, {
      headers: { cookie: `${SESSION_COOKIE}=${org.token}` },
    }).then((res) => res.arrayBuffer());
    await expect(download).rejects.toThrow();
    expect(reads).toBe(3);
    expect(t.logs.join('')).toContain('export failed part way');
  });
});
