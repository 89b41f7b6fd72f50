/**
 * The ports through which the engine reaches the world. Front ends (src/node, src/vscode) implement them;
 * unit tests use small fakes of these interfaces, never a fake `vscode`.
 *
 * Direction: the engine calls out through every port here; nothing here calls back into the engine.
 * Paths crossing a port are workspace-relative with POSIX separators unless a field says "absolute".
 */
import type { Plan } from './contracts/plan';
import type { PlanEstimate } from './contracts/estimate';
import type { CheckOutcome, CommandRun, Failure, SideEffects, StepResult } from './contracts/results';
import type { Handoff, ToolCallRecord } from './contracts/handoff';
import type { Step } from './contracts/plan';
import type { TraceEvent, TraceEventBody } from './contracts/traceEvents';
import type { Confinement, HostFacts, SandboxMode, SandboxSpec, SandboxSupport } from './contracts/sandbox';
import type { LayerSettlement, ListingOptions, StagedListing, StagingRequest, StagingSupport } from './contracts/staging';
import type { McpCallOutcome, McpConfinement } from './contracts/mcp';
import type { AppliedInstruction } from './contracts/instructions';
import type { Result } from './contracts/result';
import type { Hook, HookOrigin } from './contracts/hooks';

// ───────────────────────────── workspace ─────────────────────────────

/**
 * The synchronous file-system facts the policy needs (policy/policy.ts), behind a port so core reads no
 * disk itself and tests can inject failures. Synchronous on purpose: a decision must not interleave with
 * other awaits that could change the file system between the check and the caller acting on it.
 * The Node implementation is src/node/nodePolicyFs.ts.
 */
export interface PolicyFs {
  /** Throws when the path (or a link on it) does not resolve. */
  realpathSync(path: string): string;
  /** undefined when nothing is there; does not follow a final symlink. */
  lstatSync(path: string): { isSymbolicLink(): boolean; isDirectory(): boolean; isFile(): boolean } | undefined;
  /** undefined when the file does not exist or cannot be read; with `maxBytes`, at most that many bytes from its start. */
  readTextSync(path: string, maxBytes?: number): string | undefined;
  /** A symbolic link's target as written; undefined when the path is not a link (or cannot be read). */
  readlinkSync(path: string): string | undefined;
  /** Whether the path (links followed) is a regular file this process may execute. */
  executableSync(path: string): boolean;
}

export interface FileStat {
  kind: 'file' | 'directory' | 'symlink' | 'other';
  size: number;
  /** POSIX mode bits (0 where the platform has none). */
  mode: number;
}

export interface DirEntry {
  name: string;
  kind: FileStat['kind'];
}

/** One entry of a workspace scan. */
export interface ScanEntry {
  /** Workspace-relative, POSIX. */
  path: string;
  kind: FileStat['kind'];
  size: number;
  /** POSIX mode bits (0 where the platform has none). */
  mode: number;
  /** Changes whenever the entry may have changed (inode, size, modification and change times). */
  signature: string;
  /** For a symlink: what it points to, as written (never followed). */
  target?: string;
  /** Hard links to this entry (1 when unknown): a file with more can be written through another path. */
  links?: number;
}

export interface ScanOptions {
  /** Directories (workspace-relative) the scan lists but does not enter. */
  prune(path: string): boolean;
  /** The scan stops after this many entries and says so. */
  limit: number;
  /** Scan only below these workspace-relative paths (each listed itself too; they may nest, each path comes once); default: the whole workspace. */
  under?: readonly string[];
  /**
   * Entries that need more than a name and a kind (size, mode, signature, links, a link's target); the
   * others come from the directory listing alone — size 0, mode 0, signature '' — which spares one stat
   * per file where only names matter (the sandbox spec outside the write scope). Default: every entry.
   */
  detail?(path: string): boolean;
  /**
   * Where the adapter may keep what it listed, so that the next scan with the same memo re-reads only the
   * folders whose names changed (a folder's modification time moves when an entry is added, removed or
   * renamed in it) and hands back the same entry objects for the rest. Only for scans that ask the same
   * (`prune`, `under`); entries that need `detail` are read anew every time.
   */
  memo?: ScanMemo;
}

