/**
 * The sidebar's message contract, imported by both the host (src/vscode) and the webview (src/webview).
 * Host → webview: a full `state` snapshot (sent on every `ready`: the iframe reloads) and `did…`
 * notifications. Webview → host: `ready` and commands. The host `safeParse`s every message it receives
 * against these schemas; one that does not parse is logged and dropped. The webview imports only the
 * types from here and shape-checks host messages by hand (./hostMessages.ts), which keeps zod out of
 * its bundle.
 */
import { z } from 'zod';
import { MissionPhaseSchema, PlanDiffSchema, StepRunStatusSchema } from '../core/contracts/traceEvents';
import { AuthoritySchema, BindingSchema, EffortSchema, RiskSchema, StepKindSchema } from '../core/contracts/plan';

const Text = z.string().max(100_000);
const Id = z.string().min(1).max(200);

// ───────────────────────────── view model (what the sidebar renders) ─────────────────────────────

/** A file a step changed, with blob hashes for the diff. */
export const ChangedFileViewSchema = z.object({
  path: Text,
  change: z.enum(['created', 'modified', 'deleted']),
  beforeHash: z.string().nullable(),
  afterHash: z.string().nullable(),
});

/** One step as the sidebar shows it: the plan's fields plus its run state. */
export const StepViewSchema = z.object({
  id: Id,
  title: Text,
  why: Text,
  required: z.boolean(),
  dependsOn: z.array(Id),
  kind: StepKindSchema,
  instructions: Text,
  authority: AuthoritySchema,
  binding: BindingSchema,
  /** The evidence checks, one readable line each, plus the planner's prose. */
  evidence: z.array(Text),
  risk: RiskSchema,
  effort: EffortSchema,
  status: StepRunStatusSchema,
  attempt: z.number().int().nonnegative(),
  /** Why the status is what it is (failure message, interruption, replacement). */
  statusReason: Text.optional(),
  /** The executor's summary once a result exists. */
  output: Text.optional(),
  files: z.array(ChangedFileViewSchema),
});

/** One entry of the plan-version timeline: what changed and why. */
export const PlanVersionViewSchema = z.object({
  version: z.number().int(),
  parentVersion: z.number().int().nullable(),
  author: z.enum(['planner', 'user', 'replanner']),
  reason: Text,
  diff: PlanDiffSchema.nullable(),
  at: z.string(),
});

export const MissionViewSchema = z.object({
  missionId: Id,
  task: Text,
  phase: MissionPhaseSchema,
  goal: Text,
  assumptions: z.array(Text),
  constraints: z.array(Text),
  planVersion: z.number().int().nullable(),
  steps: z.array(StepViewSchema),
  versions: z.array(PlanVersionViewSchema),
  costUsd: z.number().nonnegative(),
  outcome: z.enum(['succeeded', 'failed', 'cancelled', 'budget_exceeded']).nullable(),
  summary: Text.nullable(),
  /** True while this window runs the mission (false after a reload until resumed). */
  live: z.boolean(),
});

/** A proposed edit or command waiting for the user. */
export const ApprovalViewSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('write'), requestId: Id, stepId: Id.nullable(), why: Text, path: Text, change: z.enum(['created', 'modified', 'deleted']) }),
  z.object({ kind: z.literal('command'), requestId: Id, stepId: Id.nullable(), why: Text, command: Text, cwd: Text }),
]);

/** An auto-approve rule the user set for this mission. */
export const ApprovalRuleSchema = z.object({
  id: Id,
  kind: z.enum(['write', 'command']),
  /** write: a workspace-relative glob; command: an exact command line, or a prefix ending in ` *`. */
  pattern: z.string().min(1).max(500),
});

export const SidebarStateSchema = z.object({
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
});

export type ChangedFileView = z.infer<typeof ChangedFileViewSchema>;
export type StepView = z.infer<typeof StepViewSchema>;
export type PlanVersionView = z.infer<typeof PlanVersionViewSchema>;
export type MissionView = z.infer<typeof MissionViewSchema>;
export type ApprovalView = z.infer<typeof ApprovalViewSchema>;
export type ApprovalRule = z.infer<typeof ApprovalRuleSchema>;
export type SidebarState = z.infer<typeof SidebarStateSchema>;

// ───────────────────────────── host → webview ─────────────────────────────

export const ToWebviewSchema = z.discriminatedUnion('type', [
  /** The whole state; answers every `ready` and follows any structural change. */
  z.object({ type: z.literal('state'), state: SidebarStateSchema }),
  /** One step's run status changed (cheap update; the next snapshot carries it too). */
  z.object({ type: z.literal('didChangeStepStatus'), rev: z.number().int(), stepId: Id, status: StepRunStatusSchema, reason: Text.optional() }),
  /** Move keyboard focus to the task box (the palette command ran). */
  z.object({ type: z.literal('didRequestTaskFocus') }),
  /** A one-line notice for the user (an action failed, or was refused). */
  z.object({ type: z.literal('didNotify'), level: z.enum(['info', 'warning', 'error']), message: Text }),
]);
export type ToWebview = z.infer<typeof ToWebviewSchema>;

// ───────────────────────────── webview → host ─────────────────────────────

const AuthorityPatchSchema = z.object({ edit: z.array(z.string().min(1).max(500)).max(200), commands: z.array(z.string().min(1).max(500)).max(200) });

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
  /** Resume an interrupted mission from the store. */
  z.object({ type: z.literal('resume') }),
  /** Add an auto-approve rule for this mission. */
  z.object({ type: z.literal('addRule'), kind: z.enum(['write', 'command']), pattern: z.string().trim().min(1).max(500) }),
  /** Revoke an auto-approve rule. */
  z.object({ type: z.literal('revokeRule'), ruleId: Id }),
  /** Ask for the API key the settings miss (runs "Plan & Execute: Set API Key"). */
  z.object({ type: z.literal('setApiKey') }),
]);
export type FromWebview = z.infer<typeof FromWebviewSchema>;
export type FromWebviewType = FromWebview['type'];
/** What the webview sends (before defaults are applied on the host). */
export type FromWebviewInput = z.input<typeof FromWebviewSchema>;

/** One handler per inbound message type: the compiler proves every message is handled. */
export type FromWebviewHandlers = {
  [K in FromWebviewType]: (message: Extract<FromWebview, { type: K }>) => void | Promise<void>;
};
