/**
 * The desktop shell against the real desktop client (desktop/src: engine + loopback bridge), with a small file server
 * as the platform: the page's side of the bridge protocol in desktop/README.md.
 */
import { SPEED_FACTOR, createTask, type ProgressReport } from '@contest/shared';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startBridge, type Bridge } from '@contest/desktop/src/bridge.ts';
import { DownloadEngine } from '@contest/desktop/src/engine.ts';
import { DesktopShell, dirUnderRoot } from './shells/desktopShell.ts';

const SIZE = 1536 * 1024;
const RATE = 1024 * 1024; // bytes per second: the file takes 1.5 s, time enough to pause in the middle
const USER = 7;
const content = randomBytes(SIZE);

let platform: http.Server;
let origin: string;
let tmp: string;
beforeAll(async () => {
  // The platform: one file, with Range.
  platform = http.createServer((req, res) => {
    if (req.url !== '/files/data.bin') return res.writeHead(404).end();
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = m ? Number(m[1]) : 0;
    res.writeHead(m ? 206 : 200, {
      'content-type': 'application/octet-stream',
      'content-length': SIZE - start,
      ...(m ? { 'content-range': `bytes ${start}-${SIZE - 1}/${SIZE}` } : {}),
    });
    res.end(content.subarray(start));
  });
  await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'desktop-shell-'));
});
afterAll(async () => {
  await new Promise((resolve) => platform.close(resolve));
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** What a browser does for a page on the platform: every request to the bridge carries the page's Origin. */
const pageFetch: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), origin } });

/** An EventSource over fetch (Node has none), sending the Origin like a browser. */
function eventSource(url: string) {
  const listeners = new Map<string, ((e: Event) => void)[]>();
  const controller = new AbortController();
  const source = {
    readyState: 0,
    onopen: null as ((e: Event) => void) | null,
    onerror: null as ((e: Event) => void) | null,
    addEventListener: (type: string, l: (e: Event) => void) => listeners.set(type, [...(listeners.get(type) ?? []), l]),
    close: () => {
      controller.abort();
      source.readyState = 2;
    },
  };
  void (async () => {
    try {
      const res = await pageFetch(url, { signal: controller.signal });
      if (!res.ok || !res.body) throw new Error(String(res.status));
      source.readyState = 1;
      source.onopen?.(new Event('open'));
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += value;
        for (let i = buffer.indexOf('\n\n'); i >= 0; i = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
          const data = [...block.matchAll(/^data: (.*)$/gm)].map((m) => m[1]).join('\n');
          if (data) for (const l of listeners.get(event) ?? []) l(Object.assign(new Event(event), { data }));
        }
      }
    } catch {
      // closed
    }
    if (!controller.signal.aborted) {
      source.readyState = 2;
      source.onerror?.(new Event('error'));
    }
  })();
  return source as unknown as EventSource;
}

const memory = new Map<string, string>();
vi.stubGlobal('localStorage', {
  getItem: (k: string) => memory.get(k) ?? null,
  setItem: (k: string, v: string) => void memory.set(k, v),
  removeItem: (k: string) => void memory.delete(k),
});

let engine: DownloadEngine;
let bridge: Bridge;
let root: string;
const shells: DesktopShell[] = [];
async function client() {
  root = fs.mkdtempSync(path.join(tmp, 'root-'));
  engine = new DownloadEngine({ root, origin, progressIntervalMs: 50, maxBytesPerSecond: RATE, retryDelayMs: 10 });
  bridge = await startBridge({ engine, origin });
}
afterEach(async () => {
  shells.splice(0).forEach((s) => s.close());
  await bridge?.close();
  await engine?.close();
});

function shellFor(config = { port: bridge.port, secret: bridge.secret }) {
  const shell = new DesktopShell({ config, userId: USER, fetch: pageFetch, eventSource });
  shells.push(shell);
  const progress: ProgressReport[] = [];
  const errors: Error[] = [];
  shell.onProgress((_key, r) => progress.push(r));
  shell.onError((_key, e) => errors.push(e));
  const completed = new Promise<{ receivedSize: number; totalSize: number }>((resolve) => shell.onComplete((_k, r) => resolve(r)));
  return { shell, progress, errors, completed };
}