/** A scan's memory between calls: the caller owns it, the adapter fills it (opaque to the engine). */
export interface ScanMemo {
  state?: unknown;
}

export interface ScanResult {
  entries: ScanEntry[];
  /** The limit was reached: entries are missing. */
  truncated: boolean;
  /** Folders that could not be listed (too deep for a path, no permission): their content is unknown. */
  unreadable?: string[];
  /** Entries whose names are not UTF-8 (bytes escaped): they cannot be named through this port. */
  unnamable?: string[];
}

/**
 * One write in an all-or-nothing batch. `content: null` deletes the file — unless `link` is set (a symbolic
 * link with that target) or `directory` (a folder made, or its mode set; never removed this way).
 */
export interface FileWrite {
  path: string;
  content: Uint8Array | null;
  /** Preserve or set the mode (new files default to 0o644). */
  mode?: number;
  /** Make a symbolic link with this target (what a staged command made; the engine judged where it leads: policy/linkTargets.ts). */
  link?: string;
  /** Make the folder (with its parents) and set `mode` on it. */
  directory?: boolean;
}

export interface Workspace {
  /** Absolute, real (symlink-resolved) path of the workspace root. */
  readonly root: string;
  /** What the policy reads of the disk under `root` (symlinks, `.planexecuteignore`, git config, secrets' first bytes). */
  readonly policyFs: PolicyFs;
  /** Throws when the file does not exist. */
  readFile(path: string): Promise<Uint8Array>;
  /** undefined when nothing is there (does not follow a final symlink). */
  stat(path: string): Promise<FileStat | undefined>;
  readDir(path: string): Promise<DirEntry[]>;
  /**
   * Applies every write or none (Node: temp file + rename per file, rolled back on failure;
   * VS Code: one WorkspaceEdit). Never called without a recorded approval. `origin: 'command'`: what a
   * staged command made (modes, links, folders, any bytes) — written as the bytes are, never as an edit
   * of an open document.
   */
  applyWrites(writes: FileWrite[], label: string, options?: { origin?: 'editor' | 'command' }): Promise<void>;
  /** Every entry below the root (symlinks are listed, never followed), parents before children. */
  scan(options: ScanOptions): Promise<ScanResult>;
  /**
   * Removes each path without following links, deepest first: files, links and special files are
   * unlinked, directories removed only when empty — or, with `recursive`, whole (never following a link,
   * however deep the tree). A path whose parent is not really where it says (a link on the way) is left
   * alone. Returns the paths that could not be removed, each with why.
   */
  removeEntries(paths: string[], recursive?: boolean): Promise<string[]>;
  /**
   * Git's record of the workspace (HEAD and the index), around a command of a step granted git writes
   * (src/node/gitRecord.ts). Optional: without it, what such a command stages or commits is not judged.
   * `gitMark` is null outside a repository of this workspace's own.
   */
  gitMark?(): Promise<GitMark | null>;
  /** Paths whose recorded content changed since the mark, each with whether the record matches the working tree. */
  gitRecordedSince?(mark: GitMark, options?: GitJudgeOptions): Promise<GitRecorded[]>;
  /** Puts every ref, HEAD and the index back as marked; returns what could not be, each with why. */
  gitReset?(mark: GitMark): Promise<string[]>;
  /** The paths git tracks (`git ls-files`), null outside a repository of this workspace's own. */
  gitTrackedFiles?(): Promise<string[] | null>;
}

/** HEAD's commit (null: unborn) and branch (null: detached), every ref, and the index file as it was. */
export interface GitMark {
  head: string | null;
  branch: string | null;
  /** Ref name → object id (branches, tags, the stash, remotes). */
  refs: Record<string, string>;
  /** Index entry → its mode, object id, stage and tag (`git ls-files -s -v`), by path. */
  staged: Record<string, string>;
  indexPath: string;
  index: Uint8Array | null;
  /**
   * Every commit the repository already reached as a tip: refs, each worktree's HEAD, every reflog entry
   * (the stash's included), ORIG_HEAD and the other pseudo-refs. What is reachable from these is old; a
   * command is judged on what it makes reachable beyond them.
   */
  known?: string[];
  /** Pseudo-refs (ORIG_HEAD, FETCH_HEAD, MERGE_HEAD…) → the commit each names. */
  pseudo?: Record<string, string>;
  /** The remotes the user's own config names (`remote.<name>.url`). */
  remotes?: string[];
}

