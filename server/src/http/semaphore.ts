/**
 * At most `limit` tasks at once; the others wait their turn in arrival order. Used where each task holds buffers whose
 * sum, not the task count, must stay bounded (ARCHITECTURE §9: 200 uploads at the deadline within 300 MB).
 */
export function semaphore(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      // The slot passes straight to the next waiter, so `running` counts it without a gap another caller could take.
      if (next) next();
      else running--;
    }
  };
}

/**
 * A semaphore shared fairly: at most `limit` tasks at once in all, and at most `perKey` of them for one key (a team,
 * an uploader). A key's further tasks wait behind its own, without taking a place another key could use.
 */
export function fairSemaphore(limit: number, perKey: number) {
  const all = semaphore(limit);
  const keys = new Map<string, { run: ReturnType<typeof semaphore>; tasks: number }>();
  return async function run<T>(key: string, task: () => Promise<T>): Promise<T> {
    let own = keys.get(key);
    if (!own) keys.set(key, (own = { run: semaphore(perKey), tasks: 0 }));
    own.tasks++;
    try {
      return await own.run(() => all(task));
    } finally {
      if (--own.tasks === 0) keys.delete(key);
    }
  };
}

/**
 * Slots taken without waiting: at most `limit` held at once in all and `perKey` by one key (an organisation). `take`
 * answers a release function, or why not: 'busy' when every slot is held, 'own' when the key holds its share. A key's
 * share is what keeps one tenant from taking every slot.
 */
export function tenantSlots(limit: number, perKey: number) {
  let held = 0;
  const byKey = new Map<string, number>();
  return {
    take(key: string): (() => void) | 'busy' | 'own' {
      if ((byKey.get(key) ?? 0) >= perKey) return 'own';
      if (held >= limit) return 'busy';
      held++;
      byKey.set(key, (byKey.get(key) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held--;
        const left = byKey.get(key)! - 1;
        if (left) byKey.set(key, left);
        else byKey.delete(key);
      };
    },
    /** Slots held now, in all and by `key`. */
    held: (key?: string) => (key === undefined ? held : (byKey.get(key) ?? 0)),
  };
}
