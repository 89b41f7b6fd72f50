/**
 * Writing back a match found only once blank lines are ignored (the blank_lines tier). There oldText's blank
 * lines disagree with the file's, so they cannot be line-diffed against newText as if they were the file's:
 * a blank line newText has where the file has one but oldText lacks would be written twice, and a blank
 * line oldText has that the file lacks could be paired with one of the file's and delete it.
 *
 * So each text is read as its non-blank lines and, in every gap between them (before the first and after
 * the last too), a number of blank lines. Only the non-blank lines of oldText and newText are line-diffed.
 * Each gap of newText is traced to the gap(s) of oldText it stands for. newText was written one of two
 * ways, and where the file's count (f) differs from oldText's (o) they give different files:
 *   - copied: from the model's own copy of the text, with oldText's blank lines — the file keeps its own
 *     blank lines and newText's change to oldText's is applied to them;
 *   - written: with the file's blank lines — newText's count (n) is the result.
 * A gap shows which: n = o (copied; the file keeps f), n = f (written; f). o = f is no drift (n). Any other
 * n is refused: it matches neither reading. That holds where the lines on both sides of the gap are kept;
 * where the file has blank lines oldText lacks (f > o) beside lines newText changes, a third edit sends the
 * same texts — the change took those blank lines with it (a real change often removes the blank line beside
 * the code it replaces or deletes) — so:
 *   - beside a changed line (a changed block's first or last gap): n = f is the file's count; n = o waits for
 *     the edit's other drifted gaps to show the reading (copied keeps f, written gives n); else refused.
 *   - newText removing lines (its gap stands for several of oldText's) where the file has blank lines oldText
 *     lacks: kept (copied: n plus them) or removed with the lines (written: n) — settled only by the edit's
 *     other drifted gaps; with none, or with both readings among them, refused. Where oldText only has extra
 *     blank lines, newText keeping all of oldText's (removing code adds none) or none reads one way.
 *   - newText inserting lines into a drifted gap: an inserted block often brings its own blank line, so
 *     n = f may be the file's count or oldText's plus the block's; refused unless both give the same.
 *   - blank lines between lines a changed block replaces: when they drift, only newText writing a count
 *     both readings agree on applies.
 * The non-blank lines are diffed twice (repeated lines such as `}` aligned early, then late); when the two
 * pairings settle the gaps differently, the edit is refused. Every blank line written is one of the file's
 * (its bytes kept) or one of newText's; kept non-blank lines are the file's bytes.
 */
import { type Eol, type FileLines, isBlank, joinPieces } from './editLines';
import { straightenQuotes, stripTrailingWhitespace } from './editNormalize';
import { diffLines } from './lineDiff';
import { err, ok, type Result } from '../contracts/result';

export interface BlankDriftSpec {
  lines: FileLines;
  oldLines: string[];
  oldEndsNl: boolean;
  newLines: string[];
  newEndsNl: boolean;
  /** File line of each non-blank oldText line, in order. */
  anchors: number[];
  /** The file's blank lines in each gap of oldText: [0] before its first non-blank line, [k] after its last. */
  fileGaps: number[][];
  /** Replaced span of the file (whole lines). */
  regionStart: number;
  regionEnd: number;
  /** A `newText` line in the file's style (indentation, quotes, trailing whitespace). */
  renderNew: (line: string) => string;
  eol: Eol;
}

/** A gap whose blank lines cannot be placed with certainty. */
export interface BlankConflict {
  /** 0-based file lines of the non-blank lines around the gap (-1: the gap is at the snippet's edge). */
  above: number;
  below: number;
  /** Blank lines there: the file's, oldText's, newText's (summed over newText's gaps when it inserts lines). */
  file: number;
  old: number;
  new: number;
  /**
   * count: the counts fit neither reading; insertion: newText inserts lines there; removal: newText removes
   * lines there and nothing tells the readings apart; pairing: repeated lines pair two ways; edge: newText
   * starts (ends) with more blank lines than oldText, next to the file's blank lines outside the match;
   * neighbour: the file has blank lines there that oldText lacks, and newText changes a line beside them.
   */
  kind: 'count' | 'insertion' | 'removal' | 'pairing' | 'edge' | 'neighbour';
}

export type BlankDriftResult = Result<string, BlankConflict>;

type Reading = 'copied' | 'written';

/** The blank lines the result gets in one gap of newText: how many, and which file lines to reuse first. */
interface Settled {
  count: number;
  file: number[];
}

/** Text split into its non-blank lines and the blank lines in each gap around them. */
interface Skeleton {
  nonBlank: number[];
  gaps: number[][];
}

