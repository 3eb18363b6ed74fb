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
});