/** What the git review needs from the engine: the command (a granted fetch may move remote-tracking refs) and the step's globs. */
export interface GitJudgeOptions {
  argv: readonly string[];
  /** Whether the step may write a workspace path (its edit globs, secrets and protected paths). */
  mayWrite(path: string): boolean;
}

export interface GitRecorded {
  path: string;
  /** False when git now records content for the path that the working tree does not hold (or hides it from status). */
  matchesWorktree: boolean;
  /** What records it: `the index`, `refs/heads/main`, `stash@{0}'s untracked files`, `commit 1a2b3c4`… */
  by?: string;
  /** Refused whatever the step's globs say (a remote-tracking ref moved without a granted fetch, a note that is not one), with why. */
  refused?: string;
}

// ───────────────────────────── terminal ─────────────────────────────

export interface CommandRequest {
  /** The command line exactly as approved (shown to the user). */
  command: string;
  /** Parsed argv (the policy checked this form; adapters run it without a shell). */
  argv: string[];
  /** Absolute working directory, inside the workspace. */
  cwd: string;
  timeoutMs: number;
  /** Cap on captured output; head and tail are kept when exceeded. */
  maxOutputBytes: number;
  /** The complete, already scrubbed environment. Adapters must not merge process.env into it. */
  env: Record<string, string>;
  /**
   * The OS sandbox the command must run in. The adapter enforces it or refuses to run the command;
   * null only for a command the engine decided to run unconfined (sandbox off, or approved unsandboxed).
   */
  sandbox: SandboxSpec | null;
  /**
   * Staged writes (with a sandbox only): the command writes this layer, never the workspace
   * (contracts/staging.ts). Absent: it writes the workspace directly.
   */
  staging?: StagingRequest;
}

export interface Terminal {
  /** Runs to completion; on abort, kills the whole process tree and resolves with signal set. */
  run(request: CommandRequest, signal: AbortSignal): Promise<CommandRun>;
  /** Which OS sandbox this terminal can enforce here (asked before a command is offered for approval). */
  confinement(): Promise<SandboxSupport>;
  /** The staging layers commands write (where `confinement()` says staging is available). */
  readonly staging?: StagingLayers;
  /**
   * The machine's facts a sandbox spec needs (platform, home, toolchains on PATH, ignore files), read per
   * command. Required: core reads no host itself (src/node/sandbox/hostFacts.ts is the real one).
   */
  hostFacts(env: Record<string, string>): HostFacts;
}

/**
 * The layers staged commands write (src/node/sandbox). `root` is the workspace each layer lies over. The
 * engine lists a command's changes, reads what it applies, then settles the layer; a step attempt's layer
 * is dropped when the attempt ends.
 */
export interface StagingLayers {
  /** Whether commands in this workspace can be staged here, and if not, why (probed once per workspace). */
  support(root: string): Promise<StagingSupport>;
  /** What the layer holds that differs from the workspace (within the caps `options` sets). */
  changes(layer: string, root: string, options?: ListingOptions): Promise<StagedListing>;
  /** A regular file's bytes in the layer (never through a link). */
  read(layer: string, root: string, path: string): Promise<Uint8Array>;
  /** Keeps only `settlement.keep` in the layer; returns what went wrong, each with why. */
  settle(layer: string, root: string, settlement: LayerSettlement): Promise<string[]>;
  drop(layer: string, root: string): Promise<void>;
  /**
   * What git records in the layer — its index and every ref — compared with the workspace as it is (git
   * run confined, on a read-only view whose git data is the layer's), and the repository config keys the
   * layer changed. null outside a repository of the workspace's own.
   */
  gitReview(layer: string, root: string, options?: GitJudgeOptions): Promise<GitReview | null>;
  /**
   * Copies git's data from the layer into the workspace's `.git` (objects first), each file atomically,
   * then removes what git removed in the layer (`removed`: a dropped stash, a deleted branch, a removed worktree's git folder; never objects).
   * Returns what could not be taken, each with why.
   */
  applyGitData(layer: string, root: string, paths: string[], removed?: string[]): Promise<string[]>;
}

