import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Runs an organiser's scoring program where it can harm nothing (issue 23): under bubblewrap, as an unprivileged user,
 * with no network, a read-only view of the system's Python and libraries and nothing else of the machine (no data
 * directory, configuration, database file, other questions' answers, other teams' files or other processes), its
 * working directory a size-limited memory filesystem holding only the files given to it, read-only, and what it writes
 * itself; its address space, processes, file sizes and CPU time limited, its whole process tree killed at the time
 * limit, and its output capped. A container runtime (docker or podman) may be used instead. Where neither can be had,
 * nothing runs: `sandboxStatus` says why, and `runSandboxed` refuses.
 */

export type ScorerRunner = 'bwrap' | 'docker' | 'podman';

export interface SandboxLimits {
  /** Wall-clock seconds before the whole process tree is killed. */
  timeLimitSec: number;
  /** Address space of each process (RLIMIT_AS with bubblewrap; the container's memory with docker or podman). */
  memoryBytes: number;
  /** What the program may write in its directory, altogether. */
  diskBytes?: number;
  /** Processes (and threads) the program may have at once. */
  processes?: number;
}

export interface SandboxRun {
  /** The program's exit code; null when it was killed. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** It wrote more than the output cap and was stopped. */
  outputCapped: boolean;
  /** The last OUTPUT_TAIL bytes of standard output (the score is its last line). */
  stdout: string;
  /** The last STDERR_TAIL bytes of standard error (shown to the organiser only). */
  stderr: string;
  seconds: number;
}

export const DEFAULT_MEMORY_BYTES = 2 * 1024 ** 3;
export const DEFAULT_DISK_BYTES = 256 * 1024 ** 2;
export const DEFAULT_PROCESSES = 64;
/** Standard output and error together beyond this stop the program. */
export const OUTPUT_CAP = 8 * 1024 * 1024;
export const OUTPUT_TAIL = 64 * 1024;
export const STDERR_TAIL = 4 * 1024;

const PYTHON = '/usr/bin/python3';
const BWRAP = '/usr/bin/bwrap';
const SETPRIV = '/usr/bin/setpriv';
const PRLIMIT = '/usr/bin/prlimit';
/** The unprivileged user programs run as when the server runs as root (nobody). */
const NOBODY = 65534;

/** The system paths a program sees, read-only, when they exist: Python, its libraries and the dynamic linker's links. */
const SYSTEM_BINDS = ['/usr', '/etc/alternatives', '/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/localtime'];

/** Keeps the last `max` bytes written to it. */
class Tail {
  private chunks: Buffer[] = [];
  private size = 0;
  total = 0;
  constructor(private readonly max: number) {}
  push(chunk: Buffer) {
    this.total += chunk.length;
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - this.chunks[0]!.length >= this.max) this.size -= this.chunks.shift()!.length;
  }
  toString() {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - this.max)).toString('utf8');
  }
}

