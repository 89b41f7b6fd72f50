/**
 * The seccomp filter every sandboxed command runs under (bubblewrap's `--seccomp FD`): the kernel keyring
 * calls (`add_key`, `request_key`, `keyctl`) fail with EPERM, as Docker's default profile has them. The
 * session keyring is shared with the process that started us — the CLI's terminal session, the user's
 * desktop session — and a command could read (or plant) keys there. Everything else is allowed: the
 * sandbox's namespaces and mounts do the rest.
 *
 * The program is classic BPF over `struct seccomp_data` (nr at offset 0, arch at 4), written out here:
 * per architecture, each listed call number (and its x32 twin on x86-64) returns ERRNO(EPERM); an unknown
 * architecture is allowed (the filter cannot name its calls), which `keyringFilter` reports as undefined.
 */

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_EPERM = 0x00050000 | 1;

const AUDIT_ARCH_X86_64 = 0xc000003e;
const AUDIT_ARCH_AARCH64 = 0xc00000b7;
const X32_BIT = 0x40000000;

/** add_key, request_key, keyctl, per architecture. */
const KEY_CALLS: Record<string, { arch: number; calls: number[] }> = {
  x64: { arch: AUDIT_ARCH_X86_64, calls: [248, 249, 250, 248 | X32_BIT, 249 | X32_BIT, 250 | X32_BIT] },
  arm64: { arch: AUDIT_ARCH_AARCH64, calls: [217, 218, 219] },
};

interface Insn {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

function encode(program: Insn[]): Buffer {
  const out = Buffer.alloc(program.length * 8);
  program.forEach((insn, i) => {
    out.writeUInt16LE(insn.code, i * 8);
    out.writeUInt8(insn.jt, i * 8 + 2);
    out.writeUInt8(insn.jf, i * 8 + 3);
    out.writeUInt32LE(insn.k >>> 0, i * 8 + 4);
  });
  return out;
}

/** The filter for this machine's architecture, or undefined where it has no table here. */
export function keyringFilter(arch: string = process.arch): Buffer | undefined {
  const table = KEY_CALLS[arch];
  if (table === undefined) return undefined;
  const n = table.calls.length;
  // 0: load arch; 1: wrong arch → allow (jump to the last); 2: load nr; 3..: each call → EPERM; then allow; EPERM.
  const program: Insn[] = [
    { code: LD_W_ABS, jt: 0, jf: 0, k: 4 },
    { code: JEQ_K, jt: 0, jf: n + 1, k: table.arch },
    { code: LD_W_ABS, jt: 0, jf: 0, k: 0 },
    ...table.calls.map((nr, i): Insn => ({ code: JEQ_K, jt: n - i, jf: 0, k: nr })),
    { code: RET_K, jt: 0, jf: 0, k: RET_ALLOW },
    { code: RET_K, jt: 0, jf: 0, k: RET_EPERM },
  ];
  return encode(program);
}

/** The file descriptor the runner hands the filter to bubblewrap on. */
export const SECCOMP_FD = 6;
