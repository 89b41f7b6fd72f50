/**
 * The message contract of both webview surfaces — the sidebar (the compact companion) and the mission
 * board (an editor tab) — imported by the host (src/vscode) and the webview (src/webview). Both surfaces
 * render the same `SurfaceState`; neither owns mission state.
 * Host → webview: a full `state` snapshot (sent on every `ready`: the iframe reloads) and `did…`
 * notifications. Webview → host: `ready` and commands. The host `safeParse`s every message it receives
 * against these schemas; one that does not parse is logged and dropped. The webview imports only the
 * types from here (the build refuses a value import, and zod, in its bundle) and checks host messages
 * against `hostMessageJsonSchema()`, which the build derives from `ToWebviewSchema` (./hostMessages.ts).
 */
import { z } from 'zod';
import { StepRunStatusSchema } from '../core/contracts/traceEvents';
import { AuthoritySchema, BindingSchema, EffortSchema, RiskSchema } from '../core/contracts/plan';
import { FileChangeSchema } from '../core/contracts/results';
import { ConfinementSchema, SandboxModeSchema } from '../core/contracts/sandbox';
import { McpConfinementSchema, McpServerInfoSchema, McpToolInfoSchema } from '../core/contracts/mcp';
import * as core from '../core/contracts/missionView';

const Text = z.string().max(100_000);
const Id = z.string().min(1).max(200);

// ───────────────────────────── view model (what both surfaces render) ─────────────────────────────

/** One evidence check as the verifier judged it. */
const CheckViewSchema = z.object({ check: Text, passed: z.boolean(), detail: Text });

// How the view is derived (docs/architecture.md, "The mission view"): each record below is the core's
// (src/core/contracts/missionView.ts) without the fields its `…_RESHAPED` mask names — the host
// (src/vscode/view/uiMission.ts) reshapes or keeps those, and passes every other field through — plus what
// the host adds. A field the core's view gains therefore reaches the webview, typed and checked, unless a
// mask names it.

/** The core step's fields the host reshapes: the run state in words, the files, the plan's definition. */
export const STEP_RESHAPED = { reason: true, output: true, failure: true, changedFiles: true, verification: true, definition: true } as const;
/** The plan of each version stays with the host. */
export const VERSION_RESHAPED = { plan: true } as const;
/** The trigger and evidence become words; which steps a replan invalidated is the engine's. */
export const REPLAN_RESHAPED = { trigger: true, evidence: true, invalidated: true, refusedBecause: true } as const;
/** The webview counts down to `until`; the attempt and start stay with the host. */
export const WAIT_RESHAPED = { attempt: true, at: true } as const;
/** The failure's class is summed up by the mission's actions. */
export const FAILURE_RESHAPED = { class: true } as const;
/** The mission's records the host reshapes (steps ordered, waits listed, outcome flattened) or keeps. */
export const MISSION_RESHAPED = {
  missionId: true,
  direct: true,
  plan: true,
  versions: true,
  stepOrder: true,
  steps: true,
  pendingApprovals: true,
  usage: true,
  replans: true,
  budgets: true,
  outcome: true,
  waits: true,
  reverts: true,
  instructions: true,
  mcp: true,
  hooks: true,
  estimate: true,
  cost: true,
  lastSeq: true,
} as const;

/** One step as the surfaces show it: the plan's fields and its run state. */
const StepViewSchema = core.StepViewSchema.omit(STEP_RESHAPED).extend({
  why: Text,
  instructions: Text,
  authority: AuthoritySchema,
  binding: BindingSchema,
  /** The evidence checks, one readable line each, plus the planner's prose. */
  evidence: z.array(Text),
  risk: RiskSchema,
  effort: EffortSchema,
  /** Why the status is what it is (failure message, interruption, replacement). */
  statusReason: Text.optional(),
  /** The executor's summary once a result exists. */
  output: Text.optional(),
  /** The files the step changed, with blob hashes for the diff. */
  files: z.array(FileChangeSchema),
  /** False for a step a later plan version dropped (shown crossed out, never hidden once it ran). */
  inPlan: z.boolean(),
  /** The verifier's record once it ran. */
  verification: z.object({ passed: z.boolean(), checks: z.array(CheckViewSchema) }).nullable(),
});

