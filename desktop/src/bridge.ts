import { randomBytes, timingSafeEqual } from 'node:crypto';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { DownloadRefusedError, type DownloadEngine, type DownloadInput, type DownloadTask, type FailureEvent, type ProgressEvent } from './engine.ts';

/** Version of the protocol in desktop/README.md; the page can read it from GET /status. */
export const BRIDGE_PROTOCOL = 1;
export const SECRET_HEADER = 'x-desktop-secret';
const MAX_BODY = 1024 * 1024;
const HEARTBEAT_MS = 15_000;

export interface BridgeOptions {
  engine: DownloadEngine;
  /** The platform's origin (e.g. `https://contest.example`): the only page allowed to call, the only download source. */
  origin: string;
  /** The pairing secret; a fresh random one when absent. */
  secret?: string;
  /** 0 (default): any free port. */
  port?: number;
  /** Called after the page changes the download root (e.g. to save it in the config file). */
  onRootChange?: (root: string) => void | Promise<void>;
  /** Called after the page hands over a new bearer token. */
  onTokenChange?: (token: string | null) => void;
}

export interface Bridge {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  secret: string;
  close(): Promise<void>;
}

class BridgeError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly extra: object = {},
  ) {
    super(message);
  }
}

function sameSecret(given: string | undefined, secret: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) throw new BridgeError(415, '请求体须为JSON', 'BAD_INPUT');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new BridgeError(413, '请求体过大', 'BAD_INPUT');
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
  } catch {
    throw new BridgeError(400, '请求体不是有效的JSON', 'BAD_INPUT');
  }
}

/**
 * The loopback channel between the platform page and the desktop client (protocol: desktop/README.md).
 * Listens on 127.0.0.1 only; every request must come from the platform origin and carry the pairing secret.
 */