export interface GitReview {
  recorded: GitRecorded[];
  /** `section.key` names whose values differ in the layer's `.git/config` (added, changed or removed). */
  configKeys: string[];
  /** What could not be reviewed, each with why (then nothing of git's is taken). */
  problems: string[];
}

// ───────────────────────────── hooks ─────────────────────────────

/** One run of a user's or a project's hook (src/core/hooks decides where and how it is confined). */
export interface HookProcessRequest {
  /** The command line as configured; the runner hands it to the shell (`bash -c`, else `sh -c`), as Claude Code does. */
  command: string;
  /** The JSON the hook reads on stdin. */
  stdin: string;
  /** Absolute: the workspace root, at the same path inside the sandbox. */
  cwd: string;
  /**
   * The scrubbed environment with `CLAUDE_PROJECT_DIR`. A `user` hook runs as the user: the runner lays
   * the user's own environment under it (never the product's model keys).
   */
  env: Record<string, string>;
  origin: HookOrigin;
  /** After this the hook is killed with its whole process group. */
  timeoutMs: number;
  /** Cap on each of stdout and stderr (head and tail kept). */
  maxOutputBytes: number;
  /** The OS sandbox it runs in; null: unconfined (a user hook, or the sandbox is off). */
  sandbox: SandboxSpec | null;
  /** With a sandbox: the step attempt's layer it writes (contracts/staging.ts); absent: it writes nothing it keeps, or directly. */
  staging?: StagingRequest;
}

export interface HookProcessRun {
  /** null: killed (timeout, cancel) or never started. */
  exitCode: number | null;
  signal: string | null;
  /** Killed because it ran past `timeoutMs`. */
  timedOut: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  /** Why it could not start, when it could not (a missing shell, a sandbox that refused). */
  startError?: string;
}

/** Runs hook processes (src/node/hookRunner.ts). Never throws: a fault is a run that says so. */
export interface HookRunner {
  run(request: HookProcessRequest, signal: AbortSignal): Promise<HookProcessRun>;
}

// ───────────────────────────── approvals ─────────────────────────────

interface ApprovalBase {
  /** Unique id of this request. */
  id: string;
  missionId: string;
  stepId: string | null;
  /** Hash of the exact action (path + content hash, or argv + cwd). A decision binds to this hash only. */
  actionHash: string;
  /** Why the executor wants this, in its words (shown, never trusted). */
  why: string;
  /** Who asks: the step's executor, or the verifier running an evidence check (absent: the executor). */
  role?: 'executor' | 'verifier';
  /**
   * A PreToolUse hook asked that the user decide this one: an approver must ask the user — never a rule,
   * never the approval mode — and show why. The gate refuses an approval by rule of such a request.
   */
  askedBy?: { hook: string; reason: string };
}

/**
 * What an approval is asked for, exactly as it will happen: the approval gate's action (its `GateAction`
 * adds the executor's `why`) and, with the request's identity, what an approver is shown. Declared once.
 */
