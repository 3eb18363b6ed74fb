import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  DOWNLOAD_LIST_LIMIT,
  DownloadInterrupted,
  DownloadPathError,
  DownloadSizeError,
  EMPTY_DOWNLOAD_LISTS,
  batchActions,
  buildSavePath,
  createTask,
  dirSegments,
  fnv1a64,
  forUser,
  formatCompletionTime,
  formatRemaining,
  formatSpeed,
  overallProgress,
  reduceAll,
  reduceDownloads,
  resumeDownload,
  safeFileName,
  taskFileName,
  tasksToStart,
  visibleTasks,
  type DownloadEvent,
  type DownloadLists,
  type DownloadState,
  type DownloadTask,
  type ReplyLike,
  type ResumeAttempt,
  type ResumeOptions,
} from '../src/index.ts';

const task = (key: string, state: DownloadState = 'waiting', userId = 1): DownloadTask => ({
  key,
  userId,
  fileName: `${key}.zip`,
  downloadPath: `/files/${key}.zip`,
  savePath: `/dl/${key}.zip`,
  state,
  receivedSize: 0,
  totalSize: 0,
  speed: 0,
  date: null,
});
const lists = (downloading: DownloadTask[], downloaded: DownloadTask[] = []): DownloadLists => ({ downloading, downloaded });
const run = (start: DownloadLists, ...events: DownloadEvent[]) => reduceAll(start, events);
const states = (l: DownloadLists) => l.downloading.map((t) => `${t.key}:${t.state}`);

describe('createTask', () => {
  it('joins root, trimmed dir segments and the file name, and keys the task by the hash of that path', () => {
    const t = createTask({ dir: ' 题目一 , ,队伍A,', downloadPath: '/files/abc.pdf?token=1', fileName: '报告' }, { userId: 7, root: '/dl/' });
    expect(t).toEqual({
      key: '666e5f6cbfe5b0bd',
      userId: 7,
      fileName: '报告.pdf',
      downloadPath: '/files/abc.pdf?token=1',
      savePath: '/dl/题目一/队伍A/报告.pdf',
      state: 'waiting',
      receivedSize: 0,
      totalSize: 0,
      speed: 0,
      date: null,
    });
    expect(Object.keys(t).sort()).toEqual(
      ['key', 'userId', 'fileName', 'downloadPath', 'savePath', 'state', 'receivedSize', 'totalSize', 'speed', 'date'].sort(),
    );
  });

  it('keeps the separator of a Windows root and accepts an empty dir or an empty root', () => {
    expect(buildSavePath('D:\\下载\\', ['a', 'b'], 'f.txt')).toBe('D:\\下载\\a\\b\\f.txt');
    expect(buildSavePath('C:\\', [], 'f.txt')).toBe('C:\\f.txt');
    expect(buildSavePath('/', ['a'], 'f.txt')).toBe('/a/f.txt');
    expect(buildSavePath('', ['a'], 'f.txt')).toBe('a/f.txt');
    expect(createTask({ dir: '', downloadPath: '/x/y.csv', fileName: 'data' }, { userId: 1, root: '/r' }).savePath).toBe('/r/data.csv');
  });

  it('takes the extension from the source, without doubling it, and falls back to the source name', () => {
    expect(taskFileName('报告', '/a/b.PDF')).toBe('报告.PDF');
    expect(taskFileName('report.pdf', '/a/b.pdf')).toBe('report.pdf');
    expect(taskFileName('report', '/api/works/12/file')).toBe('report');
    expect(taskFileName('report', 'https://h/a.zip#frag')).toBe('report.zip');
    expect(taskFileName('', '/files/%E6%95%B0%E6%8D%AE.csv')).toBe('数据.csv');
    expect(taskFileName('x', '/files/.hidden')).toBe('x');
  });

  it.each([['.'], ['..'], ['a,..,b'], ['...'], ['a/b'], ['a\\b'], ['/etc'], ['\\\\server\\share'], ['C:'], ['c:\\Windows'], ['a\u0000b']])(
    'refuses the dir %j with a Chinese message',
    (dir) => {
      expect(() => createTask({ dir, downloadPath: '/f.zip', fileName: 'f' }, { userId: 1, root: '/dl' })).toThrow(DownloadPathError);
      expect(() => dirSegments(dir)).toThrow(/下载目录.*不合法/);
    },
  );

  it.each([['..'], ['a/b'], ['a\\b'], ['x\u0000'], ['']])('refuses the file name %j', (fileName) => {
    expect(() => taskFileName(fileName, '/api/')).toThrow(/文件名.*不合法/);
  });

  it.each([['CON'], ['nul.txt'], ['Com1.zip'], ['a:b'], ['a?.pdf'], ['x.'], ['x '], ['报告.pdf.part'], ['名'.repeat(86)]])(
    'refuses %j, a name Windows or the .part files cannot take, in dir and as file name',
    (name) => {
      expect(() => safeFileName(name)).toThrow(DownloadPathError);
      if (!name.endsWith('.part') && name.trim() === name) expect(() => dirSegments(`ok,${name}`)).toThrow(/下载目录.*不合法/);
    },
  );

  it('never produces a save path that leaves the root', () => {
    const segment = fc.string({ unit: fc.constantFrom('.', '/', '\\', 'a', ':', 'C', '\u0000', ' '), maxLength: 6 });
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 4 }), segment, (parts, name) => {
        let savePath: string;
        try {
          savePath = createTask({ dir: parts.join(','), downloadPath: '/f', fileName: name }, { userId: 1, root: '/dl' }).savePath;
        } catch (error) {
          expect(error).toBeInstanceOf(DownloadPathError);
          return;
        }
        expect(savePath.startsWith('/dl/')).toBe(true);
        const rest = savePath.slice('/dl/'.length).split('/');
        for (const s of rest) {
          expect(s).not.toMatch(/^\.+$|\\|\u0000|^[A-Za-z]:/);
          expect(s).not.toBe('');
        }
      }),
    );
  });
});

