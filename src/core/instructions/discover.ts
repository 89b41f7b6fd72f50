/**
 * Finds and reads the project's instruction files through the Workspace port, at mission start. Every file
 * is read through the same read rules as an executor's `view` (a path `.planexecuteignore` excludes, or a
 * secret, is never opened). Caps keep a huge AGENTS.md from crowding out the task: each file's text and
 * the set's total are cut, each cut said in a note; a file past the file limit is listed, not used.
 *
 * Order: the root's files first, then deeper ones, each level by path; the total cap therefore falls on
 * the deepest files first, and each file it cuts says so.
 */
import type { InstructionFile, InstructionSet } from '../contracts/instructions';
import type { Workspace } from '../ports';
import { isReadable, policyFor } from '../policy/policy';
import { sha256Hex } from '../primitives/hash';
import { CLINE_PATH, COPILOT_DIR, COPILOT_FILE, CURSOR_DIR, kindOf, NESTED_NAMES, readConvention } from './conventions';

export interface InstructionLimits {
  /** Characters of one file's text that are used. */
  maxFileChars: number;
  /** Characters of all files' text together. */
  maxTotalChars: number;
  /** Files read at most (more are listed as not used). */
  maxFiles: number;
  /** Files larger than this are not read at all. */
  maxFileBytes: number;
  /** Workspace entries the search for nested AGENTS.md / CLAUDE.md looks at. */
  scanLimit: number;
}

export const DEFAULT_INSTRUCTION_LIMITS: InstructionLimits = {
  maxFileChars: 16_000,
  maxTotalChars: 48_000,
  maxFiles: 40,
  maxFileBytes: 1_000_000,
  scanLimit: 50_000,
};

/** Folders the search for nested files never enters (dependencies, build outputs, VCS data, our store). */
const PRUNED = new Set([
  'node_modules',
  '.git',
  '.plan-execute',
  '.venv',
  'venv',
  'vendor',
  'dist',
  'build',
  'out',
  'target',
  '.next',
  'coverage',
  '__pycache__',
  '.tox',
  '.cache',
]);

export interface DiscoverOptions {
  /** Workspace-relative paths the user left out of this mission (listed, never used). */
  exclude?: readonly string[];
  limits?: Partial<InstructionLimits>;
}

async function candidatePaths(workspace: Workspace, limit: number, notes: string[]): Promise<string[]> {
  const found = new Set<string>();
  const scan = await workspace.scan({
    prune: (path) => PRUNED.has(path.split('/').pop() ?? ''),
    limit,
    detail: () => false,
  });
  if (scan.truncated) notes.push(`the search for nested AGENTS.md and CLAUDE.md stopped after ${limit} entries; files deeper in were not looked for`);
  for (const e of scan.entries) {
    if (e.kind !== 'file') continue;
    if (NESTED_NAMES[e.path.split('/').pop() ?? ''] || kindOf(e.path) !== undefined) found.add(e.path);
  }
  // The fixed places, in case the scan pruned or missed them (.github and .cursor are plain folders).
  for (const p of [COPILOT_FILE, CLINE_PATH]) if ((await workspace.stat(p))?.kind === 'file') found.add(p);
  for (const dir of [COPILOT_DIR, CURSOR_DIR, CLINE_PATH]) {
    if ((await workspace.stat(dir))?.kind !== 'directory') continue;
    for (const e of await workspace.readDir(dir)) if (e.kind === 'file' && kindOf(`${dir}/${e.name}`)) found.add(`${dir}/${e.name}`);
  }
  return [...found].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
}

export async function discoverInstructions(workspace: Workspace, options: DiscoverOptions = {}): Promise<InstructionSet> {
  const limits = { ...DEFAULT_INSTRUCTION_LIMITS, ...options.limits };
  const notes: string[] = [];
  const excluded = new Set(options.exclude ?? []);
  const policy = policyFor(workspace.root, null, { fs: workspace.policyFs });
  const files: InstructionFile[] = [];
  let total = 0;
  const paths = (await candidatePaths(workspace, limits.scanLimit, notes)).filter((p) => isReadable(policy, p, false));
  for (const path of paths) {
    const kind = kindOf(path)!;
    const base = { path, kind, size: 0, hash: '', text: '', truncated: false, notes: [] as string[], excluded: excluded.has(path), unusable: false };
    const stat = await workspace.stat(path);
    if (!stat || stat.kind !== 'file') continue;
    base.size = stat.size;
    if (files.length >= limits.maxFiles) {
      files.push({ ...base, scope: { kind: 'always' }, unusable: true, notes: [`not used: more than ${limits.maxFiles} instruction files`] });
      continue;
    }
    if (stat.size > limits.maxFileBytes) {
      files.push({
        ...base,
        scope: { kind: 'always' },
        unusable: true,
        notes: [`not used: ${stat.size} bytes is over the ${limits.maxFileBytes}-byte limit for an instruction file`],
      });
      continue;
    }
    const bytes = await workspace.readFile(path);
    base.hash = sha256Hex(bytes);
    const raw = new TextDecoder('utf-8').decode(bytes);
    const reading = readConvention(path, kind, raw);
    if (!reading.ok) {
      files.push({ ...base, scope: { kind: 'always' }, unusable: true, notes: [reading.error.note] });
      continue;
    }
    let text = reading.value.body.trim();
    const fileNotes = [...reading.value.notes];
    if (text === '') fileNotes.push('empty: nothing to use');
    const room = base.excluded ? text.length : Math.max(0, Math.min(limits.maxFileChars, limits.maxTotalChars - total));
    let truncated = false;
    if (text.length > room) {
      fileNotes.push(
        room === 0
          ? `not used: the instructions' total cap (${limits.maxTotalChars} characters) was reached before this file`
          : `cut to ${room} of ${text.length} characters (${room < limits.maxFileChars ? "the instructions' total cap" : 'the per-file cap'})`,
      );
      text = text.slice(0, room);
      truncated = true;
    }
    if (!base.excluded) total += text.length;
    files.push({ ...base, scope: reading.value.scope, text, truncated, notes: fileNotes, unusable: room === 0 && truncated });
  }
  return { files, notes };
}

/** The files a mission uses: listed, readable, not left out. */
export function usableInstructions(set: InstructionSet | undefined): InstructionFile[] {
  return (set?.files ?? []).filter((f) => !f.excluded && !f.unusable && f.text !== '');
}