describe('the desktop shell', () => {
  it('finds the folders of a save path under the client root, with either separator', () => {
    expect(dirUnderRoot('/home/u/dl/A题/001-队/a.zip', ['/home/u/dl'])).toEqual(['A题', '001-队']);
    expect(dirUnderRoot('D:\\下载\\A题\\a.zip', ['D:\\下载\\'])).toEqual(['A题']);
    expect(dirUnderRoot('/other/a.zip', ['/home/u/dl', '/other'])).toEqual([]);
    expect(dirUnderRoot('/elsewhere/a.zip', ['/home/u/dl'])).toBeNull();
  });

  it('connects with the pairing secret and shows the client root; a wrong secret is told', async () => {
    await client();
    const { shell } = shellFor();
    await vi.waitFor(() => expect(shell.status()).toEqual({ ready: true, rootLabel: root, problem: null, action: null }));
    expect(shell.root()).toBe(root);
    const wrong = shellFor({ port: bridge.port, secret: 'not-the-secret' }).shell;
    await vi.waitFor(() => expect(wrong.status().problem).toContain('配对密钥不正确'));
    expect(wrong.status().ready).toBe(false);
  });

  it('hands a task to the client, pauses, resumes and completes it in the folder layout', async () => {
    await client();
    const { shell, progress, completed, errors } = shellFor();
    await vi.waitFor(() => expect(shell.status().ready).toBe(true));
    const task = createTask(
      { dir: 'A题 客户流失预测,001-数据先锋队', fileName: '数据', downloadPath: '/files/data.bin' },
      { userId: USER, root: shell.root() },
    );
    expect(task.savePath).toBe(path.join(root, 'A题 客户流失预测', '001-数据先锋队', '数据.bin')); // the source's extension is added
    shell.start(task);
    await vi.waitFor(() => expect(progress.some((p) => p.state === 'progressing' && p.receivedSize! > 200 * 1024)).toBe(true), { timeout: 5000 });
    shell.pause(task.key);
    await vi.waitFor(() => expect(progress.at(-1)?.state).toBe('paused'));
    const kept = fs.statSync(`${task.savePath}.part`).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(SIZE);
    shell.resume(task);
    expect(await completed).toEqual({ receivedSize: SIZE, totalSize: SIZE });
    expect(errors).toEqual([]);
    expect(fs.readFileSync(task.savePath).equals(content)).toBe(true);
    // Speeds are per half second: the page shows twice them, about the capped rate (per-interval figures jitter).
    const speeds = progress
      .map((p) => p.speed ?? 0)
      .filter((s) => s > 0)
      .sort((a, b) => a - b);
    const median = speeds[Math.floor(speeds.length / 2)]! * SPEED_FACTOR;
    expect(median).toBeGreaterThan(RATE * 0.5);
    expect(median).toBeLessThan(RATE * 1.5);

    // Completed while no page listened: recovery reports it for a task stored as progressing.
    expect((await shell.recover([{ ...task, state: 'progressing' }])).completed).toMatchObject([{ key: task.key, receivedSize: SIZE }]);
    shell.notifyComplete(task);
    await vi.waitFor(() => expect(engine.list().map((t) => t.key)).not.toContain(task.key));
    expect(fs.existsSync(task.savePath)).toBe(true);
  });

  it('cancels: the client deletes the .part', async () => {
    await client();
    const { shell, progress } = shellFor();
    await vi.waitFor(() => expect(shell.status().ready).toBe(true));
    const task = createTask({ dir: 'B题', fileName: 'data.bin', downloadPath: '/files/data.bin' }, { userId: USER, root: shell.root() });
    shell.start(task);
    await vi.waitFor(() => expect(progress.some((p) => p.receivedSize! > 100 * 1024)).toBe(true), { timeout: 5000 });
    shell.cancel(task.key);
    await vi.waitFor(() => expect(engine.get(task.key)).toBeUndefined());
    expect(fs.existsSync(`${task.savePath}.part`)).toBe(false);
  });

  it("reports what the client refuses, and a task saved outside the client's roots", async () => {
    await client();
    const { shell, errors } = shellFor();
    await vi.waitFor(() => expect(shell.status().ready).toBe(true));
    shell.start(createTask({ dir: 'A题', fileName: 'x.bin', downloadPath: 'http://example.com/x.bin' }, { userId: USER, root: shell.root() }));
    await vi.waitFor(() => expect(errors.map((e) => e.message)).toEqual([expect.stringContaining('只能从平台')]));
    shell.start(createTask({ dir: 'A题', fileName: 'y.bin', downloadPath: '/files/data.bin' }, { userId: USER, root: path.join(tmp, 'elsewhere') }));
    await vi.waitFor(() => expect(errors).toHaveLength(2));
    expect(errors[1]!.message).toContain('不在下载客户端的下载目录中');
  });
});
