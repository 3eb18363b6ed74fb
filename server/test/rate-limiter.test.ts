import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryRateLimiter, redisRateLimiter, type RateLimiter } from '../src/limits/rate-limiter.ts';

const drivers: [string, () => RateLimiter][] = [['memory', () => memoryRateLimiter()]];
if (process.env.TEST_REDIS_URL) {
  drivers.push(['redis', () => redisRateLimiter(new Redis(process.env.TEST_REDIS_URL!), `rl-test-${process.pid}-${Date.now()}:`)]);
}

describe.each(drivers)('%s rate limiter', (_name, make) => {
  const limiter = make();
  afterAll(() => limiter.close());

  it('allows up to the limit within a window, then refuses with the time left', async () => {
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.hit('k1', 3, 60_000));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3]!.retryAfterMs).toBeGreaterThan(50_000);
    expect(await limiter.peek('k1', 3)).toMatchObject({ allowed: false, count: 4 });
  });

  it('keeps keys apart and forgets a key on reset', async () => {
    await limiter.hit('k2', 1, 60_000);
    expect((await limiter.peek('k3', 1)).allowed).toBe(true);
    expect((await limiter.peek('k2', 1)).allowed).toBe(false);
    await limiter.reset('k2');
    expect(await limiter.peek('k2', 1)).toMatchObject({ allowed: true, count: 0 });
  });

  it('starts a new window when the old one has passed', async () => {
    await limiter.hit('k4', 1, 50);
    expect((await limiter.peek('k4', 1)).allowed).toBe(false);
    await new Promise((r) => setTimeout(r, 120));
    expect((await limiter.peek('k4', 1)).allowed).toBe(true);
  });

  it('counts concurrent hits exactly', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => limiter.hit('k5', 10, 60_000)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect((await limiter.peek('k5', 10)).count).toBe(20);
  });

  it('gives back a reservation, never below zero and never for a key it has not counted', async () => {
    await Promise.all(Array.from({ length: 3 }, () => limiter.hit('k6', 2, 60_000)));
    expect(await limiter.peek('k6', 2)).toMatchObject({ allowed: false, count: 3 });
    await limiter.release('k6');
    await limiter.release('k6');
    expect(await limiter.peek('k6', 2)).toMatchObject({ allowed: true, count: 1 });
    await Promise.all(Array.from({ length: 5 }, () => limiter.release('k6')));
    expect((await limiter.peek('k6', 2)).count).toBe(0);
    // Released below zero would have let the next hits through uncounted.
    expect((await limiter.hit('k6', 1, 60_000)).allowed).toBe(true);
    expect((await limiter.hit('k6', 1, 60_000)).allowed).toBe(false);
    await limiter.release('never-hit');
    expect((await limiter.peek('never-hit', 1)).count).toBe(0);
    expect((await limiter.hit('never-hit', 1, 60_000)).count).toBe(1);
  });

  it('keeps the count exact when reservations and releases race', async () => {
    // Each caller reserves, and gives back when over the limit: those within the limit keep theirs.
    const results = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const r = await limiter.hit('k7', 5, 60_000);
        if (!r.allowed) await limiter.release('k7');
        return r.allowed;
      }),
    );
    expect(results.filter(Boolean)).toHaveLength(5);
    expect((await limiter.peek('k7', 5)).count).toBe(5);
  });

  it('does not bring an expired window back by releasing it', async () => {
    await limiter.hit('k8', 1, 50);
    // Waits for the window to have passed (an outcome), however long that takes here.
    while ((await limiter.peek('k8', 1)).count > 0) await new Promise((r) => setTimeout(r, 10));
    await limiter.release('k8');
    expect(await limiter.peek('k8', 1)).toMatchObject({ allowed: true, count: 0 });
    expect((await limiter.hit('k8', 1, 60_000)).allowed).toBe(true);
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('redis rate limiter keys', () => {
  it('leaves every counter, however many hits raced to create it, with its window as expiry', async () => {
    const redis = new Redis(process.env.TEST_REDIS_URL!);
    const prefix = `rl-ttl-${process.pid}-${Date.now()}:`;
    const limiter = redisRateLimiter(redis.duplicate(), prefix);
    try {
      await Promise.all(Array.from({ length: 10 }, () => limiter.hit('k', 3, 60_000)));
      const ttl = await redis.pttl(`${prefix}k`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      expect(await redis.get(`${prefix}k`)).toBe('10');
    } finally {
      await redis.del(`${prefix}k`);
      await redis.quit();
      await limiter.close();
    }
  });

  it('never creates a key, nor leaves one without an expiry, when releasing', async () => {
    const redis = new Redis(process.env.TEST_REDIS_URL!);
    const prefix = `rl-rel-${process.pid}-${Date.now()}:`;
    const limiter = redisRateLimiter(redis.duplicate(), prefix);
    try {
      // A key that does not exist stays absent (a bare DECR would create it at -1, with no expiry).
      await Promise.all(Array.from({ length: 5 }, () => limiter.release('absent')));
      expect(await redis.exists(`${prefix}absent`)).toBe(0);
      // A live key keeps its window's expiry.
      await limiter.hit('live', 5, 60_000);
      await limiter.hit('live', 5, 60_000);
      await limiter.release('live');
      expect(await redis.get(`${prefix}live`)).toBe('1');
      const ttl = await redis.pttl(`${prefix}live`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      await limiter.release('live');
      await limiter.release('live');
      expect(await redis.get(`${prefix}live`)).toBe('0');
      expect(await redis.pttl(`${prefix}live`)).toBeGreaterThan(0);
      // A counter left without an expiry by something else is removed rather than kept forever.
      await redis.set(`${prefix}stuck`, '7');
      await limiter.release('stuck');
      expect(await redis.exists(`${prefix}stuck`)).toBe(0);
      // Every key under the prefix has an expiry.
      for (const key of await redis.keys(`${prefix}*`)) expect(await redis.pttl(key)).toBeGreaterThan(0);
    } finally {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
      await limiter.close();
    }
  });
});