function skeleton(lines: string[]): Skeleton {
  const nonBlank: number[] = [];
  const gaps: number[][] = [[]];
  lines.forEach((l, i) => {
    if (isBlank(l)) (gaps[gaps.length - 1] as number[]).push(i);
    else {
      nonBlank.push(i);
      gaps.push([]);
    }
  });
  return { nonBlank, gaps };
}

/** One gap of oldText standing for one of newText's: the count, and the reading it shows (none: no drift). */
function settleGap(o: number, f: number, n: number): { count: number; reading?: Reading } | undefined {
  if (o === f) return { count: n };
  if (n === o) return { count: f, reading: 'copied' };
  if (n === f) return { count: f, reading: 'written' };
  return undefined;
}

/**
 * Kept pairs [old non-blank index, new non-blank index] of a line diff, in order. The common prefix and
 * suffix pair first (as in any diff); only the lines between them can pair more than one way, and `late`
 * aligns those from the end instead of the start.
 */
function keptPairs(a: string[], b: string[], late: boolean): [number, number][] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const midA = a.slice(pre, a.length - suf);
  const midB = b.slice(pre, b.length - suf);
  const ops = late ? diffLines([...midA].reverse(), [...midB].reverse()) : diffLines(midA, midB);
  let mid: [number, number][] = [];
  let i = 0;
  let j = 0;
  for (const op of ops) {
    if (op.op === 'equal') mid.push([i++, j++]);
    else if (op.op === 'delete') i++;
    else j++;
  }
  if (late) mid = mid.map(([x, y]) => [midA.length - 1 - x, midB.length - 1 - y] as [number, number]).reverse();
  return [
    ...range(0, pre).map((x) => [x, x] as [number, number]),
    ...mid.map(([x, y]) => [x + pre, y + pre] as [number, number]),
    ...range(0, suf).map((x) => [a.length - suf + x, b.length - suf + x] as [number, number]),
  ];
}

const sum = (xs: number[]): number => xs.reduce((s, x) => s + x, 0);
const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from) }, (_, x) => from + x);

/** A segment whose count depends on the reading, settled once the edit's other gaps have shown one. */
interface Pending {
  v: number;
  pool: number[];
  copied: number | undefined;
  written: number;
  conflict: BlankConflict;
}

/** The count of blank lines in every gap of newText, or the first gap that cannot be settled. */
function settleGaps(spec: BlankDriftSpec, old: Skeleton, neu: Skeleton, pairs: [number, number][]): Settled[] | BlankConflict {
  const settler = new GapSettler(spec, old, neu);
  // Segments between kept pairs: oldText's gaps `og` stand for newText's gaps `ng` there.
  const bounds: [number, number][] = [[-1, -1], ...pairs, [old.nonBlank.length, neu.nonBlank.length]];
  for (let s = 0; s + 1 < bounds.length; s++) {
    const [u1, v1] = bounds[s] as [number, number];
    const [u2, v2] = bounds[s + 1] as [number, number];
    const conflict = settler.segment(range(u1 + 1, u2 + 1), range(v1 + 1, v2 + 1));
    if (conflict) return conflict;
  }
  return settler.settlePending();
}

/** Settles newText's gaps segment by segment; what depends on the edit's reading waits for `settlePending`. */
class GapSettler {
  private readonly out: Settled[];
  private readonly readings = new Set<Reading>();
  private readonly pending: Pending[] = [];

  constructor(
    private readonly spec: BlankDriftSpec,
    private readonly old: Skeleton,
    private readonly neu: Skeleton,
  ) {
    this.out = new Array<Settled>(neu.nonBlank.length + 1);
  }

  private o = (g: number): number => (this.old.gaps[g] as number[]).length;
  private f = (g: number): number => (this.spec.fileGaps[g] as number[]).length;
  private n = (v: number): number => (this.neu.gaps[v] as number[]).length;
  private files = (gs: number[]): number[] => gs.flatMap((g) => this.spec.fileGaps[g] as number[]);
  private drifts = (gs: number[]): boolean => gs.some((g) => this.o(g) !== this.f(g));
  /** Some gap has blank lines of the file that oldText lacks. */
  private lacks = (gs: number[]): boolean => gs.some((g) => this.f(g) > this.o(g));
  private put(v: number, count: number, pool: number[]): void {
    this.out[v] = { count, file: pool.slice(0, count) };
  }

  /** Gap g of oldText lies between its non-blank lines g - 1 and g. */
  private conflict(kind: BlankConflict['kind'], gs: number[], vs: number[]): BlankConflict {
    const k = this.old.nonBlank.length;
    const { anchors } = this.spec;
    return {
      above: (gs[0] as number) >= 1 ? (anchors[(gs[0] as number) - 1] as number) : -1,
      below: (gs[gs.length - 1] as number) < k ? (anchors[gs[gs.length - 1] as number] as number) : -1,
      file: sum(gs.map(this.f)),
      old: sum(gs.map(this.o)),
      new: sum(vs.map(this.n)),
      kind,
    };
  }