describe('fnv1a64 keys', () => {
  it.each([
    ['', 'cbf29ce484222325'],
    ['a', 'af63dc4c8601ec8c'],
    ['foobar', '85944171f73967e8'],
    ['中', '1e59811b678a02d4'], // UTF-8 e4 b8 ad
    ['😀', 'feff073875020288'], // UTF-8 f0 9f 98 80
  ])('%j -> %s', (text, hash) => {
    expect(fnv1a64(text)).toBe(hash);
  });

  it('is stable for the same path and differs for paths that differ', () => {
    const input = { dir: 'q1,team', downloadPath: '/f.zip', fileName: 'w' };
    const a = createTask(input, { userId: 1, root: '/dl' });
    expect(createTask(input, { userId: 2, root: '/dl' }).key).toBe(a.key);
    expect(a.key).toBe(fnv1a64(a.savePath));
    expect(createTask({ ...input, dir: 'q1,team2' }, { userId: 1, root: '/dl' }).key).not.toBe(a.key);
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(fnv1a64(s)).toMatch(/^[0-9a-f]{16}$/);
        expect(fnv1a64(s)).toBe(fnv1a64(s));
      }),
    );
  });
});

describe('reduceDownloads rules', () => {
  it('starts new tasks waiting and does not queue a key twice', () => {
    const r = run(EMPTY_DOWNLOAD_LISTS, { type: 'add', tasks: [task('a', 'progressing'), task('a'), task('b')] });
    expect(states(r.lists)).toEqual(['a:waiting', 'b:waiting']);
    const again = reduceDownloads(r.lists, { type: 'add', tasks: [{ ...task('a'), receivedSize: 99 }] });
    expect(again.lists).toBe(r.lists);
    // The same key for another user is another task.
    expect(states(reduceDownloads(r.lists, { type: 'add', tasks: [task('a', 'waiting', 2)] }).lists)).toHaveLength(3);
  });

  it('turns the user’s progressing tasks back to waiting when the panel opens', () => {
    const start = lists([task('a', 'progressing'), task('b', 'paused'), task('c', 'progressing', 2)]);
    const r = run(start, { type: 'openPanel', userId: 1 });
    expect(states(r.lists)).toEqual(['a:waiting', 'b:paused', 'c:progressing']);
  });

  it('applies progress reports except to paused, unknown or cancelled tasks', () => {
    const start = lists([task('a'), task('b', 'paused')]);
    const r = run(start, { type: 'progress', userId: 1, key: 'a', state: 'progressing', receivedSize: 10, totalSize: 100, speed: 5 });
    expect(r.lists.downloading[0]).toMatchObject({ state: 'progressing', receivedSize: 10, totalSize: 100, speed: 5 });
    // A report may set any state, paused included.
    expect(states(run(r.lists, { type: 'progress', userId: 1, key: 'a', state: 'paused' }).lists)[0]).toBe('a:paused');

    const paused = reduceDownloads(start, { type: 'progress', userId: 1, key: 'b', state: 'progressing', receivedSize: 5 });
    expect(paused.lists).toBe(start);
    expect(reduceDownloads(start, { type: 'progress', userId: 1, key: 'zzz', state: 'progressing' }).lists).toBe(start);
    expect(reduceDownloads(start, { type: 'progress', userId: 2, key: 'a', state: 'progressing' }).lists).toBe(start);
    const cancelled = run(start, { type: 'cancel', userId: 1, key: 'a' }, { type: 'progress', userId: 1, key: 'a', state: 'progressing' });
    expect(states(cancelled.lists)).toEqual(['b:paused']);
  });

  it('ignores invalid numbers in a report field by field', () => {
    const r = run(lists([task('a')]), { type: 'progress', userId: 1, key: 'a', receivedSize: -1, totalSize: Number.NaN, speed: 3 });
    expect(r.lists.downloading[0]).toMatchObject({ receivedSize: 0, totalSize: 0, speed: 3 });
  });

  it('pauses, resumes to waiting and cancels single tasks', () => {
    const start = lists([{ ...task('a', 'progressing'), speed: 9 }, task('b')]);
    const paused = run(start, { type: 'pause', userId: 1, key: 'a' });
    expect(paused.lists.downloading[0]).toMatchObject({ state: 'paused', speed: 0 });
    expect(states(run(paused.lists, { type: 'resume', userId: 1, key: 'a' }).lists)).toEqual(['a:waiting', 'b:waiting']);
    // Resuming a task that is not paused changes nothing.
    expect(reduceDownloads(start, { type: 'resume', userId: 1, key: 'a' }).lists).toBe(start);
    expect(states(run(start, { type: 'cancel', userId: 1, key: 'a' }).lists)).toEqual(['b:waiting']);
  });

  it('pauses all, resumes all to waiting and cancels all, for the user only', () => {
    const start = lists([task('a', 'progressing'), task('b', 'waiting'), task('c', 'paused'), task('d', 'progressing', 2)]);
    const paused = run(start, { type: 'pauseAll', userId: 1 });
    expect(states(paused.lists)).toEqual(['a:paused', 'b:paused', 'c:paused', 'd:progressing']);
    expect(states(run(paused.lists, { type: 'resumeAll', userId: 1 }).lists)).toEqual(['a:waiting', 'b:waiting', 'c:waiting', 'd:progressing']);
    expect(states(run(start, { type: 'cancelAll', userId: 1 }).lists)).toEqual(['d:progressing']);
  });

  it('moves a completed task to downloaded, dates it and tells the shell', () => {
    const old = { ...task('a'), date: 1 };
    const start = lists([{ ...task('a', 'progressing'), totalSize: 100, receivedSize: 90, speed: 4 }, task('b')], [task('z'), old]);
    const r = reduceDownloads(start, { type: 'complete', userId: 1, key: 'a', date: 1_700_000_000_000 });
    expect(states(r.lists)).toEqual(['b:waiting']);
    expect(r.lists.downloaded.map((t) => t.key)).toEqual(['a', 'z']); // newest first, the older record replaced
    expect(r.notifyShell).toMatchObject({ key: 'a', date: 1_700_000_000_000, receivedSize: 100, totalSize: 100, speed: 0 });
    expect(r.lists.downloaded[0]).toEqual(r.notifyShell);

    const late = reduceDownloads(r.lists, { type: 'complete', userId: 1, key: 'a', date: 2 });
    expect(late).toEqual({ lists: r.lists, notifyShell: null });
    expect(reduceDownloads(start, { type: 'pause', userId: 1, key: 'b' }).notifyShell).toBeNull();
  });
});

