/**
 * `git worktree add <folder>` in a staged command, with git writes granted: the new worktree's folder in
 * the workspace, its `.git` file, and its own git folder `.git/worktrees/<name>/` in the repository. The
 * judge takes the folder's files like any others (its edit globs decide); what this module adds, read from
 * the layer's bytes before the judge runs:
 *   1. links   — a new registration is taken only when its links are exactly what `git worktree add`
 *                writes: `.git/worktrees/<name>/gitdir` names `<workspace>/<folder>/.git`, `commondir` is
 *                `../..`, and `<folder>/.git` reads `gitdir: <workspace>/.git/worktrees/<name>` — any other
 *                `.git` file could point the user's git at a folder of hooks the step planted. Links of an
 *                existing registration never change (that would move a worktree the user has).
 *   2. folder  — the worktree's folder must lie inside the step's edit globs: every file the checkout wrote
 *                there is one the step may write, or (3).
 *   3. mirrors — a protected or secret file of the checkout (`.vscode/settings.json`, a tracked `.env`) is
 *                taken when it holds exactly what the workspace holds at the same place in the main checkout:
 *                the worktree is another checkout of the same repository, and that content is the user's.
 * A registration that fails is refused whole: its git folder's data, and its `.git` file.
 */
import type { StagedChange } from '../contracts/staging';
import type { Workspace } from '../ports';
import { isBelow, pathBelow } from '../primitives/paths';

export interface WorktreeRules {
  root: string;
  /** The policy's verdict on writing a workspace path (edit globs, protected paths, secrets). */
  mayWrite(path: string): boolean;
  /** A file's bytes in the layer. */
  readLayer(path: string): Promise<Uint8Array>;
  /** A file's bytes in the workspace (null: no regular file there). */
  readWorkspace(path: string): Promise<Uint8Array | null>;
}

export interface WorktreeVerdicts {
  /** Workspace paths the judge may apply although the policy alone would not: valid `.git` files and mirrors. */
  accepted: Set<string>;
  /** `.git` files the judge may remove: a worktree removed whole (`git worktree remove`), folder and git folder. */
  removable: Set<string>;
  /** Changes refused, each with why (git data of a failed registration, its `.git` file). */
  refused: { path: string; why: string }[];
  /** The `.git` files of new registrations: applied only once git's data is taken. */
  pointers: string[];
}

const REGISTRATION = /^\.git\/worktrees\/([^/]+)\/(gitdir|commondir)$/;

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes).trim();
const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** The worktree folder a registration's `gitdir` names, when it is a plain folder of the workspace. */
function folderOf(gitdir: string, root: string): string | undefined {
  if (!gitdir.endsWith('/.git')) return undefined;
  const folder = pathBelow(gitdir.slice(0, -'/.git'.length), root);
  if (folder === undefined || folder.split('/').some((s) => s === '' || s === '.' || s === '..') || folder.split('/')[0] === '.git') return undefined;
  return folder;
}

export async function judgeWorktrees(changes: readonly StagedChange[], rules: WorktreeRules): Promise<WorktreeVerdicts> {
  const verdicts: WorktreeVerdicts = { accepted: new Set(), removable: new Set(), refused: [], pointers: [] };
  await removedWorktrees(changes, rules, verdicts);
  const names = new Set(changes.flatMap((c) => REGISTRATION.exec(c.path)?.[1] ?? []));
  for (const name of names) {
    const own = changes.filter((c) => isBelow(c.path, `.git/worktrees/${name}`) && c.now !== 'directory');
    const refuse = (why: string, more: readonly string[] = []): void => {
      for (const path of [...own.map((c) => c.path), ...more]) verdicts.refused.push({ path, why });
    };
    const gitdir = changes.find((c) => c.path === `.git/worktrees/${name}/gitdir`);
    const commondir = changes.find((c) => c.path === `.git/worktrees/${name}/commondir`);
    // 1. links
    if (gitdir?.was !== null || commondir?.was !== null || gitdir.now !== 'file' || commondir.now !== 'file') {
      refuse("a worktree's links (gitdir, commondir) are written only by `git worktree add`, never changed afterwards");
      continue;
    }
    const folder = folderOf(text(await rules.readLayer(gitdir.path)), rules.root);
    if (folder === undefined || text(await rules.readLayer(commondir.path)) !== '../..') {
      refuse('the new worktree is not a folder of the workspace (its gitdir or commondir is not what `git worktree add` writes)');
      continue;
    }
    const pointer = changes.find((c) => c.path === `${folder}/.git`);
    const pointerText = pointer?.now === 'file' && pointer.was === null ? text(await rules.readLayer(pointer.path)) : undefined;
    if (pointer === undefined || pointerText !== `gitdir: ${rules.root}/.git/worktrees/${name}`) {
      refuse(`${folder}/.git does not point back at the worktree's own git folder`, pointer ? [pointer.path] : []);
      continue;
    }
    // 2. folder, 3. mirrors
    const outside: string[] = [];
    const mirrors: string[] = [];
    for (const c of changes) {
      if (!isBelow(c.path, folder) || c.path === pointer.path || c.now === 'directory' || c.now === null || rules.mayWrite(c.path)) continue;
      const main = await (c.now === 'file' ? rules.readWorkspace(c.path.slice(folder.length + 1)) : null);
      if (main !== null && same(main, await rules.readLayer(c.path))) mirrors.push(c.path);
      else outside.push(c.path);
    }
    if (outside.length > 0) {
      refuse(`the worktree's folder ${folder} is not within the step's edit globs (${outside.slice(0, 5).join(', ')}${outside.length > 5 ? ', …' : ''})`, [
        pointer.path,
      ]);
      continue;
    }
    verdicts.accepted.add(pointer.path);
    verdicts.pointers.push(pointer.path);
    for (const m of mirrors) verdicts.accepted.add(m);
  }
  return verdicts;
}

