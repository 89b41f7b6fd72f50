/**
 * oldText lacks a blank line the file has, while newText edits around it. For a run of blank lines between
 * two lines of text A and B (the lines P before A and Q after B of text too), one intended edit on the true
 * text P A (blank lines) B Q, with oldText sent one blank line short:
 *   gap_change_above / gap_change_below / gap_change_both — A, B or both changed;
 *   gap_insert_above / gap_insert_below — a line inserted after A (before the blank lines) or before B;
 *   gap_delete_above / gap_delete_below — A or B deleted;
 *   gap_split_above — A replaced by two lines;
 *   gap_remove_blank — each of those changes but the insertions, removing one of the run's blank lines too;
 *   gap_add_blank — A changed and a blank line added to the run.
 * newText is sent two ways: written (the intended text, the file's blank lines) and, where the intent keeps the
 * run's blank lines, copied (the intended text less the blank line oldText lacks: the model's own view,
 * edited; an intent that changes the run's count cannot be one of a view that lacks the run). Each case
 * expects the intended file. Two intents that send the same texts but mean different files make both cases
 * `gap_two_readings`, where only a refusal is right.
 */
import type { BaseEdit } from './corpus';
import { count, type BenchCase } from './perturb';

const blank = (l: string): boolean => l.trim() === '';
/** Blank-line runs taken per base edit: the runs nearest its change. */
const RUNS_PER_EDIT = 2;

interface Intent {
  name: string;
  /** The intended text of P A (blank lines) B Q. */
  truth: string[];
  /** Where the run of blank lines begins in `truth` (the copied form drops one of them), when the intent keeps it. */
  runAt: number | undefined;
}

/** A line changed the way an edit changes one: its first word renamed. */
function changed(line: string): string {
  const m = /[A-Za-z_]\w*/.exec(line);
  return m ? line.slice(0, m.index) + `${m[0]}Next` + line.slice(m.index + m[0].length) : `${line} // changed`;
}

function inserted(line: string): string {
  const indent = /^[ \t]*/.exec(line)?.[0] ?? '';
  return `${indent}insertedLine(${line.trim().length})`;
}

function intents(p: string, a: string, run: string[], b: string, q: string): Intent[] {
  const f = run.length;
  const at = (truth: string[], runAt: number | undefined): Intent[] => [{ name: '', truth, runAt }];
  const make = (name: string, xs: Intent[]): Intent[] => xs.map((x) => ({ ...x, name }));
  const kept = [
    ...make('gap_change_above', at([p, changed(a), ...run, b, q], 2)),
    ...make('gap_change_below', at([p, a, ...run, changed(b), q], 2)),
    ...make('gap_change_both', at([p, changed(a), ...run, changed(b), q], 2)),
    ...make('gap_insert_above', at([p, a, inserted(a), ...run, b, q], 3)),
    ...make('gap_insert_below', at([p, a, ...run, inserted(b), b, q], 2)),
    ...make('gap_delete_above', at([p, ...run, b, q], 1)),
    ...make('gap_delete_below', at([p, a, ...run, q], 2)),
    ...make('gap_split_above', at([p, changed(a), inserted(a), ...run, b, q], 3)),
  ];
  // The same changes beside the run, removing one of its blank lines too (as a change often takes the blank
  // line beside the code it replaces); and one blank line added.
  const unblank = kept
    .filter((x) => x.name !== 'gap_insert_above' && x.name !== 'gap_insert_below')
    .map((x) => ({ name: 'gap_remove_blank', truth: [...x.truth.slice(0, x.runAt), ...x.truth.slice((x.runAt as number) + 1)], runAt: undefined }));
  return [...kept, ...unblank, ...make('gap_add_blank', at([p, changed(a), ...run, '', b, q], undefined))];
}

/** The runs of blank lines between two lines of text, nearest the edit's change first. */
function runsNear(lines: string[], at: number): { a: number; b: number }[] {
  const runs: { a: number; b: number; d: number }[] = [];
  for (let i = 1; i + 1 < lines.length; i++) {
    if (!blank(lines[i] as string) || blank(lines[i - 1] as string)) continue;
    let j = i;
    while (j < lines.length && blank(lines[j] as string)) j++;
    const a = i - 1;
    const b = j;
    if (b + 1 < lines.length && a >= 1 && !blank(lines[a - 1] as string) && !blank(lines[b + 1] as string) && !blank(lines[b] as string)) {
      runs.push({ a, b, d: Math.abs(a - at) });
    }
    i = j;
  }
  return runs.sort((x, y) => x.d - y.d).slice(0, RUNS_PER_EDIT);
}

/** Runs already taken (several base edits share a file): source and line. */
const taken = new Set<string>();

export function blankGapCasesFor(e: BaseEdit): BenchCase[] {
  const lines = e.file.split('\n');
  const out: BenchCase[] = [];
  for (const { a, b } of runsNear(lines, e.at)) {
    if (taken.has(`${e.source}:${a}`)) continue;
    taken.add(`${e.source}:${a}`);
    const region = lines.slice(a - 1, b + 2);
    const p = region[0] as string;
    const run = lines.slice(a + 1, b);
    // The true text must identify one place, and the one-short oldText only once blank lines are ignored.
    if (count(e.file, region.join('\n')) !== 1) continue;
    const short = [p, lines[a] as string, ...run.slice(1), lines[b] as string, lines[b + 1] as string];
    if (count(e.file, short.join('\n')) !== 0) continue;
    for (const intent of intents(p, lines[a] as string, run, lines[b] as string, lines[b + 1] as string)) {
      const expected = [...lines.slice(0, a - 1), ...intent.truth, ...lines.slice(b + 2)].join('\n');
      const { truth, runAt } = intent;
      const copied = runAt === undefined ? [] : [[...truth.slice(0, runAt), ...truth.slice(runAt + 1)]];
      for (const sent of [truth, ...copied]) {
        if (sent.join('\n') === short.join('\n')) continue; // no change in the model's view
        out.push({ category: intent.name, id: e.id, file: e.file, oldText: short.join('\n'), newText: sent.join('\n'), expected });
      }
    }
  }
  // The same texts meant two ways: only a refusal is right.
  const meanings = new Map<string, Set<string | null>>();
  const key = (c: BenchCase): string => `${c.oldText}\u0000${c.newText}`;
  for (const c of out) meanings.set(key(c), (meanings.get(key(c)) ?? new Set()).add(c.expected));
  const seen = new Set<string>();
  return out
    .filter((c) => !seen.has(key(c)) && seen.add(key(c)))
    .map((c) => ((meanings.get(key(c))?.size ?? 0) > 1 ? { ...c, category: 'gap_two_readings', expected: null } : c));
}
