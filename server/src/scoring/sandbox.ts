import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { seccompFilter } from './seccomp.ts';

/**
 * Runs an organiser's scoring program where it can harm nothing (issues 23 and 32; the threat model is in
 * docs/decisions.md): under bubblewrap, as an unprivileged user of its own, in control groups of its own where they can
 * be made (memory and processes of the whole run), with no network, a read-only view of the system's Python and
 * libraries and nothing else of the machine (no data directory, configuration, database file, other questions'
 * answers, other teams' files or other processes), an empty environment at every layer (nothing of the server's is
 * passed to any process of the chain, and the program itself is the sandbox's process 1), a system-call filter that
 * keeps it from making namespaces or mounts (seccomp.ts), its working directory and /dev/shm size-limited memory
 * filesystems holding only the files given to it, read-only, and what it writes itself; its address space,
 * processes, file sizes and CPU time limited, its whole process tree killed at the time limit, and its output capped.
 * A container runtime (docker or podman) may be used instead. Where neither can be had, nothing runs: `sandboxStatus`
 * says why, and `runSandboxed` refuses.
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
  /** The kernel killed some of its processes for holding more memory, all together, than its limit. */
  memoryExceeded: boolean;
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
/** The unprivileged user a container's program runs as (nobody). */
const NOBODY = 65534;
/**
 * Under bubblewrap, when the server runs as root, each run gets a user id of its own, drawn from a range no system
 * gives out (0x70000000-0x7ffeffff, unused by systemd's and containers' allocations): RLIMIT_NPROC counts per user, so
 * a fork bomb in one program cannot take the processes of a program running beside it, nor of anything else.
 */
const RUN_UID_BASE = 0x70000000;
const RUN_UID_SPAN = 0x0fff0000;
const runUid = () => RUN_UID_BASE + (randomBytes(4).readUInt32BE(0) % RUN_UID_SPAN);

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

/** Of its directory's quota, what /dev/shm may hold (POSIX shared memory and semaphores, which multiprocessing uses). */
const shmBytes = (disk: number) => Math.min(16 * 1024 ** 2, Math.floor(disk / 16));

/** The file descriptor the system-call filter is handed to bubblewrap on (`--seccomp 3`). */
export const SECCOMP_FD = 3;

/**
 * Variables a container runtime's client may need to reach its engine. Nothing else of the server's environment is
 * passed to it (the container gets only what `-e` sets), and nothing at all to bubblewrap's chain.
 */
const CLIENT_ENV = [
  'PATH',
  'HOME',
  'XDG_RUNTIME_DIR',
  'DOCKER_HOST',
  'DOCKER_CONFIG',
  'DOCKER_CONTEXT',
  'DOCKER_CERT_PATH',
  'DOCKER_TLS_VERIFY',
  'CONTAINER_HOST',
  'CONTAINERS_CONF',
];

/**
 * The command that runs `args` (a command inside the sandbox) in `dir`'s files under `runner`, with the environment
 * it is started with. Under bubblewrap the chain is started with an empty environment and the filter on SECCOMP_FD.
 */