/** One field of one step that a plan version changed, before and after (text, clipped). */
const FieldChangeViewSchema = z.object({ stepId: Id, field: Text, before: Text, after: Text });

/** One entry of the plan-version timeline: what changed and why (the plan itself stays with the host). */
const PlanVersionViewSchema = core.PlanVersionViewSchema.omit(VERSION_RESHAPED).extend({
  /** What changed against the parent version, field by field (empty for the first version). */
  changes: z.array(FieldChangeViewSchema),
});

/** One replan attempt: what triggered it and whether it produced a version (null: refused or failed). */
const ReplanUiViewSchema = core.ReplanViewSchema.omit(REPLAN_RESHAPED).extend({
  /** The trigger in words (never a raw enum such as `user_correction`). */
  trigger: Text,
  /** The evidence or refusal reason, in words. */
  detail: Text,
  /** Why the proposed version was refused, one sentence each, in words (empty when it was not refused). */
  refusedBecause: z.array(Text),
});

/** A model call waiting before it tries again (rate limit, overload): "waiting for the model, 8 s". */
const WaitViewSchema = core.WaitViewSchema.omit(WAIT_RESHAPED);

/** The failure that ended the mission, with the provider's cause when it was the provider or the machine. */
const FailureViewSchema = core.FailureViewSchema.omit(FAILURE_RESHAPED);

/** Something the user can do about the mission as it stands (computed by the host from the mission's state). */
const MissionActionSchema = z.discriminatedUnion('kind', [
  /** Plan the task again (planning failed), or run the failed mission again from the failing step. */
  z.object({ kind: z.literal('retry') }),
  /** Go on with a cancelled or budget-stopped mission, finished work kept. */
  z.object({ kind: z.literal('continue') }),
  /** Go on with a mission interrupted by a reload or crash. */
  z.object({ kind: z.literal('resume') }),
  /** Run again what a revert undid (the reverted steps and the steps that depend on them), finished work kept. */
  z.object({ kind: z.literal('rerun'), stepIds: z.array(Id) }),
  /** Revert every step that still has changes, newest first. */
  z.object({ kind: z.literal('revertMission') }),
  /** The model provider refused the key. */
  z.object({ kind: z.literal('setApiKey') }),
  /** The model does not exist there, or cannot call tools: pick another ("Plan & Execute: Choose Model"). */
  z.object({ kind: z.literal('chooseModel') }),
  /** A setting fixes it (a cap to raise, the base URL): opens the Settings editor on `query`. */
  z.object({ kind: z.literal('openSettings'), query: z.string().min(1).max(200), label: Text }),
]);

/** The mission as both surfaces show it: the core's view plus what the host computes (labels, actions, liveness). */
const MissionViewSchema = core.MissionViewSchema.omit(MISSION_RESHAPED).extend({
  missionId: Id,
  /** The phase in words when the phase alone would mislead: "reverted", "partly reverted", "stopped: budget". */
  phaseLabel: Text.nullable(),
  goal: Text,
  assumptions: z.array(Text),
  constraints: z.array(Text),
  planVersion: z.number().int().nullable(),
  steps: z.array(StepViewSchema),
  versions: z.array(PlanVersionViewSchema),
  replans: z.array(ReplanUiViewSchema),
  costUsd: z.number().nonnegative(),
  outcome: z.enum(['succeeded', 'failed', 'cancelled', 'budget_exceeded']).nullable(),
  summary: Text.nullable(),
  /** True while this window runs the mission (false after a reload until resumed). */
  live: z.boolean(),
  /** Why the mission failed or stopped, when it did. */
  failure: FailureViewSchema.nullable(),
  /** What the user can do now (empty while the mission runs). */
  actions: z.array(MissionActionSchema),
  /** Model calls waiting to try again right now. */
  waits: z.array(WaitViewSchema),
  /** The instruction files the mission recorded at its start (used, left out, not usable). Additive. */
  instructions: z.lazy(() => InstructionsViewSchema).optional(),
  /** The MCP servers the mission recorded at its start, with their tools. Additive. */
  mcpServers: z.lazy(() => z.array(McpServerViewSchema)).optional(),
  /** What the latest plan version is expected to cost, in words (the host words it: core/plan/describe.ts). Additive. */
  costEstimate: z.object({ version: z.number().int(), total: Text, steps: z.record(Id, Text) }).optional(),
  /** Once the mission ended: the estimate beside what was spent, one line each. Additive. */
  costReport: z.array(Text).optional(),
});

