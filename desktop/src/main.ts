/**
 * The desktop client: signs in to the platform, runs the download engine and the loopback bridge, and opens the
 * platform in a Chromium-based browser window in app mode with `electron=app`, the session token and the pairing
 * secret. Usage: `npm run desktop -- [--platform=URL] [--root=DIR] [--port=N] [--config=FILE] [--no-browser]`; `--help`
 * lists the flags. Bundled by desktop/build.ts into `app/client.mjs` of the no-install packages, where the package's own
 * `config.json` (beside `app/`) is read too.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { startBridge } from './bridge.ts';
import { DownloadEngine } from './engine.ts';

export interface DesktopConfig {
  /** The platform, e.g. `https://contest.example`. */
  platformUrl: string;
  /** Where files are saved (default `~/Downloads/contest`). */
  downloadRoot: string;
  /** Bridge port on 127.0.0.1; 0 = any free port. */
  port: number;
  /** Downloads running at once. */
  concurrency: number;
  /** A browser executable to use instead of the detected one. */
  browser?: string;
}

/** Set to `true` by desktop/build.ts (esbuild `define`) in the bundled `app/client.mjs`; not defined under tsx. */
declare const __CONTEST_DESKTOP_BUNDLE__: true | undefined;
const BUNDLED = typeof __CONTEST_DESKTOP_BUNDLE__ !== 'undefined' && __CONTEST_DESKTOP_BUNDLE__ === true;

const CONFIG_DIR = path.join(os.homedir(), '.contest-desktop');

/**
 * In a package built by desktop/build.ts (`runtime/`, `app/client.mjs`, `config.json`, launcher), the package's
 * `config.json` beside the `app` folder; none when run from the sources.
 */
export function packageConfigFile(bundled = BUNDLED, moduleUrl = import.meta.url): string | undefined {
  return bundled ? path.join(path.dirname(path.dirname(fileURLToPath(moduleUrl))), 'config.json') : undefined;
}

export const USAGE = `竞赛平台下载客户端

用法：client [--platform=URL] [--root=DIR] [--port=N] [--concurrency=N] [--browser=PATH] [--config=FILE] [--no-browser]

  --platform=URL      平台地址（环境变量CONTEST_PLATFORM_URL，默认http://localhost:3000）
  --root=DIR          下载目录（CONTEST_DOWNLOAD_ROOT，默认 ~/Downloads/contest）
  --port=N            本机下载通道端口，0为任意空闲端口（CONTEST_DESKTOP_PORT）
  --concurrency=N     同时下载的文件数（CONTEST_DESKTOP_CONCURRENCY，默认3）
  --browser=PATH      使用指定的浏览器（CONTEST_BROWSER，默认自动查找Edge、Chrome、Chromium）
  --config=FILE       配置文件（CONTEST_DESKTOP_CONFIG，默认 ~/.contest-desktop/config.json）
  --no-browser        不打开浏览器，只打印平台地址
  --print-config      打印生效的配置后退出
  --help              显示本说明后退出

配置的优先级从低到高：默认值、安装包中的config.json、配置文件、环境变量、命令行参数。
登录：CONTEST_TOKEN（已有的令牌），或CONTEST_USERNAME和CONTEST_PASSWORD，否则在窗口中输入用户名和密码。
`;

function args(): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of process.argv.slice(2)) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(a);
    if (m) out.set(m[1]!, m[2] ?? 'true');
  }
  return out;
}

function readConfigFile(file: string): Partial<DesktopConfig> {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('应为JSON对象');
    return parsed as Partial<DesktopConfig>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`配置文件${file}无法读取：${(err as Error).message}`);
  }
}

/**
 * Defaults, then the package's config.json (`packageFile`, in a built package), then the config file, then
 * environment variables, then command-line flags. Changes (the download root) are written to `file` only.
 */