export function sandboxCommand(
  runner: ScorerRunner,
  files: { name: string; hostPath: string }[],
  args: string[],
  limits: SandboxLimits,
  options: { image?: string; asRoot?: boolean; name?: string; groups?: string[]; hidden?: string[] } = {},
): { command: string; args: string[]; env: Record<string, string> } {
  const disk = limits.diskBytes ?? DEFAULT_DISK_BYTES;
  const processes = limits.processes ?? DEFAULT_PROCESSES;
  const shm = shmBytes(disk);
  if (runner === 'docker' || runner === 'podman') {
    const mounts = files.flatMap((f) => ['-v', `${f.hostPath}:/work/${f.name}:ro`]);
    const env = Object.fromEntries(CLIENT_ENV.flatMap((k) => (process.env[k] === undefined ? [] : [[k, process.env[k]!]])));
    return {
      command: runner,
      env,
      args: [
        'run',
        '--rm',
        '-i',
        ...(options.name ? ['--name', options.name] : []),
        '--network',
        'none',
        '--read-only',
        '--cap-drop',
        'ALL',
        '--security-opt',
        'no-new-privileges',
        '--user',
        `${NOBODY}:${NOBODY}`,
        '--memory',
        String(limits.memoryBytes),
        '--memory-swap',
        String(limits.memoryBytes),
        '--pids-limit',
        String(processes),
        '--tmpfs',
        `/work:rw,size=${disk - shm},mode=1777`,
        '--shm-size',
        String(shm),
        '-w',
        '/work',
        ...mounts,
        '-e',
        'HOME=/work',
        '-e',
        'TMPDIR=/work',
        '-e',
        'OPENBLAS_NUM_THREADS=1',
        '-e',
        'OMP_NUM_THREADS=1',
        options.image ?? 'python:3-slim',
        ...args,
      ],
    };
  }
  const shown = SYSTEM_BINDS.filter((p) => fs.existsSync(p));
  const binds = shown.flatMap((p) => ['--ro-bind', p, p]);
  // A folder of the platform's inside a shown one (an install under /usr/local, say) is covered by an empty one.
  const covers = hiddenInside(shown, options.hidden ?? []).flatMap((p) => ['--tmpfs', p]);
  const bwrap = [
    // A user namespace of its own in which no further one can be made, and the program as process 1: no process of
    // bubblewrap's is left inside for it to read.
    BWRAP,
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--as-pid-1',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    ...binds,
    ...covers,
    '--symlink',
    'usr/lib',
    '/lib',
    '--symlink',
    'usr/lib64',
    '/lib64',
    '--symlink',
    'usr/bin',
    '/bin',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    // /dev/shm within the quota, and /dev itself read-only (its memory filesystem has no size of its own).
    '--size',
    String(shm),
    '--perms',
    '01777',
    '--tmpfs',
    '/dev/shm',
    '--remount-ro',
    '/dev',
    '--size',
    String(disk - shm),
    '--perms',
    '0777',
    '--tmpfs',
    '/work',
    ...files.flatMap((f) => ['--ro-bind', f.hostPath, `/work/${f.name}`]),
    // Everything but /work and /dev/shm is read-only, bwrap's own root included.
    '--remount-ro',
    '/',
    '--chdir',
    '/work',
    '--clearenv',
    '--setenv',
    'PATH',
    '/usr/bin:/bin',
    '--setenv',
    'HOME',
    '/work',
    '--setenv',
    'TMPDIR',
    '/work',
    '--setenv',
    'LANG',
    'C.UTF-8',
    '--setenv',
    'OPENBLAS_NUM_THREADS',
    '1',
    '--setenv',
    'OMP_NUM_THREADS',
    '1',
    '--setenv',
    'PYTHONDONTWRITEBYTECODE',
    '1',
    '--seccomp',
    String(SECCOMP_FD),
    ...args,
  ];
  // RLIMIT_NPROC counts the processes of a user: as the run's own user, only this program's (root is not held by it).
  const cpu = Math.ceil(limits.timeLimitSec) + 1;
  const prlimit = [PRLIMIT, `--as=${limits.memoryBytes}`, `--nproc=${processes}`, `--fsize=${disk}`, `--cpu=${cpu}`, '--core=0', '--nofile=256', '--'];
  const asRoot = options.asRoot ?? process.getuid?.() === 0;
  const uid = runUid();
  const setpriv = asRoot ? [SETPRIV, `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all'] : [];
  // Joins the run's control groups (while still root) before anything of the program starts, or does not start at all.
  const groups = options.groups ?? [];
  const join = groups.length ? ['/bin/sh', '-c', JOIN_GROUPS, 'sh', String(groups.length), ...groups] : [];
  const all = [...join, ...setpriv, ...prlimit, ...bwrap];
  return { command: all[0]!, args: all.slice(1), env: {} };
}

/**
 * Starts a sandbox command: under bubblewrap the system-call filter is written to SECCOMP_FD, which bubblewrap reads
 * to its end before it starts the program. `detached` gives it a process group of its own.
 */
function startSandbox(runner: ScorerRunner, command: { command: string; args: string[]; env: Record<string, string> }, detached: boolean) {
  const filter = runner === 'bwrap' ? seccompFilter() : null;
  const child = spawn(command.command, command.args, { stdio: ['ignore', 'pipe', 'pipe', ...(filter ? ['pipe' as const] : [])], detached, env: command.env });
  if (filter) {
    const channel = child.stdio[SECCOMP_FD] as NodeJS.WritableStream & { on(e: 'error', f: () => void): void };
    // A chain that fails before reading it (a missing binary) closes it: that failure is reported by the exit.
    channel.on('error', () => undefined);
    channel.end(filter);
  }
  return child;
}

/** Of `hidden`, the existing folders (by their real paths) that lie inside a `shown` one, which they must not be. */
function hiddenInside(shown: string[], hidden: string[]) {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return null;
    }
  };
  const roots = shown.map((p) => real(p) ?? p);
  return [...new Set(hidden.map(real).filter((p): p is string => p !== null))].filter((p) => roots.some((r) => p.startsWith(`${r}/`)));
}

/** `sh -c JOIN_GROUPS sh <n> <group>... <command>...`: the shell puts itself in the n groups, then becomes the command. */
const JOIN_GROUPS = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1/cgroup.procs" || exit 125; shift; n=$((n-1)); done; exec "$@"';

/**
 * Where a run's control groups can be made: the memory (and pids) hierarchies of cgroup v1, under the server's own
 * group, when it may write there (as root). Read once. A group caps what all of a program's processes hold together
 * (memory, its tmpfs included, and processes), which per-process limits cannot. Without one (cgroup v2 gives a
 * service no group it may split without a delegation of its own), each process keeps its own limits and the run its
 * own user; a container runner (SCORER_RUNNER) caps the whole container instead.
 */
export type GroupRoots = { memory: string; pids: string | null };
const GROUP_PREFIX = 'contest-score-';
let groupRoots: GroupRoots | null | undefined;
function findGroupRoots(): GroupRoots | null {
  const writable = (dir: string) => {
    try {
      fs.accessSync(dir, fs.constants.W_OK);
      return true;
    } catch {
      return false;
    }
  };
  let lines: string[];
  try {
    lines = fs.readFileSync('/proc/self/cgroup', 'utf8').trim().split('\n');
  } catch {
    return null;
  }
  // Lines read `id:controllers:path`; the group's path may itself hold colons.
  const own = (controller: string) =>
    lines
      .map((l) => l.split(':'))
      .find(([, list]) => list!.split(',').includes(controller))
      ?.slice(2)
      .join(':');
  const memory = own('memory');
  if (memory === undefined) return null;
  const dir = path.join('/sys/fs/cgroup/memory', memory);
  if (!fs.existsSync(path.join(dir, 'memory.limit_in_bytes')) || !writable(dir)) return null;
  const pids = own('pids');
  const pidsDir = pids === undefined ? null : path.join('/sys/fs/cgroup/pids', pids);
  return { memory: dir, pids: pidsDir && writable(pidsDir) ? pidsDir : null };
}

/** Removes a group (true), or leaves it while a process is in it (false); one already gone counts as removed. */
function removeGroup(dir: string) {
  try {
    fs.rmdirSync(dir);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/**
 * Removes groups of runs that a process ended before removing (killed mid-run, say): empty, and made a minute ago or
 * earlier (a younger one may be a run about to join it). Done once by each process that runs programs.
 */
export function sweepGroups(roots: GroupRoots) {
  const before = Date.now() - 60_000;
  for (const root of [roots.memory, roots.pids]) {
    if (!root) continue;
    for (const name of fs.readdirSync(root).filter((n) => n.startsWith(GROUP_PREFIX))) {
      const dir = path.join(root, name);
      try {
        if (fs.statSync(dir).mtimeMs <= before && fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').trim() === '') removeGroup(dir);
      } catch {
        /* gone meanwhile */
      }
    }
  }
}

/** Where a run's control groups are made here (memory, and processes where that hierarchy is writable), or null. */
export function runGroups(): GroupRoots | null {
  if (groupRoots === undefined) {
    groupRoots = findGroupRoots();
    if (groupRoots) sweepGroups(groupRoots);
  }
  return groupRoots;
}

/**
 * Makes a run's control groups with its limits: memory (no swap) and processes for all its processes together.
 * Answers their directories, a kill of every process in them, and their removal; null where groups cannot be made.
 */
function makeRunGroups(limits: SandboxLimits): { dirs: string[]; kill: () => void; oomKills: () => number; remove: () => Promise<void> } | null {
  if (!runGroups()) return null;
  const roots = groupRoots!;
  const name = `${GROUP_PREFIX}${randomBytes(8).toString('hex')}`;
  const processes = String(limits.processes ?? DEFAULT_PROCESSES);
  const memory = String(limits.memoryBytes);
  const dirs: string[] = [];
  const write = (dir: string, file: string, value: string, optional = false) => {
    try {
      fs.writeFileSync(path.join(dir, file), value);
    } catch (e) {
      if (!optional) throw e;
    }
  };
  const kill = () => {
    for (const dir of dirs) {
      let pids: string[] = [];
      try {
        pids = fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
      } catch {
        /* already gone */
      }
      for (const pid of pids) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          /* already ended */
        }
      }
    }
  };
  // A group is removable once its last process is reaped, which follows the run's end by a moment: the run waits for
  // that (5 s at most; a group left over is swept by the next process to start, see sweepGroups).
  const remove = async () => {
    for (let attempt = 0; dirs.length && attempt < 50; attempt++) {
      if (attempt) {
        kill();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      dirs.splice(0, dirs.length, ...dirs.filter((dir) => !removeGroup(dir)));
    }
  };
  try {
    const mem = path.join(roots.memory, name);
    fs.mkdirSync(mem);
    dirs.push(mem);
    write(mem, 'memory.limit_in_bytes', memory);
    // Swap counted with memory where the kernel accounts it.
    write(mem, 'memory.memsw.limit_in_bytes', memory, true);
    if (roots.pids) {
      const pids = path.join(roots.pids, name);
      fs.mkdirSync(pids);
      dirs.push(pids);
      write(pids, 'pids.max', processes);
    }
  } catch {
    // A group that cannot be set up is no confinement: the run goes on with its per-process limits.
    void remove();
    return null;
  }
  // How many of its processes the kernel killed for the group's memory limit.
  const oomKills = () => {
    try {
      return Number(/^oom_kill (\d+)$/m.exec(fs.readFileSync(path.join(dirs[0]!, 'memory.oom_control'), 'utf8'))?.[1] ?? 0);
    } catch {
      return 0;
    }
  };
  return { dirs, kill, oomKills, remove };
}

type Status = { ok: true } | { ok: false; reason: string };
/** What the last probe of each runner found: a success holds for the process's life, a failure for FAILURE_HOLD_MS. */
const probed = new Map<string, { status: Promise<Status>; at: number }>();
const FAILURE_HOLD_MS = 30_000;

/**
 * Whether programs can run under `runner` here, and if not why (said to the organiser at upload). The sandbox is tried
 * with Python inside it: the binaries may be missing, or user namespaces refused by the kernel. A failure is probed
 * again after FAILURE_HOLD_MS (a sandbox installed meanwhile, a passing shortage), never cached for good.
 */
export function sandboxStatus(runner: ScorerRunner = 'bwrap', image?: string): Promise<Status> {
  const key = `${runner} ${image ?? ''}`;
  const known = probed.get(key);
  if (known && Date.now() - known.at < FAILURE_HOLD_MS) return known.status;
  if (known) {
    const settled = known.status;
    // A success stays; a failure past its hold is probed again.
    return settled.then((s) => (s.ok ? s : reprobe()));
  }
  return reprobe();
  function reprobe() {
    const entry = { status: probe(runner, image), at: Date.now() };
    probed.set(key, entry);
    return entry.status;
  }
}

/** Runs a sandbox command, answering its exit code and output; never rejects (a missing binary is an `error`). */
function run(
  runner: ScorerRunner,
  command: ReturnType<typeof sandboxCommand>,
  timeoutMs: number,
): Promise<{ status: number | null; stdout: string; stderr: string; error?: Error }> {
  return new Promise((resolve) => {
    const child = startSandbox(runner, command, false);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ status: null, stdout, stderr, error });
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

async function probe(runner: ScorerRunner, image?: string): Promise<Status> {
  if (runner === 'bwrap') {
    if (!seccompFilter())
      return { ok: false, reason: `服务器的处理器架构（${process.arch}）没有系统调用过滤规则，无法安全运行评分程序；请使用容器运行时（SCORER_RUNNER）` };
    for (const [file, what] of [
      [BWRAP, '沙箱程序 bubblewrap（/usr/bin/bwrap）'],
      [PYTHON, 'Python（/usr/bin/python3）'],
      [PRLIMIT, '资源限制程序 prlimit'],
    ] as const) {
      if (!fs.existsSync(file)) return { ok: false, reason: `服务器未安装${what}，无法安全运行评分程序` };
    }
    if (process.getuid?.() === 0 && !fs.existsSync(SETPRIV)) return { ok: false, reason: '服务器未安装 setpriv，无法以非特权用户运行评分程序' };
  }
  const command = sandboxCommand(
    runner,
    [],
    [runner === 'bwrap' ? PYTHON : 'python3', '-c', 'print(1)'],
    { timeLimitSec: 20, memoryBytes: DEFAULT_MEMORY_BYTES },
    { image },
  );
  const r = await run(runner, command, 60_000);
  if (r.error) return { ok: false, reason: `无法启动评分沙箱（${runner}）：${r.error.message}` };
  if (r.status !== 0 || r.stdout.trim() !== '1') return { ok: false, reason: `评分沙箱（${runner}）无法运行：${(r.stderr || r.stdout).trim().slice(0, 200)}` };
  return { ok: true };
}

/**
 * Runs `args` (e.g. `python3 score.py answer.csv prediction.csv`) in a fresh sandbox whose working directory holds
 * `files` (read-only copies of host files, by the names given) and whatever the program writes there. Resolves when it
 * has ended or been killed; never rejects for what the program does.
 */
export async function runSandboxed(
  files: { name: string; hostPath: string }[],
  args: string[],
  limits: SandboxLimits,
  options: { runner?: ScorerRunner; image?: string; hidden?: string[] } = {},
): Promise<SandboxRun> {
  const runner = options.runner ?? 'bwrap';
  const status = await sandboxStatus(runner, options.image);
  if (!status.ok) throw new Error(status.reason);
  for (const f of files) {
    if (!/^[\w.-]+(\/[\w.-]+)*$/.test(f.name) || f.name.split('/').includes('..')) throw new Error(`bad file name in sandbox: ${f.name}`);
    // Readable by the unprivileged user the program runs as, whoever owns the host's copy (the run's folder is 0711:
    // nobody can list it, and its name is random). A folder of the program's own is listable, as Python's imports need.
    fs.chmodSync(f.hostPath, fs.statSync(f.hostPath).isDirectory() ? 0o755 : 0o644);
  }
  // A container is named, so that at the time limit the container itself is killed, not only its client.
  const name = runner === 'bwrap' ? undefined : `contest-score-${randomBytes(8).toString('hex')}`;
  // A container is its own group; under bubblewrap the run gets control groups of its own where they can be made.
  const groups = runner === 'bwrap' ? makeRunGroups(limits) : null;
  const command = sandboxCommand(runner, files, args, limits, { image: options.image, name, groups: groups?.dirs, hidden: options.hidden });
  const started = performance.now();
  return new Promise((resolve) => {
    // Its own process group: at the time limit the group is killed, and bubblewrap's --die-with-parent and its own PID
    // namespace take every process the program started with it.
    const child = startSandbox(runner, command, true);
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
      if (name) spawn(runner, ['kill', name], { stdio: 'ignore', env: command.env }).on('error', () => undefined);
      groups?.kill();
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
    child.stdout!.on('data', take(out));
    child.stderr!.on('data', take(err));
    child.on('error', (e) => {
      err.push(Buffer.from(String(e)));
    });
    child.on('close', async (code, signal) => {
      clearTimeout(timer);
      const memoryExceeded = (groups?.oomKills() ?? 0) > 0;
      await groups?.remove();
      resolve({
        exitCode: code,
        signal,
        timedOut,
        outputCapped,
        memoryExceeded,
        stdout: out.toString(),
        stderr: err.toString(),
        seconds: (performance.now() - started) / 1000,
      });
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
