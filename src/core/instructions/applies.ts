/**
 * Which instruction files apply to which work:
 *  - the planner reads every usable file, each with where it applies;
 *  - an executor gets those that apply to its step's files (edit globs and evidence paths): `always` ones;
 *    per folder-scoped convention (AGENTS.md, CLAUDE.md), the nearest file up from each path, plus deeper
 *    ones a glob can reach; `globs` ones whose globs can match a path the step may touch. A step that
 *    names no file (a command or research step) works at the root: the root's files apply.
 * Glob against glob is decided with probe paths built from both globs (a literal path is tested as is):
 * it errs towards applying, which costs context, never a missed rule the step's files are under.
 */
import picomatch from 'picomatch';
import type { AppliedInstruction, InstructionFile, InstructionScope, InstructionSet } from '../contracts/instructions';
import type { Step } from '../contracts/plan';
import { isLiteralPath, literalPrefix } from '../plan/globs';
import { usableInstructions } from './discover';
import { isWithin } from '../primitives/paths';

const GLOB = { dot: true } as const;

/** Where a file applies, in words (for the planner, the handoff and the surfaces). */
export function describeScope(scope: InstructionScope): string {
  switch (scope.kind) {
    case 'always':
      return 'applies to every step';
    case 'folder':
      return scope.folder === ''
        ? 'applies everywhere, unless a nearer file of its kind exists'
        : `applies under ${scope.folder}/ (nearest file of its kind wins)`;
    case 'globs':
      return `applies to files matching ${scope.globs.join(', ')}`;
    case 'manual':
      return `no scope${scope.description ? ` (${scope.description})` : ''}: for planning only`;
  }
}

function folderOf(glob: string): string {
  const prefix = isLiteralPath(glob) ? glob : literalPrefix(glob);
  const dir = isLiteralPath(glob) ? prefix.slice(0, Math.max(0, prefix.lastIndexOf('/'))) : prefix.replace(/\/?[^/]*$/, '');
  return dir === '.' ? '' : dir;
}

function extOf(glob: string): string {
  return /\*(\.[\w.-]+)$/.exec(glob.split('/').pop() ?? '')?.[1] ?? '';
}

/** Could a path matched by `path` (a glob or a literal path) also match one of `globs`? Errs towards yes. */
export function globsMayApply(path: string, globs: readonly string[]): boolean {
  const scope = picomatch([...globs], GLOB);
  if (isLiteralPath(path)) return scope(path);
  const own = picomatch(path, GLOB);
  const probes = new Set<string>();
  for (const g of globs) {
    const ext = extOf(path) || extOf(g) || '.x';
    for (const base of [folderOf(path), folderOf(g)]) {
      const at = base === '' ? '' : `${base}/`;
      probes.add(`${at}pe-probe${ext}`).add(`${at}pe-probe/pe-probe${ext}`).add(`${at}pe-probe/pe-probe/pe-probe${ext}`);
    }
    if (isLiteralPath(g)) probes.add(g);
  }
  return [...probes].some((p) => own(p) && scope(p));
}

/** The files that apply to work on `paths` (globs or literal paths; empty = the workspace root). */
export function instructionsForPaths(files: readonly InstructionFile[], paths: readonly string[]): InstructionFile[] {
  const targets = paths.length > 0 ? paths : ['.'];
  const out = new Set<InstructionFile>();
  const byKind = new Map<string, InstructionFile[]>();
  for (const f of files) {
    if (f.scope.kind === 'always') out.add(f);
    else if (f.scope.kind === 'globs' && targets.some((t) => t !== '.' && globsMayApply(t, (f.scope as { globs: string[] }).globs))) out.add(f);
    else if (f.scope.kind === 'folder') byKind.set(f.kind, [...(byKind.get(f.kind) ?? []), f]);
  }
  for (const group of byKind.values()) {
    for (const t of targets) {
      const base = t === '.' ? '' : folderOf(t);
      const folder = (f: InstructionFile): string => (f.scope.kind === 'folder' ? f.scope.folder : '');
      // The nearest file up from the target's folder...
      const nearest = group.filter((f) => isWithin(base, folder(f))).sort((a, b) => folder(b).length - folder(a).length)[0];
      if (nearest) out.add(nearest);
      // ...and, for a glob, every deeper file the glob can reach.
      if (t !== '.' && !isLiteralPath(t)) {
        for (const f of group) if (folder(f) !== base && isWithin(folder(f), base) && globsMayApply(t, [`${folder(f)}/**`])) out.add(f);
      }
    }
  }
  return files.filter((f) => out.has(f));
}

/** The paths a step works on, for choosing its instructions: edit globs and the files its evidence names. */
export function stepPaths(step: Step): string[] {
  const evidence = step.evidence.checks.flatMap((c) => (c.kind === 'files_exist' ? c.paths : c.kind === 'file_contains' ? [c.path] : []));
  return [...new Set([...step.authority.edit, ...evidence])];
}

const applied = (f: InstructionFile): AppliedInstruction => ({ path: f.path, scope: describeScope(f.scope), text: f.text });

/** The instructions an executor gets for one step. */
export function instructionsForStep(set: InstructionSet | undefined, step: Step): AppliedInstruction[] {
  return instructionsForPaths(usableInstructions(set), stepPaths(step)).map(applied);
}

/** The instructions the planner (and replanner) reads: every usable file, with its scope. */
export function instructionsForPlanner(set: InstructionSet | undefined): AppliedInstruction[] {
  return usableInstructions(set).map(applied);
}
