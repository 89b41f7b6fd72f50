/**
 * Where a symbolic link really leads — the one rule for every link a command leaves in the workspace, staged
 * (stagedJudge.ts: judged on the tree as it would be once the batch is applied) or written directly
 * (commandEffects.ts: judged on the tree as it is). Pure: the tree is read through a `TreeView`
 * (`workspaceView` reads the disk through the policy's port, `batchView` lays a batch of staged changes
 * over it). A link may stay only when, in order:
 *   1. its target is not empty, and it never climbs back out of a folder it names (`up/../x`): where that
 *      leads changes with what `up` is, and a later command may make `up` a link (`up -> ..`), so such a
 *      target is refused as written, whatever it resolves to today;
 *   2. resolved the way the kernel does — component by component, through every link on the way (links the
 *      workspace holds and links made in the same batch, at most MAX_LINK_HOPS of them), an absolute target
 *      only through a spelling of the workspace root — it never leaves the workspace; a part that does not
 *      exist yet is taken as a plain folder (so `missing/../../x` is judged as it would be once made);
 *   3. where it lands is not hidden (secrets, `.planexecuteignore`, the store) and not protected (git's
 *      folder and hooks, editor and dev-container config, dependencies, what the git config runs):
 *      policy.ts's `sensitiveDenial`, as for a write there.
 * Host-side writers never follow a link out either: they resolve every path with the real file system at
 * the moment they write (workspacePath.ts, NodeWorkspace), and refuse one that leads outside.
 */
import type { StagedChange } from '../contracts/staging';
import type { PolicyFs } from '../ports';
import { sensitiveDenial, type Policy } from './policy';

/** What the tree holds at a workspace path; the last component is never followed. */
export type TreeEntry = { kind: 'missing' | 'directory' | 'file' | 'other' } | { kind: 'symlink'; target: string };

/** The tree at a workspace-relative path of plain segments ('' is the root itself). */
export type TreeView = (rel: string) => TreeEntry;

/** Links followed on one walk before it is taken for a loop (the kernel's ELOOP limit). */
const MAX_LINK_HOPS = 40;

export type LinkWalk =
  /** Lands inside: `rel` ('' the root), what is there (`missing` when a part does not exist yet), the links it went through. */
  { inside: true; rel: string; kind: TreeEntry['kind']; via: string[] } | { inside: false; why: string; via: string[] };

const segmentsOf = (path: string): string[] => path.split('/').filter((s) => s !== '' && s !== '.');

/** Whether a target climbs out of a folder it named first (`a/../b`, `/ws/a/../b`): rule 1. */
export function climbsAfterName(target: string): boolean {
  let named = false;
  for (const s of segmentsOf(target)) {
    if (s === '..') {
      if (named) return true;
    } else named = true;
  }
  return false;
}

/** The workspace-relative rest of an absolute path spelled through one of the root's spellings; undefined outside. */
function insideRoot(abs: string, rootAliases: readonly string[]): string[] | undefined {
  const parts = segmentsOf(abs);
  for (const alias of rootAliases) {
    const root = segmentsOf(alias);
    if (root.length <= parts.length && root.every((s, i) => s === parts[i])) return parts.slice(root.length);
  }
  return undefined;
}

/**
 * Follows `target` as the kernel would from the folder of the link at `linkPath` (rule 2). The folder
 * itself is reached through the view too (a change's folder is real in the layer, but a view is not
 * trusted to say so).
 */
