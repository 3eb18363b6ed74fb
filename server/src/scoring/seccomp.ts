/**
 * The system-call filter organisers' programs run under (issue 32): a classic BPF program that bubblewrap loads
 * (`--seccomp FD`) just before it starts the program, so that the program and everything it starts cannot:
 * - make namespaces or mounts: `unshare`, `setns`, `clone` with any CLONE_NEW* flag, `mount` and the new mount API,
 *   `pivot_root`, `chroot` (a user namespace of its own would give it every capability inside, and the kernel's
 *   code behind them is where sandbox escapes have come from);
 * - reach the kernel's riskier interfaces: `bpf`, `perf_event_open`, `userfaultfd`, `io_uring_*`, keyrings, `ptrace`
 *   and other processes' memory, file handles, modules, `kexec`, `reboot`, swap, clocks, accounting, `fanotify`;
 * - hold memory outside its limits: `memfd_create` and System V shared memory and message queues, whose pages no
 *   address-space limit counts.
 * Those answer EPERM (what a container's default profile answers), `clone3`, whose flags a filter cannot read, ENOSYS
 * (the C library then falls back to `clone`, which is checked), and a call of another architecture's table (x32 or
 * i386 on x86-64) ends the process. Everything else, which Python, NumPy, pandas and scikit-learn use, is allowed.
 */

/** The tables this filter knows; another architecture gets no filter, and no programs run (sandbox.ts says why). */
type Arch = 'x64' | 'arm64';

const AUDIT_ARCH: Record<Arch, number> = { x64: 0xc000003e, arm64: 0xc00000b7 };

/** Denied calls with EPERM, by their number on x86-64 and on arm64 (the generic table). */
const DENIED: [name: string, x64: number, arm64: number][] = [
  ['unshare', 272, 97],
  ['setns', 308, 268],
  ['mount', 165, 40],
  ['umount2', 166, 39],
  ['pivot_root', 155, 41],
  ['chroot', 161, 51],
  ['open_tree', 428, 428],
  ['move_mount', 429, 429],
  ['fsopen', 430, 430],
  ['fsconfig', 431, 431],
  ['fsmount', 432, 432],
  ['fspick', 433, 433],
  ['mount_setattr', 442, 442],
  ['bpf', 321, 280],
  ['perf_event_open', 298, 241],
  ['userfaultfd', 323, 282],
  ['io_uring_setup', 425, 425],
  ['io_uring_enter', 426, 426],
  ['io_uring_register', 427, 427],
  ['keyctl', 250, 219],
  ['add_key', 248, 217],
  ['request_key', 249, 218],
  ['ptrace', 101, 117],
  ['process_vm_readv', 310, 270],
  ['process_vm_writev', 311, 271],
  ['pidfd_getfd', 438, 438],
  ['kcmp', 312, 272],
  ['name_to_handle_at', 303, 264],
  ['open_by_handle_at', 304, 265],
  ['init_module', 175, 105],
  ['finit_module', 313, 273],
  ['delete_module', 176, 106],
  ['kexec_load', 246, 104],
  ['kexec_file_load', 320, 294],
  ['reboot', 169, 142],
  ['swapon', 167, 224],
  ['swapoff', 168, 225],
  ['acct', 163, 89],
  ['quotactl', 179, 60],
  ['quotactl_fd', 443, 443],
  ['syslog', 103, 116],
  ['settimeofday', 164, 170],
  ['clock_settime', 227, 112],
  ['clock_adjtime', 305, 266],
  ['fanotify_init', 300, 262],
  ['vhangup', 153, 58],
  ['lookup_dcookie', 212, 18],
  ['memfd_create', 319, 279],
  ['memfd_secret', 447, 447],
  ['shmget', 29, 194],
  ['msgget', 68, 186],
];
const CLONE: Record<Arch, number> = { x64: 56, arm64: 220 };
const CLONE3 = 435;
/** CLONE_NEWTIME, NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET. */
const CLONE_NEW_ANY = 0x80 | 0x20000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000;
/** On x86-64, calls of the x32 table carry this bit. */
const X32_BIT = 0x40000000;

const EPERM = 1;
const ENOSYS = 38;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const RET_ALLOW = 0x7fff0000;

// Classic BPF opcodes (linux/filter.h) and the offsets of struct seccomp_data's fields (little-endian machines).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;
const DATA_NR = 0;
const DATA_ARCH = 4;
const DATA_ARG0_LOW = 16;

type Label = 'allow' | 'eperm' | 'enosys';
/** Where a jump goes: a labelled instruction, or that many instructions ahead. */
type Target = Label | number;
type Insn = { code: number; k: number; jt?: Target; jf?: Target; label?: Label };

export const seccompArch = (arch: string = process.arch): Arch | null => (arch === 'x64' || arch === 'arm64' ? arch : null);

/** The filter as bubblewrap reads it (`struct sock_filter[]`), for `arch`; null for an architecture it does not know. */
export function seccompFilter(arch: string = process.arch): Buffer | null {
  const a = seccompArch(arch);
  if (!a) return null;
  const program: Insn[] = [
    { code: LD_W_ABS, k: DATA_ARCH },
    // Another architecture's calls have other numbers: the only safe answer is to end the process.
    { code: JEQ_K, k: AUDIT_ARCH[a], jt: 1 },
    { code: RET_K, k: RET_KILL_PROCESS },
    { code: LD_W_ABS, k: DATA_NR },
    ...(a === 'x64' ? [{ code: JGE_K, k: X32_BIT, jt: 'enosys' as const }] : []),
    ...DENIED.map(([, x64, arm64]) => ({ code: JEQ_K, k: a === 'x64' ? x64 : arm64, jt: 'eperm' as const })),
    { code: JEQ_K, k: CLONE3, jt: 'enosys' },
    { code: JEQ_K, k: CLONE[a], jf: 'allow' },
    // clone: its flags are its first argument, and every CLONE_NEW* flag is in their low 32 bits.
    { code: LD_W_ABS, k: DATA_ARG0_LOW },
    { code: JSET_K, k: CLONE_NEW_ANY, jt: 'eperm', jf: 'allow' },
    { code: RET_K, k: RET_ALLOW, label: 'allow' },
    { code: RET_K, k: RET_ERRNO | EPERM, label: 'eperm' },
    { code: RET_K, k: RET_ERRNO | ENOSYS, label: 'enosys' },
  ];
  const at = new Map(program.flatMap((insn, i) => (insn.label ? [[insn.label, i] as const] : [])));
  const out = Buffer.alloc(program.length * 8);
  program.forEach((insn, i) => {
    const offset = (target: Target | undefined) => {
      const d = target === undefined ? 0 : typeof target === 'number' ? target : at.get(target)! - i - 1;
      if (d < 0 || d > 255) throw new Error('seccomp jump out of range');
      return d;
    };
    const [jt, jf] = [offset(insn.jt), offset(insn.jf)];
    out.writeUInt16LE(insn.code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(insn.k >>> 0, i * 8 + 4);
  });
  return out;
}

/** The names of the calls the filter refuses with EPERM (documentation and tests). */
export const DENIED_CALLS = DENIED.map(([name]) => name);
