import { describe, expect, it } from 'vitest';
import { fairSemaphore, semaphore } from '../src/http/semaphore.ts';

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

describe('fairSemaphore', () => {
  it('lets another key run while one key holds all the tasks it may, and forgets keys that are done', async () => {
    const run = fairSemaphore(4, 2);
    const release: (() => void)[] = [];
    let hogRunning = 0;
    // Ten tasks of one key that never end by themselves, like bodies that stopped moving.
    const hog = Array.from({ length: 10 }, () =>
      run('team:1', async () => {
        hogRunning++;
        await new Promise<void>((resolve) => release.push(resolve));
        hogRunning--;
      }),
    );
    await tick();
    expect(hogRunning).toBe(2);
    await expect(run('team:2', async () => 'other team ran')).resolves.toBe('other team ran');
    await expect(Promise.all([run('team:3', async () => 3), run('team:3', async () => 3)])).resolves.toEqual([3, 3]);
    while (release.length) {
      release.shift()!();
      await tick();
      await tick();
    }
    await Promise.all(hog);
    expect(hogRunning).toBe(0);
  });

  it('still never runs more than its limit in all', async () => {
    const run = fairSemaphore(3, 2);
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        run(`k${i % 5}`, async () => {
          running++;
          most = Math.max(most, running);
          await tick();
          running--;
        }),
      ),
    );
    expect(most).toBe(3);
  });
});
