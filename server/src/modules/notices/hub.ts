import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';

/** Who a change of unread counts concerns: some users, or everyone. */
export type Audience = number[] | 'all';

/**
 * Tells open message streams that their user's unread counts changed. In one process an event emitter does; with
 * several server instances each change is published on a Redis channel that every instance listens to, so a user
 * connected to any instance hears of a notice published on another.
 */
export interface NoticeHub {
  /** Listens for changes concerning `userId`; returns the function that stops listening. */
  subscribe(userId: number, listener: () => void): () => void;
  notify(audience: Audience): Promise<void>;
  close(): Promise<void>;
}

const CHANNEL = 'contest:notice';

function localHub() {
  const emitter = new EventEmitter();
  // One listener per open stream.
  emitter.setMaxListeners(0);
  return {
    emitter,
    subscribe(userId: number, listener: () => void) {
      const forUser = `u${userId}`;
      emitter.on(forUser, listener);
      emitter.on('all', listener);
      return () => {
        emitter.off(forUser, listener);
        emitter.off('all', listener);
      };
    },
    dispatch(audience: Audience) {
      if (audience === 'all') emitter.emit('all');
      else for (const id of new Set(audience)) emitter.emit(`u${id}`);
    },
  };
}

export function memoryNoticeHub(): NoticeHub {
  const local = localHub();
  return {
    subscribe: local.subscribe,
    async notify(audience) {
      local.dispatch(audience);
    },
    async close() {
      local.emitter.removeAllListeners();
    },
  };
}

/** `publisher` is the app's Redis connection; a subscribing connection is opened beside it. */
export function redisNoticeHub(publisher: Redis, onError: (err: unknown) => void, channel = CHANNEL): NoticeHub {
  const local = localHub();
  const subscriber = publisher.duplicate();
  const ready = subscriber.subscribe(channel).catch(onError);
  subscriber.on('message', (_channel: string, message: string) => {
    try {
      local.dispatch(JSON.parse(message) as Audience);
    } catch (err) {
      onError(err);
    }
  });
  return {
    subscribe: local.subscribe,
    async notify(audience) {
      await ready;
      await publisher.publish(channel, JSON.stringify(audience));
    },
    async close() {
      local.emitter.removeAllListeners();
      await subscriber.quit().catch(() => undefined);
    },
  };
}