describe('selectors', () => {
  it.each([
    [[], { resumeAll: false, pauseAll: false, cancelAll: false }],
    [['paused'], { resumeAll: true, pauseAll: false, cancelAll: true }],
    [['waiting'], { resumeAll: false, pauseAll: true, cancelAll: true }],
    [['progressing', 'paused'], { resumeAll: true, pauseAll: true, cancelAll: true }],
  ] as [DownloadState[], object][])('batch buttons for %j', (taskStates, enabled) => {
    expect(batchActions(taskStates.map((s, i) => task(String(i), s)))).toEqual(enabled);
  });

  it('computes overall progress as completed / (completed + downloading)', () => {
    expect(overallProgress(lists([]))).toBe(0);
    expect(overallProgress(lists([task('a')]))).toBe(0);
    expect(overallProgress(lists([task('a')], [task('b')]))).toBe(50);
    expect(overallProgress(lists([task('a'), task('b')], [task('c')]))).toBe(33);
    expect(
      overallProgress(
        lists(
          [task('a')],
          Array.from({ length: 199 }, (_, i) => task(`d${i}`)),
        ),
      ),
    ).toBe(99);
    expect(overallProgress(lists([], [task('c')]))).toBe(100);
  });

  it('shows at most 50 tasks and says when more exist', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => task(String(i)));
    expect(visibleTasks(many(50))).toEqual({ tasks: many(50), truncated: false });
    const shown = visibleTasks(many(51));
    expect(shown.tasks).toHaveLength(DOWNLOAD_LIST_LIMIT);
    expect(shown.truncated).toBe(true);
  });

  it('starts waiting tasks in order up to the parallel limit', () => {
    const list = [task('a', 'progressing'), task('b', 'paused'), task('c'), task('d'), task('e')];
    expect(tasksToStart(list, 3).map((t) => t.key)).toEqual(['c', 'd']);
    expect(tasksToStart(list, 1)).toEqual([]);
    expect(tasksToStart(list, 0)).toEqual([]);
  });

  it('selects one user’s tasks', () => {
    const l = lists([task('a', 'waiting', 1), task('b', 'waiting', 2)], [task('c', 'waiting', 2)]);
    expect(forUser(l, 2)).toEqual(lists([task('b', 'waiting', 2)], [task('c', 'waiting', 2)]));
  });
});

