import type { Ctx } from '../context.ts';
import { writeWatchOf } from '../db/write-watch.ts';

const MAX_ENTRIES = 500;

/**
 * Results of the busiest public reads (the competition list, a competition's page), kept for at most `ttlMs` by this
 * process and dropped as soon as this process writes one of the tables they come from. Another instance's writes show
 * within `ttlMs`. Concurrent misses share one load, so an expiry under load costs one query, not one per request. The
 * version is read before loading, so a write that lands during the load leaves the entry stale. Values are shared
 * between requests and callers: they must not depend on who asks, and nobody changes them.
 */
export function readCache(tables: readonly string[], ttlMs: number) {
  const entries = new Map<string, { value: Promise<unknown>; at: number; version: number }>();
  return async function cached<T>(ctx: Pick<Ctx, 'db' | 'clock'>, key: string, load: () => Promise<T>): Promise<T> {
    const watch = writeWatchOf(ctx.db);
    if (!watch) return load();
    const version = watch.version(tables);
    const now = ctx.clock.now().getTime();
    const hit = entries.get(key);
    // A clock that moved (tests move theirs) by the time-to-live or backwards makes the entry old too.
    if (hit && hit.version === version && now >= hit.at && now - hit.at < ttlMs) return hit.value as Promise<T>;
    const entry = { value: load(), at: now, version };
    entries.delete(key);
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    entries.set(key, entry);
    try {
      return await entry.value;
    } catch (err) {
      if (entries.get(key) === entry) entries.delete(key);
      throw err;
    }
  };
}
