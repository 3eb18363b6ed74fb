import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readScore } from '../src/scoring/custom.ts';
import { runFolder, runGroups, runSandboxed, sandboxCommand, sandboxStatus, STDERR_TAIL, sweepGroups, type SandboxLimits } from '../src/scoring/sandbox.ts';

/**
 * Organisers' scoring programs run under bubblewrap (issue 23, item 3): real programs, each trying one way out, each
 * contained and reported. `.ci/run` installs bubblewrap and Debian's Python packages; without them these tests fail,
 * they do not skip.
 */
describe('the scoring sandbox', () => {
  const base = path.join(os.tmpdir(), 'contest-sandbox-test');
  // Stands for what a program must never see: the platform's data directory with its database file.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'contest-secret-data-'));
  const secretFile = path.join(dataDir, 'contest.sqlite');
  let listener: net.Server;
  let port = 0;
  let connections = 0;

  beforeAll(async () => {
    fs.writeFileSync(secretFile, 'SQLite format 3\0 the platform database');
    listener = net.createServer((socket) => {
      connections++;
      socket.end('hello');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => listener.close(resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const LIMITS = { timeLimitSec: 20, memoryBytes: 1024 ** 3 };
  /** Runs `program` as score.py beside an answer and a prediction file. */
  async function run(program: string, limits: SandboxLimits = LIMITS) {
    const folder = runFolder(base);
    try {
      const put = (name: string, text: string) => {
        const file = path.join(folder.dir, name);
        fs.writeFileSync(file, text);
        return { name, hostPath: file };
      };
      const files = [put('score.py', program), put('answer.csv', 'id,y\n1,1\n2,0\n3,1\n'), put('prediction.csv', 'id,y\n1,1\n2,1\n3,1\n')];
      return await runSandboxed(files, ['/usr/bin/python3', 'score.py', 'answer.csv', 'prediction.csv'], limits);
    } finally {
      folder.done();
    }
  }

  it('is available on this machine', async () => {
    expect(await sandboxStatus()).toEqual({ ok: true });
  });

  it('runs a correct scorer with pandas and scikit-learn and reads its score from the last line', async () => {
    const r = await run(`
import json, sys
import pandas as pd
from sklearn.metrics import accuracy_score
a = pd.read_csv(sys.argv[1]); p = pd.read_csv(sys.argv[2])
m = a.merge(p, on="id", suffixes=("_a", "_p"))
print("rows", len(m))
print(json.dumps({"score": accuracy_score(m.y_a, m.y_p)}))
`);
    expect([r.exitCode, r.timedOut, r.outputCapped]).toEqual([0, false, false]);
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).toEqual({ score: 2 / 3 });
  });

  it('gives no network: a connection to the host fails and the host hears nothing', async () => {
    const r = await run(`
import socket, json
try:
    socket.create_connection(("127.0.0.1", ${port}), timeout=2); print("CONNECTED")
except OSError as e:
    print("refused", type(e).__name__)
try:
    socket.getaddrinfo("registry.npmjs.org", 443); print("RESOLVED")
except OSError as e:
    print("no dns", type(e).__name__)
`);
    expect(r.stdout).not.toContain('CONNECTED');
    expect(r.stdout).not.toContain('RESOLVED');
    expect(connections).toBe(0);
  });

  it('shows nothing of the platform: its data directory, database file, configuration, other processes', async () => {
    const r = await run(`
import os
for p in [${JSON.stringify(secretFile)}, ${JSON.stringify(dataDir)}, ${JSON.stringify(process.cwd())}, "/work/main", "/root", "/home", "/etc/passwd", "/etc/hostname", "/var/lib/postgresql"]:
    try:
        if os.path.isdir(p): print("LISTED", p, os.listdir(p))
        else: print("READ", p, open(p, "rb").read(20))
    except OSError as e:
        print("hidden", p, type(e).__name__)
pids = [d for d in os.listdir("/proc") if d.isdigit()]
print("processes", len(pids))
print("cwd", sorted(os.listdir(".")))
`);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toMatch(/LISTED|READ/);
    expect(r.stdout).not.toContain('SQLite format');
    // Its own PID namespace: only the program itself (it is process 1).
    expect(Number(/processes (\d+)/.exec(r.stdout)![1])).toBe(1);
    expect(r.stdout).toContain("cwd ['answer.csv', 'prediction.csv', 'score.py']");
  });

  it('covers the platform’s own folders where they lie inside the system folders a program is shown', async () => {
    // An install under /usr/local: its code, data and secret would be in the read-only /usr a program sees.
    const install = fs.mkdtempSync('/usr/local/share/contest-install-');
    try {
      fs.mkdirSync(path.join(install, 'data'));
      fs.writeFileSync(path.join(install, 'data', 'contest.sqlite'), 'SQLite format 3\0 the platform database');
      fs.chmodSync(install, 0o755);
      fs.chmodSync(path.join(install, 'data'), 0o755);
      fs.chmodSync(path.join(install, 'data', 'contest.sqlite'), 0o644);
      const program = `
import os
target = ${JSON.stringify(path.join(install, 'data', 'contest.sqlite'))}
try:
    print("READ", open(target).read()[:6])
except OSError as e:
    print("hidden", type(e).__name__)
print("listing", os.listdir(${JSON.stringify(install)}))
`;
      const files = (dir: string) => {
        const file = path.join(dir, 'score.py');
        fs.writeFileSync(file, program);
        return [{ name: 'score.py', hostPath: file }];
      };
      const folder = runFolder(base);
      try {
        const args = ['/usr/bin/python3', 'score.py'];
        // Without the cover, the program would read it: the test's install is where a program looks.
        const bare = await runSandboxed(files(folder.dir), args, LIMITS);
        expect(bare.stdout).toContain('READ SQLite');
        const covered = await runSandboxed(files(folder.dir), args, LIMITS, { hidden: [install, '/nonexistent/contest', dataDir] });
        expect(covered.exitCode).toBe(0);
        expect(covered.stdout).toContain('hidden FileNotFoundError');
        expect(covered.stdout).toContain('listing []');
        expect(covered.stdout).not.toContain('SQLite');
      } finally {
        folder.done();
      }
    } finally {
      fs.rmSync(install, { recursive: true, force: true });
    }
  });

  it('starts every process of the chain with an empty environment: no secret of the server is readable anywhere', async () => {
    const secret = `sandbox-secret-${process.pid}-${Date.now()}`;
    const saved = { SECRET_KEY: process.env.SECRET_KEY, DATABASE_URL: process.env.DATABASE_URL };
    process.env.SECRET_KEY = secret;
    process.env.DATABASE_URL = `postgres://contest:${secret}@db/contest`;
    try {
      const r = await run(`
import os
found = []
for pid in [d for d in os.listdir("/proc") if d.isdigit()] + ["self"]:
    for part in ["environ", "cmdline"]:
        try:
            if ${JSON.stringify(secret)}.encode() in open(f"/proc/{pid}/{part}", "rb").read(): found.append(f"{pid}/{part}")
        except OSError as e:
            print("unreadable", pid, part, type(e).__name__)
print("found", found)
print("pids", sorted(int(d) for d in os.listdir("/proc") if d.isdigit()))
print("pid", os.getpid(), "ppid", os.getppid())
print("pid1", open("/proc/1/cmdline", "rb").read().split(b"\\0")[:2])
print("env", sorted(os.environ))
`);
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain('found []');
      // The program is the sandbox's process 1: no process of bubblewrap's is left inside to read.
      expect(r.stdout).toContain('pid 1 ppid 0');
      expect(r.stdout).toContain("pid1 [b'/usr/bin/python3', b'score.py']");
      expect(r.stdout).toContain("env ['HOME', 'LANG', 'OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'PATH', 'PWD', 'PYTHONDONTWRITEBYTECODE', 'TMPDIR']");
      expect(r.stdout + r.stderr).not.toContain(secret);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    // The chain itself is started with nothing of the server's environment.
    expect(sandboxCommand('bwrap', [], ['/usr/bin/python3'], LIMITS).env).toEqual({});
  });

  it('keeps it from making namespaces, mounts and the kernel calls the filter denies, while threads still work', async () => {
    const r = await run(`
import ctypes, errno, os, threading
libc = ctypes.CDLL(None, use_errno=True)
def call(name, *args):
    ctypes.set_errno(0)
    ret = getattr(libc, name)(*args)
    e = ctypes.get_errno()
    if ret == 0 and name == "syscall" and args[0] == 56:
        os._exit(0)
    print(name, args[0] if name == "syscall" else "", "ok" if ret >= 0 else errno.errorcode.get(e, e), flush=True)
os.mkdir("m")
for flag in [0x10000000, 0x20000, 0x40000000, 0x20000000, 0x08000000, 0x04000000, 0x02000000]:
    call("unshare", flag)
call("mount", b"none", b"m", b"tmpfs", 0, None)
call("syscall", 56, 0x10000000 | 17, 0, 0, 0, 0)
call("syscall", 435, 0, 0)
call("syscall", 319, b"x", 0)
call("syscall", 29, 0, 1 << 20, 0o1600)
call("syscall", 321, 0, 0, 0)
call("syscall", 425, 8, 0)
call("syscall", 101, 16, 1, 0, 0)
call("syscall", 250, 0, 0, 0, 0)
call("syscall", 0x40000000 | 39)
call("syscall", 39)
t = threading.Thread(target=lambda: print("thread ran", flush=True)); t.start(); t.join()
pid = os.fork()
if pid == 0:
    os._exit(7)
print("child", os.waitpid(pid, 0)[1] >> 8)
`);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('unshare'))).toEqual(Array(7).fill('unshare  EPERM'));
    expect(lines).toContain('mount  EPERM');
    // clone with CLONE_NEWUSER; clone3, whose flags no filter reads, is not there (the C library falls back to clone).
    expect(lines).toContain('syscall 56 EPERM');
    expect(lines).toContain('syscall 435 ENOSYS');
    // memfd_create, shmget, bpf, io_uring_setup, ptrace, keyctl
    for (const nr of [319, 29, 321, 425, 101, 250]) expect(lines).toContain(`syscall ${nr} EPERM`);
    // The x32 table is closed; the ordinary getpid answers.
    expect(lines).toContain(`syscall ${0x40000000 | 39} ENOSYS`);
    expect(lines).toContain('syscall 39 ok');
    expect(lines).toContain('thread ran');
    expect(lines).toContain('child 7');
  });

  it('holds /dev/shm within its directory’s quota and leaves /dev itself read-only', async () => {
    const r = await run(
      `
import os
for target in ["/dev/shm/big", "big"]:
    written = 0
    try:
        with open(target, "wb") as f:
            for _ in range(1024):
                f.write(b"x" * (1 << 20)); f.flush(); written += 1
    except OSError as e:
        print("full", target, type(e).__name__)
    print("wrote", target, written, "MB", flush=True)
try:
    open("/dev/extra", "w").write("x"); print("WROTE /dev")
except OSError as e:
    print("dev read-only", type(e).__name__)
open("/dev/null", "w").write("x")
print("null fine")
`,
      { ...LIMITS, diskBytes: 64 * 1024 ** 2 },
    );
    expect(r.exitCode).toBe(0);
    const wrote = (target: string) => Number(new RegExp(`wrote ${target} (\\d+) MB`).exec(r.stdout)?.[1]);
    // 64 MB in all: /dev/shm a sixteenth of it, the directory the rest.
    expect(wrote('/dev/shm/big')).toBeLessThanOrEqual(4);
    expect(wrote('big')).toBeLessThanOrEqual(60);
    expect(wrote('/dev/shm/big') + wrote('big')).toBeLessThanOrEqual(64);
    expect(r.stdout).toContain('full /dev/shm/big');
    expect(r.stdout).toContain('dev read-only');
    expect(r.stdout).not.toContain('WROTE /dev');
    expect(r.stdout).toContain('null fine');
  });

  it('lets it write only in its own directory, within its size, and not over its input files', async () => {
    const r = await run(`
import os
for p in ["/etc/x", "/usr/x", "/x", "/tmp/x", "/var/tmp/x", ${JSON.stringify(path.join(dataDir, 'x'))}]:
    try:
        open(p, "w").write("x"); print("WROTE", p)
    except OSError as e:
        print("refused", p, type(e).__name__)
try:
    open("answer.csv", "a").write("9,9\\n"); print("WROTE answer")
except OSError as e:
    print("answer is read-only", type(e).__name__)
open("model.tmp", "w").write("fine")
print("own", open("model.tmp").read())
try:
    with open("big", "wb") as f:
        for _ in range(1024): f.write(b"x" * (1 << 20))
    print("WROTE 1 GiB")
except OSError as e:
    print("disk full", type(e).__name__)
`);
    expect(r.stdout).not.toContain('WROTE');
    expect(r.stdout).toContain('answer is read-only');
    expect(r.stdout).toContain('own fine');
    expect(r.stdout).toContain('disk full');
    expect(fs.existsSync(path.join(dataDir, 'x'))).toBe(false);
  });

  it('stops a fork bomb at its process limit and kills the whole tree at the time limit', async () => {
    const r = await run(
      `
import os, sys, time
print("uid", os.getuid(), flush=True)
while True:
    try:
        os.fork()
    except OSError:
        time.sleep(0.1)
`,
      { ...LIMITS, timeLimitSec: 3 },
    );
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
    // Nothing of it is left running: no process of the run's own user (other test files may be running programs), but
    // for the sandbox's first process waiting, killed, for the system's init to collect it (a zombie runs nothing).
    const uid = /uid (\d+)/.exec(r.stdout)?.[1];
    expect(Number(uid)).toBeGreaterThanOrEqual(0x70000000);
    const left = fs
      .readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          const status = fs.readFileSync(`/proc/${d}/status`, 'utf8');
          return new RegExp(`^Uid:\\s+${uid}\\s`, 'm').test(status) && !/^State:\s+Z/m.test(status);
        } catch {
          return false;
        }
      });
    expect(left).toEqual([]);
  });

  it('refuses memory beyond its limit', async () => {
    const r = await run(
      `
chunks = []
while True:
    chunks.append(bytearray(64 * 1024 * 1024))
`,
      { ...LIMITS, memoryBytes: 512 * 1024 ** 2 },
    );
    expect(r.exitCode).not.toBe(0);
    expect(r.timedOut).toBe(false);
    expect(r.stderr).toContain('MemoryError');
  });

  it('holds all of a program’s processes together to its memory limit, each run in a group and a user of its own', async () => {
    // Four processes of 200 MB each: every one within the per-process limit, together beyond it.
    const program = `
import os, sys, time
print("uid", os.getuid(), flush=True)
kids = []
for i in range(4):
    pid = os.fork()
    if pid == 0:
        block = bytearray(200 * 1024 * 1024)
        for j in range(0, len(block), 4096):
            block[j] = 1
        time.sleep(3)
        os._exit(0)
    kids.append(pid)
killed = sum(1 for k in kids if os.waitpid(k, 0)[1] != 0)
print("killed", killed, flush=True)
sys.exit(1 if killed else 0)
`;
    const roots = runGroups();
    // This machine lets the server (root) make control groups: without them this test fails rather than skips.
    expect(roots).not.toBeNull();
    // Runs' groups with no process left in them (other test files may be scoring in groups of their own meanwhile).
    const ours = () =>
      [roots!.memory, roots!.pids]
        .filter((d) => d !== null)
        .flatMap((d) =>
          fs
            .readdirSync(d!)
            .filter((n) => n.startsWith('contest-score-'))
            .map((n) => path.join(d!, n)),
        )
        .filter((dir) => {
          try {
            return fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').trim() === '';
          } catch {
            return false;
          }
        });
    const before = ours();
    const [a, b] = await Promise.all([run(program, { ...LIMITS, memoryBytes: 512 * 1024 ** 2 }), run('import os\nprint("uid", os.getuid())\n')]);
    expect(a.stdout).toMatch(/killed [1-4]/);
    expect(a.exitCode).toBe(1);
    expect(a.memoryExceeded).toBe(true);
    expect(readScore(a)).toEqual({ failure: '评分程序的进程合计超出内存限制，已被终止' });
    expect([b.exitCode, b.memoryExceeded]).toEqual([0, false]);
    // Two runs at once, two users of their own, neither root nor nobody: their process limits are not shared.
    const uid = (r: { stdout: string }) => Number(/uid (\d+)/.exec(r.stdout)?.[1]);
    expect(uid(a)).toBeGreaterThanOrEqual(0x70000000);
    expect(uid(b)).toBeGreaterThanOrEqual(0x70000000);
    expect(uid(a)).not.toBe(uid(b));
    // The runs' groups are removed once they have ended: none is left empty behind.
    await expect.poll(() => ours().filter((n) => !before.includes(n)), { timeout: 10_000 }).toEqual([]);
  });

  it('sweeps the empty groups of runs that a killed process left behind, and no group in use or just made', () => {
    const roots = runGroups()!;
    const left = path.join(roots.memory, `contest-score-left${process.pid}`);
    fs.mkdirSync(left);
    // Just made: it may belong to a run about to join it.
    sweepGroups(roots);
    expect(fs.existsSync(left)).toBe(true);
    // Made two minutes ago and empty: a leftover (other test files' groups, younger or in use, are not touched).
    const old = new Date(Date.now() - 120_000);
    fs.utimesSync(left, old, old);
    sweepGroups(roots);
    expect(fs.existsSync(left)).toBe(false);
  });

  it('kills a program that loops for ever at its time limit', async () => {
    const r = await run('while True:\n    pass\n', { ...LIMITS, timeLimitSec: 2 });
    expect([r.timedOut, r.exitCode]).toEqual([true, null]);
    expect(r.seconds).toBeLessThan(15);
  });

  it('stops a program that floods its output, keeping only the tails', async () => {
    const r = await run('import sys\nwhile True:\n    sys.stdout.write("x" * 65536)\n    sys.stderr.write("e" * 65536)\n');
    expect(r.outputCapped).toBe(true);
    expect(r.timedOut).toBe(false);
    expect(r.stderr.length).toBeLessThanOrEqual(STDERR_TAIL);
  });

  it('builds a container command with no network, a read-only root, limits and the files read-only', () => {
    const { command, args } = sandboxCommand(
      'podman',
      [{ name: 'score.py', hostPath: '/srv/x/score.py' }],
      ['python3', 'score.py'],
      { timeLimitSec: 60, memoryBytes: 2 * 1024 ** 3 },
      { image: 'contest-scorer', name: 'contest-score-1' },
    );
    expect(command).toBe('podman');
    // Named, so that the container itself is killed at the time limit.
    expect(args.join(' ')).toContain('--name contest-score-1');
    expect(args.join(' ')).toContain('--network none --read-only --cap-drop ALL');
    expect(args.join(' ')).toContain(`--memory ${2 * 1024 ** 3}`);
    expect(args).toContain('/srv/x/score.py:/work/score.py:ro');
    expect(args.slice(-3)).toEqual(['contest-scorer', 'python3', 'score.py']);
  });
});

describe('whether a sandbox can run here', () => {
  it('says why not, and looks again a while later instead of refusing for good', async () => {
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'contest-fake-runner-'));
    const saved = process.env.PATH;
    const realNow = Date.now;
    let now = realNow();
    Date.now = () => now;
    try {
      process.env.PATH = `${bin}:${saved}`;
      const first = await sandboxStatus('podman', 'probe-test-image');
      expect(first.ok).toBe(false);
      expect(!first.ok && first.reason).toMatch(/^无法启动评分沙箱（podman）：/);
      // The runtime is installed meanwhile (here a stand-in that answers as one would).
      fs.writeFileSync(path.join(bin, 'podman'), '#!/bin/sh\necho 1\n', { mode: 0o755 });
      expect((await sandboxStatus('podman', 'probe-test-image')).ok).toBe(false);
      now += 31_000;
      expect(await sandboxStatus('podman', 'probe-test-image')).toEqual({ ok: true });
      // A success holds.
      fs.rmSync(path.join(bin, 'podman'));
      now += 3_600_000;
      expect(await sandboxStatus('podman', 'probe-test-image')).toEqual({ ok: true });
    } finally {
      Date.now = realNow;
      process.env.PATH = saved;
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });
});
