/**
 * Staged writes: what a command changed in its private layer, as the platform runner reports it, before
 * anything reaches the workspace. The runner lists (raw bytes, no judgement); the engine judges each change
 * against the step's authority (src/core/tools/stagedJudge.ts) and applies only what the step may make.
 * Direction: runner → engine. Nothing here is a decision.
 */

/** What is at a path: a regular file, a folder, a symbolic link, or anything else (FIFO, socket, device). */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

/** One path whose entry differs between the workspace and the command's layer. */
export interface StagedChange {
  /** Workspace-relative, POSIX. */
  path: string;
  /** What the workspace holds there (null: nothing). */
  was: EntryKind | null;
  /** What the command left there (null: removed). A removed folder is one change; what it held is listed on demand. */
  now: EntryKind | null;
  /** A file's bytes or a link's target differ (false when only the permission bits changed). */
  content: boolean;
  /** Permission bits (0o7777) on both sides, when they differ for an entry that stayed the same kind. */
  mode?: { was: number; now: number };
  /** Permission bits of what the command left (files, folders; new or changed). */
  nowMode?: number;
  /** A link's target as written (now). */
  target?: string;
  /** Size in bytes of what the command left (files). */
  size?: number;
  /** Size in bytes of the workspace's file there, as the listing found it (what the checkpoint will take). */
  wasSize?: number;
  /** Bytes the file really occupies (a sparse file's real cost). */
  allocated?: number;
}

export interface StagedListing {
  changes: StagedChange[];
  /**
   * Entries the runner could not judge — a name that is not UTF-8 or holds control characters, a folder
   * it could not read — each with why. They are never applied; the call fails naming them.
   */
  unjudgeable: string[];
  /** What the listing had to assume (shown below the command's output). */
  notes: string[];
  /** Folders not descended into because `ListingOptions.keepWhole` said so: each stays whole in the layer. */
  keptWhole?: string[];
  /**
   * The listing stopped at a cap (`ListingOptions`): `changes` is then empty and nothing of the layer may be
   * applied or kept — the call fails closed, naming the cap.
   */
  capped?: ListingCap;
}

/** A cap the listing of one command's layer reached: how many entries it walks, or how many bytes it reads. */
export interface ListingCap {
  cap: 'entries' | 'bytes';
  limit: number;
}

/** How the engine wants a layer listed (every field optional). */
export interface ListingOptions {
  /**
   * Folders the engine would keep whole for the step whatever they hold (a dependency folder or a tool cache
   * no edit glob reaches; a new folder the step keeps for itself): the runner reports each in `keptWhole`
   * instead of walking what it holds. `inWorkspace`: the workspace has a folder there too.
   */
  keepWhole?(path: string, inWorkspace: boolean): boolean;
  /** Entries (files, folders, links, removals) the listing walks at most before it stops (`capped`). */
  maxEntries?: number;
  /** Bytes of regular files the listing reads at most, comparing them with the workspace, before it stops. */
  maxBytes?: number;
}

/**
 * The staging layer of one command, as the engine asks for it: `layer` names the step attempt's layer,
 * which its later commands see again (a build's outputs live as long as the step). `over`: the command runs
 * on top of that layer but writes a scratch one, thrown away afterwards (the verifier's evidence runs).
 */
export type StagingRequest = { layer: string } | { over: string };

/** What the runner does with a layer once the engine has judged a command's changes. */
export interface LayerSettlement {
  /** Paths whose entry (with everything below it) stays in the layer: private to the step (build outputs, caches). */
  keep: string[];
}

/** Whether this machine can stage commands, and if not, why (shown on the card and in the trace). */
export type StagingSupport = { available: true; detail: string } | { available: false; reason: string };