export function loadConfig(argv = args(), env = process.env, packageFile = packageConfigFile()): { config: DesktopConfig; file: string; packageFile?: string } {
  const file = argv.get('config') ?? env.CONTEST_DESKTOP_CONFIG ?? path.join(CONFIG_DIR, 'config.json');
  const fromPackage = packageFile ? readConfigFile(packageFile) : {};
  const fromFile: Partial<DesktopConfig> = { ...fromPackage, ...readConfigFile(file) };
  const pick = (flag: string, envName: string, fileValue: unknown, fallback: string) =>
    argv.get(flag) ?? env[envName] ?? (fileValue === undefined ? undefined : String(fileValue)) ?? fallback;
  const config: DesktopConfig = {
    platformUrl: pick('platform', 'CONTEST_PLATFORM_URL', fromFile.platformUrl, 'http://localhost:3000'),
    downloadRoot: path.resolve(pick('root', 'CONTEST_DOWNLOAD_ROOT', fromFile.downloadRoot, path.join(os.homedir(), 'Downloads', 'contest'))),
    port: Number(pick('port', 'CONTEST_DESKTOP_PORT', fromFile.port, '0')),
    concurrency: Number(pick('concurrency', 'CONTEST_DESKTOP_CONCURRENCY', fromFile.concurrency, '3')),
  };
  const browser = argv.get('browser') ?? env.CONTEST_BROWSER ?? fromFile.browser;
  if (browser) config.browser = browser;
  const platform = new URL(config.platformUrl);
  if (platform.protocol !== 'http:' && platform.protocol !== 'https:') throw new Error(`平台地址须为http或https：${config.platformUrl}`);
  config.platformUrl = platform.origin;
  if (!Number.isInteger(config.port) || config.port < 0 || config.port > 65535) throw new Error(`端口不正确：${config.port}`);
  if (!Number.isInteger(config.concurrency) || config.concurrency < 1) config.concurrency = 3;
  return packageFile ? { config, file, packageFile } : { config, file };
}

async function saveConfig(file: string, patch: Partial<DesktopConfig>) {
  let current: Partial<DesktopConfig> = {};
  try {
    current = JSON.parse(await fsp.readFile(file, 'utf8')) as Partial<DesktopConfig>;
  } catch {
    // a new file
  }
  await fsp.mkdir(path.dirname(file), { recursive: true });
  await fsp.writeFile(file, JSON.stringify({ ...current, ...patch }, null, 2) + '\n');
}

/** Asks on the console; with `hidden`, what is typed is not echoed. */
function ask(question: string, hidden = false): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _enc, done) {
      if (!muted) process.stdout.write(chunk);
      done();
    },
  });
  const rl = readline.createInterface({ input: process.stdin, output, terminal: process.stdin.isTTY });
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      if (hidden) process.stdout.write('\n');
      resolve(answer.trim());
    });
    muted = hidden;
  });
}

/** POST /api/auth/token (spec §2.1 token prop): a bearer token for the desktop session. */
export async function fetchToken(platformUrl: string, credentials: { username: string; password: string } | null, bearer?: string): Promise<string> {
  const res = await fetch(new URL('/api/auth/token', platformUrl), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    body: credentials ? JSON.stringify(credentials) : 'null',
  });
  const body = (await res.json().catch(() => null)) as { status?: number; message?: string; data?: { token?: string } } | null;
  const token = body?.data?.token;
  if (!res.ok || !token) throw new Error(body?.message ?? `登录失败（HTTP ${res.status}）`);
  return token;
}

/** The token: CONTEST_TOKEN as is, or CONTEST_USERNAME/CONTEST_PASSWORD, or asked on the console. */
async function signIn(platformUrl: string): Promise<string> {
  const env = process.env;
  if (env.CONTEST_TOKEN) return env.CONTEST_TOKEN;
  if (env.CONTEST_USERNAME && env.CONTEST_PASSWORD) return fetchToken(platformUrl, { username: env.CONTEST_USERNAME, password: env.CONTEST_PASSWORD });
  if (!process.stdin.isTTY) throw new Error('请设置CONTEST_TOKEN，或CONTEST_USERNAME和CONTEST_PASSWORD');
  for (let tries = 0; ; tries++) {
    const username = await ask('用户名：');
    const password = await ask('密码：', true);
    try {
      return await fetchToken(platformUrl, { username, password });
    } catch (err) {
      console.error((err as Error).message);
      if (tries >= 2) throw err;
    }
  }
}

function onPath(names: string[]): string | undefined {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const exts = process.platform === 'win32' ? ['.exe', ''] : [''];
  for (const name of names) {
    for (const dir of dirs) {
      for (const ext of exts) {
        const candidate = path.join(dir, name + ext);
        try {
          fs.accessSync(candidate, fs.constants.X_OK);
          if (fs.statSync(candidate).isFile()) return candidate;
        } catch {
          // next
        }
      }
    }
  }
  return undefined;
}