export function walkLink(view: TreeView, rootAliases: readonly string[], linkPath: string, target: string): LinkWalk {
  const via: string[] = [];
  const outside = (why: string): LinkWalk => ({ inside: false, why, via });
  let pos: string[] = [];
  let hops = 0;
  /** The depth at which the walk left what exists (a part not there yet): below it, parts are taken as folders. */
  let dangling = Infinity;
  const work = [...segmentsOf(linkPath).slice(0, -1), '\0target'];
  const follow = (to: string, at: string): LinkWalk | undefined => {
    if (to === '') return outside(`${at} is a link with an empty target`);
    if (to.startsWith('/')) {
      const rest = insideRoot(to, rootAliases);
      if (rest === undefined) return outside(`${at === '' ? 'it' : at} leads to ${to}, outside the workspace`);
      pos = [];
      work.unshift(...rest);
    } else work.unshift(...segmentsOf(to));
    return undefined;
  };
  while (work.length > 0) {
    const c = work.shift() as string;
    if (c === '\0target') {
      const stop = follow(target, '');
      if (stop) return stop;
      continue;
    }
    if (c === '..') {
      if (pos.length === 0) return outside(`it climbs above the workspace root (${target})`);
      pos = pos.slice(0, -1);
      if (pos.length < dangling) dangling = Infinity; // back at a folder that exists
      continue;
    }
    const next = [...pos, c];
    pos = next;
    if (pos.length > dangling) continue;
    const rel = next.join('/');
    const e = view(rel);
    if (e.kind === 'symlink') {
      hops += 1;
      if (hops > MAX_LINK_HOPS) return outside(`more than ${MAX_LINK_HOPS} links on the way (a loop)`);
      via.push(`${rel} -> ${e.target}`);
      pos = next.slice(0, -1);
      const stop = follow(e.target, rel);
      if (stop) return stop;
    } else if (e.kind === 'missing' || ((e.kind === 'file' || e.kind === 'other') && work.length > 0)) {
      // Nothing there yet (or a file where a folder would be): the rest is judged as plain folders.
      dangling = pos.length;
    }
  }
  const rel = pos.join('/');
  const kind: TreeEntry['kind'] = pos.length >= dangling ? 'missing' : rel === '' ? 'directory' : view(rel).kind;
  return { inside: true, rel, kind, via };
}

/** Why a link at `path` with `target` may not stay (rules 1–3), or undefined when it may. */
export function linkRefusal(policy: Policy, view: TreeView, path: string, target: string | undefined): string | undefined {
  if (target === undefined || target === '') return 'a link with an empty target';
  if (climbsAfterName(target))
    return `a link whose target climbs back out of a folder it names (${target}): where it leads would change with what that folder is; write the plain path instead`;
  const walk = walkLink(view, policy.rootAliases, path, target);
  const through = walk.via.length > 0 ? `, through ${walk.via.join(', ')}` : '';
  if (!walk.inside) return `a link leading outside the workspace (${target}${through}): ${walk.why}`;
  const denial = sensitiveDenial(policy, walk.rel === '' ? '.' : walk.rel, walk.kind === 'directory', true);
  if (denial) return `a link to ${walk.rel}${through}, where nothing may lead: ${denial.reason}`;
  return undefined;
}

/** The workspace as the disk holds it, read through the policy's port (never following the last component). */
export function workspaceView(root: string, fs: PolicyFs): TreeView {
  return (rel) => {
    const abs = rel === '' ? root : `${root}/${rel}`;
    const s = fs.lstatSync(abs);
    if (!s) return { kind: 'missing' };
    if (s.isSymbolicLink()) {
      const target = fs.readlinkSync(abs);
      return target === undefined ? { kind: 'other' } : { kind: 'symlink', target };
    }
    return { kind: s.isDirectory() ? 'directory' : s.isFile() ? 'file' : 'other' };
  };
}

/**
 * The tree once `batch` (staged changes, what would be applied) is: the batch's entry where it names the
 * path, nothing below an entry the batch removed or made anew as something else than the workspace's
 * folder, and the workspace elsewhere. A folder the batch removes is still taken as there — its removal is
 * judged entry by entry later and may not happen — so a link is judged against what it could reach.
 */
export function batchView(base: TreeView, batch: readonly StagedChange[]): TreeView {
  const byPath = new Map(batch.filter((c) => !(c.now === null && c.was === 'directory')).map((c) => [c.path, c]));
  const shadows = new Set(batch.filter((c) => (c.now === null && c.was !== 'directory') || (c.now !== null && c.was !== c.now)).map((c) => c.path));
  const shadowed = (rel: string): boolean => {
    for (let at = rel.lastIndexOf('/'); at > 0; at = rel.lastIndexOf('/', at - 1)) if (shadows.has(rel.slice(0, at))) return true;
    return false;
  };
  return (rel) => {
    const c = byPath.get(rel);
    if (c) {
      if (c.now === null) return { kind: 'missing' };
      if (c.now === 'symlink') return c.target === undefined ? { kind: 'other' } : { kind: 'symlink', target: c.target };
      return { kind: c.now };
    }
    // Below an entry the batch removed or replaced, the workspace's content is not there.
    if (shadowed(rel)) return { kind: 'missing' };
    return base(rel);
  };
}