export async function startBridge(options: BridgeOptions): Promise<Bridge> {
  const { engine } = options;
  const origin = new URL(options.origin).origin;
  const secret = options.secret ?? randomBytes(32).toString('base64url');
  const streams = new Set<http.ServerResponse>();
  let port = 0;

  const cors = (res: http.ServerResponse) => {
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('vary', 'Origin');
  };
  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };

  /** Resolves a page's downloadPath (absolute, or a path on the platform) and refuses other hosts. */
  const sourceUrl = (downloadPath: unknown): string => {
    if (typeof downloadPath !== 'string' || downloadPath.trim() === '') throw new DownloadRefusedError('下载地址不能为空', 'BAD_INPUT');
    let url: URL;
    try {
      url = new URL(downloadPath, origin);
    } catch {
      throw new DownloadRefusedError(`下载地址不正确：${downloadPath}`, 'BAD_INPUT');
    }
    if (url.origin !== origin || url.username || url.password) throw new DownloadRefusedError(`只能从平台（${origin}）下载文件：${url.origin}`, 'FOREIGN_URL');
    return url.toString();
  };

  const taskInput = (raw: unknown): DownloadInput => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new DownloadRefusedError('任务格式不正确', 'BAD_INPUT');
    const r = raw as Record<string, unknown>;
    const str = (name: string, optional: boolean) => {
      const v = r[name];
      if (v === undefined && optional) return undefined;
      if (typeof v !== 'string') throw new DownloadRefusedError(`任务缺少${name}`, 'BAD_INPUT');
      return v;
    };
    const userId = r.userId;
    if (userId !== undefined && userId !== null && typeof userId !== 'string' && typeof userId !== 'number')
      throw new DownloadRefusedError('userId格式不正确', 'BAD_INPUT');
    const input: DownloadInput = { downloadPath: sourceUrl(r.downloadPath), fileName: str('fileName', false)! };
    const dir = str('dir', true);
    if (dir !== undefined) input.dir = dir;
    const key = str('key', true);
    if (key !== undefined) input.key = key;
    const sha256 = str('sha256', true);
    if (sha256 !== undefined) input.sha256 = sha256;
    if (userId !== undefined) input.userId = userId as string | number | null;
    if (r.paused === true) input.paused = true;
    return input;
  };

  const userFilter = (url: URL) => url.searchParams.get('userId') ?? undefined;

  async function route(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const p = url.pathname.replace(/\/+$/, '') || '/';
    if (method === 'GET' && p === '/status') {
      return send(res, 200, { protocol: BRIDGE_PROTOCOL, origin, root: engine.getRoot(), tasks: engine.list().length });
    }
    if (method === 'GET' && p === '/tasks') return send(res, 200, { tasks: engine.list(userFilter(url)) });
    if (method === 'POST' && p === '/tasks') {
      const body = (await readJson(req)) as unknown;
      const list = Array.isArray((body as { tasks?: unknown })?.tasks) ? (body as { tasks: unknown[] }).tasks : [body];
      if (list.length === 0) throw new BridgeError(400, '没有要下载的文件', 'BAD_INPUT');
      if (list.length > 5000) throw new BridgeError(413, '一次最多添加5000个任务', 'BAD_INPUT');
      // All or nothing: one refused task refuses the whole request, so the page never half-queues a folder tree.
      const inputs: DownloadInput[] = [];
      const refused: { index: number; code: string; message: string }[] = [];
      for (const [index, raw] of list.entries()) {
        try {
          const input = taskInput(raw);
          await engine.check(input);
          inputs.push(input);
        } catch (err) {
          if (!(err instanceof DownloadRefusedError)) throw err;
          refused.push({ index, code: err.code, message: err.message });
        }
      }
      if (refused.length) throw new BridgeError(400, refused[0]!.message, refused[0]!.code, { refused });
      const tasks: DownloadTask[] = [];
      for (const input of inputs) tasks.push(await engine.add(input));
      return send(res, 200, { tasks });
    }
    const batch = /^\/tasks\/(pauseAll|resumeAll|cancelAll)$/.exec(p);
    if (method === 'POST' && batch) {
      const userId = userFilter(url);
      if (batch[1] === 'pauseAll') await engine.pauseAll(userId);
      else if (batch[1] === 'resumeAll') engine.resumeAll(userId);
      else await engine.cancelAll(userId);
      return send(res, 200, { tasks: engine.list(userId) });
    }
    const one = /^\/tasks\/([A-Za-z0-9_-]{1,128})\/(pause|resume|cancel)$/.exec(p);
    if (method === 'POST' && one) {
      const [, key, action] = one;
      if (!engine.get(key!)) throw new BridgeError(404, '没有这个下载任务', 'NOT_FOUND');
      if (action === 'pause') await engine.pause(key!);
      else if (action === 'resume') engine.resume(key!);
      else await engine.cancel(key!);
      return send(res, 200, { task: engine.get(key!) ?? null });
    }
    if (method === 'GET' && p === '/root') return send(res, 200, { root: engine.getRoot() });
    if (method === 'PUT' && p === '/root') {
      const root = ((await readJson(req)) as { root?: unknown })?.root;
      if (typeof root !== 'string' || !path.isAbsolute(root) || root.includes('\u0000')) throw new BridgeError(400, '下载目录须为绝对路径', 'BAD_INPUT');
      const resolved = path.resolve(root);
      try {
        await fsp.mkdir(resolved, { recursive: true });
        if (!(await fsp.stat(resolved)).isDirectory()) throw new Error('not a directory');
      } catch (err) {
        throw new BridgeError(400, `无法使用该下载目录：${(err as Error).message}`, 'BAD_INPUT');
      }
      engine.setRoot(resolved);
      await options.onRootChange?.(resolved);
      broadcast('root', { root: resolved });
      return send(res, 200, { root: resolved });
    }
    if (method === 'PUT' && p === '/token') {
      const token = ((await readJson(req)) as { token?: unknown })?.token;
      if (token !== null && (typeof token !== 'string' || !/^[A-Za-z0-9_-]{20,200}$/.test(token))) throw new BridgeError(400, '令牌格式不正确', 'BAD_INPUT');
      engine.setToken(token);
      options.onTokenChange?.(token);
      return send(res, 200, { ok: true });
    }
    if (method === 'GET' && p === '/events') return openStream(req, res, url);
    throw new BridgeError(404, '没有这个接口', 'NOT_FOUND');
  }

  function openStream(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    (res as http.ServerResponse & { userId?: string }).userId = userFilter(url);
    streams.add(res);
    write(res, 'snapshot', { root: engine.getRoot(), tasks: engine.list(userFilter(url)) });
    const beat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
    beat.unref();
    req.on('close', () => {
      clearInterval(beat);
      streams.delete(res);
    });
  }

  function write(res: http.ServerResponse, event: string, data: unknown) {
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  function broadcast(event: string, data: unknown, userId?: string | number | null) {
    for (const res of streams) {
      const filter = (res as http.ServerResponse & { userId?: string }).userId;
      if (filter !== undefined && userId !== undefined && String(userId) !== filter) continue;
      write(res, event, data);
    }
  }

  const userOf = (key: string) => engine.get(key)?.userId;
  const listeners = {
    progress: (e: ProgressEvent) => broadcast('progress', e, userOf(e.key)),
    completed: (t: DownloadTask) => broadcast('completed', t, t.userId),
    failed: (e: FailureEvent) => broadcast('failed', e, e.task.userId),
    cancelled: (e: { key: string }) => broadcast('cancelled', e),
  };
  engine.on('progress', listeners.progress);
  engine.on('completed', listeners.completed);
  engine.on('failed', listeners.failed);
  engine.on('cancelled', listeners.cancelled);

  const server = http.createServer(async (req, res) => {
    try {
      // DNS rebinding: only the loopback names we listen on.
      const host = req.headers.host ?? '';
      if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) throw new BridgeError(403, '主机名不被允许', 'FORBIDDEN');
      if (req.headers.origin !== origin) throw new BridgeError(403, '请求来源不被允许', 'FORBIDDEN');
      cors(res);
      if (req.method === 'OPTIONS') {
        // Preflight: browsers send no credentials here, so only the origin is checked.
        res.setHeader('access-control-allow-methods', 'GET, POST, PUT, OPTIONS');
        res.setHeader('access-control-allow-headers', `content-type, ${SECRET_HEADER}`);
        res.setHeader('access-control-max-age', '600');
        // Chromium's Private Network Access: a public page calling 127.0.0.1.
        if (req.headers['access-control-request-private-network'] === 'true') res.setHeader('access-control-allow-private-network', 'true');
        res.writeHead(204).end();
        return;
      }
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      // EventSource cannot send headers, so the secret may come as a query parameter there.
      const given = (req.headers[SECRET_HEADER] as string | undefined) ?? url.searchParams.get('secret') ?? undefined;
      if (!sameSecret(given, secret)) throw new BridgeError(401, '配对密钥不正确', 'UNAUTHORIZED');
      await route(req, res, url);
    } catch (err) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (err instanceof BridgeError) return send(res, err.status, { error: err.message, code: err.code, ...err.extra });
      if (err instanceof DownloadRefusedError) return send(res, 400, { error: err.message, code: err.code });
      send(res, 500, { error: (err as Error).message ?? '内部错误', code: 'INTERNAL' });
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    secret,
    async close() {
      engine.off('progress', listeners.progress);
      engine.off('completed', listeners.completed);
      engine.off('failed', listeners.failed);
      engine.off('cancelled', listeners.cancelled);
      for (const res of streams) res.end();
      streams.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
