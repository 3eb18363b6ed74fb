import { randomBytes } from 'node:crypto';
import { usernameKey } from '@contest/shared';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, DATABASES, body, createTestApp, registerUser, type TestApp } from './helpers.ts';

/**
 * Login throttling holds under concurrency: a failure is reserved on the account's and the address's counters before
 * the password is looked at, so a burst of simultaneous attempts gets no more evaluations than the limits allow, and a
 * right password sent into the burst past the limit is refused too. Counted by answers (400: evaluated and wrong,
 * 429: refused unevaluated), never by time.
 */

const LIMITERS = process.env.TEST_REDIS_URL ? (['memory', 'redis'] as const) : (['memory'] as const);
const CASES = DATABASES.flatMap((db) => LIMITERS.map((limiter) => [db, limiter] as const));

const ACCOUNT_LOCKED = /^该账号登录失败次数过多，请\d+分钟后再试$/;
const ADDRESS_LOCKED = /^登录尝试过于频繁，请\d+分钟后再试$/;

/** Waits for a condition to hold (an outcome, not a duration). */
async function until(check: () => Promise<boolean>) {
  for (let i = 0; !(await check()); i++) {
    if (i > 5000) throw new Error('condition never held');
    await new Promise((r) => setTimeout(r, 2));
  }
}

const statuses = (results: LightMyRequestResponse[]) => {
  const count: Record<number, number> = {};
  for (const r of results) count[r.statusCode] = (count[r.statusCode] ?? 0) + 1;
  return count;
};