  /** One gap of oldText for one of newText's, by settleGap; false when it fits neither reading. */
  private single(g: number, v: number): boolean {
    const r = settleGap(this.o(g), this.f(g), this.n(v));
    if (!r) return false;
    if (r.reading) this.readings.add(r.reading);
    this.put(v, r.count, this.files([g]));
    return true;
  }

  /** One segment: oldText's gaps `og` and newText's `ng` between the same two kept lines (or the edges). */
  segment(og: number[], ng: number[]): BlankConflict | undefined {
    if (og.length === 1 && ng.length === 1) return this.single(og[0] as number, ng[0] as number) ? undefined : this.conflict('count', og, ng);
    if (ng.length === 1) return this.removal(og, ng[0] as number);
    if (og.length === 1) return this.insertion(og[0] as number, ng);
    return this.block(og, ng);
  }

  /** newText removes oldText's lines between two kept ones: its one gap `v` stands for all of oldText's there. */
  private removal(og: number[], v: number): BlankConflict | undefined {
    const { o, f, n } = this;
    const inner = og.slice(1, -1);
    const total = sum(og.map(f));
    const edges = [og[0] as number, og[og.length - 1] as number];
    if (this.drifts(inner)) {
      // Blank lines between two removed lines: only newText writing the file's count is read one way.
      if (n(v) !== total || this.lacks(edges)) return this.conflict('count', og, [v]);
      this.put(v, total, this.files(og));
      return undefined;
    }
    if (!this.drifts(og)) {
      this.put(v, n(v), this.files(og));
      return undefined;
    }
    if (this.lacks(og)) {
      // The file's blank lines oldText did not show, beside the removed lines: kept (newText copied from a
      // view without them: newText's count plus them) or removed with the lines (written with the file's:
      // newText's count). n alone never tells which; the edit's other drifted gaps may.
      const unseen = sum(og.map((g) => Math.max(0, f(g) - o(g))));
      const copied = og.every((g) => f(g) >= o(g)) ? unseen + n(v) : undefined;
      this.pending.push({ v, pool: this.files(og), copied, written: n(v), conflict: this.conflict('removal', og, [v]) });
      return undefined;
    }
    // Left: blank lines oldText has that the file lacks, at the segment's edges. newText keeping all of
    // oldText's there (above the file's: removing code adds none) or none reads one way.
    const shown = sum(og.map(o));
    if (n(v) === shown || n(v) === 0) this.put(v, n(v) === 0 ? 0 : total, this.files(og));
    else this.pending.push({ v, pool: this.files(og), copied: undefined, written: n(v), conflict: this.conflict('removal', og, [v]) });
    return undefined;
  }

  /**
   * Lines inserted into one gap `g` of oldText: newText's gaps around them (lead, trail) share the file's. An
   * inserted block often brings its own blank line, so newText's there may be the file's or the block's:
   * with drift, only "no blank line around the new lines, and none the file has unseen" reads one way.
   */
  private insertion(g: number, ng: number[]): BlankConflict | undefined {
    const { o, f, n } = this;
    const firstV = ng[0] as number;
    const lastV = ng[ng.length - 1] as number;
    const around = n(firstV) + n(lastV);
    const pool = this.files([g]);
    let counts: [number, number];
    if (o(g) === f(g)) counts = [n(firstV), n(lastV)];
    else if (around === 0 && f(g) <= o(g)) counts = [0, 0];
    else return this.conflict('insertion', [g], [firstV, lastV]);
    this.put(firstV, counts[0], pool);
    for (const v of ng.slice(1, -1)) this.put(v, n(v), []);
    this.put(lastV, counts[1], pool.slice(Math.min(counts[0], pool.length)));
    return undefined;
  }

