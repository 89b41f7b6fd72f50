/**
 * The OS sandbox contract: what a command may touch, as pure data derived from the step's authority
 * (src/core/policy/sandboxSpec.ts builds it), and what the platform runners (src/node/sandbox) must enforce.
 * Direction: core → Terminal port → runner. The runner adds nothing the spec does not say, except the
 * private HOME and temp directory it creates for each command and removes afterwards.
 */
import { z } from 'zod';

/**
 * `required`: a command runs only inside the sandbox (refused where none exists, saying what to install).
 * `prefer`: inside the sandbox where one exists; elsewhere it runs unconfined, but only after the user
 * approves that command, whatever the approval mode. `off`: no sandbox (still marked in cards and trace).
 */
export const SandboxModeSchema = z.enum(['required', 'prefer', 'off']);

/** A path inside the workspace (workspace-relative, POSIX) that a mount covers. */
const EntrySchema = z.object({ path: z.string(), kind: z.enum(['file', 'directory']) });

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the type's one source (z.infer); nothing parses it at run time
const SandboxSpecSchema = z.object({
  /** Absolute, real path of the workspace root. Everything under it is readable unless hidden. */
  root: z.string(),
  /**
   * Workspace entries the command may write ('' = the whole workspace), from the step's write scope.
   * A missing one is created empty (as its kind says) by the runner so it can be mounted, and removed
   * afterwards if the command left it untouched.
   */
  writable: z.array(EntrySchema),
  /** Existing entries inside a writable path that stay read-only (git hooks and config, node_modules…). */
  readOnly: z.array(EntrySchema),
  /** Existing workspace entries the command cannot see (secrets, ignored paths, our own store). */
  hidden: z.array(EntrySchema),
  /** Absolute paths outside the workspace the command cannot see (the user's home, neighbouring folders). */
  hiddenOutside: z.array(z.string()),
  /** Absolute paths inside a hidden area shown again read-only (toolchains found on PATH, a worktree's repository). */
  visibleOutside: z.array(z.string()),
  /** Absolute paths outside the workspace the command may write: git's data of a worktree's repository, for a step granted git writes. */
  writableOutside: z.array(z.string()).default([]),
  /** Absolute paths inside those that stay read-only (the links and config that redirect git). */
  readOnlyOutside: z.array(z.string()).default([]),
  /**
   * Workspace folders git ignores (build outputs: `dist`, `target`, `coverage`…) outside the write scope,
   * shallowest first. The runner mounts over each a private, writable copy for this command only (its
   * existing content when small, else the folder stays read-only, said in a note); writes there never
   * reach the workspace, so nothing is rolled back or checkpointed. A missing one is created empty to be
   * mounted and removed afterwards. Where the platform cannot bind (Seatbelt) they stay read-only.
   */
  privateOutputs: z.array(z.string()).default([]),
  /** Whether the command may reach the network beyond loopback. */
  network: z.boolean(),
  /** The command's environment; the runner sets HOME and TMPDIR to its private directories on top. */
  env: z.record(z.string(), z.string()),
});

/** The few facts about the machine a sandbox spec needs (read by the runner, src/node/sandbox/hostFacts.ts). */
export interface HostFacts {
  platform: NodeJS.Platform;
  /** The user's real home directory (absolute), if known. */
  home: string | undefined;
  /** PATH entries (absolute). */
  pathEntries: string[];
  /** XDG_RUNTIME_DIR (session bus, agent sockets), wherever it is. */
  runtimeDir?: string;
  /** Names in an absolute directory outside the workspace ([] when unreadable). Used for tool roots only. */
  listDir(abs: string): string[];
  /** A small text file's content (undefined when unreadable). Used for a worktree's git links only. */
  readText?(abs: string): string | undefined;
  /** Where a symbolic link finally leads (absolute, real), or undefined when it is not a link or leads nowhere. */
  linkTarget?(abs: string): string | undefined;
  /** Where a symbolic link leads in one step (its target made absolute, not resolved further), or undefined when it is not a link. */
  linkHop?(abs: string): string | undefined;
  /**
   * An ignore file's text (`.gitignore`, `info/exclude`): a regular file only — never through a symbolic
   * link, never one with other hard links, never a large one (undefined then). Used for private outputs.
   */
  readIgnoreFile?(abs: string): string | undefined;
  /** The user's global git excludes (their text), if any: what git ignores for them everywhere. */
  globalExcludes?(): string | undefined;
}

/** What the machine can enforce (asked of the Terminal port before a command is offered for approval). */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the type's one source (z.infer); nothing parses it at run time
const SandboxSupportSchema = z.discriminatedUnion('available', [
  z.object({
    available: z.literal(true),
    kind: z.enum(['bubblewrap', 'seatbelt']),
    detail: z.string(),
    /**
     * Whether a granted network is a network of the command's own (Linux with slirp4netns): the internet and
     * the LAN, but not this machine's loopback services (debugger ports, databases, code-server) nor its
     * abstract unix sockets (X11, D-Bus). Absent or false: a granted network is the host's, those included.
     */
    ownNetwork: z.boolean().optional(),
  }),
  /** `remedy`: what the user can do about it (the package to install, the setting to change). */
  z.object({ available: z.literal(false), reason: z.string(), remedy: z.string() }),
]);

/**
 * How one command runs: `sandboxed` (inside the spec), `unsandboxed` (no sandbox on this machine, mode
 * `prefer`: the user must approve this very command, whatever the approval mode), `sandbox_off` (the user
 * turned the sandbox off). Shown on the approval card, in the trace and in the CLI output.
 */
export const ConfinementSchema = z.enum(['sandboxed', 'unsandboxed', 'sandbox_off']);

export type Confinement = z.infer<typeof ConfinementSchema>;

/**
 * The default mode where the user set none: `required` where an OS sandbox can exist (Linux with
 * bubblewrap, macOS), so a missing one is a clear refusal saying what to install rather than a silent
 * downgrade; `prefer` where none can (Windows), so commands still run, each asking first.
 */
export function defaultSandboxMode(platform: NodeJS.Platform): z.infer<typeof SandboxModeSchema> {
  return platform === 'linux' || platform === 'darwin' ? 'required' : 'prefer';
}
export type SandboxMode = z.infer<typeof SandboxModeSchema>;
export type SandboxSpec = z.infer<typeof SandboxSpecSchema>;
export type SandboxEntry = z.infer<typeof EntrySchema>;
export type SandboxSupport = z.infer<typeof SandboxSupportSchema>;
