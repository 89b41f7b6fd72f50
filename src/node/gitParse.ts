/**
 * Readers of git's machine output, for the git review (gitHistory.ts). Pure: text in, values out.
 */

/** One path of a raw diff (`git diff-tree --raw -z`, `git log --raw -z`), combined diffs (`-c`) included. */
export interface RawEntry {
  /** The commit whose diff this is ('' before any commit header). */
  commit: string;
  path: string;
  /** The path's mode and object id in the commit (`000000` and zeros when it removed the path). */
  mode: string;
  id: string;
  /** One letter per parent (`A`, `M`, `D`, `T`…; `MM` for a merge that changed it from both). */
  status: string;
  /** Every object id the line names: the parents' and the commit's. */
  ids: string[];
}

const COMMIT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/**
 * Parses `-z` raw output: commit headers (`<id>\0`, with `--stdin` or `--format=%H`) each followed by lines
 * `:<modes> <ids> <status>\0<path>\0` — with one colon and two modes for a plain diff, n colons and n + 1
 * modes for a combined diff of n parents, the commit's own mode and id last.
 */
export function parseRawZ(out: string): RawEntry[] {
  const tokens = out.split('\0');
  const entries: RawEntry[] = [];
  let commit = '';
  for (let i = 0; i < tokens.length; i++) {
    const token = (tokens[i] ?? '').replace(/^\n+/, '');
    if (token.startsWith(':')) {
      const path = tokens[++i] ?? '';
      const meta = token.replace(/^:+/, '').split(' ');
      const status = meta[meta.length - 1] ?? '';
      const fields = meta.slice(0, -1);
      const half = fields.length / 2;
      if (!Number.isInteger(half) || half < 2) continue;
      const ids = fields.slice(half);
      entries.push({ commit, path, mode: fields[half - 1] ?? '', id: ids[half - 1] ?? '', status, ids });
    } else if (COMMIT_ID.test(token)) commit = token;
  }
  return entries;
}

/** Whether an object id is git's null id (a path that is not there). */
export const isNullId = (id: string): boolean => /^0+$/.test(id);

export interface WorktreeEntry {
  /** Absolute path of the worktree's folder. */
  path: string;
  /** Its HEAD's commit (absent: unborn). */
  head?: string;
  /** The branch it has checked out (absent: detached). */
  branch?: string;
}

/** `git worktree list --porcelain -z`: records of `key value` fields, each record ended by an empty field. */
export function parseWorktreeList(out: string): WorktreeEntry[] {
  const list: WorktreeEntry[] = [];
  let current: WorktreeEntry | undefined;
  for (const field of out.split('\0')) {
    if (field === '') {
      if (current) list.push(current);
      current = undefined;
      continue;
    }
    const space = field.indexOf(' ');
    const key = space < 0 ? field : field.slice(0, space);
    const value = space < 0 ? '' : field.slice(space + 1);
    if (key === 'worktree') current = { path: value };
    else if (current && key === 'HEAD' && !isNullId(value)) current.head = value;
    else if (current && key === 'branch') current.branch = value;
  }
  if (current) list.push(current);
  return list;
}

/** `git for-each-ref --format='%(objectname) %(refname)'` → ref name → object id. */
export function parseRefs(out: string): Record<string, string> {
  const refs: Record<string, string> = {};
  for (const line of out.split('\n')) {
    const at = line.indexOf(' ');
    if (at > 0) refs[line.slice(at + 1)] = line.slice(0, at);
  }
  return refs;
}