/** Edge on Windows, Chrome on Mac, Chromium on Linux (each falling back to the others), on well-known paths or PATH. */
export function findBrowser(platform = process.platform, env = process.env): string | undefined {
  const exists = (p: string | undefined) => (p && fs.existsSync(p) ? p : undefined);
  const candidates: (string | undefined)[] = [];
  if (platform === 'win32') {
    const roots = [env['ProgramFiles(x86)'], env.ProgramFiles, env.LOCALAPPDATA].filter(Boolean) as string[];
    for (const r of roots) candidates.push(path.win32.join(r, 'Microsoft', 'Edge', 'Application', 'msedge.exe'));
    for (const r of roots) candidates.push(path.win32.join(r, 'Google', 'Chrome', 'Application', 'chrome.exe'));
    for (const c of candidates) if (exists(c)) return c;
    return onPath(['msedge', 'chrome']);
  }
  if (platform === 'darwin') {
    for (const base of ['/Applications', path.join(os.homedir(), 'Applications')]) {
      candidates.push(
        path.join(base, 'Google Chrome.app/Contents/MacOS/Google Chrome'),
        path.join(base, 'Microsoft Edge.app/Contents/MacOS/Microsoft Edge'),
        path.join(base, 'Chromium.app/Contents/MacOS/Chromium'),
      );
    }
    for (const c of candidates) if (exists(c)) return c;
    return undefined;
  }
  return (
    onPath(['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge', 'microsoft-edge-stable']) ??
    ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium', '/usr/bin/google-chrome'].find((p) => exists(p))
  );
}

/** The page the client opens (spec §2.1): competitionList with electron=app, the token and the bridge's pairing. */
export function appUrl(platformUrl: string, token: string, bridge: { port: number; secret: string }): string {
  const url = new URL('/competitionList', platformUrl);
  url.searchParams.set('electron', 'app');
  url.searchParams.set('token', token);
  url.searchParams.set('desktopPort', String(bridge.port));
  url.searchParams.set('desktopSecret', bridge.secret);
  return url.toString();
}

function openWindow(browser: string, url: string): boolean {
  try {
    const profile = path.join(CONFIG_DIR, 'browser-profile');
    fs.mkdirSync(profile, { recursive: true });
    const child = spawn(browser, [`--app=${url}`, `--user-data-dir=${profile}`, '--no-first-run', '--no-default-browser-check'], {
      detached: true,
      stdio: 'ignore',
    });
    child.on('error', (err) => console.error(`无法启动浏览器：${err.message}`));
    child.unref();
    return true;
  } catch (err) {
    console.error(`无法启动浏览器：${(err as Error).message}`);
    return false;
  }
}

function human(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(2)}${units[i]}`;
}

async function main() {
  const argv = args();
  if (argv.has('help') || process.argv.includes('-h')) {
    process.stdout.write(USAGE);
    return;
  }
  const { config, file, packageFile } = loadConfig(argv);
  if (argv.has('print-config')) {
    process.stdout.write(JSON.stringify({ config, file, packageFile: packageFile ?? null }, null, 2) + '\n');
    return;
  }
  console.log(`平台：${config.platformUrl}`);
  console.log(`下载目录：${config.downloadRoot}`);
  let token = await signIn(config.platformUrl);

  const engine = new DownloadEngine({ root: config.downloadRoot, concurrency: config.concurrency, origin: config.platformUrl, token: () => token });
  engine.on('completed', (t) => console.log(`完成：${t.savePath}（${human(t.totalSize || t.receivedSize)}）`));
  engine.on('failed', (e) => console.error(`失败：${e.task.savePath}：${e.message}`));
  const bridge = await startBridge({
    engine,
    origin: config.platformUrl,
    secret: randomBytes(32).toString('base64url'),
    port: config.port,
    onRootChange: (root) => saveConfig(file, { downloadRoot: root }),
    onTokenChange: (t) => {
      if (t) token = t;
    },
  });
  console.log(`下载通道：${bridge.url}`);

  const url = appUrl(config.platformUrl, token, bridge);
  const browser = argv.has('no-browser') ? undefined : (config.browser ?? findBrowser());
  if (!browser || !openWindow(browser, url)) {
    console.log('未找到Chromium内核的浏览器（Edge、Chrome或Chromium），请在浏览器中打开：');
    console.log(url);
  }
  console.log('下载进行中请勿关闭本窗口；按Ctrl+C退出（未完成的下载下次启动后继续）。');

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await bridge.close();
    await engine.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

/** Run as a program: the bundle always; the source when it is the entry point (not when a test imports it). */
function isEntryPoint(): boolean {
  if (BUNDLED) return true;
  if (!process.argv[1]) return false;
  const self = fileURLToPath(import.meta.url);
  if (path.resolve(process.argv[1]) === self) return true;
  try {
    return fs.realpathSync(process.argv[1]) === fs.realpathSync(self);
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main().catch((err) => {
    console.error((err as Error).message);
    process.exit(1);
  });
}
