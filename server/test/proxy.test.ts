import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, parseTrustProxy } from '../src/config.ts';
import { DATABASES, Client, body, createTestApp, registerUser, type TestApp } from './helpers.ts';

describe('TRUST_PROXY', () => {
  it('takes a hop count or the proxies’ addresses, and refuses to trust every hop', () => {
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.1, 10.1.0.0/16,::1,fd00::/8')).toEqual(['10.0.0.1', '10.1.0.0/16', '::1', 'fd00::/8']);
    for (const bad of ['true', 'yes', 'proxy.local', '10.0.0.1/33', '10.0.0.1/8/1', '*']) expect(typeof parseTrustProxy(bad)).toBe('string');
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
  });
});

const PROXY = '10.9.9.9';
const CLIENT = '203.0.113.7';

describe.each(DATABASES)('behind a proxy on %s', (kind) => {
  for (const trust of ['1', `${PROXY},10.8.0.0/16`]) {
    describe(`TRUST_PROXY=${trust}`, () => {
      let t: TestApp;
      beforeAll(async () => {
        t = await createTestApp(kind, { env: { TRUST_PROXY: trust, LOGIN_MAX_FAILURES_PER_IP: '3', LOG_LEVEL: 'info' } });
        await registerUser(t.app, 'proxied');
      });
      afterAll(() => t.close());

      /** A request arriving from the proxy, which appended the client's address after what the client sent. */
      const viaProxy = (payload: object, forged: string) =>
        t.app.inject({ method: 'POST', url: '/api/auth/login', payload, remoteAddress: PROXY, headers: { 'x-forwarded-for': `${forged}, ${CLIENT}` } });

      it('counts failed logins per client address whatever the client writes in front of the proxy’s entry', async () => {
        const answers: number[] = [];
        for (let i = 0; i < 5; i++) answers.push((await viaProxy({ username: `nobody${i}`, password: 'Wrong-pass-1' }, `198.51.100.${i}`)).statusCode);
        expect(answers).toEqual([400, 400, 400, 429, 429]);
        // Another client behind the same proxy is not blocked by the first one's failures.
        const other = await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: 'proxied', password: 'Passw0rd1' },
          remoteAddress: PROXY,
          headers: { 'x-forwarded-for': '192.0.2.44' },
        });
        expect(other.statusCode).toBe(200);
      });

      it('records the client’s address, not a forged one, in sessions and logs', async () => {
        const client = new Client(t.app, PROXY);
        const login = await client.request({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: 'proxied', password: 'Passw0rd1' },
          headers: { 'x-forwarded-for': '6.6.6.6, 192.0.2.55' },
        });
        expect(login.statusCode).toBe(200);
        const sessions = body(await client.get('/api/auth/sessions')).data as { ip: string; current: boolean }[];
        expect(sessions.map((s) => s.ip)).toContain('192.0.2.55');
        expect(sessions.map((s) => s.ip)).not.toContain('6.6.6.6');
        const logged = t.logs.join('');
        expect(logged).toContain('"ip":"192.0.2.55"');
        expect(logged).not.toContain('6.6.6.6');
      });

      // With a hop count the server must be reachable only through its proxy (docs/deployment.md); with the proxies'
      // addresses, a caller that is not one of them is taken at its own address.
      if (trust !== '1')
        it('believes no X-Forwarded-For from a caller that is not the proxy', async () => {
          const direct = (i: number) =>
            t.app.inject({
              method: 'POST',
              url: '/api/auth/login',
              payload: { username: `direct${i}`, password: 'Wrong-pass-1' },
              remoteAddress: '198.51.100.200',
              headers: { 'x-forwarded-for': `10.10.10.${i}` },
            });
          const answers: number[] = [];
          for (let i = 0; i < 4; i++) answers.push((await direct(i)).statusCode);
          expect(answers).toEqual([400, 400, 400, 429]);
        });
    });
  }
});