const ApprovalBaseShape = {
  requestId: Id,
  stepId: Id.nullable(),
  /** The step's title and its reason for existing (the plan's `why`), for the card. */
  stepTitle: Text.nullable(),
  stepWhy: Text.nullable(),
  /** The executor's own words for this action (shown, never trusted). */
  why: Text,
  /** When the request arrived (ISO); cards are listed oldest first and never reshuffle. */
  at: z.string(),
  /** Asked by the verifier running the step's evidence check, not by the executor. */
  verification: z.boolean(),
  /** The reason the user gave when rejecting this step's previous request: this one is the step's answer to it. */
  answers: Text.optional(),
  /** The user approved this exact command for the step's executor already; the verifier runs it again on its own. */
  approvedForExecutor: z.boolean().optional(),
  /** One of the user's PreToolUse hooks asked that the user decide this one, and why (no rule or mode answers it). */
  askedBy: Text.optional(),
};

/** A proposed edit or command waiting for the user. */
const ApprovalViewSchema = z.discriminatedUnion('kind', [
  z.object({
    ...ApprovalBaseShape,
    kind: z.literal('write'),
    path: Text,
    change: z.enum(['created', 'modified', 'deleted']),
    /** Lines added and removed (null: not text, or not computed yet). */
    size: z.object({ added: z.number().int().nonnegative(), removed: z.number().int().nonnegative() }).nullable(),
  }),
  z.object({
    ...ApprovalBaseShape,
    kind: z.literal('command'),
    command: Text,
    /** The absolute directory the command runs in. */
    cwd: Text,
    /** How it will run: in the OS sandbox, unsandboxed (no sandbox here: never remembered as a rule), or with the sandbox off. */
    confinement: ConfinementSchema.optional(),
    /** Whether the step's authority grants it the network. */
    network: z.boolean().optional(),
    /** With the network: whether it is the host's, this machine's loopback services included (else the sandbox's own). */
    hostLoopback: z.boolean().optional(),
    /** Whether its writes go to a staging layer (only judged changes reach the workspace) or to the workspace itself. */
    staged: z.boolean().optional(),
    /** The program that runs, by its absolute path (resolved on PATH, never to a workspace file). */
    program: Text.optional(),
  }),
  /** An MCP tool call: which server and tool, with the arguments it will get, and what confines the server. */
  z.object({
    ...ApprovalBaseShape,
    kind: z.literal('mcp'),
    server: Text,
    tool: Text,
    /** The arguments as pretty JSON (clipped for the card; the decision binds to the exact arguments). */
    arguments: Text,
    /** The server marks the tool read-only (a hint from the server, not a guarantee). */
    readOnly: z.boolean(),
    confinement: McpConfinementSchema,
    /** For a server in the step's sandbox: whether the step grants it the network. */
    network: z.boolean(),
  }),
]);

