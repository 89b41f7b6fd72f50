/**
 * Linux: the checked spec as bubblewrap's mounts (bwrapArgs.ts), passed on fd 3, with a seccomp filter on
 * fd 6 where one exists for the architecture. Three ways to start it: over a staging layer (stagedLaunch.ts:
 * the overlay is mounted first, in a namespace of its own), inside a network of its own (ownNetwork.ts:
 * `unshare`, then slirp4netns started by the runner), or bubblewrap alone.
 */
import * as fs from 'node:fs';
import { err, ok, type Result } from '../../core/contracts/result';
import { bwrapOptions } from './bwrapArgs';
import { bwrapPath, ownNetworkTools } from './detect';
import { ownNetworkLauncher, ownResolver } from './ownNetwork';
import type { Launched, PlatformLauncher } from './platformLauncher';
import { PRELOAD_AT, renameShim } from './renameShim';
import { keyringFilter, SECCOMP_FD } from './seccomp';
import { stagedLauncher } from './stagedLaunch';
import { stagingBase } from './stagingLayers';

let shimSaid = false;

/** A staged command's rename helper (renameShim.ts), or a note once per process saying why there is none. */
function preloadFor(root: string, notes: string[]): { preload?: { from: string; at: string } } {
  const probe = stagingBase(root);
  const shim = probe.ok ? renameShim(probe.value) : probe;
  if (shim.ok) return { preload: { from: shim.value, at: PRELOAD_AT } };
  if (!shimSaid)
    notes.push(
      `${shim.error.reason}: a folder the workspace holds cannot be renamed in place here (EXDEV) — \`mv\` copies it instead, \`git mv\` of a folder fails`,
    );
  shimSaid = true;
  return {};
}

/** Where /etc/resolv.conf really lives when it is a link (systemd-resolved): that file must be visible too. */
function resolvConfTarget(): string[] {
  try {
    const real = fs.realpathSync.native('/etc/resolv.conf');
    return real === '/etc/resolv.conf' ? [] : [real];
  } catch {
    // Fail closed: no resolv.conf (or an unreadable one) means nothing more is shown; name lookups may fail, nothing widens.
    return [];
  }
}

/** `ownNetwork`: the machine can give a granted network of the command's own (slirp4netns; detect.ts). */
export function bubblewrapLauncher(ownNetwork: boolean): PlatformLauncher {
  return {
    binds: true,
    stages: true,
    launch(spec, notes, staged): Result<Launched, string> {
      const bwrap = bwrapPath();
      if (bwrap === undefined) return err('bubblewrap disappeared');
      const netTools = spec.network && ownNetwork ? ownNetworkTools() : undefined;
      // Fail closed: a network of its own was promised on the card; without slirp4netns the command does not run on the host's.
      if (spec.network && ownNetwork && netTools === undefined) return err('slirp4netns disappeared');
      const resolver = netTools ? ownResolver(spec.own.dir) : undefined;
      const seccomp = keyringFilter();
      if (seccomp === undefined) notes.push(`no seccomp filter for ${process.arch}: the kernel keyrings stay reachable`);
      if (resolver?.note) notes.push(resolver.note);
      const ids = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
      const options = bwrapOptions({
        root: spec.root,
        writable: [...spec.writable, ...spec.pinned],
        readOnly: spec.readOnly,
        privateOutputs: spec.privateOutputs,
        hidden: spec.hidden,
        hiddenOutside: spec.hiddenOutside,
        visibleOutside: spec.visibleOutside,
        writableOutside: spec.writableOutside,
        readOnlyOutside: spec.readOnlyOutside,
        network: spec.network,
        home: spec.home ? { at: spec.home, from: spec.own.home } : undefined,
        tmp: spec.own.tmp,
        networkFiles: resolvConfTarget(),
        cwd: spec.cwd,
        ...(netTools && resolver ? { ownNetwork: { ...ids, resolver: { from: resolver.from, at: resolver.at } } } : {}),
        ...(staged ? { keepIds: ids } : {}),
        ...(staged ? preloadFor(spec.root, notes) : {}),
        ...(seccomp ? { seccompFd: SECCOMP_FD } : {}),
      });
      // The options travel on fd 3: a long list of mounts must not hit the kernel's argv limit.
      const fd3 = Buffer.from(`${options.join('\0')}\0`);
      const extra = { fd3, ...(seccomp ? { seccomp } : {}), ...(netTools ? { ownNetwork: { slirp4netns: netTools.slirp4netns } } : {}) };
      const command = ['--args', '3', '--', ...spec.argv];
      if (staged) {
        // The layer's root folder stands for the workspace root inside: it shows the root's own mode.
        fs.chmodSync(staged.upper, fs.statSync(spec.root).mode & 0o7777);
        const launch = stagedLauncher({ ...staged, root: spec.root }, netTools !== undefined, [bwrap, ...command]);
        return launch.ok ? ok({ file: launch.value.file, args: launch.value.args, ...extra }) : err(launch.error.reason);
      }
      if (netTools) {
        const launcher = ownNetworkLauncher(netTools.unshare, bwrap);
        return ok({ file: launcher.file, args: [...launcher.args, ...command], ...extra });
      }
      return ok({ file: bwrap, args: command, ...extra });
    },
  };
}
