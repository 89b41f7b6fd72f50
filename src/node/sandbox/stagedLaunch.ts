/**
 * The launcher of a staged command (Linux): a user namespace with a mount namespace of its own, where the
 * workspace is covered by an overlay whose upper layer is the step's (stagingLayers.ts), then bubblewrap
 * in it, exactly as without staging. In order:
 *   1. `unshare --user --map-root-user --mount` (and `--net` when the granted network is the command's own,
 *      ownNetwork.ts) — mounts need a namespace the command's creator owns; root needs only `--mount`
 *      (`launchNamespaces`), and then files owned by other users can be written as outside;
 *   2. a fixed shell script opens the workspace as a file descriptor and mounts the overlay with
 *      `lowerdir=/proc/self/fd/7` — no path of the user's ever appears in mount options, where `,` and `:`
 *      would split it (the layer's own folders are ours, and stagingLayers.ts keeps their names plain);
 *   3. it closes that descriptor (one left open would reach the real workspace around the overlay) and
 *      `exec`s the rest of its arguments: `prlimit` with the per-command limits, then bubblewrap, which
 *      binds the workspace — now the overlay — as the spec says, with the user's own ids inside.
 * Propagation is private (unshare's default): the overlay is never seen outside the command's namespaces,
 * and it goes with them when the command ends. A mount that fails stops the command before it starts:
 * exit 125 with a line saying so (STAGING_FAILED).
 */
import * as os from 'node:os';
import { err, ok, type Result } from '../../core/contracts/result';
import { hostTool } from './hostTools';

/** The line a launcher prints when the overlay could not be mounted (the runner turns it into a refusal). */
const STAGING_FAILED = 'plan-execute: the staging layer could not be mounted';

export interface StagedLayer {
  /** The workspace root (absolute, real). */
  root: string;
  upper: string;
  work: string;
  /** A layer under `upper` (the step's), for a command that writes a scratch layer over it. */
  over?: string;
}

/** Per-command resource limits (each named when a command hits it). */
export interface CommandLimits {
  /** RLIMIT_NPROC: processes and threads of the command together. */
  processes: number;
  /** RLIMIT_DATA, bytes: writable memory of one process. */
  dataBytes: number;
  /** RLIMIT_FSIZE, bytes: the largest file one process may write. */
  fileBytes: number;
}

const GIB = 1024 ** 3;

function commandLimits(): CommandLimits {
  return {
    processes: 8192,
    dataBytes: Math.max(2 * GIB, Math.min(32 * GIB, Math.floor((os.totalmem() * 3) / 4))),
    fileBytes: 16 * GIB,
  };
}

const SCRIPT = [
  'root=$1 upper=$2 work=$3 over=$4 mnt=$5',
  'shift 5',
  `fail() { echo "${STAGING_FAILED}: $1" >&2; exit 125; }`,
  'exec 7<"$root" || fail "the workspace could not be opened"',
  'lower=/proc/self/fd/7',
  'if [ -n "$over" ]; then lower=$over:$lower; fi',
  '"$mnt" -t overlay overlay -o "lowerdir=$lower,upperdir=$upper,workdir=$work,userxattr" "$root" || fail "overlayfs refused the mount"',
  'exec 7<&-',
  'exec "$@"',
].join('\n');

/** The command line of a staged command. */
interface Launch {
  file: string;
  args: string[];
}

/** Why a staged command cannot be launched here (a host tool missing). */
interface LaunchUnavailable {
  reason: string;
}

/**
 * The namespaces the overlay is mounted in. A user that is not root needs a user namespace of its own,
 * which maps only its own ids: a file owned by anyone else cannot be copied up into the layer (the copy
 * keeps its owner, who has no id there: EOVERFLOW). Root mounts the overlay in a mount namespace alone, so
 * every owner is kept — except with a network of its own, which must be owned by a user namespace
 * (slirp4netns joins it): there the one-id mapping stays.
 */
function launchNamespaces(ownNetwork: boolean, uid: number | undefined = process.getuid?.()): string[] {
  if (uid === 0 && !ownNetwork) return ['--mount'];
  return ['--user', '--map-root-user', '--mount', ...(ownNetwork ? ['--net'] : [])];
}

/** The command line that runs `rest` (prlimit, bubblewrap and the command) over the staged workspace. */
export function stagedLauncher(
  layer: StagedLayer,
  ownNetwork: boolean,
  rest: readonly string[],
  limits: CommandLimits = commandLimits(),
): Result<Launch, LaunchUnavailable> {
  const unshare = hostTool('unshare');
  const mount = hostTool('mount');
  const sh = hostTool('sh');
  if (!unshare || !mount || !sh) return err({ reason: 'util-linux (unshare, mount) is not installed' });
  const prlimit = hostTool('prlimit');
  const limited = prlimit ? [prlimit, `--nproc=${limits.processes}`, `--data=${limits.dataBytes}`, `--fsize=${limits.fileBytes}`, '--', ...rest] : [...rest];
  return ok({
    file: unshare,
    args: [...launchNamespaces(ownNetwork), '--', sh, '-c', SCRIPT, 'sh', layer.root, layer.upper, layer.work, layer.over ?? '', mount, ...limited],
  });
}
