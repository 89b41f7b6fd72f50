/**
 * Secrets the sandbox hides (a `.env`, a key) stay hidden without breaking git. Inside the sandbox a hidden
 * file is a stand-in (a read-only /dev/null): git would see a tracked one as changed (`git diff`), refuse
 * to stage it (`git add -A`: "can only add regular files"), stash it, or commit the stand-in. So, before a
 * staged command, the layer gets its own copy of the repository's index in which every hidden file that git
 * tracks is marked skip-worktree (git then neither looks at it nor touches it, and `commit -a`, `stash`,
 * `add -A` keep the recorded content), and its own `info/exclude` naming the hidden files git does not
 * track. The workspace's own index and exclude file are never written here.
 *
 * Afterwards (`undoGitPrep`): a prepared file the command left as it was is not a change; an index the
 * command rewrote (a granted `git add`, `commit`) gets the skip-worktree marks it did not have before taken
 * off again, so what reaches the workspace is git's record without ours. The notes live beside the layer.
 *
 * What git said is remembered per workspace while the repository's index stays the same file (its inode,
 * size and times: git replaces the index whole, through a lock file and a rename): which hidden files it
 * tracks, and the index prepared from it — so a step's next command spawns no git and reads no index.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { err, ok, type Result } from '../../core/contracts/result';
import { errorText } from '../../core/primitives/errorText';
import { sha256Hex } from '../../core/primitives/hash';
import { hasCode, isDenied, isMissing, whenMissing } from '../fsErrors';
import { SAFE_GIT_OPTIONS, safeGitEnv } from '../gitRecord';
import { hostTool } from './hostTools';

interface PrepNotes {
  /** sha256 of the index and the exclude file as prepared (a command that left them so changed nothing). */
  index?: string;
  exclude?: string;
  /** Paths we marked skip-worktree (they were not before). */
  skipped: string[];
}

const notesPath = (upper: string): string => nodePath.join(nodePath.dirname(upper), 'git-prep.json');

/** Why a git run of the preparation gave no answer. */
interface GitFailure {
  reason: string;
}

/** git's stdout, or why it gave none. */
function git(root: string, args: string[], env: Record<string, string> = {}): Result<string, GitFailure> {
  const file = hostTool('git');
  if (file === undefined) return err({ reason: 'git is not installed' });
  const r = spawnSync(file, [...SAFE_GIT_OPTIONS, ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 30_000,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...safeGitEnv('/nonexistent'), GIT_CONFIG_GLOBAL: '/dev/null', ...env },
  });
  return r.status === 0 ? ok(r.stdout) : err({ reason: `git ${args[0] ?? ''} exit ${r.status ?? r.signal}` });
}

function readOrNull(abs: string): Buffer | null {
  try {
    const s = fs.lstatSync(abs);
    return s.isFile() ? fs.readFileSync(abs) : null;
  } catch (error) {
    // Not there, or not ours to read (a `sudo git` left it root's): no file to start from or compare. Fails
    // open for git's display inside the command only (hidden files may show as changed), never for a write.
    if (!isMissing(error) && !isDenied(error)) throw error;
    return null;
  }
}

/** A folder in the layer with the mode of its workspace twin (so preparing it is no change of its own). */
function mkdirLike(upper: string, root: string, rel: string): void {
  const at = nodePath.join(upper, rel);
  if (fs.existsSync(at)) return;
  fs.mkdirSync(at, { recursive: true });
  try {
    fs.chmodSync(at, fs.statSync(nodePath.join(root, rel)).mode & 0o7777);
  } catch (error) {
    whenMissing(error, undefined); // no twin in the workspace: the default mode
  }
}

/** What git said about one workspace's index, for the hidden files as they were: see the header. */
interface Known {
  /** The index file as it stood (inode, size, times) and the hidden files asked about. */
  key: string;
  /** Each hidden file git tracks, with its `ls-files -v` tag. */
  tracked: Map<string, string>;
  /** The index with our skip-worktree marks, once made from this one, and its sha256. */
  prepared?: { bytes: Buffer; hash: string };
}

const known = new Map<string, Known>();

/** The index file's identity: any write of git's replaces it, so a new inode or time means new content. */
function indexKey(gitDir: string, files: readonly string[]): string | undefined {
  const s = fs.statSync(nodePath.join(gitDir, 'index'), { bigint: true, throwIfNoEntry: false });
  return s === undefined ? undefined : [s.dev, s.ino, s.size, s.mtimeNs, s.ctimeNs, ...files].join('\0');
}

/** Which of `files` git tracks (with their tags), asked again only when the index changed. */
function trackedOf(root: string, gitDir: string, files: readonly string[]): { tracked: Map<string, string>; memo?: Known } {
  const key = indexKey(gitDir, files);
  const was = known.get(root);
  if (key !== undefined && was?.key === key) return { tracked: was.tracked, memo: was };
  const listed = git(root, ['ls-files', '-v', '-z', '--', ...files]);
  const tracked = new Map<string, string>();
  for (const item of (listed.ok ? listed.value : '').split('\0')) if (item.length > 2) tracked.set(item.slice(2), item[0] ?? '');
  // Remembered only when git answered and the index is a file that did not move meanwhile.
  if (!listed.ok || key === undefined || indexKey(gitDir, files) !== key) {
    known.delete(root);
    return { tracked };
  }
  const memo: Known = { key, tracked };
  known.set(root, memo);
  return { tracked, memo };
}

