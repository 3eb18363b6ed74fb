import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, body, createTestApp, loggedIn, multipart, registerUser, type Client, type TestApp } from './helpers.ts';

/** A zip as far as the server looks: the local-file-header signature, then content. */
const zip = (fill: number, size: number) => Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(size - 4, fill)]);

describe('desktop client packages', () => {
  let t: TestApp;
  let admin: Client;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { CLIENT_MAX_BYTES: String(64 * 1024) } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterAll(() => t.close());

  it('says the client is not published yet, then serves what the administrator uploaded', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/profile/clientApp-win.zip' });
    expect([missing.statusCode, body(missing).message]).toEqual([404, '客户端尚未发布，请联系平台管理员']);
    const content = zip(7, 20_000);
    const res = await admin.request({ method: 'POST', url: '/api/system/client/win', ...multipart('clientApp-win.zip', content, 'application/zip') });
    expect(body(res).data).toMatchObject({ platform: 'win', size: content.length, sha256: createHash('sha256').update(content).digest('hex') });
    const got = await t.app.inject({ method: 'GET', url: '/profile/clientApp-win.zip' });
    expect([got.statusCode, got.headers['content-type'], got.rawPayload.equals(content)]).toEqual([200, 'application/zip', true]);
    expect(body(await admin.get('/api/system/client')).data.map((p: { platform: string }) => p.platform)).toEqual(['win']);
    expect((await t.app.inject({ method: 'GET', url: '/profile/other.zip' })).statusCode).toBe(404);
  });

  it('keeps the old package when an upload is not a zip, too large, or not the administrator’s', async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/profile/clientApp-win.zip' })).rawPayload;
    const notZip = await admin.request({ method: 'POST', url: '/api/system/client/win', ...multipart('evil.zip', Buffer.alloc(5000, 1), 'application/zip') });
    expect([notZip.statusCode, body(notZip).message]).toEqual([415, '客户端安装包须为zip压缩包']);
    const big = await admin.request({ method: 'POST', url: '/api/system/client/win', ...multipart('big.zip', zip(1, 100_000), 'application/zip') });
    expect(big.statusCode).toBe(413);
    expect((await admin.request({ method: 'POST', url: '/api/system/client/linux', ...multipart('x.zip', zip(1, 100), 'application/zip') })).statusCode).toBe(400);
    await registerUser(t.app, 'clientUser');
    const user = await loggedIn(t.app, 'clientUser');
    expect((await user.request({ method: 'POST', url: '/api/system/client/win', ...multipart('x.zip', zip(2, 100), 'application/zip') })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/profile/clientApp-win.zip' })).rawPayload.equals(before)).toBe(true);
  });
});
