import { describe, expect, it } from 'vitest';
import { semaphore } from '../src/http/semaphore.ts';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('semaphore', () => {
  it('never runs more than its limit at once, and runs every task in arrival order', async () => {
    const run = semaphore(3);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        run(async () => {
          started.push(i);
          running++;
          most = Math.max(most, running);
          for (let k = 0; k < (i % 4) + 1; k++) await tick();
          running--;
          return i * 2;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(started).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
  });

  it('gives the slot of a failed task to the next one', async () => {
    const run = semaphore(1);
    const failed = run(async () => {
      throw new Error('disk full');
    });
    const next = run(async () => 'next ran');
    await expect(failed).rejects.toThrow('disk full');
    await expect(next).resolves.toBe('next ran');
    await expect(run(async () => 'and the one after')).resolves.toBe('and the one after');
  });
});
