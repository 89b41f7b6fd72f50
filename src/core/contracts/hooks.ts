/**
 * Lifecycle hooks in Claude Code's shape (the common one: VS Code, Codex and Copilot read it too), as the
 * engine uses them: loaded at mission start from the project's settings files and the user's own, recorded
 * in the trace (`hooks`), and each run recorded (`hook_run`). A hook may deny, ask, block or take a change
 * back; it never widens what a step may do. A project's hooks are repository code: they run only once the
 * user trusted exactly those commands, and then confined like the step's own commands.
 */
import { z } from 'zod';

/** The events the engine fires (Claude Code's names). */
export const HookEventSchema = z.enum(['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'Stop']);

/**
 * `project`: read from the workspace (`.claude/settings.json`, `.claude/settings.local.json`,
 * `.github/hooks/*.json`, `.codex/hooks.json`) — runs only once trusted, inside the sandbox. `user`: the
 * user's own `~/.claude/settings.json` — runs as configured, unconfined, as the user.
 */
const HookOriginSchema = z.enum(['project', 'user']);

/** One command hook of one event, as a settings file declares it. */
const HookSchema = z.object({
  event: HookEventSchema,
  /** The matcher as written ('' when absent): a regular expression on the whole tool name; '', '*' match every tool. */
  matcher: z.string(),
  /** The command line, run by the shell at the workspace root. */
  command: z.string().min(1),
  timeoutSec: z.number().positive(),
  /** A hook that times out or crashes blocks the action instead of letting it proceed. */
  failClosed: z.boolean().default(false),
  /** The file it was read from, as shown to the user: workspace-relative, or `~/.claude/settings.json`. */
  source: z.string(),
  origin: HookOriginSchema,
  /** Extra environment variables the entry sets (`.github/hooks` entries' `env`). */
  env: z.record(z.string(), z.string()).default({}),
});

/** A settings file's hooks and its content hash (what the user's trust binds to). */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the type's one source (z.infer); nothing parses it at run time
const HookFileSchema = z.object({
  source: z.string(),
  origin: HookOriginSchema,
  /** sha256 (hex) of the file's bytes as read. */
  hash: z.string(),
  hooks: z.array(HookSchema),
  /** What was not used and why (malformed JSON, an unknown event, a prompt hook…). */
  notes: z.array(z.string()).default([]),
});

/** The hooks one mission uses: the ones that run, the project ones skipped because nobody trusted them, and notes. */
export const HookSetSchema = z.object({
  hooks: z.array(HookSchema),
  /** Project hooks not trusted for this mission: listed, never run. */
  skipped: z.array(HookSchema).default([]),
  notes: z.array(z.string()).default([]),
});

/**
 * What a hook's run came to, most restrictive last: `none` (fine, or a failure that lets the action
 * proceed), `allow` (stands in for the user's approval of what the policy permits), `ask` (the user decides,
 * whatever the mode), `deny` (PreToolUse: the tool does not run), `block` (the change is taken back, the step
 * goes on, the mission does not start).
 */
const HookDecisionSchema = z.enum(['none', 'allow', 'ask', 'deny', 'block']);

/** One hook run, as the trace records it. */
export const HookRunSchema = z.object({
  stepId: z.string().nullable(),
  event: HookEventSchema,
  source: z.string(),
  origin: HookOriginSchema,
  command: z.string(),
  /** The tool the event was about (Claude Code's name: Bash, Edit, Write, Read, mcp__server__tool). */
  tool: z.string().optional(),
  /** null: killed (timeout, cancel) or never started. */
  exit: z.number().int().nullable(),
  durationMs: z.number().nonnegative(),
  decision: HookDecisionSchema,
  timedOut: z.boolean(),
  /** Why (a deny's or block's reason: the hook's stderr or JSON reason), as the model or the user was told. */
  reason: z.string().optional(),
  /** Context the hook added (for the planner, or for the model with the tool's result). */
  context: z.string().optional(),
  /** What went wrong without deciding anything (a crash, malformed output, a timeout), naming the hook. */
  warning: z.string().optional(),
  /** The hook's own writes that were refused (outside the step's edit globs) or taken back. */
  writes: z.array(z.string()).default([]),
});

export type HookEvent = z.infer<typeof HookEventSchema>;
export type HookOrigin = z.infer<typeof HookOriginSchema>;
export type Hook = z.infer<typeof HookSchema>;
export type HookFile = z.infer<typeof HookFileSchema>;
export type HookSet = z.infer<typeof HookSetSchema>;
export type HookDecision = z.infer<typeof HookDecisionSchema>;
export type HookRunRecord = z.infer<typeof HookRunSchema>;
