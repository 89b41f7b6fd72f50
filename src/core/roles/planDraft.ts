/**
 * The model-facing plan schema. PlanSchema (the contract) has defaults and engine-owned fields (version,
 * parentVersion); structured outputs want every field explicit, described, and nothing the engine sets.
 * So the planner fills this draft, and `draftToPlanInput` turns it into a PlanInput for `validatePlan`,
 * which stays the single judge of what a valid plan is.
 */
import { z } from 'zod';
import type { PlanInput } from '../contracts/plan';
import { structuredOutputSchema } from '../model/outputSchema';
import { errorText } from '../primitives/errorText';
import { err, ok, type Result } from '../contracts/result';

const CheckDraft = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('command'),
    command: z.string().describe("Exact command line; must be in the step's commands allowlist."),
    expectExitCode: z.number().int(),
    expectOutputIncludes: z.string().nullable().describe('Substring the output must contain, or null.'),
  }),
  z.object({ kind: z.literal('files_exist'), paths: z.array(z.string()).describe('Workspace-relative paths, not globs.') }),
  z.object({ kind: z.literal('file_contains'), path: z.string(), text: z.string() }),
  z.object({ kind: z.literal('review'), criterion: z.string().describe('What a read-only reviewer must confirm.') }),
]);

const StepDraft = z.object({
  id: z.string().describe('Short stable id: letters, digits, "_", "." or "-" (e.g. "s1").'),
  title: z.string(),
  why: z.string(),
  required: z.boolean().describe('true for the main objective; false for optional extras.'),
  dependsOn: z.array(z.string()).describe('Ids of steps whose output or state this step needs.'),
  kind: z.enum(['edit', 'command', 'research', 'verify']),
  instructions: z.string(),
  authority: z.object({
    read: z.array(z.string()).describe('Globs the step may read (e.g. ["**"]).'),
    edit: z.array(z.string()).describe('Globs the step may write; [] for none.'),
    commands: z.array(z.string()).describe('Allowed command lines; a trailing " *" allows extra arguments.'),
    // Required in the JSON schema the model gets (output type); a scripted or older draft without it parses as false.
    network: z
      .boolean()
      .default(false)
      .describe("true only if the step's commands must reach the internet (installing packages, fetching); loopback works without it."),
    // Like network: required for the model; a scripted or older draft without it parses as none.
    mcp: z.array(z.string()).default([]).describe('MCP tools the step may call: "server/tool", or "server/*" for every tool of a server; [] for none.'),
  }),
  binding: z.object({
    prerequisite: z.string(),
    fallback: z.string(),
    consequence: z.string(),
  }),
  expectedOutput: z.string(),
  evidence: z.object({ checks: z.array(CheckDraft), description: z.string() }),
  risk: z.enum(['low', 'medium', 'high']),
  effort: z.enum(['small', 'medium', 'large']),
  modelTier: z.enum(['light', 'standard', 'heavy']),
});

const ConstraintCheckDraft = z.object({
  constraint: z.string().describe('One of "constraints", verbatim: the rule this check enforces.'),
  source: z.string().describe('The instruction file the rule comes from (e.g. "AGENTS.md"), or "" for the user\'s own.'),
  check: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('forbid_paths'), globs: z.array(z.string()).describe('Workspace globs no step may write.') }),
    z.object({ kind: z.literal('command'), command: z.string().describe('A command that must pass (read-only check).'), expectExitCode: z.number().int() }),
  ]),
  steps: z.array(z.string()).describe('For a command check: the steps after which it runs ([]: every step that changes files).'),
});

export const PlanDraftSchema = z.object({
  goal: z.string(),
  assumptions: z.array(z.string()),
  constraints: z.array(z.string()).describe("The user's constraints, verbatim."),
  direct: z.boolean().describe('true if the task is a one- or two-step job.'),
  reason: z.string().describe('Why this plan version exists (for a first plan: "initial plan").'),
  steps: z.array(StepDraft),
  // Required for the model; a scripted or older draft without it parses as none.
  constraintChecks: z
    .array(ConstraintCheckDraft)
    .default([])
    .describe('Checks the engine runs for constraints it can check in code (rules from project instructions).'),
});

export type PlanDraft = z.infer<typeof PlanDraftSchema>;

/**
 * The JSON schema sent as output_config.format, made strict by the structured-output transform the SDK's
 * zod helper uses (model/outputSchema.ts, the same rules without the SDK), but inlined: the helper's `reused: 'ref'` turns every shared `z.string()`
 * into a `$defs` entry, which only makes the schema harder for the model to read.
 */
export const PLAN_DRAFT_JSON_SCHEMA: Record<string, unknown> = structuredOutputSchema(z.toJSONSchema(PlanDraftSchema) as Record<string, unknown>);

export function draftToPlanInput(draft: PlanDraft, version: number, parentVersion: number | null): PlanInput {
  return {
    goal: draft.goal,
    assumptions: draft.assumptions,
    constraints: draft.constraints,
    direct: draft.direct,
    reason: draft.reason,
    version,
    parentVersion,
    ...(draft.constraintChecks.length > 0 ? { constraintChecks: draft.constraintChecks } : {}),
    steps: draft.steps.map((s) => ({
      ...s,
      evidence: {
        description: s.evidence.description,
        checks: s.evidence.checks.map((c) =>
          c.kind === 'command'
            ? {
                kind: 'command' as const,
                command: c.command,
                expectExitCode: c.expectExitCode,
                ...(c.expectOutputIncludes ? { expectOutputIncludes: c.expectOutputIncludes } : {}),
              }
            : c,
        ),
      },
    })),
  };
}

export type DraftParse = Result<PlanDraft, { path: string; message: string }[]>;

/**
 * The JSON in a model's answer. Structured outputs give bare JSON; a server that ignores the response
 * format may wrap it in a ```json fence or a sentence, so the one object in the text is tried next — the
 * schema still judges what it holds.
 */
function jsonIn(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (first) {
    const fenced = /```(?:json)?\s*\n([\s\S]*?)\n?```/.exec(text)?.[1];
    const start = text.indexOf('{');
    const end = text.lastIndexOf('}');
    for (const candidate of [fenced, start >= 0 && end > start ? text.slice(start, end + 1) : undefined]) {
      if (candidate === undefined) continue;
      try {
        return JSON.parse(candidate);
      } catch {
        // try the next form
      }
    }
    throw first;
  }
}

/** Parses the model's text: JSON first, then the draft shape. Errors name JSON paths for the repair turn. */
export function parseDraft(text: string): DraftParse {
  let json: unknown;
  try {
    json = jsonIn(text);
  } catch (e) {
    return err([{ path: '', message: `not valid JSON: ${errorText(e)}` }]);
  }
  const parsed = PlanDraftSchema.safeParse(json);
  if (parsed.success) return ok(parsed.data);
  return err(
    parsed.error.issues.map((i) => ({
      path: i.path
        .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
        .join('')
        .replace(/^\./, ''),
      message: i.message,
    })),
  );
}