describe('display', () => {
  it.each([
    [0, '0.00 B/s'],
    [512, '1.00 KB/s'],
    [768 * 1024, '1.50 MB/s'],
  ])('speed %s -> %s', (speed, text) => {
    expect(formatSpeed(speed)).toBe(text);
  });

  it.each([
    [{ receivedSize: 0, totalSize: 1000, speed: 0 }, '--'],
    [{ receivedSize: 0, totalSize: 0, speed: 100 }, '--'],
    [{ receivedSize: 50, totalSize: 10, speed: 100 }, '--'],
    [{ receivedSize: 0, totalSize: 1000, speed: Number.NaN }, '--'],
    [{ receivedSize: 0, totalSize: 1000, speed: 500 }, '00:00:01'],
    [{ receivedSize: 0, totalSize: 1001, speed: 500 }, '00:00:02'], // rounded up
    [{ receivedSize: 100, totalSize: 100, speed: 500 }, '00:00:00'],
    [{ receivedSize: 0, totalSize: 2 * 3725 * 1024, speed: 1024 }, '01:02:05'],
  ])('remaining %j -> %s', (t, text) => {
    expect(formatRemaining(t)).toBe(text);
  });

  it('shows the completion time 8 hours later, whatever the machine’s zone', () => {
    expect(formatCompletionTime(Date.UTC(2024, 0, 31, 16, 30, 5))).toBe('2024-02-01 00:30:05');
    expect(formatCompletionTime(Date.UTC(2024, 11, 31, 15, 59, 59))).toBe('2024-12-31 23:59:59');
    expect(formatCompletionTime(0)).toBe('1970-01-01 08:00:00');
    expect(formatCompletionTime(null)).toBe('--');
    expect(formatCompletionTime(Number.NaN)).toBe('--');
    expect(formatCompletionTime(9e15)).toBe('--');
  });
});

// Property tests over random event sequences: a few keys and two users, so events collide with tasks often.
const KEYS = ['a', 'b', 'c', 'd'];
const USERS = [1, 2];
const refArb = fc.record({ userId: fc.constantFrom(...USERS), key: fc.constantFrom(...KEYS) });
const stateArb = fc.constantFrom<DownloadState>('waiting', 'progressing', 'paused');
const sizeArb = fc.option(fc.oneof(fc.nat(10_000), fc.constant(-1), fc.constant(Number.NaN)), { nil: undefined });
const addArb = fc
  .array(fc.tuple(refArb, stateArb), { minLength: 1, maxLength: 3 })
  .map((refs): DownloadEvent => ({ type: 'add', tasks: refs.map(([r, s]) => task(r.key, s, r.userId)) }));
