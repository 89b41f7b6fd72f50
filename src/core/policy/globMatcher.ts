/**
 * One fast test for a fixed set of globs, with picomatch's meaning: the sandbox spec tests every entry of
 * the workspace (20,000 and more) against the secret and protected rules before each command, and
 * picomatch's array matcher — one regex and one result object per glob per path — made that the
 * largest part of the spec's cost. Here:
 *  - a glob `**` + `/NAME` whose NAME has no slash (`**` + `/*.pem`, `**` + `/.env`) is a test of the
 *    basename alone: all such NAMEs become one regex over the basename;
 *  - a glob `**` + `/DIR/**` whose DIR is a literal name (`.ssh`, `node_modules`) matches any path with a
 *    segment DIR (DIR itself included): all such DIRs become one search for such a segment;
 *  - every other glob joins one combined regex over the whole path.
 * Same options for all (dot, nocase). The anchored regexes are sticky, so a failing test costs one
 * attempt, not one per position. Equivalence with picomatch is unit-tested.
 */
import picomatch from 'picomatch';

export function globMatcher(globs: readonly string[], options: { dot?: boolean; nocase?: boolean }): (path: string) => boolean {
  const names: string[] = [];
  const dirs: string[] = [];
  const paths: string[] = [];
  for (const glob of globs) {
    const name = glob.startsWith('**/') ? glob.slice(3) : undefined;
    const dir = /^\*\*\/([^*?[\]{}()!+@/\\]+)\/\*\*$/.exec(glob)?.[1];
    if (dir !== undefined && dir !== '.' && dir !== '..' && (options.dot || !dir.startsWith('.'))) dirs.push(dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    else if (name !== undefined && name !== '' && !name.includes('/') && !name.includes('**')) names.push(name);
    else paths.push(glob);
  }
  const flags = options.nocase ? 'i' : '';
  const combine = (list: string[]): RegExp | undefined =>
    list.length === 0 ? undefined : new RegExp(list.map((g) => `(?:${picomatch.makeRe(g, options).source})`).join('|'), `${flags}y`);
  const byName = combine(names);
  const byPath = combine(paths);
  const bySegment = dirs.length === 0 ? undefined : new RegExp(`(?:^|/)(?:${dirs.join('|')})(?:/|$)`, flags);
  const sticky = (re: RegExp, text: string): boolean => {
    re.lastIndex = 0;
    return re.test(text);
  };
  return (path) =>
    (bySegment !== undefined && bySegment.test(path)) ||
    (byName !== undefined && sticky(byName, path.slice(path.lastIndexOf('/') + 1))) ||
    (byPath !== undefined && sticky(byPath, path));
}
