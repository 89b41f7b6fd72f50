/**
 * Which OS sandbox this machine offers: bubblewrap on Linux (found, then tried once — user namespaces can
 * be switched off by the kernel or an AppArmor policy), Seatbelt (`sandbox-exec`) on macOS, none on
 * Windows. The answer is cached per process and binary: it is asked before every command.
 * `PLAN_EXECUTE_BWRAP` names another bubblewrap binary (packagers, tests of the missing case).
 * A granted network gets a network stack of its own when slirp4netns and util-linux's `unshare` are there
 * (ownNetwork.ts); `PLAN_EXECUTE_SLIRP4NETNS` names another slirp4netns (a missing path: the host's network).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import type { SandboxSupport } from '../../core/contracts/sandbox';
import { hostTool } from './hostTools';

const LINUX_REMEDY =
  'Install bubblewrap (Debian/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap), ' +
  'or set planExecute.sandbox (CLI: --sandbox) to prefer, so that you approve every command that runs unconfined.';

const cache = new Map<string, SandboxSupport>();

/**
 * A system program by absolute path (hostTools.ts): never found through PATH, where a workspace folder
 * can sit and a step may have written a `bwrap` of its own.
 */
function onPath(name: string): string | undefined {
  return hostTool(name);
}

/** slirp4netns and unshare, when both are installed: a granted network can then be the command's own. */
export function ownNetworkTools(): { slirp4netns: string; unshare: string } | undefined {
  const override = process.env.PLAN_EXECUTE_SLIRP4NETNS;
  const slirp4netns =
    override !== undefined && override !== ''
      ? override
      : (['/usr/bin/slirp4netns', '/bin/slirp4netns'].find((p) => fs.existsSync(p)) ?? onPath('slirp4netns'));
  const unshare = ['/usr/bin/unshare', '/bin/unshare'].find((p) => fs.existsSync(p)) ?? onPath('unshare');
  return slirp4netns !== undefined && fs.existsSync(slirp4netns) && unshare !== undefined ? { slirp4netns, unshare } : undefined;
}

/** The bubblewrap binary to use, or undefined when there is none. */
export function bwrapPath(): string | undefined {
  const override = process.env.PLAN_EXECUTE_BWRAP;
  if (override !== undefined && override !== '') return override;
  return ['/usr/bin/bwrap', '/bin/bwrap'].find((p) => fs.existsSync(p)) ?? onPath('bwrap');
}

function probeBwrap(bwrap: string): SandboxSupport {
  if (!fs.existsSync(bwrap)) return { available: false, reason: `bubblewrap (bwrap) is not installed (looked for ${bwrap})`, remedy: LINUX_REMEDY };
  const probe = spawnSync(
    bwrap,
    ['--unshare-user', '--disable-userns', '--unshare-pid', '--unshare-net', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--', 'true'],
    {
      encoding: 'utf8',
      timeout: 10_000,
      env: { PATH: '/usr/bin:/bin' },
    },
  );
  if (probe.status === 0) {
    const version = spawnSync(bwrap, ['--version'], { encoding: 'utf8', timeout: 5000 }).stdout?.trim() || 'bubblewrap';
    const own = ownNetworkTools();
    return {
      available: true,
      kind: 'bubblewrap',
      detail: `${version} (${bwrap})${own ? `; granted network: its own (${own.slirp4netns})` : ''}`,
      ownNetwork: own !== undefined,
    };
  }
  const why = (probe.stderr || probe.error?.message || `exit ${probe.status ?? probe.signal}`).trim().split('\n')[0] ?? '';
  return {
    available: false,
    reason: `bubblewrap cannot create a sandbox here: ${why}`,
    remedy:
      'Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu 24.04+ an AppArmor profile for bwrap), or set planExecute.sandbox (CLI: --sandbox) to prefer.',
  };
}

export function detectSandbox(platform: NodeJS.Platform = process.platform): SandboxSupport {
  if (platform === 'linux') {
    const bwrap = bwrapPath();
    if (bwrap === undefined) return { available: false, reason: 'bubblewrap (bwrap) is not installed', remedy: LINUX_REMEDY };
    const key = `${bwrap}\u0000${process.env.PLAN_EXECUTE_SLIRP4NETNS ?? ''}`;
    const known = cache.get(key);
    if (known) return known;
    const found = probeBwrap(bwrap);
    cache.set(key, found);
    return found;
  }
  if (platform === 'darwin') {
    return fs.existsSync('/usr/bin/sandbox-exec')
      ? { available: true, kind: 'seatbelt', detail: 'sandbox-exec (/usr/bin/sandbox-exec)' }
      : { available: false, reason: '/usr/bin/sandbox-exec is missing', remedy: 'Set planExecute.sandbox (CLI: --sandbox) to prefer.' };
  }
  return {
    available: false,
    reason: `there is no supported OS sandbox on ${platform === 'win32' ? 'Windows' : platform} yet`,
    remedy: 'Set planExecute.sandbox (CLI: --sandbox) to prefer: every command then waits for your approval and runs unconfined.',
  };
}