/** How this window's commands run (the `planExecute.sandbox` setting and what the machine offers). */
const SandboxStatusViewSchema = z.object({
  mode: SandboxModeSchema,
  /** sandboxed: confined; unsandboxed: no sandbox here, each command asks; refused: required but none here; off: the user turned it off. */
  state: z.enum(['sandboxed', 'unsandboxed', 'refused', 'off']),
  /** What confines them, or why nothing does and what to do about it. */
  detail: Text,
});

/** An auto-approve rule the user set for this mission. */
const ApprovalRuleSchema = z.object({
  id: Id,
  kind: z.enum(['write', 'command', 'step', 'mcp']),
  /** write: a workspace-relative glob; command: an exact command line, or a prefix ending in ` *`; step: a step id; mcp: `server/tool`. */
  pattern: z.string().min(1).max(500),
});

/** Something went wrong that the user can act on: the message in words, and the actions that help. */
const NoticeViewSchema = z.object({
  id: Id,
  level: z.enum(['info', 'warning', 'error']),
  message: Text,
  actions: z.array(z.enum(['setApiKey', 'openSettings', 'retry'])),
});

/**
 * The one state model every surface reads — the header's badge and banner, the status bar, the view's badge,
 * the approve and resume buttons, the new-mission form — computed once per snapshot by the host
 * (src/vscode/view/missionStatus.ts), so they cannot disagree, before or after a window reload.
 */
const SurfaceStatusSchema = z.object({
  kind: z.enum([
    'idle',
    'starting',
    'planning',
    'planWaiting',
    'running',
    'replanning',
    'resuming',
    'interrupted',
    'succeeded',
    'failed',
    'cancelled',
    'stopped',
  ]),
  /** The state in a few words, the same on the header's badge and in the status bar ("plan v2 waits for you"). */
  label: Text,
  /** One sentence when the state needs it (what an interruption cut off and what Resume does); null otherwise. */
  detail: Text.nullable(),
  /** A mission runs, waits or starts in this window: one at a time, so the new-mission form stays closed. */
  active: z.boolean(),
  /** What waits for the user: the view's badge counts it, the status bar says it. */
  waiting: z.object({ count: z.number().int().nonnegative(), summary: Text }),
  /** Steps done of those that count (replaced and skipped ones do not); null without a plan. */
  steps: z.object({ done: z.number().int().nonnegative(), total: z.number().int().nonnegative() }).nullable(),
  /** The cost so far when it is a real figure (priced calls, not the demo's scripted model); null: not shown. */
  costUsd: z.number().nonnegative().nullable(),
});

/** One project instruction file as the surfaces list it. */
const InstructionFileViewSchema = z.object({
  path: Text,
  size: z.number().int().nonnegative(),
  /** Where it applies, in words ("applies under packages/api/ (nearest file of its kind wins)"). */
  scope: Text,
  /** used: the mission reads it; excluded: the user left it out; unusable: it cannot be used (a note says why). */
  state: z.enum(['used', 'excluded', 'unusable']),
  notes: z.array(Text),
  /** sha256 of the content the mission recorded ('' before a mission has read it). */
  hash: z.string(),
});

/** The project's instruction files: those the next mission will read, or those the shown mission read. */
const InstructionsViewSchema = z.object({
  /** `workspace`: found in the workspace now, for the next mission; `mission`: what the shown mission recorded. */
  source: z.enum(['workspace', 'mission']),
  files: z.array(InstructionFileViewSchema),
  notes: z.array(Text),
});

/** One MCP server the shown mission could grant tools of (its tools by name; their argument schemas stay with the host). */
const McpServerViewSchema = McpServerInfoSchema.extend({ tools: z.array(McpToolInfoSchema.pick({ name: true, readOnly: true })) });

/** One hook as a settings file declares it. */
const HookLineViewSchema = z.object({ event: Text, matcher: Text, command: Text });

/**
 * The hooks the next mission would run: the user's own, and each project file with whether the user trusted
 * exactly its content. `fingerprint` names the untrusted files shown; trusting sends it back, so only what
 * the user saw is trusted.
 */
