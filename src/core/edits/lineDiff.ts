/**
 * Line diff (Myers O(ND)) and unified-diff rendering, for step diffs and the edit bench. Pure; large,
 * wholly different inputs degrade to one replace-everything hunk rather than burning CPU.
 */

export type DiffOp = { op: 'equal' | 'delete' | 'insert'; line: string };

export interface Hunk {
  /** 1-based start line in the old text (0 when the old side is empty), and line counts. */
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  ops: DiffOp[];
}

const MAX_D = 4000;

export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function diffLines(a: readonly string[], b: readonly string[]): DiffOp[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= Math.min(max, MAX_D) && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))
          ? (v[offset + k + 1] as number)
          : (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  if (!found) return [...a.map((line) => ({ op: 'delete' as const, line })), ...b.map((line) => ({ op: 'insert' as const, line }))];
  // Walk the trace backwards to recover the path.
  const ops: DiffOp[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d] as Int32Array;
    const k = x - y;
    const prevK = k === -d || (k !== d && (vd[offset + k - 1] as number) < (vd[offset + k + 1] as number)) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : (vd[offset + prevK] as number);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ op: 'equal', line: a[x - 1] as string });
      x--;
      y--;
    }
    if (d > 0) {
      if (x === prevX) ops.push({ op: 'insert', line: b[y - 1] as string });
      else ops.push({ op: 'delete', line: a[x - 1] as string });
    }
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

/** Groups a diff into hunks with `context` unchanged lines around each change. */
export function toHunks(ops: readonly DiffOp[], context = 3): Hunk[] {
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let o = 0;
  let n = 0;
  for (const op of ops) {
    oldAt.push(o);
    newAt.push(n);
    if (op.op !== 'insert') o++;
    if (op.op !== 'delete') n++;
  }
  // Ranges of op indices around each change, merged when they touch.
  const ranges: [number, number][] = [];
  ops.forEach((op, i) => {
    if (op.op === 'equal') return;
    const s = Math.max(0, i - context);
    const e = Math.min(ops.length - 1, i + context);
    const last = ranges[ranges.length - 1];
    if (last && s <= last[1] + 1) last[1] = Math.max(last[1], e);
    else ranges.push([s, e]);
  });
  return ranges.map(([s, e]) => {
    const slice = ops.slice(s, e + 1);
    const oldLines = slice.filter((x) => x.op !== 'insert').length;
    const newLines = slice.filter((x) => x.op !== 'delete').length;
    return {
      oldStart: oldLines === 0 ? (oldAt[s] as number) : (oldAt[s] as number) + 1,
      oldLines,
      newStart: newLines === 0 ? (newAt[s] as number) : (newAt[s] as number) + 1,
      newLines,
      ops: slice,
    };
  });
}

export function unifiedDiff(path: string, before: string | null, after: string | null, context = 3): string {
  const a = splitLines(before ?? '');
  const b = splitLines(after ?? '');
  const hunks = toHunks(diffLines(a, b), context);
  if (hunks.length === 0) return '';
  const out = [`--- ${before === null ? '/dev/null' : `a/${path}`}`, `+++ ${after === null ? '/dev/null' : `b/${path}`}`];
  for (const h of hunks) {
    out.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    for (const op of h.ops) out.push((op.op === 'equal' ? ' ' : op.op === 'delete' ? '-' : '+') + op.line);
  }
  return out.join('\n') + '\n';
}
