/**
 * Conservative reasoning about authority globs without touching the file system:
 *  - `globsMayOverlap`: could two glob sets match a common path? The scheduler uses it to keep two steps
 *    from writing the same file at once, so a false "yes" only costs parallelism while a false "no" would
 *    let two executors race on one file. Rule: every path a glob matches starts with the glob's literal
 *    prefix (the text before its first glob character). If neither literal prefix is a prefix of the
 *    other, no path can match both; otherwise we assume they overlap. Two fully literal paths overlap only
 *    if one equals the other or is a directory above it. Negations and extglobs count as "matches
 *    anything".
 *  - `globCovers`: is everything `inner` matches also matched by `outer`? Used to accept a user's
 *    "tighten authority" edit only when it provably narrows; unprovable counts as widening.
 */
import picomatch from 'picomatch';
import { pathsOverlap } from '../primitives/paths';

const GLOB_CHARS = /[*?[\]{}()!+@]/;

/** Text before the first glob character (the whole string for a literal path). */
export function literalPrefix(glob: string): string {
  const at = glob.search(GLOB_CHARS);
  return at === -1 ? glob : glob.slice(0, at);
}

export function isLiteralPath(glob: string): boolean {
  return !GLOB_CHARS.test(glob);
}

/** Could some path match both globs? Errs towards "yes". */
export function globMayOverlap(a: string, b: string): boolean {
  if (a.startsWith('!') || b.startsWith('!')) return true;
  if (isLiteralPath(a) && isLiteralPath(b)) {
    return pathsOverlap(a, b);
  }
  const pa = literalPrefix(a);
  const pb = literalPrefix(b);
  return pa.startsWith(pb) || pb.startsWith(pa);
}

/** Could any glob of `a` match a path some glob of `b` matches? Empty sets never overlap. */
export function globSetsMayOverlap(a: readonly string[], b: readonly string[]): boolean {
  return a.some((ga) => b.some((gb) => globMayOverlap(ga, gb)));
}

/** Does `outer` provably match everything `inner` matches? */
export function globCovers(outer: string, inner: string): boolean {
  if (outer === inner || outer === '**') return true;
  if (isLiteralPath(inner)) return picomatch(outer, { dot: true })(inner);
  if (outer.endsWith('/**') && !outer.slice(0, -3).match(GLOB_CHARS)) {
    return inner.startsWith(outer.slice(0, -2)) && !inner.split('/').includes('..');
  }
  return false;
}

/** Every glob of `inner` is covered by some glob of `outer`. */
export function globSetCovers(outer: readonly string[], inner: readonly string[]): boolean {
  return inner.every((g) => outer.some((o) => globCovers(o, g)));
}

/**
 * All pairs of owners whose glob sets may overlap, by the same rule as `globMayOverlap`, without testing
 * every pair: sorted by literal prefix, the globs whose prefix extends a given prefix sit right after it.
 * Cost O(G log G + pairs found) instead of O(G²) — it matters at hundreds of steps.
 */
export function overlappingPairs(owners: readonly { id: string; globs: readonly string[] }[]): [string, string][] {
  const entries = owners.flatMap(({ id, globs }) =>
    globs.map((glob) => ({
      id,
      glob,
      literal: isLiteralPath(glob),
      prefix: glob.startsWith('!') ? '' : literalPrefix(glob),
    })),
  );
  entries.sort((a, b) => (a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : 0));
  const seen = new Set<string>();
  const pairs: [string, string][] = [];
  for (let i = 0; i < entries.length; i++) {
    const a = entries[i]!;
    for (let j = i + 1; j < entries.length; j++) {
      const b = entries[j]!;
      if (!b.prefix.startsWith(a.prefix)) break;
      if (a.id === b.id) continue;
      if (a.literal && b.literal && !globMayOverlap(a.glob, b.glob)) continue;
      const key = a.id < b.id ? `${a.id}\u0000${b.id}` : `${b.id}\u0000${a.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      pairs.push([a.id, b.id]);
    }
  }
  return pairs;
}