const HooksViewSchema = z.object({
  files: z.array(
    z.object({
      source: Text,
      origin: z.enum(['project', 'user']),
      trusted: z.boolean(),
      hooks: z.array(HookLineViewSchema),
      notes: z.array(Text),
    }),
  ),
  fingerprint: z.string(),
  /** False in an untrusted workspace: the project's hooks never run there. */
  canTrust: z.boolean(),
});

const SurfaceStateSchema = z.object({
  /** Monotonic snapshot number, so the webview can ignore stale snapshots. */
  rev: z.number().int().nonnegative(),
  trusted: z.boolean(),
  hasApiKey: z.boolean(),
  /** A long operation in progress (planning, replanning), shown with a cancel button. */
  busy: z.object({ label: Text }).nullable(),
  mission: MissionViewSchema.nullable(),
  approvals: z.array(ApprovalViewSchema),
  /** The plan version the engine is waiting to have approved (null: none is waiting). */
  planAwaitingApproval: z.number().int().nullable(),
  rules: z.array(ApprovalRuleSchema),
  /** Text to prefill the task box with (the editor selection when the command ran). */
  taskPrefill: Text.nullable(),
  /** The host's copy of the unsent task text (survives reloads, key setting and failed starts). */
  taskDraft: Text.nullable(),
  /** True when a scripted demo model answers (npm start -- --demo), said plainly in the UI. */
  demo: z.boolean(),
  /** Problems the user can act on (newest last). */
  notices: z.array(NoticeViewSchema),
  /** How commands run here (shown on the plan tree's command steps). Additive; absent = not known yet. */
  sandbox: SandboxStatusViewSchema.optional(),
  /** The mission's state as every surface shows it. */
  status: SurfaceStatusSchema,
  /** The project's instruction files (name, size, where each applies, whether it is used). Additive. */
  instructions: InstructionsViewSchema.optional(),
  /** The hooks the next mission would run, and the project's waiting for the user's trust. Additive. */
  hooks: HooksViewSchema.optional(),
});

export type WaitView = z.infer<typeof WaitViewSchema>;
export type MissionAction = z.infer<typeof MissionActionSchema>;
export type StepView = z.infer<typeof StepViewSchema>;
export type PlanVersionView = z.infer<typeof PlanVersionViewSchema>;
export type MissionView = z.infer<typeof MissionViewSchema>;
export type ApprovalView = z.infer<typeof ApprovalViewSchema>;
export type ApprovalRule = z.infer<typeof ApprovalRuleSchema>;
export type SandboxStatusView = z.infer<typeof SandboxStatusViewSchema>;
export type FieldChangeView = z.infer<typeof FieldChangeViewSchema>;
export type ReplanUiView = z.infer<typeof ReplanUiViewSchema>;
export type NoticeView = z.infer<typeof NoticeViewSchema>;
export type SurfaceState = z.infer<typeof SurfaceStateSchema>;
export type SurfaceStatus = z.infer<typeof SurfaceStatusSchema>;
export type InstructionFileView = z.infer<typeof InstructionFileViewSchema>;
export type InstructionsView = z.infer<typeof InstructionsViewSchema>;
export type McpServerView = z.infer<typeof McpServerViewSchema>;
export type HooksView = z.infer<typeof HooksViewSchema>;
/** One hook run on a step, as the core's view records it. */
export type HookRunView = StepView['hooks'][number];
/** Which webview renders the state: the sidebar view or the mission board (an editor tab). */
export type SurfaceKind = 'sidebar' | 'board';

// ───────────────────────────── host → webview ─────────────────────────────

