import type { Redis } from 'ioredis';

export interface HitResult {
  allowed: boolean;
  count: number;
  retryAfterMs: number;
}

/**
 * Fixed-window counters keyed by a string. In memory for one process, in Redis when several server
 * instances must share the same limits.
 */
export interface RateLimiter {
  /** Counts one event and tells whether the count is still within `limit` for the window. */
  hit(key: string, limit: number, windowMs: number): Promise<HitResult>;
  /** Reads without counting. */
  peek(key: string, limit: number): Promise<HitResult>;
  reset(key: string): Promise<void>;
  /**
   * Gives back one event counted by `hit` (a reservation that turned out not to be spent). Never goes below zero,
   * never creates a counter, and never touches an expired one: a window ends when it would have ended anyway.
   */
  release(key: string): Promise<void>;
  close(): Promise<void>;
}

/** Whole minutes, at least one, for a message telling when to try again. */
export function retryMinutes(ms: number): number {
  return Math.max(1, Math.ceil(ms / 60_000));
}

export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const prune = () => {
    const t = now();
    for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
  };
  const read = (key: string) => {
    const w = windows.get(key);
    return w && w.resetAt > now() ? w : undefined;
  };
  return {
    async hit(key, limit, windowMs) {
      if (windows.size > 10_000) prune();
      let w = read(key);
      if (!w) {
        w = { count: 0, resetAt: now() + windowMs };
        windows.set(key, w);
      }
      w.count += 1;
      return { allowed: w.count <= limit, count: w.count, retryAfterMs: Math.max(0, w.resetAt - now()) };
    },
    async peek(key, limit) {
      const w = read(key);
      const count = w?.count ?? 0;
      return { allowed: count < limit, count, retryAfterMs: w ? Math.max(0, w.resetAt - now()) : 0 };
    },
    async reset(key) {
      windows.delete(key);
    },
    async release(key) {
      const w = read(key);
      if (w && w.count > 0) w.count -= 1;
    },
    async close() {
      windows.clear();
    },
  };
}

/**
 * Decrements a counter only while it exists with its expiry and is above zero; a counter found without an expiry
 * (which `hit` never leaves) is removed rather than kept for good. DECR keeps the key's expiry.
 */
const RELEASE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count <= 0 then return 0 end
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -1 then
  redis.call('DEL', KEYS[1])
  return 0
end
if ttl < 0 then return 0 end
return redis.call('DECR', KEYS[1])
`;

export function redisRateLimiter(redis: Redis, prefix = 'rl:'): RateLimiter {
  return {
    async hit(key, limit, windowMs) {
      const k = prefix + key;
      // The window starts with its expiry in the same transaction, so a counter can never be left without one
      // (a process dying between INCR and PEXPIRE would have locked the key for good).
      const [, [, count], [, ttl]] = (await redis.multi().set(k, 0, 'PX', windowMs, 'NX').incr(k).pttl(k).exec()) as [unknown, [null, number], [null, number]];
      return { allowed: count <= limit, count, retryAfterMs: Math.max(0, ttl) };
    },
    async peek(key, limit) {
      const k = prefix + key;
      const [[, raw], [, ttl]] = (await redis.multi().get(k).pttl(k).exec()) as [[null, string | null], [null, number]];
      const count = raw ? Number(raw) : 0;
      return { allowed: count < limit, count, retryAfterMs: Math.max(0, ttl) };
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
    async release(key) {
      // One script, so that the key cannot expire between the check and the decrement (DECR on a missing key
      // would create one without an expiry).
      await redis.eval(RELEASE_SCRIPT, 1, prefix + key);
    },
    async close() {
      await redis.quit();
    },
  };
}
