/**
 * The plan contract: what the planner returns, what the user edits and approves, and what binds every
 * executor. Field names are listed in docs/architecture.md ("Plan schema"); change them only deliberately.
 *
 * These schemas check *shape*. Cross-field rules (unique ids, known dependencies, no cycles, authority
 * inside the workspace, size caps) live in `validatePlan` (./validate.ts), which reports every problem at
 * once with a JSON path.
 */
import { z } from 'zod';

/** A step id: short, stable, safe to show and to use in file names ("s1", "build-api", "4a"). */
export const StepIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'step ids use letters, digits, "_", "." and "-" only');

export const StepKindSchema = z.enum(['edit', 'command', 'research', 'verify']);
export const RiskSchema = z.enum(['low', 'medium', 'high']);
export const EffortSchema = z.enum(['small', 'medium', 'large']);
/** Which executor class fits the step's output burden; settings map tiers to concrete models. */
export const ModelTierSchema = z.enum(['light', 'standard', 'heavy']);

/** One MCP grant: `server/tool` or `server/*` (names as the catalogue spells them; no other wildcard). */
export const McpGrantSchema = z
  .string()
  .min(3)
  .max(200)
  .regex(/^[^/*\s]+\/(\*|[^/*\s]+)$/, 'an MCP grant is "server/tool" or "server/*"');

/**
 * What a step may touch. Globs are workspace-relative, POSIX separators, picomatch syntax.
 * `commands` is an allowlist of command patterns matched by parsed argv (see src/core/tools/commands):
 * `npm test` allows exactly that argv; a trailing ` *` (e.g. `npm test *`) allows extra arguments.
 */
export const AuthoritySchema = z.object({
  read: z.array(z.string().min(1)).default(['**']),
  edit: z.array(z.string().min(1)).default([]),
  commands: z.array(z.string().min(1)).default([]),
  /**
   * Whether the step's commands may reach the network (outside loopback). Off unless the plan grants it
   * explicitly; the OS sandbox enforces it. Additive: absent = false.
   */
  network: z.boolean().default(false),
  /**
   * MCP tools the step may call, as `server/tool` or `server/*` (src/core/mcp/grants.ts). Each call still
   * passes the policy and the approval gate. Additive: absent = none.
   */
  mcp: z.array(McpGrantSchema).default([]),
});

/** State that must survive the handoff, stated as binding data rather than prose. */
export const BindingSchema = z.object({
  /** What must hold before the step may start (checked by the executor; `escalate` if it does not). */
  prerequisite: z.string().default(''),
  /** What to do if the main approach fails, before asking for a replan. */
  fallback: z.string().default(''),
  /** The state the step must leave behind for its dependents. */
  consequence: z.string().default(''),
});

/** One deterministic evidence check. */
export const EvidenceCheckSchema = z.discriminatedUnion('kind', [
  /** Run a command (must be in the step's or the verifier's allowlist) and expect an exit code. */
  z.object({
    kind: z.literal('command'),
    command: z.string().min(1),
    expectExitCode: z.number().int().default(0),
    /** Optional substring the combined output must contain. */
    expectOutputIncludes: z.string().optional(),
  }),
  /** Files (workspace-relative paths, not globs) that must exist after the step. */
  z.object({ kind: z.literal('files_exist'), paths: z.array(z.string().min(1)).min(1) }),
  /** A file must contain a substring. */
  z.object({ kind: z.literal('file_contains'), path: z.string().min(1), text: z.string().min(1) }),
  /** A read-only model review against a stated criterion. */
  z.object({ kind: z.literal('review'), criterion: z.string().min(1) }),
]);

export const EvidenceSchema = z.object({
  checks: z.array(EvidenceCheckSchema).default([]),
  /** Prose for the user; never used as a check by itself. */
  description: z.string().default(''),
});

export const StepSchema = z.object({
  id: StepIdSchema,
  title: z.string().min(1).max(200),
  why: z.string().default(''),
  /** Main objective (true) or optional extra (false). An optional step's failure blocks only its dependents. */
  required: z.boolean().default(true),
  dependsOn: z.array(StepIdSchema).default([]),
  kind: StepKindSchema,
  instructions: z.string().default(''),
  authority: AuthoritySchema.default({ read: ['**'], edit: [], commands: [], network: false, mcp: [] }),
  binding: BindingSchema.default({ prerequisite: '', fallback: '', consequence: '' }),
  expectedOutput: z.string().default(''),
  evidence: EvidenceSchema.default({ checks: [], description: '' }),
  risk: RiskSchema.default('low'),
  effort: EffortSchema.default('small'),
  modelTier: ModelTierSchema.default('standard'),
});

/**
 * How the engine checks one constraint (usually a rule from the project's instruction files), so that it
 * binds in code, not only in words: `forbid_paths` — no step may write these globs (the policy refuses it,
 * and the verifier checks each step's changed files); `command` — the verifier runs it (read-only, in the
 * OS sandbox) after the named steps, and it must exit as expected.
 */
export const ConstraintCheckSchema = z.object({
  /** The constraint it enforces: one of the plan's `constraints`, verbatim. */
  constraint: z.string().min(1),
  /** The instruction file the rule comes from (workspace-relative), or '' for the user's own constraint. */
  source: z.string().default(''),
  check: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('forbid_paths'), globs: z.array(z.string().min(1)).min(1) }),
    z.object({ kind: z.literal('command'), command: z.string().min(1), expectExitCode: z.number().int().default(0) }),
  ]),
  /** The steps after which a `command` check runs (empty: every step that changes files). */
  steps: z.array(StepIdSchema).default([]),
});

export const PlanSchema = z.object({
  goal: z.string().min(1),
  assumptions: z.array(z.string()).default([]),
  /** Constraints from the user; binding on every step. */
  constraints: z.array(z.string()).default([]),
  steps: z.array(StepSchema),
  version: z.number().int().min(1).default(1),
  parentVersion: z.number().int().min(1).nullable().default(null),
  /** Why this version exists ("initial plan", "step s4 failed: tests red", "user edited s2"). */
  reason: z.string().default('initial plan'),
  /** Planner's judgement that the task is a one- or two-step job (direct mode). */
  direct: z.boolean().default(false),
  /**
   * Finished steps this version deliberately re-opens, each with why (a replan may change or drop a
   * finished step only by naming it here; the engine refuses it otherwise). Additive; absent = none.
   */
  invalidated: z.array(z.object({ stepId: StepIdSchema, reason: z.string().min(1) })).optional(),
  /** Constraints the engine checks in code (see ConstraintCheckSchema). Additive; absent = none. */
  constraintChecks: z.array(ConstraintCheckSchema).optional(),
});

export type StepId = z.infer<typeof StepIdSchema>;
export type StepKind = z.infer<typeof StepKindSchema>;
export type ModelTier = z.infer<typeof ModelTierSchema>;
export type Authority = z.infer<typeof AuthoritySchema>;
export type Binding = z.infer<typeof BindingSchema>;
export type ConstraintCheck = z.infer<typeof ConstraintCheckSchema>;
export type EvidenceCheck = z.infer<typeof EvidenceCheckSchema>;
export type Evidence = z.infer<typeof EvidenceSchema>;
export type Step = z.infer<typeof StepSchema>;
export type Plan = z.infer<typeof PlanSchema>;
/** What a producer (planner, user edit) may leave out; defaults fill the rest. */
export type PlanInput = z.input<typeof PlanSchema>;
export type StepInput = z.input<typeof StepSchema>;