const eventArb = (options: { add: boolean; unpause: boolean; remove: boolean }): fc.Arbitrary<DownloadEvent> =>
  fc.oneof(
    ...(options.add ? [addArb] : []),
    fc.constantFrom(...USERS).map((userId): DownloadEvent => ({ type: 'openPanel', userId })),
    fc
      .record({ ref: refArb, state: fc.option(stateArb, { nil: undefined }), receivedSize: sizeArb, totalSize: sizeArb, speed: sizeArb })
      .map(({ ref, ...report }): DownloadEvent => ({ type: 'progress', ...ref, ...report })),
    refArb.map((r): DownloadEvent => ({ type: 'pause', ...r })),
    fc.constantFrom(...USERS).map((userId): DownloadEvent => ({ type: 'pauseAll', userId })),
    fc.record({ ref: refArb, date: fc.nat() }).map(({ ref, date }): DownloadEvent => ({ type: 'complete', ...ref, date })),
    ...(options.unpause
      ? [
          refArb.map((r): DownloadEvent => ({ type: 'resume', ...r })),
          fc.constantFrom(...USERS).map((userId): DownloadEvent => ({ type: 'resumeAll', userId })),
        ]
      : []),
    ...(options.remove
      ? [
          refArb.map((r): DownloadEvent => ({ type: 'cancel', ...r })),
          fc.constantFrom(...USERS).map((userId): DownloadEvent => ({ type: 'cancelAll', userId })),
        ]
      : []),
  );
const anyEvent = eventArb({ add: true, unpause: true, remove: true });
const find = (list: readonly DownloadTask[], r: { userId: number; key: string }) => list.find((t) => t.userId === r.userId && t.key === r.key);

describe('state machine properties', () => {
  it('keeps every task once per list, in a known state', () => {
    fc.assert(
      fc.property(fc.array(anyEvent, { maxLength: 40 }), (events) => {
        const { lists: end } = reduceAll(EMPTY_DOWNLOAD_LISTS, events);
        for (const list of [end.downloading, end.downloaded]) {
          expect(new Set(list.map((t) => `${t.userId}:${t.key}`)).size).toBe(list.length);
        }
        for (const t of end.downloading) expect(['waiting', 'progressing', 'paused']).toContain(t.state);
      }),
    );
  });

  it('never resurrects a cancelled task unless it is added again', () => {
    fc.assert(
      fc.property(
        fc.array(anyEvent, { maxLength: 20 }),
        fc.oneof(
          refArb.map((r): DownloadEvent => ({ type: 'cancel', ...r })),
          fc.constantFrom(...USERS).map((userId): DownloadEvent => ({ type: 'cancelAll', userId })),
        ),
        fc.array(eventArb({ add: false, unpause: true, remove: true }), { maxLength: 20 }),
        (before, kill, after) => {
          const start = reduceAll(EMPTY_DOWNLOAD_LISTS, before).lists;
          const killed = reduceDownloads(start, kill).lists;
          const victims = start.downloading.filter((t) =>
            kill.type === 'cancel' ? t.userId === kill.userId && t.key === kill.key : t.userId === (kill as { userId: number }).userId,
          );
          let current = killed;
          for (const event of after) {
            const r = reduceDownloads(current, event);
            current = r.lists;
            for (const v of victims) {
              expect(find(current.downloading, v)).toBeUndefined();
              // Only a record completed before the cancel may be in downloaded, and it stays as it was.
              expect(find(current.downloaded, v)).toBe(find(killed.downloaded, v));
              if (r.notifyShell) expect(find([r.notifyShell], v)).toBeUndefined();
            }
          }
        },
      ),
    );
  });

  it('never lets a progress event change a paused task', () => {
    fc.assert(
      fc.property(fc.array(anyEvent, { maxLength: 30 }), fc.array(anyEvent, { maxLength: 30 }), (before, after) => {
        let current = reduceAll(EMPTY_DOWNLOAD_LISTS, before).lists;
        for (const event of after) {
          const next = reduceDownloads(current, event).lists;
          if (event.type === 'progress') {
            for (const t of current.downloading.filter((x) => x.state === 'paused')) {
              expect(find(next.downloading, t)).toBe(t);
            }
          }
          current = next;
        }
      }),
    );
  });

  it('keeps a paused task paused through any events but resume, resume all, cancel and completion', () => {
    fc.assert(
      fc.property(
        fc.array(anyEvent, { maxLength: 20 }),
        fc.array(eventArb({ add: true, unpause: false, remove: false }), { maxLength: 30 }),
        (before, after) => {
          const start = reduceAll(EMPTY_DOWNLOAD_LISTS, before).lists;
          let paused = start.downloading.filter((t) => t.state === 'paused');
          let current = start;
          for (const event of after) {
            current = reduceDownloads(current, event).lists;
            for (const p of paused) {
              const now = find(current.downloading, p);
              if (now) expect(now.state).toBe('paused');
              else expect(find(current.downloaded, p)).toBeDefined(); // it can only have left by completing
            }
            // A completed task added again is a new download, no longer the paused one.
            paused = paused.filter((p) => find(current.downloading, p));
          }
        },
      ),
    );
  });

  it('reports an unchanged event with the same lists object', () => {
    fc.assert(
      fc.property(fc.array(anyEvent, { maxLength: 30 }), anyEvent, (before, event) => {
        const start = reduceAll(EMPTY_DOWNLOAD_LISTS, before).lists;
        const r = reduceDownloads(start, event);
        if (r.lists !== start) expect(r.lists).not.toEqual(start);
      }),
    );
  });
});