/** Prepares the layer's index and exclude file for the hidden entries (workspace-relative files and folders). */
export function prepareGitForHidden(root: string, upper: string, hidden: readonly { path: string; kind: 'file' | 'directory' }[]): string[] {
  const gitDir = nodePath.join(root, '.git');
  try {
    if (!fs.lstatSync(gitDir).isDirectory()) return [];
  } catch (error) {
    return whenMissing(error, []); // no repository: nothing git could show
  }
  const entries = hidden.filter((h) => !h.path.startsWith('.git/') && h.path !== '.git' && !h.path.startsWith('.plan-execute'));
  const files = entries.map((h) => h.path);
  if (files.length === 0) return [];
  const layerGit = nodePath.join(upper, '.git');
  const layerIndex = nodePath.join(layerGit, 'index');
  const notes: PrepNotes = { skipped: [] };
  const problems: string[] = [];
  // Which of them git tracks, and which of those are skip-worktree already (`S`).
  // git failing here fails open for git only: every hidden file is then excluded as untracked.
  const { tracked, memo } = trackedOf(root, gitDir, files);
  const toSkip = [...tracked].filter(([, tag]) => tag !== 'S' && tag !== 's').map(([p]) => p);
  if (toSkip.length > 0) {
    mkdirLike(upper, root, '.git');
    // The layer's own index (a granted `git add` earlier in the step) is marked by git; the workspace's is
    // marked once per version of it, and the marked copy written again for the next command.
    const own = readOrNull(layerIndex) !== null;
    let prepared = own ? undefined : memo?.prepared;
    if (prepared) fs.writeFileSync(layerIndex, prepared.bytes);
    else {
      if (!own) {
        const real = readOrNull(nodePath.join(gitDir, 'index'));
        if (real !== null) fs.writeFileSync(layerIndex, real);
      }
      const r = git(root, ['update-index', '--skip-worktree', '--', ...toSkip], { GIT_INDEX_FILE: layerIndex });
      const bytes = r.ok ? readOrNull(layerIndex) : null;
      prepared = bytes ? { bytes, hash: sha256Hex(bytes) } : undefined;
      if (!r.ok) problems.push('the hidden files git tracks could not be marked in the staged index: git may show them changed');
      // Kept only when made from the workspace's index as the memo knew it (its key, checked again now).
      else if (!own && memo && prepared && indexKey(gitDir, files) === memo.key) memo.prepared = prepared;
    }
    if (prepared) {
      notes.skipped = toSkip;
      notes.index = prepared.hash;
    }
  }
  const untracked = entries.filter((h) => h.kind === 'directory' || !tracked.has(h.path)).map((h) => (h.kind === 'directory' ? `${h.path}/` : h.path));
  if (untracked.length > 0) {
    const exclude = nodePath.join(layerGit, 'info', 'exclude');
    const base = readOrNull(exclude) ?? readOrNull(nodePath.join(gitDir, 'info', 'exclude')) ?? Buffer.from('');
    const lines = untracked.map((p) => `/${p.replace(/([\\*?[\]!# ])/g, '\\$1')}`).join('\n');
    const text = Buffer.concat([base, Buffer.from(`${base.length > 0 && !base.toString().endsWith('\n') ? '\n' : ''}# hidden by the sandbox\n${lines}\n`)]);
    mkdirLike(upper, root, '.git');
    mkdirLike(upper, root, '.git/info');
    fs.writeFileSync(exclude, text);
    notes.exclude = sha256Hex(text);
  }
  fs.writeFileSync(notesPath(upper), JSON.stringify(notes));
  return problems;
}

/** Whether the layer's index is still the one prepared (`hash`): compared with the bytes when they are held, else hashed. */
function untouched(index: Buffer, hash: string): boolean {
  const held = [...known.values()].find((k) => k.prepared?.hash === hash)?.prepared;
  return held ? held.bytes.equals(index) : sha256Hex(index) === hash;
}

/**
 * After the command: removes what the preparation wrote and the command left untouched, and takes our
 * skip-worktree marks off an index the command rewrote. Returns what went wrong, each with why.
 */
export function undoGitPrep(root: string, upper: string): string[] {
  let notes: PrepNotes;
  try {
    notes = JSON.parse(fs.readFileSync(notesPath(upper), 'utf8')) as PrepNotes;
  } catch (error) {
    if (isMissing(error)) return []; // nothing was prepared for this command
    return [`the sandbox's notes on the staged index could not be read (${errorText(error)}): its skip-worktree marks may stay`];
  }
  fs.rmSync(notesPath(upper), { force: true });
  const problems: string[] = [];
  const layerIndex = nodePath.join(upper, '.git', 'index');
  const index = readOrNull(layerIndex);
  if (index !== null && notes.index !== undefined) {
    if (untouched(index, notes.index)) fs.rmSync(layerIndex);
    else if (notes.skipped.length > 0 && !git(root, ['update-index', '--no-skip-worktree', '--', ...notes.skipped], { GIT_INDEX_FILE: layerIndex }).ok) {
      problems.push("the staged index could not be cleared of the sandbox's skip-worktree marks");
    }
  }
  const exclude = nodePath.join(upper, '.git', 'info', 'exclude');
  const ex = readOrNull(exclude);
  if (ex !== null && notes.exclude !== undefined && sha256Hex(ex) === notes.exclude) fs.rmSync(exclude);
  // Folders the preparation made and nothing else uses: copied-up `.git/info`, `.git`.
  for (const dir of [nodePath.join(upper, '.git', 'info'), nodePath.join(upper, '.git')]) {
    try {
      fs.rmdirSync(dir);
    } catch (error) {
      // Not empty (the command wrote there) or not there: it stays as it is.
      if (!isMissing(error) && !hasCode(error, 'ENOTEMPTY', 'EEXIST'))
        problems.push(`${nodePath.relative(upper, dir)} (could not be removed from the layer: ${errorText(error)})`);
    }
  }
  return problems;
}