export type ApprovalAction =
  | {
      kind: 'write';
      path: string;
      change: 'created' | 'modified' | 'deleted';
      /** Blob hashes into the store, so a front end can show a diff. */
      beforeHash: string | null;
      afterHash: string | null;
    }
  | {
      kind: 'command';
      command: string;
      argv: string[];
      cwd: string;
      /** `unsandboxed`: only the user's own answer approves it (core/tools/consent.ts; the gate enforces it). */
      confinement: Confinement;
      /** Whether the step's authority lets the command reach the network. */
      network: boolean;
      /**
       * With the network granted: whether it is the host's, so that this machine's own loopback services
       * (debugger ports, databases, code-server) are reached too. False: the sandbox's own network.
       */
      hostLoopback?: boolean;
      /**
       * Whether the command writes a staging layer (only judged changes reach the workspace) or, where no
       * staging exists, the workspace itself (judged and undone afterwards). Absent: not known.
       */
      staged?: boolean;
      /**
       * The program that runs, by its absolute path: the command's first word resolved on PATH, never to a
       * file in the workspace (src/core/policy/programPath.ts). Absent: it runs as named (a path, or not found).
       */
      program?: string;
    }
  | {
      kind: 'mcp';
      server: string;
      tool: string;
      /** The arguments exactly as they will be sent (the decision binds to them through `actionHash`). */
      arguments: Record<string, unknown>;
      /** The server's readOnlyHint for the tool (a hint, not a guarantee). */
      readOnly: boolean;
      /** What confines the server: the step's OS sandbox, nothing (sandbox off), a remote server, VS Code. */
      confinement: McpConfinement;
      /** For a server in the step's sandbox: whether the step's authority grants it the network. */
      network: boolean;
    };

export type ApprovalRequest =
  | (ApprovalBase & { kind: 'plan'; plan: Plan; /** What the version is expected to cost, when the front end estimates. */ estimate?: PlanEstimate })
  | (ApprovalBase & ApprovalAction);

/**
 * `by` says who decided: `user` — the user's own answer to this very request (never a remembered one);
 * `rule` — one of the user's rules or an approval mode, named. The gate accepts only `user` for what only
 * the user decides (core/tools/consent.ts).
 */
export type ApprovalDecision =
  { decision: 'approved'; by: 'user' } | { decision: 'approved'; by: 'rule'; rule: string } | { decision: 'rejected'; reason: string };