  /** A changed block: its first and last gaps each stand for oldText's; the gaps inside it for oldText's. */
  private block(og: number[], ng: number[]): BlankConflict | undefined {
    const { o, f, n } = this;
    const firstG = og[0] as number;
    const lastG = og[og.length - 1] as number;
    // Beside a changed line, newText without the file's blank lines oldText lacks may keep them (copied from
    // a view without them) or remove them with the line it changes (written with the file's): newText writing
    // the file's count there reads one way; keeping oldText's waits for the edit's other drifted gaps.
    for (const [g, v] of [
      [firstG, ng[0] as number],
      [lastG, ng[ng.length - 1] as number],
    ] as const) {
      if (f(g) <= o(g) || n(v) === f(g)) {
        if (!this.single(g, v)) return this.conflict('count', [g], [v]);
      } else if (n(v) === o(g)) {
        this.pending.push({ v, pool: this.files([g]), copied: f(g), written: n(v), conflict: this.conflict('neighbour', [g], [v]) });
      } else return this.conflict('count', [g], [v]);
    }
    const inner = og.slice(1, -1);
    const innerNew = ng.slice(1, -1);
    // Inside the block newText's blank lines are new text. Blank lines of the file oldText did not show there
    // are beside changed lines: only newText writing the file's count places them (as above); oldText's extra
    // ones may be copied into newText's.
    const fileOnly = this.lacks(inner);
    const oldOnly = inner.some((g) => o(g) > f(g));
    const written = sum(innerNew.map(n));
    const agreed = written === sum(inner.map(f)) || (!fileOnly && (!oldOnly || written === 0));
    if (!agreed) return this.conflict('count', inner, innerNew);
    const pool = this.files(inner);
    let used = 0;
    for (const v of innerNew) {
      this.put(v, n(v), pool.slice(used));
      used = Math.min(pool.length, used + n(v));
    }
    return undefined;
  }

  /** The gaps that waited for the edit's reading: settled when its other gaps showed exactly one. */
  settlePending(): Settled[] | BlankConflict {
    const reading = this.readings.size === 1 ? [...this.readings][0] : undefined;
    for (const p of this.pending) {
      const count = reading === 'copied' ? p.copied : reading === 'written' ? p.written : undefined;
      if (count === undefined) return p.conflict;
      this.put(p.v, count, p.pool);
    }
    return this.out;
  }
}

/** The text that replaces `regionStart..regionEnd`, or the gap whose blank lines cannot be placed. */
export function renderBlankDrift(spec: BlankDriftSpec): BlankDriftResult {
  const { lines, oldLines, newLines } = spec;
  const text = lines.text;
  const old = skeleton(oldLines);
  const neu = skeleton(newLines);
  // Lines pair as the tiers match them: trailing whitespace and quote style aside (a kept line is the file's).
  const key = (l: string): string => straightenQuotes(stripTrailingWhitespace(l));
  const oldKeys = old.nonBlank.map((i) => key(oldLines[i] as string));
  const newKeys = neu.nonBlank.map((i) => key(newLines[i] as string));
  const early = keptPairs(oldKeys, newKeys, false);
  const settled = settleGaps(spec, old, neu, early);
  if (!Array.isArray(settled)) return err(settled);
  const late = keptPairs(oldKeys, newKeys, true);
  if (late.length !== early.length || late.some((p, i) => p[0] !== early[i]?.[0] || p[1] !== early[i]?.[1])) {
    const other = settleGaps(spec, old, neu, late);
    if (!Array.isArray(other)) return err(other);
    const v = settled.findIndex((x, i) => x.count !== (other[i] as Settled).count);
    if (v >= 0) return err(pairingConflict(spec, early, v, (settled[v] as Settled).count));
  }

  const kept = new Map(early.map(([u, v]) => [v, u]));
  const pieces: { body: string; eol: string }[] = [];
  const fileLine = (i: number): void => {
    const from = Math.max(lines.start[i] as number, spec.regionStart);
    const to = Math.min(lines.contentEnd[i] as number, spec.regionEnd);
    pieces.push({ body: text.slice(from, to), eol: text.slice(lines.contentEnd[i] as number, lines.end[i] as number) });
  };
  settled.forEach((gap, v) => {
    gap.file.forEach(fileLine);
    const own = neu.gaps[v] as number[];
    for (let x = gap.file.length; x < gap.count; x++) {
      const line = own[x - gap.file.length];
      pieces.push({ body: spec.renderNew(line === undefined ? '' : (newLines[line] as string)), eol: spec.eol });
    }
    if (v >= neu.nonBlank.length) return;
    const u = kept.get(v);
    if (u !== undefined) fileLine(spec.anchors[u] as number);
    else pieces.push({ body: spec.renderNew(newLines[neu.nonBlank[v] as number] as string), eol: spec.eol });
  });
  return ok(joinPieces(pieces, spec));
}

/** Gap `v` of newText, which two pairings settle differently, between the kept lines around it (early pairing). */
function pairingConflict(spec: BlankDriftSpec, pairs: [number, number][], v: number, count: number): BlankConflict {
  const before = pairs.filter(([, pv]) => pv < v).pop();
  const after = pairs.find(([, pv]) => pv >= v);
  return {
    above: before ? (spec.anchors[before[0]] as number) : -1,
    below: after ? (spec.anchors[after[0]] as number) : -1,
    file: 0,
    old: 0,
    new: count,
    kind: 'pairing',
  };
}
