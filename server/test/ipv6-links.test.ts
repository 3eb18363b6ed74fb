import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, type Client, DATABASES, body, createTestApp, loggedIn, type TestApp } from './helpers.ts';

/** §5 URL "with a host or IP": an IPv6 literal is an IP, so a brand navigation link may point at one. */
describe.each(DATABASES)('brand navigation links with an IPv6 host on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterAll(() => t.close());

  it('saves and serves a navigation link to http://[2001:db8::1]:8080/spec and refuses malformed brackets and zone ids', async () => {
    const brandId = body(await admin.post('/api/competition/brand/', { name: 'IPv6品牌', shortName: 'IPv6' })).data.id;
    const nav = {
      brandId,
      navList: [{ name: '规范', url: 'http://[2001:db8::1]:8080/spec', type: 1, children: [{ name: '本机', url: 'https://[::1]/', type: 0 }] }],
      sublinksList: [{ name: '映射', url: 'http://[::ffff:192.0.2.1]/a', type: 0 }],
      frendlinksList: [],
    };
    const created = await admin.post('/api/competition/brand/nav/', nav);
    expect(created.statusCode).toBe(200);
    const pub = body(await t.app.inject({ method: 'GET', url: `/api/competition/brand/nav/public/nav?brandId=${brandId}` })).data;
    expect(pub.navList[0]).toMatchObject({ name: '规范', url: 'http://[2001:db8::1]:8080/spec', type: 1 });
    expect(pub.navList[0].children).toEqual([{ name: '本机', url: 'https://[::1]/', type: 0 }]);
    expect(pub.sublinksList).toEqual([{ name: '映射', url: 'http://[::ffff:192.0.2.1]/a', type: 0 }]);

    const id = body(created).data.id;
    for (const url of ['http://2001:db8::1/', 'http://[2001:db8::1/', 'http://[]/', 'http://[fe80::1%25eth0]/', 'http://[1::2::3]/']) {
      const res = await admin.put(`/api/competition/brand/nav/${id}`, { ...nav, navList: [{ name: 'x', url, type: 0, children: [] }] });
      expect(res.statusCode, url).toBe(400);
    }
    expect(body(await admin.get(`/api/competition/brand/nav/byBrandId/${brandId}`)).data.navList[0].url).toBe('http://[2001:db8::1]:8080/spec');
  });
});
