import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';

/** Who a change concerns: some users, or everyone. */
export type Audience = number[] | 'all';

/**
 * What an open message stream is told: its user's unread counts changed, or a scoring finished on a question (the
 * public leaderboard may have moved, which an open test tab redraws).
 */
export type HubEvent = { type: 'unread' } | { type: 'board'; questionId: number };
const UNREAD: HubEvent = { type: 'unread' };

/**
 * Tells open message streams of changes. In one process an event emitter does; with several server instances each
 * change is published on a Redis channel that every instance listens to, so a user connected to any instance hears of
 * a notice published, or a submission scored, on another.
 */
export interface NoticeHub {
  /** Listens for changes concerning `userId`; returns the function that stops listening. */
  subscribe(userId: number, listener: (event: HubEvent) => void): () => void;
  notify(audience: Audience, event?: HubEvent): Promise<void>;
  close(): Promise<void>;
}

const CHANNEL = 'contest:notice';

function localHub() {
  const emitter = new EventEmitter();
  // One listener per open stream.
  emitter.setMaxListeners(0);
  return {
    emitter,
    subscribe(userId: number, listener: (event: HubEvent) => void) {
      const forUser = `u${userId}`;
      emitter.on(forUser, listener);
      emitter.on('all', listener);
      return () => {
        emitter.off(forUser, listener);
        emitter.off('all', listener);
      };
    },
    dispatch(audience: Audience, event: HubEvent) {
      if (audience === 'all') emitter.emit('all', event);
      else for (const id of new Set(audience)) emitter.emit(`u${id}`, event);
    },
  };
}

export function memoryNoticeHub(): NoticeHub {
  const local = localHub();
  return {
    subscribe: local.subscribe,
    async notify(audience, event = UNREAD) {
      local.dispatch(audience, event);
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
      const { audience, event } = JSON.parse(message) as { audience: Audience; event: HubEvent };
      local.dispatch(audience, event);
    } catch (err) {
      onError(err);
    }
  });
  return {
    subscribe: local.subscribe,
    async notify(audience, event = UNREAD) {
      await ready;
      await publisher.publish(channel, JSON.stringify({ audience, event }));
    },
    async close() {
      local.emitter.removeAllListeners();
      await subscriber.quit().catch(() => undefined);
    },
  };
}
