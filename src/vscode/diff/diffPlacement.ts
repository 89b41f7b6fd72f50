/**
 * Where "Review diff" opens, and where in the file it starts. Pure (no vscode).
 *
 * The diff should be readable side by side (VS Code's diff editor falls back to an inline view below about
 * 900 px) without squeezing the mission board to a strip, and never over the board:
 *  1. no board in sight: the active editor group, full width;
 *  2. the board shares the editor area with other groups: the first other group (the user's layout stays);
 *  3. the board alone, wide enough for both (≥ 1,800 px): a group beside it, half each;
 *  4. the board alone and narrower: a group below it — both keep the whole width.
 * The diff opens on its first change, revealed even when it sits far to the right of a long line.
 */
import { diffLines, splitLines } from '../../core/edits/lineDiff';

/** Width at which the board and a side-by-side diff (≥ 900 px each) both fit in one row. */
export const BESIDE_MIN_WIDTH = 1800;

export type DiffPlacement = { kind: 'active' } | { kind: 'group'; column: number } | { kind: 'besideBoard' } | { kind: 'belowBoard' };

export interface DiffRoom {
  /** The board's editor column when it is in sight (1-based), else undefined. */
  boardColumn: number | undefined;
  /** The board's width in CSS pixels as it last reported it (undefined: not known yet). */
  boardWidth: number | undefined;
  /** The editor groups' columns, in order. */
  groups: readonly number[];
}

export function diffPlacement(room: DiffRoom): DiffPlacement {
  if (room.boardColumn === undefined) return { kind: 'active' };
  const other = room.groups.find((c) => c !== room.boardColumn);
  if (other !== undefined) return { kind: 'group', column: other };
  return (room.boardWidth ?? 0) >= BESIDE_MIN_WIDTH ? { kind: 'besideBoard' } : { kind: 'belowBoard' };
}

/**
 * The first place the proposed text differs from the old one: the line (0-based, in the new text) and the
 * first differing character on it. A pure deletion points at the line after it (or the last line).
 */
export function firstChange(before: string, after: string): { line: number; character: number } {
  const a = splitLines(before);
  const b = splitLines(after);
  let newLine = 0;
  const ops = diffLines(a, b);
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    if (op.op === 'equal') {
      newLine += 1;
      continue;
    }
    if (op.op === 'delete') {
      // A line replaced: the insert that follows the deletes is the new text of the same place.
      const insert = ops.slice(i).find((o) => o.op !== 'delete');
      if (insert?.op === 'insert') return { line: newLine, character: commonPrefix(op.line, insert.line) };
      return { line: Math.min(newLine, Math.max(0, b.length - 1)), character: 0 };
    }
    return { line: newLine, character: 0 };
  }
  return { line: 0, character: 0 };
}

function commonPrefix(x: string, y: string): number {
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i;
}