describe.each(CASES)('login throttling under concurrency on %s with the %s limiter', (kind, limiterKind) => {
  let t: TestApp;
  const prefix = `login-throttle-${randomBytes(4).toString('hex')}:`;
  const PASSWORD = 'Burst-Pass-2026';

  beforeAll(async () => {
    t = await createTestApp(kind, { env: limiterKind === 'redis' ? { REDIS_URL: process.env.TEST_REDIS_URL!, REDIS_PREFIX: prefix } : {} });
  });
  afterAll(async () => {
    await t.close();
    if (limiterKind === 'redis') {
      const redis = new Redis(process.env.TEST_REDIS_URL!);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    }
  });

  const login = (username: string, password: string, ip: string, url = '/api/auth/login') =>
    t.app.inject({ method: 'POST', url, payload: { username, password }, remoteAddress: ip });
  /** A different address for each attempt, so that only the account's limit is in play. */
  const addressOf = (i: number) => `10.77.${Math.floor(i / 200)}.${(i % 200) + 1}`;
  const count = async (key: string) => (await t.deps.limiter.peek(key, 1)).count;

  it('evaluates at most the account limit of 200 simultaneous wrong passwords, and refuses the right one sent into the burst', async () => {
    const limit = t.config.login.maxFailuresPerAccount;
    await registerUser(t.app, 'burstvictim', PASSWORD);
    const burst = Promise.all(Array.from({ length: 200 }, (_, i) => login('burstvictim', `Wrong-${i}-pass`, addressOf(i))));
    // Once the burst holds the account's reservations, the right password is refused, whatever is still in flight.
    await until(async () => (await count(`login:account:${usernameKey('burstvictim')}`)) >= limit);
    const right = await login('burstvictim', PASSWORD, '10.78.0.1');
    const results = await burst;

    expect(statuses(results)).toEqual({ 400: limit, 429: 200 - limit });
    for (const r of results.filter((r) => r.statusCode === 429)) expect(body(r).message).toMatch(ACCOUNT_LOCKED);
    expect(right.statusCode).toBe(429);
    expect(body(right).message).toMatch(ACCOUNT_LOCKED);
    // The refused attempts were not counted against the addresses they came from.
    for (let i = 0; i < 200; i++) if (results[i]!.statusCode === 429) expect(await count(`login:ip:${addressOf(i)}`)).toBe(0);
  });

  it('counts the desktop token endpoint in the same reservations as the login page', async () => {
    const limit = t.config.login.maxFailuresPerAccount;
    await registerUser(t.app, 'tokenvictim', PASSWORD);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => login('tokenvictim', `Wrong-${i}-pass`, addressOf(1000 + i), i % 2 ? '/api/auth/token' : '/api/auth/login')),
    );
    expect(statuses(results)).toEqual({ 400: limit, 429: 100 - limit });
    expect((await login('tokenvictim', PASSWORD, '10.78.0.2', '/api/auth/token')).statusCode).toBe(429);
  });

  it('evaluates at most the address limit of 200 simultaneous wrong passwords across many accounts, and refuses a right one from there', async () => {
    const limit = t.config.login.maxFailuresPerIp;
    const ip = '10.79.0.1';
    const burst = Promise.all(Array.from({ length: 200 }, (_, i) => login(`sprayed${i}`, 'Wrong-pass-1', ip)));
    await until(async () => (await count(`login:ip:${ip}`)) >= limit);
    const right = await login('admin', ADMIN_PASSWORD, ip);
    const results = await burst;

    expect(statuses(results)).toEqual({ 400: limit, 429: 200 - limit });
    for (const r of results.filter((r) => r.statusCode === 429)) expect(body(r).message).toMatch(ADDRESS_LOCKED);
    expect(right.statusCode).toBe(429);
    expect(body(right).message).toMatch(ADDRESS_LOCKED);
    // Refused unevaluated: the accounts named in those attempts were not counted against.
    for (let i = 0; i < 200; i++) if (results[i]!.statusCode === 429) expect(await count(`login:account:${usernameKey(`sprayed${i}`)}`)).toBe(0);
    // Another address is not affected.
    expect((await login('admin', ADMIN_PASSWORD, '10.79.0.2')).statusCode).toBe(200);
  });

  it('gives the reservations back on a right password: successful logins never use up the address or the account', async () => {
    const ip = '10.80.0.1';
    const ipLimit = t.config.login.maxFailuresPerIp;
    const accountLimit = t.config.login.maxFailuresPerAccount;
    await registerUser(t.app, 'regular', PASSWORD);
    // Failures up to one below each limit, then right passwords from the same address, one after another.
    for (let i = 0; i < ipLimit - 1; i++) expect((await login(`nobody${i}`, 'Wrong-pass-1', ip)).statusCode).toBe(400);
    for (let i = 0; i < accountLimit - 1; i++) expect((await login('regular', `Wrong-${i}-pass`, addressOf(2000 + i))).statusCode).toBe(400);
    for (let i = 0; i < 10; i++) expect((await login('regular', PASSWORD, ip)).statusCode).toBe(200);
    expect(await count(`login:ip:${ip}`)).toBe(ipLimit - 1);
    expect(await count(`login:account:${usernameKey('regular')}`)).toBe(0);
    // The address still has exactly one failure left; after it, even the right password is refused there.
    expect((await login('nobody-last', 'Wrong-pass-1', ip)).statusCode).toBe(400);
    const locked = await login('regular', PASSWORD, ip);
    expect(locked.statusCode).toBe(429);
    expect(body(locked).message).toMatch(ADDRESS_LOCKED);
  });

  it('lets a whole class log in at once from one address: attempts still being checked make others wait, not fail', async () => {
    const ip = '10.81.0.1';
    const names = Array.from({ length: 8 }, (_, i) => `pupil${i}`);
    for (const name of names) await registerUser(t.app, name, PASSWORD);
    // More simultaneous logins than the address's limit of failures, and than each account's.
    const results = await Promise.all(names.flatMap((name) => Array.from({ length: 8 }, () => login(name, PASSWORD, ip))));
    expect(statuses(results)).toEqual({ 200: 64 });
    expect(await count(`login:ip:${ip}`)).toBe(0);
  });
});
