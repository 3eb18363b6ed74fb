import { randomUUID } from 'node:crypto';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/server';
import type { Redis } from 'ioredis';

/** Deletes, or extends, the lock only while it still holds the token of the request that took it. */
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
const RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";

export interface RedisLockerOptions {
  /** How long a lock outlives an instance that died holding it; renewed every third of it while held. */
  ttlMs?: number;
  /** How long a request waits for the lock before tus answers 500 (tus's own locker waits 30 s). */
  acquireTimeoutMs?: number;
  /** How often a waiting request tries again. */
  retryMs?: number;
}

/**
 * tus's locker for instances that share uploads: one PATCH at a time per upload across all of them, as tus's
 * in-memory locker does within one. The lock is a Redis key (`SET NX PX`, renewed while held, deleted by its holder
 * only). A request that finds the upload locked asks the holder to let go, as tus's own locker does, over a Redis
 * channel every instance listens to: the instance holding it tells its request, which stops reading (what it got is
 * kept) and unlocks, so a client resuming after a lost connection is not kept waiting by its own dead request.
 */
export class RedisLocker implements Locker {
  private readonly held = new Map<string, { token: string; release: RequestRelease }>();
  private readonly subscriber: Redis;
  private readonly subscribed: Promise<unknown>;
  readonly ttlMs: number;
  readonly acquireTimeoutMs: number;
  readonly retryMs: number;

  constructor(
    readonly redis: Redis,
    readonly prefix: string,
    options: RedisLockerOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.acquireTimeoutMs = options.acquireTimeoutMs ?? 30_000;
    this.retryMs = options.retryMs ?? 50;
    this.subscriber = redis.duplicate();
    this.subscribed = this.subscriber.subscribe(this.channel);
    this.subscriber.on('message', (_channel: string, id: string) => {
      void this.held.get(id)?.release();
    });
  }

  get channel() {
    return `${this.prefix}release`;
  }

  key(id: string) {
    return `${this.prefix}${id}`;
  }

  newLock(id: string): Lock {
    return new RedisLock(this, id);
  }

  /** @internal */
  hold(id: string, token: string, release: RequestRelease) {
    this.held.set(id, { token, release });
  }

  /** @internal */
  letGo(id: string, token: string) {
    if (this.held.get(id)?.token === token) this.held.delete(id);
  }

  /** @internal Asks whichever instance holds `id` to let it go. */
  async askRelease(id: string) {
    await this.subscribed;
    await this.redis.publish(this.channel, id);
  }

  async close() {
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

class RedisLock implements Lock {
  private token: string | undefined;
  private renewal: NodeJS.Timeout | undefined;

  constructor(
    private readonly locker: RedisLocker,
    private readonly id: string,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const { locker, id } = this;
    const key = locker.key(id);
    const token = randomUUID();
    const deadline = Date.now() + locker.acquireTimeoutMs;
    let asked = 0;
    for (;;) {
      if (signal.aborted) throw ERRORS.ERR_LOCK_TIMEOUT;
      if ((await locker.redis.set(key, token, 'PX', locker.ttlMs, 'NX')) === 'OK') break;
      // Asked once at first, and again now and then in case the holder was between requests when first asked.
      if (asked++ % 20 === 0) await locker.askRelease(id);
      if (Date.now() > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      await new Promise((resolve) => setTimeout(resolve, locker.retryMs));
    }
    this.token = token;
    locker.hold(id, token, requestRelease);
    this.renewal = setInterval(
      () => {
        locker.redis.eval(RENEW, 1, key, token, locker.ttlMs).then(
          (renewed) => {
            // Lost (Redis was unreachable for a whole ttl): the request stops, keeping what it wrote.
            if (!renewed) void requestRelease();
          },
          () => undefined,
        );
      },
      Math.max(1, Math.floor(locker.ttlMs / 3)),
    );
    this.renewal.unref();
  }

  async unlock(): Promise<void> {
    const { locker, id, token } = this;
    if (!token) throw new Error('Releasing an unlocked lock!');
    clearInterval(this.renewal);
    this.token = undefined;
    locker.letGo(id, token);
    await locker.redis.eval(RELEASE, 1, locker.key(id), token);
  }
}