describe('resumeDownload, the one Range resume loop', () => {
  const FILE = Array.from({ length: 36 }, (_, i) => i);
  type Script = { status: number; headers?: Record<string, string>; chunks?: number[][]; end?: 'close' | 'break' | 'hang' };
  const reply = ({ status, headers = {}, chunks = [], end = 'close' }: Script): ReplyLike => {
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    let i = 0;
    let cancelled: (() => void) | null = null;
    return {
      status,
      headers: { get: (name) => lower[name.toLowerCase()] ?? null },
      body: {
        getReader: () => ({
          read: async () => {
            if (i < chunks.length) return { done: false, value: Uint8Array.from(chunks[i++]!) };
            if (end === 'break') throw new Error('connection reset');
            if (end === 'hang') return new Promise((resolve) => (cancelled = () => resolve({ done: true })));
            return { done: true };
          },
          cancel: async () => cancelled?.(),
        }),
      },
    };
  };
  const whole = (upTo = FILE.length, end: Script['end'] = 'close'): Script => ({
    status: 200,
    headers: { 'Content-Length': String(FILE.length) },
    chunks: [FILE.slice(0, Math.min(10, upTo)), FILE.slice(10, upTo)].filter((c) => c.length),
    end,
  });
  const rest = (from: number, total = FILE.length): Script => ({
    status: 206,
    headers: { 'Content-Range': `bytes ${from}-${total - 1}/${total}`, 'Content-Length': String(total - from) },
    chunks: [FILE.slice(from)],
  });

  /** Runs the loop against scripted replies (a function: a failed request) into an in-memory sink. */
  async function run(held: number[], answers: (Script | (() => never))[], options: Partial<ResumeOptions<ReplyLike>> = {}) {
    let file = held.slice();
    const ranges: (string | undefined)[] = [];
    const attempts: ResumeAttempt[] = [];
    const result = resumeDownload({
      fetch: async (_url, init) => {
        ranges.push(init.headers.Range);
        const next = answers.shift();
        if (!next) throw new Error('unexpected request');
        return typeof next === 'function' ? next() : reply(next);
      },
      url: '/f',
      offset: held.length,
      headers: () => ({ 'X-Requested-With': 'XMLHttpRequest' }),
      check: (r) => {
        if (r.status === 503) throw new DownloadInterrupted();
        if (r.status !== 200) throw new Error(`HTTP ${r.status}`);
      },
      begin: (start) => void (file = file.slice(0, start)),
      write: (chunk) => void file.push(...chunk),
      retryDelaysMs: [0, 0],
      onAttempt: (a) => attempts.push({ ...a }),
      ...options,
    });
    return { result, ranges, attempts, file: () => file };
  }

  it('asks for the rest with Range after a break, appending what the 206 sends', async () => {
    const r = await run([], [whole(20, 'break'), rest(20)]);
    expect(await r.result).toEqual({ received: 36, total: 36 });
    expect(r.file()).toEqual(FILE);
    expect(r.ranges).toEqual([undefined, 'bytes=20-']);
    expect(r.attempts.map((a) => [a.status, a.from, a.bytes, a.outcome])).toEqual([
      [200, 0, 20, 'error'],
      [206, 20, 16, 'done'],
    ]);
  });

  it('goes on from held bytes, and completes on a 416 saying they are the whole file', async () => {
    const held = await run(FILE.slice(0, 30), [rest(30)]);
    expect(await held.result).toEqual({ received: 36, total: 36 });
    expect(held.ranges).toEqual(['bytes=30-']);
    const done = await run(FILE, [{ status: 416, headers: { 'Content-Range': 'bytes */36' } }]);
    expect(await done.result).toEqual({ received: 36, total: 36 });
    expect(done.file()).toEqual(FILE);
  });

  it('starts over at once on a stale .part (416) or another part, and when the server ignores the range', async () => {
    const stale = await run(Array(50).fill(7), [{ status: 416, headers: { 'Content-Range': 'bytes */36' } }, whole()]);
    expect(await stale.result).toEqual({ received: 36, total: 36 });
    expect(stale.file()).toEqual(FILE);
    expect(stale.attempts.map((a) => [a.status, a.from, a.outcome])).toEqual([
      [416, 50, 'restart'],
      [200, 0, 'done'],
    ]);
    const other = await run(FILE.slice(0, 20), [rest(5), whole()], { retryDelaysMs: [] });
    expect(await other.result).toEqual({ received: 36, total: 36 });
    expect(other.ranges).toEqual(['bytes=20-', undefined]);
    expect(other.file()).toEqual(FILE);
    const ignored = await run(FILE.slice(0, 20), [whole()]);
    expect(await ignored.result).toEqual({ received: 36, total: 36 });
    expect(ignored.file()).toEqual(FILE);
  });

  it('retries failed requests and what check calls passing, then gives up with the last interruption', async () => {
    const failing = () => {
      throw new Error('offline');
    };
    const ok = await run([], [failing, { status: 503 }, whole()]);
    expect(await ok.result).toEqual({ received: 36, total: 36 });
    const given = await run([], [failing, failing, failing, whole()]);
    await expect(given.result).rejects.toBeInstanceOf(DownloadInterrupted);
    expect(given.ranges).toHaveLength(3);
    const stopped = await run([], [{ status: 404 }, whole()]);
    await expect(stopped.result).rejects.toThrow('HTTP 404');
  });

  it('counts the tries from the last bytes only when asked to', async () => {
    const answers = () => [
      whole(20, 'break'),
      { ...rest(20), chunks: [FILE.slice(20, 30)], end: 'break' as const },
      { ...rest(30), chunks: [FILE.slice(30, 33)], end: 'break' as const },
      rest(33),
    ];
    const counted = await run([], answers(), { resetRetriesOnProgress: false });
    await expect(counted.result).rejects.toBeInstanceOf(DownloadInterrupted);
    expect(counted.ranges).toEqual([undefined, 'bytes=20-', 'bytes=30-']);
    const reset = await run([], answers(), { resetRetriesOnProgress: true });
    expect(await reset.result).toEqual({ received: 36, total: 36 });
    expect(reset.file()).toEqual(FILE);
  });

  it('gives up a stalled request and asks for the rest', async () => {
    const r = await run([], [whole(20, 'hang'), rest(20)], { stallMs: 20 });
    expect(await r.result).toEqual({ received: 36, total: 36 });
    expect(r.ranges).toEqual([undefined, 'bytes=20-']);
  });

  it('throws DownloadSizeError when a whole reply leaves other than the announced total', async () => {
    const r = await run([], [{ status: 206, headers: { 'Content-Range': 'bytes 0-35/99' }, chunks: [FILE] }]);
    const err = await r.result.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DownloadSizeError);
    expect((err as Error).message).toBe('文件大小不符：收到36字节，应为99字节');
  });

  it('stops with an AbortError when its signal aborts, telling the attempt as aborted', async () => {
    const listeners = new Set<() => void>();
    const signal = {
      aborted: false,
      addEventListener: (_: 'abort', l: () => void) => void listeners.add(l),
      removeEventListener: (_: 'abort', l: () => void) => void listeners.delete(l),
    };
    const abort = () => ((signal.aborted = true), listeners.forEach((l) => l()));
    const r = await run([], [whole(20, 'hang')], { signal, write: () => abort() });
    const err = await r.result.catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
    expect(r.attempts.map((a) => a.outcome)).toEqual(['aborted']);
  });
});