const ToWebviewSchema = z.discriminatedUnion('type', [
  /** The whole state; answers every `ready` and follows any structural change. */
  z.object({ type: z.literal('state'), state: SurfaceStateSchema }),
  /** One step's run status changed (cheap update; the next snapshot carries it too). */
  z.object({ type: z.literal('didChangeStepStatus'), rev: z.number().int(), stepId: Id, status: StepRunStatusSchema, reason: Text.optional() }),
  /** Move keyboard focus to the task box (the palette command ran). */
  z.object({ type: z.literal('didRequestTaskFocus') }),
  /** A one-line notice for the user (an action failed, or was refused). */
  z.object({ type: z.literal('didNotify'), level: z.enum(['info', 'warning', 'error']), message: Text }),
  /** Select (and show) a step, e.g. the board opened from the sidebar's step list. */
  z.object({ type: z.literal('didSelectStep'), stepId: Id }),
  /**
   * Move keyboard focus to the oldest waiting approval (the status bar's "N waiting", Show Waiting Approvals,
   * a notification's Show); with nothing waiting, to the queue's place, saying so.
   */
  z.object({ type: z.literal('didRequestQueueFocus') }),
]);
export type ToWebview = z.infer<typeof ToWebviewSchema>;

/**
 * `ToWebviewSchema` as JSON Schema: what the webview checks host messages against (./hostMessages.ts),
 * derived by the build for the webview bundle. The output side (defaults applied) is what the host sends.
 */
export function hostMessageJsonSchema(): object {
  return z.toJSONSchema(ToWebviewSchema, { io: 'output', unrepresentable: 'throw' });
}

// ───────────────────────────── webview → host ─────────────────────────────

const AuthorityPatchSchema = z.object({
  edit: z.array(z.string().min(1).max(500)).max(200),
  commands: z.array(z.string().min(1).max(500)).max(200),
  /** MCP grants to keep (absent: unchanged). */
  mcp: z.array(z.string().min(1).max(200)).max(200).optional(),
});