/** `git worktree remove`: a registration gone whole, with the folder its `gitdir` names — its `.git` file may go too. */
async function removedWorktrees(changes: readonly StagedChange[], rules: WorktreeRules, verdicts: WorktreeVerdicts): Promise<void> {
  for (const c of changes) {
    const name = /^\.git\/worktrees\/([^/]+)$/.exec(c.path)?.[1];
    if (name === undefined || c.now !== null || c.was !== 'directory') continue;
    const gitdir = await rules.readWorkspace(`.git/worktrees/${name}/gitdir`);
    const folder = gitdir === null ? undefined : folderOf(text(gitdir), rules.root);
    if (folder !== undefined && changes.some((o) => (o.path === folder || o.path === `${folder}/.git`) && o.now === null))
      verdicts.removable.add(`${folder}/.git`);
  }
}

/** The linked worktrees registered in the repository (`.git/worktrees/<name>`), by name. */
export async function registeredWorktrees(workspace: Workspace): Promise<Set<string>> {
  try {
    return new Set((await workspace.readDir('.git/worktrees')).filter((e) => e.kind === 'directory').map((e) => e.name));
  } catch {
    return new Set(); // none yet
  }
}

/** Entries a new worktree's folder may hold to be judged (a checkout larger than this is refused). */
const WORKTREE_FILES_MAX = 50_000;

/**
 * Writing directly (no layer): the registrations a command added since `before`, judged by the same rules
 * from what is on disk now. `accepted` adds a valid registration's links to what the step may leave.
 */
export async function judgeDirectWorktrees(
  workspace: Workspace,
  rules: Omit<WorktreeRules, 'readLayer' | 'readWorkspace'>,
  before: ReadonlySet<string>,
): Promise<WorktreeVerdicts & { removed: string[] }> {
  const added = [...(await registeredWorktrees(workspace))].filter((n) => !before.has(n));
  const read = async (path: string): Promise<Uint8Array | null> => ((await workspace.stat(path))?.kind === 'file' ? workspace.readFile(path) : null);
  const changes: StagedChange[] = [];
  for (const name of added) {
    for (const link of ['gitdir', 'commondir']) changes.push({ path: `.git/worktrees/${name}/${link}`, was: null, now: 'file', content: true });
    const gitdir = await read(`.git/worktrees/${name}/gitdir`);
    const folder = gitdir === null ? undefined : folderOf(text(gitdir), rules.root);
    if (folder === undefined) continue;
    const listed = await workspace.scan({ prune: () => false, limit: WORKTREE_FILES_MAX, under: [folder] });
    for (const e of listed.entries) if (e.path !== folder) changes.push({ path: e.path, was: null, now: e.kind, content: true });
  }
  const verdicts = await judgeWorktrees(changes, {
    ...rules,
    readLayer: async (path) => (await read(path)) ?? new Uint8Array(),
    readWorkspace: read,
  });
  const refusedNames = new Set(verdicts.refused.flatMap((r) => /^\.git\/worktrees\/([^/]+)\//.exec(r.path)?.[1] ?? []));
  for (const name of added) {
    if (refusedNames.has(name)) continue;
    for (const link of ['gitdir', 'commondir']) verdicts.accepted.add(`.git/worktrees/${name}/${link}`);
  }
  return { ...verdicts, removed: [...refusedNames].map((n) => `.git/worktrees/${n}`) };
}
