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