/** The command that runs `args` (a command inside the sandbox) in `dir`'s files under `runner`. */
export function sandboxCommand(
  runner: ScorerRunner,
  files: { name: string; hostPath: string }[],
  args: string[],
  limits: SandboxLimits,
  options: { image?: string; asRoot?: boolean } = {},
): { command: string; args: string[] } {
  const disk = limits.diskBytes ?? DEFAULT_DISK_BYTES;
  const processes = limits.processes ?? DEFAULT_PROCESSES;
  if (runner === 'docker' || runner === 'podman') {
    const mounts = files.flatMap((f) => ['-v', `${f.hostPath}:/work/${f.name}:ro`]);
    return {
      command: runner,
      args: [
        'run', '--rm', '-i', '--network', 'none', '--read-only', '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges',
        '--user', `${NOBODY}:${NOBODY}`, '--memory', String(limits.memoryBytes), '--memory-swap', String(limits.memoryBytes),
        '--pids-limit', String(processes), '--tmpfs', `/work:rw,size=${disk},mode=1777`, '-w', '/work', ...mounts,
        '-e', 'HOME=/work', '-e', 'TMPDIR=/work', '-e', 'OPENBLAS_NUM_THREADS=1', '-e', 'OMP_NUM_THREADS=1',
        options.image ?? 'python:3-slim', ...args,
      ],
    };
  }
  const binds = SYSTEM_BINDS.filter((p) => fs.existsSync(p)).flatMap((p) => ['--ro-bind', p, p]);
  const bwrap = [
    BWRAP, '--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL',
    ...binds, '--symlink', 'usr/lib', '/lib', '--symlink', 'usr/lib64', '/lib64', '--symlink', 'usr/bin', '/bin',
    '--proc', '/proc', '--dev', '/dev',
    '--size', String(disk), '--perms', '0777', '--tmpfs', '/work',
    ...files.flatMap((f) => ['--ro-bind', f.hostPath, `/work/${f.name}`]),
    // Everything but /work is read-only, bwrap's own root included.
    '--remount-ro', '/',
    '--chdir', '/work', '--clearenv',
    '--setenv', 'PATH', '/usr/bin:/bin', '--setenv', 'HOME', '/work', '--setenv', 'TMPDIR', '/work', '--setenv', 'LANG', 'C.UTF-8',
    '--setenv', 'OPENBLAS_NUM_THREADS', '1', '--setenv', 'OMP_NUM_THREADS', '1', '--setenv', 'PYTHONDONTWRITEBYTECODE', '1',
    ...args,
  ];
  // RLIMIT_NPROC counts the processes of a user: as nobody, only the programs' own (root is not held by it).
  const cpu = Math.ceil(limits.timeLimitSec) + 1;
  const prlimit = [PRLIMIT, `--as=${limits.memoryBytes}`, `--nproc=${processes}`, `--fsize=${disk}`, `--cpu=${cpu}`, '--core=0', '--nofile=256', '--'];
  const asRoot = options.asRoot ?? process.getuid?.() === 0;
  const setpriv = asRoot ? [SETPRIV, `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all'] : [];
  const all = [...setpriv, ...prlimit, ...bwrap];
  return { command: all[0]!, args: all.slice(1) };
}

let probed: Map<string, { ok: true } | { ok: false; reason: string }> | undefined;

/**
 * Whether programs can run under `runner` here, and if not why (said to the organiser at upload). Bubblewrap is tried
 * once with Python inside it: the binaries may be missing, or user namespaces refused by the kernel.
 */
export function sandboxStatus(runner: ScorerRunner = 'bwrap', image?: string): { ok: true } | { ok: false; reason: string } {
  probed ??= new Map();
  const key = `${runner} ${image ?? ''}`;
  const known = probed.get(key);
  if (known) return known;
  const status = probe(runner, image);
  probed.set(key, status);
  return status;
}

function probe(runner: ScorerRunner, image?: string): { ok: true } | { ok: false; reason: string } {
  if (runner === 'bwrap') {
    for (const [file, what] of [
      [BWRAP, '沙箱程序 bubblewrap（/usr/bin/bwrap）'],
      [PYTHON, 'Python（/usr/bin/python3）'],
      [PRLIMIT, '资源限制程序 prlimit'],
    ] as const) {
      if (!fs.existsSync(file)) return { ok: false, reason: `服务器未安装${what}，无法安全运行评分程序` };
    }
    if (process.getuid?.() === 0 && !fs.existsSync(SETPRIV)) return { ok: false, reason: '服务器未安装 setpriv，无法以非特权用户运行评分程序' };
  }
  const { command, args } = sandboxCommand(runner, [], [runner === 'bwrap' ? PYTHON : 'python3', '-c', 'print(1)'], { timeLimitSec: 20, memoryBytes: DEFAULT_MEMORY_BYTES }, { image });
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 60_000 });
  if (r.error) return { ok: false, reason: `无法启动评分沙箱（${runner}）：${r.error.message}` };
  if (r.status !== 0 || r.stdout.trim() !== '1') return { ok: false, reason: `评分沙箱（${runner}）无法运行：${(r.stderr || r.stdout).trim().slice(0, 200)}` };
  return { ok: true };
}

/**
 * Runs `args` (e.g. `python3 score.py answer.csv prediction.csv`) in a fresh sandbox whose working directory holds
 * `files` (read-only copies of host files, by the names given) and whatever the program writes there. Resolves when it
 * has ended or been killed; never rejects for what the program does.
 */
export function runSandboxed(
  files: { name: string; hostPath: string }[],
  args: string[],
  limits: SandboxLimits,
  options: { runner?: ScorerRunner; image?: string } = {},
): Promise<SandboxRun> {
  const runner = options.runner ?? 'bwrap';
  const status = sandboxStatus(runner, options.image);
  if (!status.ok) return Promise.reject(new Error(status.reason));
  for (const f of files) {
    if (!/^[\w.-]+(\/[\w.-]+)*$/.test(f.name) || f.name.split('/').includes('..')) return Promise.reject(new Error(`bad file name in sandbox: ${f.name}`));
    // Readable by the unprivileged user the program runs as, whoever owns the host's copy (its folder is 0711: nobody
    // can list it, and its name is random).
    fs.chmodSync(f.hostPath, fs.statSync(f.hostPath).isDirectory() ? 0o711 : 0o644);
  }
  const { command, args: argv } = sandboxCommand(runner, files, args, limits, { image: options.image });
  const started = performance.now();
  return new Promise((resolve) => {
    // Its own process group: at the time limit the group is killed, and bubblewrap's --die-with-parent and its own PID
    // namespace take every process the program started with it.
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out = new Tail(OUTPUT_TAIL);
    const err = new Tail(STDERR_TAIL);
    let timedOut = false;
    let outputCapped = false;
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, limits.timeLimitSec * 1000);
    const take = (tail: Tail) => (chunk: Buffer) => {
      tail.push(chunk);
      if (!outputCapped && out.total + err.total > OUTPUT_CAP) {
        outputCapped = true;
        kill();
      }
    };
    child.stdout.on('data', take(out));
    child.stderr.on('data', take(err));
    child.on('error', (e) => {
      err.push(Buffer.from(String(e)));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ exitCode: code, signal, timedOut, outputCapped, stdout: out.toString(), stderr: err.toString(), seconds: (performance.now() - started) / 1000 });
    });
  });
}

/**
 * A temporary folder for one run's host files, removed by `done`. It and `base` must be reachable by the unprivileged
 * user programs run as: `base` is made 0711 (passable, not listable) and the folder gets a random name.
 */
export function runFolder(base: string) {
  fs.mkdirSync(base, { recursive: true, mode: 0o711 });
  fs.chmodSync(base, 0o711);
  const dir = fs.mkdtempSync(path.join(base, 'run-'));
  fs.chmodSync(dir, 0o711);
  return { dir, done: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
