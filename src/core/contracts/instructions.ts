/**
 * Project instruction files (AGENTS.md, CLAUDE.md, Copilot's and Cursor's rules, .clinerules) as the
 * engine uses them: read once at mission start, recorded in the trace with their content hashes and the
 * text that was used (a replay uses the recorded text, never the disk). They are repository text: they
 * reach the planner and, by path, the executors; they never grant authority.
 */
import { z } from 'zod';

/** Which convention a file follows (decides how its scope is read). */
export const InstructionKindSchema = z.enum(['agents', 'claude', 'copilot', 'copilot-scoped', 'cursor', 'cline']);

/**
 * Where a file applies: `always` (every step), `folder` (paths under the folder, where it is the nearest file
 * of its kind — nested AGENTS.md), `globs` (paths matching any glob: Copilot's `applyTo`, Cursor's `globs`),
 * `manual` (no scope: only the planner reads it).
 */
export const InstructionScopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('always') }),
  z.object({ kind: z.literal('folder'), folder: z.string() }),
  z.object({ kind: z.literal('globs'), globs: z.array(z.string().min(1)).min(1) }),
  z.object({ kind: z.literal('manual'), description: z.string().default('') }),
]);

export const InstructionFileSchema = z.object({
  /** Workspace-relative, POSIX. */
  path: z.string().min(1),
  kind: InstructionKindSchema,
  scope: InstructionScopeSchema,
  /** Size of the file on disk, in bytes. */
  size: z.number().int().nonnegative(),
  /** sha256 (hex) of the file's bytes as read. */
  hash: z.string(),
  /** The text used (front matter removed), capped. */
  text: z.string(),
  /** The text was cut to the cap (a note says so). */
  truncated: z.boolean().default(false),
  /** Problems worth showing: malformed front matter, text cut, file not used and why. */
  notes: z.array(z.string()).default([]),
  /** The user left it out of this mission (listed, never used). */
  excluded: z.boolean().default(false),
  /** Not used: it could not be read as its convention demands (a note says why). */
  unusable: z.boolean().default(false),
});

export const InstructionSetSchema = z.object({
  files: z.array(InstructionFileSchema),
  /** Notes about the set as a whole (too many files, the total cap). */
  notes: z.array(z.string()).default([]),
});

export type InstructionKind = z.infer<typeof InstructionKindSchema>;
export type InstructionScope = z.infer<typeof InstructionScopeSchema>;
export type InstructionFile = z.infer<typeof InstructionFileSchema>;
export type InstructionSet = z.infer<typeof InstructionSetSchema>;

/** One instruction as a role reads it: where it comes from, where it applies, and its text. */
export const AppliedInstructionSchema = z.object({ path: z.string(), scope: z.string(), text: z.string() });
export type AppliedInstruction = z.infer<typeof AppliedInstructionSchema>;
