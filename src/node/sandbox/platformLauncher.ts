/**
 * One interface for the platforms' sandboxes: what a launcher is given (the spec already checked on disk by
 * confinedRun.ts, as absolute paths, with the command's private folders) and what it returns — the process
 * to spawn, or why it cannot be confined here. bubblewrapLauncher.ts (Linux) and seatbeltLauncher.ts
 * (macOS) implement it; confinedRun.ts picks one by the machine's SandboxSupport and owns the clean-up.
 */
import type { Result } from '../../core/contracts/result';
import type { PrivateDirs } from './privateDirs';
import type { PreparedOutputs } from './privateOutputs';
import type { StagedLayer } from './stagedLaunch';

type Existing = { path: string; kind: 'file' | 'directory' };

/** The spec as it stands on this machine: real, absolute paths that exist (writable ones made to). */
export interface CheckedSpec {
  /** The workspace root (real) and the working directory inside it (real). */
  root: string;
  cwd: string;
  argv: readonly string[];
  writable: string[];
  /** Folders pinned writable in place so a kept path inside cannot be renamed away (bind-capable launchers only). */
  pinned: string[];
  readOnly: string[];
  hidden: Existing[];
  hiddenOutside: Existing[];
  visibleOutside: string[];
  writableOutside: string[];
  readOnlyOutside: string[];
  /** Private, writable copies of build outputs (bind-capable launchers only). */
  privateOutputs: PreparedOutputs['mounts'];
  network: boolean;
  /** The user's real home, where the private home is mounted in its place (bind-capable launchers only). */
  home: string | undefined;
  own: PrivateDirs;
  /** The command's environment, HOME and the temp variables set where the launcher shows them. */
  env: Record<string, string>;
}

/** The process to spawn: the platform's wrapper, its arguments and what it reads on extra descriptors. */
export interface Launched {
  file: string;
  args: string[];
  /** NUL-separated arguments bubblewrap reads from file descriptor 3 (`--args 3`), when set. */
  fd3?: Buffer;
  /** The seccomp filter bubblewrap reads on fd 6 (seccomp.ts), when set. */
  seccomp?: Buffer;
  /** Set when the granted network is the command's own: the runner starts slirp4netns (ownNetwork.ts). */
  ownNetwork?: { slirp4netns: string };
}

export interface PlatformLauncher {
  /**
   * Whether the platform binds paths (bubblewrap): a private HOME at the home's own path and a private /tmp,
   * private copies of build outputs, pinned folders, empty folders left unhidden. Seatbelt only allows or
   * denies paths: HOME and TMPDIR point at the private folders, and build outputs stay read-only.
   */
  readonly binds: boolean;
  /** Whether it can write a staging layer over the workspace. */
  readonly stages: boolean;
  /** `notes` collects what the launcher had to narrow (shown above the command's output). */
  launch(spec: CheckedSpec, notes: string[], staged?: Omit<StagedLayer, 'root'>): Result<Launched, string>;
}
