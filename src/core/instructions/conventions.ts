/**
 * Which files are instructions, and how each convention states its scope:
 *  - `AGENTS.md`, `CLAUDE.md` (any folder): the nearest one up from a path applies to it;
 *  - `.github/copilot-instructions.md`: always;
 *  - `.github/instructions/*.instructions.md`: front matter `applyTo` (globs, comma-separated or a list;
 *    `**` = always; none = applied by hand only);
 *  - `.cursor/rules/*.mdc`: `alwaysApply: true` = always, else `globs`, else by hand only (its description);
 *  - `.clinerules`: a file (always) or a folder of `.md`/`.txt` files (each always).
 * Front matter is read with zod: a malformed one makes the file unusable, with a note, never a crash.
 */
import { z } from 'zod';
import type { InstructionKind, InstructionScope } from '../contracts/instructions';
import { parseFrontMatter, type FrontMatterValue } from './frontMatter';
import { isBelow, pathBelow } from '../primitives/paths';
import { err, ok, type Result } from '../contracts/result';

export const COPILOT_FILE = '.github/copilot-instructions.md';
export const COPILOT_DIR = '.github/instructions';
export const CURSOR_DIR = '.cursor/rules';
export const CLINE_PATH = '.clinerules';
export const NESTED_NAMES: Record<string, InstructionKind> = { 'AGENTS.md': 'agents', 'CLAUDE.md': 'claude' };

/** The convention a workspace path follows, or undefined when it is not an instruction file. */
export function kindOf(path: string): InstructionKind | undefined {
  const name = path.split('/').pop() ?? '';
  if (NESTED_NAMES[name]) return NESTED_NAMES[name];
  const directlyIn = (dir: string): boolean => !(pathBelow(path, dir) ?? '/').includes('/');
  if (path === COPILOT_FILE) return 'copilot';
  if (directlyIn(COPILOT_DIR) && name.endsWith('.instructions.md')) return 'copilot-scoped';
  if (directlyIn(CURSOR_DIR) && /\.mdc?$/.test(name)) return 'cursor';
  if (path === CLINE_PATH || (isBelow(path, CLINE_PATH) && /\.(md|txt)$/.test(name))) return 'cline';
  return undefined;
}

/** A list of globs from a front-matter value: a comma-separated string or a list. */
const GlobsSchema = z
  .union([z.string(), z.array(z.string()), z.null()])
  .transform((v) => (v === null ? [] : Array.isArray(v) ? v : v.split(',')).map((g) => g.trim()).filter((g) => g !== ''));

const CopilotSchema = z.object({ applyTo: GlobsSchema.optional(), description: z.string().nullable().optional() });
const CursorSchema = z.object({
  globs: GlobsSchema.optional(),
  alwaysApply: z
    .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')])
    .nullable()
    .optional(),
  description: z.string().nullable().optional(),
});

export type Reading = Result<{ scope: InstructionScope; body: string; notes: string[] }, { note: string; body: string }>;

const EVERYTHING = new Set(['**', '**/*', '*']);

function globsScope(globs: string[], description: string): InstructionScope {
  if (globs.some((g) => EVERYTHING.has(g))) return { kind: 'always' };
  return globs.length > 0 ? { kind: 'globs', globs } : { kind: 'manual', description };
}

function issues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'front matter'}: ${i.message}`).join('; ');
}

/** Reads one file's text as its convention demands: its scope, and the text a role gets. */
export function readConvention(path: string, kind: InstructionKind, text: string): Reading {
  if (kind === 'agents' || kind === 'claude') {
    const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    return ok({ scope: { kind: 'folder', folder }, body: text, notes: [] });
  }
  if (kind === 'copilot' || kind === 'cline') return ok({ scope: { kind: 'always' }, body: text, notes: [] });
  const fm = parseFrontMatter(text);
  if (!fm.ok) return err({ note: `not used: malformed front matter (${fm.error.reason})`, body: fm.error.body });
  const data: Record<string, FrontMatterValue> = fm.value.data;
  if (kind === 'copilot-scoped') {
    const parsed = CopilotSchema.safeParse(data);
    if (!parsed.success) return err({ note: `not used: malformed front matter (${issues(parsed.error)})`, body: fm.value.body });
    const scope = globsScope(parsed.data.applyTo ?? [], parsed.data.description ?? '');
    const notes = scope.kind === 'manual' ? ['no applyTo: only the planner reads it (it names no files an executor works on)'] : [];
    return ok({ scope, body: fm.value.body, notes });
  }
  const parsed = CursorSchema.safeParse(data);
  if (!parsed.success) return err({ note: `not used: malformed front matter (${issues(parsed.error)})`, body: fm.value.body });
  if (parsed.data.alwaysApply === true) return ok({ scope: { kind: 'always' }, body: fm.value.body, notes: [] });
  const scope = globsScope(parsed.data.globs ?? [], parsed.data.description ?? '');
  const notes = scope.kind === 'manual' ? ['neither alwaysApply nor globs: only the planner reads it (it names no files an executor works on)'] : [];
  return ok({ scope, body: fm.value.body, notes });
}
