/**
 * The comparison rule of the ordinary-projects corpus. A scenario passes when its unsandboxed run and its
 * sandboxed run each equal its plain run on every aspect:
 *   exit    each command's exit code, and the product neither refused it nor undid what it did;
 *   output  each command's output as a sorted list of normalised lines (observe.ts: paths, durations and
 *           commit ids made equal; the product's own `[sandbox: …]`-style lines set apart);
 *   files   every workspace path (content, mode, link target), `.git` and the product's store aside,
 *           except the scenario's `privateOutputs` — what a step may build or cache without keeping
 *           (compared nowhere: a plain run leaves it, a confined one may not);
 *   git     HEAD, every ref by its chain of trees, authors, subjects and signature, upstream tracking,
 *           the index with its flags, `git status` (without the product's store), the stash list and the
 *           repository's own config.
 * Nothing else is exempt: the step's authority is written to allow everything the project legitimately
 * does, so a difference is the product's. A scenario may replace aspects for a mode with its own check
 * (an `Override`, with its reason), where equality is not what is wanted — a step without a network
 * grant cannot fetch what a plain run fetches, and must say so quickly instead.
 */
import picomatch from 'picomatch';
import { describeFact, outputLines } from './observe';
import type { Aspect, GitState, Mode, ModeRun, Scenario } from './scenario';
import type { ThreeRuns } from './threeWays';

export const ASPECTS: Aspect[] = ['exit', 'output', 'files', 'git'];
export const COMPARED_MODES = ['unsandboxed', 'sandboxed'] as const satisfies readonly Mode[];

export interface Difference {
  mode: Mode;
  aspects: Aspect[];
  detail: string;
}

const MAX_SHOWN = 6;

/** What `list` holds beyond `other`, as a multiset, in `list`'s own order. */
function beyond(list: readonly string[], other: readonly string[]): string[] {
  const left = other.reduce((m, l) => m.set(l, (m.get(l) ?? 0) + 1), new Map<string, number>());
  return list.filter((l) => {
    const n = left.get(l) ?? 0;
    if (n > 0) left.set(l, n - 1);
    return n === 0;
  });
}

/** Lines only in one list or the other (compared as multisets), as `-` (plain only) and `+` (this mode only). */
function lineDiff(plain: readonly string[], other: readonly string[]): string[] {
  const cap = (lines: string[], sign: string): string[] =>
    (lines.length > MAX_SHOWN ? [...lines.slice(0, MAX_SHOWN), `… ${lines.length - MAX_SHOWN} more`] : lines).map((l) => `${sign} ${l}`);
  return [...cap(beyond(plain, other), '-'), ...cap(beyond(other, plain), '+')];
}

const exitOf = (c: ModeRun['commands'][number] | undefined): string => (c ? `${c.exit}${c.denied ? ' (refused or undone by the product)' : ''}` : 'not run');

function exitDiffs(run: ModeRun, plain: ModeRun): string[] {
  return plain.commands.flatMap((p, i) => {
    const r = run.commands[i];
    const a = exitOf(p);
    const b = exitOf(r);
    return a === b ? [] : [`\`${p.command}\`: exit ${b}, plain ${a}${r?.notes.length ? ` — ${r.notes.join(' ').slice(0, 300)}` : ''}`];
  });
}

function outputDiffs(run: ModeRun, plain: ModeRun): string[] {
  return plain.commands.flatMap((p, i) => {
    const d = lineDiff(outputLines(p.output), outputLines(run.commands[i]?.output ?? ''));
    return d.length === 0 ? [] : [`\`${p.command}\` output:\n    ${d.join('\n    ')}`];
  });
}

function fileDiffs(run: ModeRun, plain: ModeRun, privateOutputs: readonly string[]): string[] {
  const isPrivate = privateOutputs.length > 0 ? picomatch([...privateOutputs], { dot: true }) : (): boolean => false;
  const paths = [...new Set([...plain.files.keys(), ...run.files.keys()])].sort();
  const out: string[] = [];
  for (const p of paths) {
    if (isPrivate(p)) continue;
    const a = describeFact(plain.files.get(p));
    const b = describeFact(run.files.get(p));
    if (a !== b) out.push(`${p}: ${b}, plain ${a}`);
  }
  return out.length > MAX_SHOWN ? [...out.slice(0, MAX_SHOWN), `… ${out.length - MAX_SHOWN} more paths`] : out;
}

export function gitDiffs(run: GitState | undefined, plain: GitState | undefined): string[] {
  if (!run || !plain) return run === plain ? [] : [`git: ${run ? 'a repository' : 'no repository'}, plain ${plain ? 'a repository' : 'no repository'}`];
  const out: string[] = [];
  if (run.head !== plain.head) out.push(`HEAD: ${run.head}, plain ${plain.head}`);
  for (const part of ['refs', 'index', 'status', 'stash', 'config'] as const) {
    const d = lineDiff(plain[part], run[part]);
    if (d.length > 0) out.push(`git ${part}:\n    ${d.join('\n    ')}`);
  }
  return out;
}

/** Every difference between the plain run and each CLI run, by the rule above and the scenario's overrides. */
export function compareRuns(s: Scenario, runs: ThreeRuns): Difference[] {
  const out: Difference[] = [];
  for (const mode of COMPARED_MODES) {
    const run = runs[mode];
    const overrides = (s.overrides ?? []).filter((o) => o.modes.includes(mode));
    const replaced = new Set(overrides.flatMap((o) => o.aspects));
    const by: Record<Aspect, () => string[]> = {
      exit: () => exitDiffs(run, runs.plain),
      output: () => outputDiffs(run, runs.plain),
      files: () => fileDiffs(run, runs.plain, s.privateOutputs ?? []),
      git: () => gitDiffs(run.git, runs.plain.git),
    };
    for (const aspect of ASPECTS) {
      if (replaced.has(aspect)) continue;
      for (const detail of by[aspect]()) out.push({ mode, aspects: [aspect], detail });
    }
    for (const o of overrides) for (const detail of o.check(run, runs.plain, runs.initial.git)) out.push({ mode, aspects: o.aspects, detail });
  }
  return out;
}

/** A readable account of the differences, for assertion messages and the runner. */
export function explain(s: Scenario, runs: ThreeRuns, diffs: readonly Difference[]): string {
  const lines = diffs.map((d) => `  [${d.mode} ${d.aspects.join('+')}] ${d.detail}`);
  const log = (['unsandboxed', 'sandboxed'] as const).map((m) => `--- ${m} CLI (last lines):\n${runs[m].log.split('\n').slice(-8).join('\n')}`);
  return `${s.name}: ${diffs.length} difference(s)\n${lines.join('\n')}\n${log.join('\n')}`;
}
