/**
 * The Seatbelt (macOS `sandbox-exec`) profile for one sandbox spec. Pure text, unit-tested; it cannot be
 * run on the Linux machines the project is tested on, so the tests check the profile's structure.
 *
 * Design: `(deny default)`, then only `allow` rules, each an exact description of what it grants — an
 * exception is written as `require-not` inside the allow, never as a separate deny, so the outcome never
 * depends on SBPL's rule precedence. What it grants:
 *   - processes: exec and fork; signals and process info only within this sandbox;
 *   - reads: everything except the hidden areas outside the workspace (home, /Users, /Volumes, the
 *     workspace's neighbours) and the hidden workspace entries; toolchains on PATH shown again;
 *   - writes: the writable workspace paths minus their read-only and hidden entries, the private HOME and
 *     temp directory, and the terminal devices;
 *   - network: loopback only, unless the step's authority grants the network;
 *   - Mach services: the few that name lookup, logging, notifications and certificate checks need
 *     (never the keychain's securityd).
 * Unlike Linux there is no PID namespace: the runner kills the command's process group, but a daemon that
 * moved to its own session (setsid) is not found; docs/sandbox.md ("Platforms") says so.
 */
import { isBelow, isWithin } from '../../core/primitives/paths';
export interface SeatbeltPaths {
  root: string;
  /** All absolute and real (macOS: /private/tmp, not /tmp). */
  writable: string[];
  readOnly: string[];
  hidden: string[];
  hiddenOutside: string[];
  visibleOutside: string[];
  writableOutside?: string[];
  readOnlyOutside?: string[];
  network: boolean;
  privateHome: string;
  privateTmp: string;
}

/** An SBPL string literal. */
export function sbplString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const subpath = (p: string): string => `(subpath ${sbplString(p)})`;
const notUnder = (paths: readonly string[]): string[] => paths.map((p) => `(require-not ${subpath(p)})`);

function allowWhere(operation: string, base: string, exceptions: readonly string[]): string {
  return exceptions.length === 0 ? `(allow ${operation} ${base})` : `(allow ${operation} (require-all ${base}\n    ${notUnder(exceptions).join('\n    ')}))`;
}

const MACH_SERVICES = [
  'com.apple.system.logger',
  'com.apple.logd',
  'com.apple.diagnosticd',
  'com.apple.system.notification_center',
  'com.apple.system.opendirectoryd.libinfo',
  'com.apple.system.opendirectoryd.membership',
  'com.apple.bsd.dirhelper',
  'com.apple.trustd.agent',
  'com.apple.coreservices.launchservicesd',
  'com.apple.lsd.mapdb',
  'com.apple.FontObjectsServer',
  'com.apple.fonts',
  'com.apple.PowerManagement.control',
];

export function seatbeltProfile(p: SeatbeltPaths): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow user-preference-read)',
    '(allow ipc-posix-shm)',
    '(allow ipc-posix-sem)',
    '(allow pseudo-tty)',
    '(allow file-read-metadata)',
    `(allow mach-lookup ${MACH_SERVICES.map((s) => `(global-name ${sbplString(s)})`).join(' ')})`,
    // Reads: the machine, minus hidden areas and hidden workspace entries.
    allowWhere('file-read*', subpath('/'), [...p.hiddenOutside, ...p.hidden]),
  ];
  // Toolchains inside a hidden area, without the secrets found in their roots.
  for (const dir of p.visibleOutside)
    lines.push(
      allowWhere(
        'file-read*',
        subpath(dir),
        p.hiddenOutside.filter((h) => isBelow(h, dir)),
      ),
    );
  // The workspace may itself lie inside a hidden area (a project under the home).
  if (p.hiddenOutside.some((h) => isWithin(p.root, h))) lines.push(allowWhere('file-read*', subpath(p.root), p.hidden));
  lines.push(allowWhere('file-read*', subpath(p.privateHome), []), allowWhere('file-read*', subpath(p.privateTmp), []));

  // Writes: writable paths minus read-only and hidden entries inside them; the private places; devices.
  for (const w of p.writable)
    lines.push(
      allowWhere(
        'file-write*',
        subpath(w),
        [...p.readOnly, ...p.hidden].filter((x) => isWithin(x, w)),
      ),
    );
  for (const w of p.writableOutside ?? [])
    lines.push(
      allowWhere(
        'file-write*',
        subpath(w),
        (p.readOnlyOutside ?? []).filter((x) => isWithin(x, w)),
      ),
    );
  lines.push(
    allowWhere('file-write*', subpath(p.privateHome), []),
    allowWhere('file-write*', subpath(p.privateTmp), []),
    '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper"))',
    '(allow file-ioctl (literal "/dev/tty") (literal "/dev/null"))',
  );
  if (p.network) {
    lines.push('(allow network*)', '(allow mach-lookup (global-name "com.apple.dnssd.service") (global-name "com.apple.SystemConfiguration.configd"))');
  } else {
    lines.push('(allow network* (remote ip "localhost:*"))', '(allow network* (local ip "localhost:*"))');
  }
  return `${lines.join('\n')}\n`;
}

/** The sandbox-exec command line: the profile goes inline, argv untouched after `--`. */
export function seatbeltArgs(profile: string, argv: readonly string[]): { file: string; args: string[] } {
  return { file: '/usr/bin/sandbox-exec', args: ['-p', profile, '--', ...argv] };
}
