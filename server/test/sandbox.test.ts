import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFolder, runSandboxed, sandboxCommand, sandboxStatus, STDERR_TAIL } from '../src/scoring/sandbox.ts';

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
  async function run(program: string, limits = LIMITS) {
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

  it('is available on this machine', () => {
    expect(sandboxStatus()).toEqual({ ok: true });
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
    // Its own PID namespace: only the sandbox's processes (bubblewrap's init and python).
    expect(Number(/processes (\d+)/.exec(r.stdout)![1])).toBeLessThanOrEqual(3);
    expect(r.stdout).toContain("cwd ['answer.csv', 'prediction.csv', 'score.py']");
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
import os, time
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
    // Nothing of it is left running.
    const left = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((d) => {
      try {
        return fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('score.py');
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
    const { command, args } = sandboxCommand('podman', [{ name: 'score.py', hostPath: '/srv/x/score.py' }], ['python3', 'score.py'], { timeLimitSec: 60, memoryBytes: 2 * 1024 ** 3 }, { image: 'contest-scorer' });
    expect(command).toBe('podman');
    expect(args.join(' ')).toContain('--network none --read-only --cap-drop ALL');
    expect(args.join(' ')).toContain(`--memory ${2 * 1024 ** 3}`);
    expect(args).toContain('/srv/x/score.py:/work/score.py:ro');
    expect(args.slice(-3)).toEqual(['contest-scorer', 'python3', 'score.py']);
  });
});