export interface Approver {
  /** Resolves when the user (or one of the user's rules) decides; rejects nothing: abort → rejected. */
  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

// ───────────────────────────── MCP servers ─────────────────────────────

export interface McpCallRequest {
  missionId: string;
  /** The step the call belongs to: a stdio server is started for it, in its sandbox, and stopped by endStep. */
  stepId: string;
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
  /**
   * The OS sandbox a stdio server started for this step runs in; null: unconfined (the sandbox is off).
   * Ignored for a server already running for the step, a remote server, or one VS Code runs.
   */
  sandbox: SandboxSpec | null;
  timeoutMs: number;
  /** Cap on the result text (the rest is cut, and said). */
  maxResultChars: number;
}

/**
 * The user's MCP servers (src/node/mcp: the official SDK over stdio and streamable HTTP; a replay answers
 * from the trace). Never throws: every fault is an outcome naming the server.
 */
export interface McpServers {
  call(request: McpCallRequest, signal: AbortSignal): Promise<McpCallOutcome>;
  /** The step is over: stop the servers started for it. */
  endStep(stepId: string): Promise<void>;
}

/** An MCP tool as a role is offered it: the namespaced name the model calls, and what it is. */
export interface OfferedMcpTool {
  /** `mcp__<server>__<tool>` (sanitised; never one of our own tools' names). */
  name: string;
  server: string;
  tool: string;
  description: string;
  readOnly: boolean;
  inputSchema: Record<string, unknown>;
}

/** A role's MCP tools for one step: only what the step's grants allow (the verifier: only read-only ones). */
export interface McpStepTools {
  offered(): OfferedMcpTool[];
  /** Calls an MCP tool by the name it was offered under; policy, approval and trace like a command. */
  call(name: string, args: unknown): Promise<ToolOutcome>;
}

// ───────────────────────────── store, clock, events ─────────────────────────────

export interface Store {
  /** Content-addressed blobs (sha256 hex). */
  putBlob(content: Uint8Array): Promise<string>;
  getBlob(hash: string): Promise<Uint8Array | undefined>;
  /** Append-only trace, one event per line. */
  appendEvent(missionId: string, event: TraceEvent): Promise<void>;
  /** Raw lines parsed as JSON; the engine validates them. */
  readEvents(missionId: string): Promise<unknown[]>;
  /** Snapshot of the mission state after every transition (validated when read back). */
  saveState(missionId: string, state: unknown): Promise<void>;
  loadState(missionId: string): Promise<unknown | undefined>;
  listMissions(): Promise<string[]>;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or rejects with an AbortError when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * The host's own log (VS Code's LogOutputChannel, the CLI's stderr): where a failure goes that the trace
 * cannot hold — its store is what failed — or that a sink threw. Every other failure is a trace `log`
 * event, which the front ends mirror to the same log. Must not throw.
 */
export interface Diagnostics {
  error(message: string): void;
}

export interface EventSink {
  /** Called for every trace event after it is persisted. Must not throw. */
  emit(event: TraceEvent): void;
}

// ───────────────────────────── the sandbox an executor acts through ─────────────────────────────

export type ToolOutcome =
  /** `reusedFrom`: the result is an earlier call's (same input, files unchanged), not a fresh read. */
  { ok: true; output: string; toolCallId: string; reusedFrom?: string } | { ok: false; output: string; toolCallId: string; failure: Failure };

/** Read-only tools: what the verifier and planner-side lookups get. No write path exists here. */
export interface ReadOnlyTools {
  view(path: string, range?: [number, number]): Promise<ToolOutcome>;
  list(path: string, depth?: number): Promise<ToolOutcome>;
  search(pattern: string, glob?: string): Promise<ToolOutcome>;
  /** Raw output of an earlier tool call, by id (results are passed by reference). */
  fetchToolResult(toolCallId: string): Promise<ToolOutcome>;
  /** The role's MCP tools (absent: the mission has no MCP servers). The verifier's are read-only only. */
  mcp?: McpStepTools;
}

/**
 * The executor's tools for one step. Every call is checked by the step's policy, every write and command
 * waits for the Approver, and every call lands in the trace and the tool-call store.
 */
export interface StepTools extends ReadOnlyTools {
  create(path: string, text: string): Promise<ToolOutcome>;
  strReplace(path: string, oldText: string, newText: string): Promise<ToolOutcome>;
  insert(path: string, afterLine: number, text: string): Promise<ToolOutcome>;
  bash(command: string): Promise<ToolOutcome>;
  /** Everything the step changed so far. */
  sideEffects(): SideEffects;
  /**
   * The user's Stop hooks, run when the executor reports its step done: a reason to go on instead (the
   * executor is told it and continues), or undefined. At most three such blocks per step attempt.
   */
  beforeReport?(): Promise<string | undefined>;
}

// ───────────────────────────── roles (implemented in src/core/roles) ─────────────────────────────

/** What the engine gives a role for one call: where it is, how to record, and the kill switch. */
export interface RoleContext {
  missionId: string;
  stepId: string | null;
  signal: AbortSignal;
  /** Appends a trace event (model_call, log, ...); resolves once persisted. */
  record(event: TraceEventBody): Promise<void>;
  /** Milliseconds left of the mission's wall budget (a model call never starts a wait longer than this). */
  remainingMs?(): number;
}

export interface PlanRequest {
  task: string;
  constraints: string[];
  /** The project's instruction files (repository text), each with where it applies. Absent: none. */
  instructions?: AppliedInstruction[];
  /** The MCP tools the mission's servers offer, for per-step grants. Absent: none. */
  mcpTools?: OfferedMcpTool[];
  /** What the user's SessionStart and UserPromptSubmit hooks added (their stdout or additionalContext). Absent: none. */
  hookContext?: { source: string; text: string }[];
  /** Compact workspace summary (tree, key files, package scripts). */
  workspaceSummary: string;
  /**
   * Optional read-only lookups for the planner (view/list/search/fetch_tool_result). Raw results of earlier
   * tool calls are passed by reference and fetched through this. Without it the planner gets no tools.
   */
  tools?: ReadOnlyTools;
}

export interface ReplanRequest extends PlanRequest {
  mode: 'step' | 'rest';
  current: Plan;
  /** The trigger, with its evidence, as the engine recorded it. */
  trigger: { kind: string; stepId: string | null; message: string; evidence: string };
  /** Finished steps with capped summaries; raw results are fetchable by tool-call id. */
  finished: { stepId: string; title: string; summary: string; toolCallIds: string[] }[];
  history: { version: number; reason: string }[];
}

export type RoleOutcome<T> = Result<T, Failure>;

export interface PlannerRole {
  plan(request: PlanRequest, ctx: RoleContext): Promise<RoleOutcome<Plan>>;
  replan(request: ReplanRequest, ctx: RoleContext): Promise<RoleOutcome<Plan>>;
}

export interface ExecutorRole {
  execute(handoff: Handoff, tools: StepTools, ctx: RoleContext): Promise<StepResult>;
}

export interface VerifierRole {
  /** A read-only model review of one criterion (deterministic checks never reach the model). */
  review(handoff: Handoff, result: StepResult, criterion: string, tools: ReadOnlyTools, ctx: RoleContext): Promise<CheckOutcome>;
}

// ───────────────────────────── tool-call store and the tools factory ─────────────────────────────

/** The mission's tool-call store: every call's raw result, addressable by id, reusable while inputs hold. */
export interface ToolCallLog {
  add(record: ToolCallRecord): void;
  get(id: string): ToolCallRecord | undefined;
  all(): ToolCallRecord[];
  /**
   * An earlier successful call with the same tool and input whose `inputsFingerprint` still matches the
   * workspace (hashOf returns the current content hash of a path, null if absent).
   */
  findReusable(tool: string, input: unknown, hashOf: (path: string) => Promise<string | null>): Promise<ToolCallRecord | undefined>;
}

export interface ToolSettings {
  commandTimeoutMs: number;
  maxOutputBytes: number;
  /** Largest file the text editor reads or writes. */
  maxFileBytes: number;
  /** Sensitive-path globs the user explicitly allowed for this mission (default none). */
  allowSensitive: string[];
  /** Whether commands must, should or need not run in the OS sandbox. */
  sandbox: SandboxMode;
}

/** What `createStepTools` (src/core/tools) needs to build one step's sandboxed tools. */
export interface StepToolsContext {
  missionId: string;
  step: Step;
  /** The verifier gets the same factory with role 'verifier': every write is refused regardless of globs. */
  role: 'executor' | 'verifier';
  workspace: Workspace;
  terminal: Terminal;
  approver: Approver;
  store: Store;
  clock: Clock;
  toolCalls: ToolCallLog;
  record(event: TraceEventBody): Promise<void>;
  settings: ToolSettings;
  /** Scrubbed environment for commands. */
  env: Record<string, string>;
  signal: AbortSignal;
  /**
   * The step attempt's staging layer: the executor's commands write it (what they may not keep in the
   * workspace but may keep for the step lives there until the attempt ends); the verifier's run over it
   * and write a scratch layer, thrown away. Absent: commands are not staged.
   */
  layer?: string;
  /** Paths the mission's constraints forbid to write (the plan's `forbid_paths` checks). Default none. */
  forbidden?: readonly { constraint: string; globs: readonly string[] }[];
  /** The mission's MCP servers and their catalogue (absent: none configured). */
  mcp?: StepMcpContext;
  /** The user's hooks the executor's tool calls and report go through (absent: none; the verifier gets none). */
  hooks?: StepHookContext;
}

/** What a step's hooks need: the hooks the mission runs, the runner, and what their input names. */
export interface StepHookContext {
  hooks: readonly Hook[];
  runner: HookRunner;
  /** The mission's trace file (the hooks' `transcript_path`), when the front end knows it. */
  transcriptPath?: string;
  /** Claude Code's name for the approval mode (`default`, `acceptEdits`, `bypassPermissions`). */
  permissionMode: string;
}

/** What a step's MCP tools need: the servers, the offered names (from the catalogue) and each server's confinement. */
export interface StepMcpContext {
  servers: McpServers;
  /** Every tool of the catalogue under its namespaced name (the step's grants pick from these). */
  tools: readonly OfferedMcpTool[];
  /** Per server: how it runs, and why it cannot be used when it cannot (its listing failed). */
  serverState: Readonly<Record<string, { confinement: McpConfinement; unavailable?: string }>>;
}

export type StepToolsFactory = (ctx: StepToolsContext) => StepTools;