export const FromWebviewSchema = z.discriminatedUnion('type', [
  /** The webview script loaded and wants a snapshot. */
  z.object({ type: z.literal('ready') }),
  /** Plan a new mission for this task. */
  z.object({ type: z.literal('runTask'), task: z.string().trim().min(1).max(20_000) }),
  /** Approve the shown plan version and start executing it. */
  z.object({ type: z.literal('approvePlan'), version: z.number().int().min(1) }),
  /** Replace one step's instructions (makes a new plan version). */
  z.object({ type: z.literal('editStep'), stepId: Id, instructions: z.string().max(20_000) }),
  /** Remove an optional step (makes a new plan version). */
  z.object({ type: z.literal('dropStep'), stepId: Id }),
  /** Narrow a step's edit globs and command allowlist (only removals are accepted by the host). */
  z.object({ type: z.literal('tightenAuthority'), stepId: Id, authority: AuthorityPatchSchema }),
  /** Add a user constraint binding on every step (makes a new plan version). */
  z.object({ type: z.literal('addConstraint'), text: z.string().trim().min(1).max(2_000) }),
  /** Approve a pending edit or command; optionally remember a rule for the rest of the mission. */
  z.object({ type: z.literal('approveAction'), requestId: Id, remember: z.boolean().default(false) }),
  /** Reject a pending edit or command; the reason goes back to the planner as a correction. */
  z.object({ type: z.literal('rejectAction'), requestId: Id, reason: z.string().trim().min(1).max(2_000) }),
  /** Open VS Code's diff editor for a pending edit or a step's changed file. */
  z.object({
    type: z.literal('openDiff'),
    target: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('approval'), requestId: Id }),
      z.object({ kind: z.literal('stepFile'), stepId: Id, path: z.string().min(1).max(4_000) }),
    ]),
    /** Give the diff editor focus (false: open beside, keep focus in the sidebar). */
    focus: z.boolean().default(false),
  }),
  /** Restore a finished step's checkpoint (the host confirms when later steps touched the same files). */
  z.object({ type: z.literal('revertStep'), stepId: Id }),
  /** Cancel the running mission (or the planning in progress). */
  z.object({ type: z.literal('cancelMission') }),
  /** Save the mission's trace to a file the user picks. */
  z.object({ type: z.literal('exportTrace') }),
  /** Open the current plan version as a document beside the board (runs "Plan & Execute: Open Plan as Document"). */
  z.object({ type: z.literal('openPlanDocument') }),
  /** Write the current plan version's document where the user picks (runs "Plan & Execute: Save Plan…"). */
  z.object({ type: z.literal('savePlan') }),
  /** Resume an interrupted mission from the store. */
  z.object({ type: z.literal('resume') }),
  /** Add an auto-approve rule for this mission. */
  z.object({ type: z.literal('addRule'), kind: z.enum(['write', 'command']), pattern: z.string().trim().min(1).max(500) }),
  /** Revoke an auto-approve rule. */
  z.object({ type: z.literal('revokeRule'), ruleId: Id }),
  /** Ask for the API key the settings miss (runs "Plan & Execute: Set API Key"). */
  z.object({ type: z.literal('setApiKey') }),
  /** Revert every step of the stopped mission that still has changes, newest first (the host confirms). */
  z.object({ type: z.literal('revertMission') }),
  /** Pick another model from what the provider offers (runs "Plan & Execute: Choose Model"). */
  z.object({ type: z.literal('chooseModel') }),
  /** Run the failed mission again from the failing step (or plan the task again if planning failed). */
  z.object({ type: z.literal('retryMission') }),
  /** Go on with a cancelled or budget-stopped mission, finished work kept. */
  z.object({ type: z.literal('continueMission') }),
  /** Open the Settings editor: on `query` (a cap to raise, the base URL), else on every setting of the extension. */
  z.object({
    type: z.literal('openSettings'),
    query: z
      .string()
      .regex(/^planExecute(\.[A-Za-z]+)*$/)
      .max(200)
      .optional(),
  }),
  /** Open the mission board in an editor tab, optionally with a step selected. */
  z.object({ type: z.literal('openBoard'), stepId: Id.optional() }),
  /** Approve every waiting request of a step, and the step's further requests while it runs (a step rule). */
  z.object({ type: z.literal('approveStep'), stepId: Id }),
  /** The unsent task text, kept by the host so a reload or a failed start never loses it. */
  z.object({ type: z.literal('saveTaskDraft'), text: z.string().max(20_000) }),
  /** Show the approval queue (the sidebar) with focus on the oldest waiting card. */
  z.object({ type: z.literal('focusQueue') }),
  /** Dismiss a notice. */
  z.object({ type: z.literal('dismissNotice'), id: Id }),
  /** The surface's size in CSS pixels (the board sends it when it changes): where a diff fits beside it. */
  z.object({ type: z.literal('surfaceSize'), width: z.number().int().min(0).max(100_000), height: z.number().int().min(0).max(100_000) }),
  /** Open a project instruction file in an editor (a workspace-relative path the host lists). */
  z.object({ type: z.literal('openInstructionFile'), path: z.string().min(1).max(4_000) }),
  /** Use, or leave out of the next mission, one project instruction file. */
  z.object({ type: z.literal('setInstructionIncluded'), path: z.string().min(1).max(4_000), included: z.boolean() }),
  /** Trust the project hooks the card showed (`fingerprint` names exactly those files and contents). */
  z.object({ type: z.literal('trustHooks'), fingerprint: z.string().min(1).max(200) }),
]);
export type FromWebview = z.infer<typeof FromWebviewSchema>;
type FromWebviewType = FromWebview['type'];
/** What the webview sends (before defaults are applied on the host). */
export type FromWebviewInput = z.input<typeof FromWebviewSchema>;

/** One handler per inbound message type: the compiler proves every message is handled. */
export type FromWebviewHandlers = {
  [K in FromWebviewType]: (message: Extract<FromWebview, { type: K }>) => void | Promise<void>;
};
