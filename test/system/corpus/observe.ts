/**
 * What the corpus looks at after a run, the same way for every mode:
 * - the files of the workspace (content by hash, mode, link target), without `.git` (read through git
 *   instead), the product's own store `.plan-execute/` and the TypeScript the fixtures link in;
 * - git's record, read with the user's own configuration (their global excludes change `git status`);
 * - each command's output, normalised so that what differs between three copies of one scene and not
 *   between behaviours (paths, durations, commit ids) compares equal.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, lstatSync, openSync, readdirSync, readlinkSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandOutcome, FileFact, GitState, SceneDirs } from './scenario';

/** Workspace paths no mode is compared on: git's folder (see gitState), the product's store, the linked compiler. */
const NOT_COMPARED = new Set(['.git', '.plan-execute', 'node_modules/typescript']);

function hashFile(abs: string): string {
  const hash = createHash('sha256');
  const fd = openSync(abs, 'r');
  try {
    const buf = Buffer.alloc(1 << 20);
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) hash.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex').slice(0, 16);
}

/** Every path under the workspace (links not followed), with what the comparison looks at. */
export function filesOf(ws: string): Map<string, FileFact> {
  const out = new Map<string, FileFact>();
  const walk = (rel: string): void => {
    let names: string[];
    try {
      names = readdirSync(rel ? join(ws, rel) : ws).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const r = rel ? `${rel}/${name}` : name;
      if (NOT_COMPARED.has(r)) continue;
      const abs = join(ws, r);
      const st = lstatSync(abs);
      const mode = st.mode & 0o7777;
      if (st.isSymbolicLink()) out.set(r, { kind: 'link', target: readlinkSync(abs) });
      else if (st.isDirectory()) {
        out.set(r, { kind: 'dir', mode });
        walk(r);
      } else if (st.isFile()) out.set(r, { kind: 'file', mode, size: st.size, sha: hashFile(abs) });
      else out.set(r, { kind: 'other' });
    }
  };
  walk('');
  return out;
}

export const describeFact = (f: FileFact | undefined): string => {
  if (!f) return 'absent';
  if (f.kind === 'file') return `file ${f.mode.toString(8)} ${f.size} B ${f.sha}`;
  if (f.kind === 'link') return `link -> ${f.target}`;
  if (f.kind === 'dir') return `dir ${f.mode.toString(8)}`;
  return 'special file';
};

/** Replaces what differs between the copies of one scene (and between runs) but not between behaviours. */
export function normalise(text: string, dirs: SceneDirs): string {
  return (
    text
      .split(dirs.ws)
      .join('<ws>')
      .split(dirs.home)
      .join('<home>')
      .split(dirs.root)
      .join('<root>')
      // Temporary paths (pytest's tmp_path, mkdtemp names), durations, commit and object ids.
      .replace(/\/tmp\/[^\s'":)]+/g, '<tmp>')
      .replace(/\b\d+(\.\d+)?\s?(ms|s|sec|seconds)\b/g, '<t>')
      .replace(/\bduration_ms:? [\d.]+/g, 'duration_ms <t>')
      .replace(/\b\d+\.\d+\b/g, '<n>')
      // An abbreviated commit id can be all digits (`[main 7444390] bump`): any run of 7+ hex characters with a
      // digit counts, at the price of also hiding a 7-digit number.
      .replace(/\b(?=[0-9a-f]*\d)[0-9a-f]{7,64}\b/g, '<id>')
      // ... and one made only of letters, where git prints it: `[main fdddcff] repoint`, `[main (root-commit) abcdef0]`.
      .replace(/^(\[[^\]\s]+(?: \([^)]*\))? )[a-f]{7,64}\]/gm, '$1<id>]')
      // npm's notices about its own new versions come and go with its update check, not the project.
      .replace(/^npm notice.*$/gm, '')
  );
}

/**
 * Output as its non-empty lines. They are compared as a multiset (compare.ts): stdout and stderr reach the
 * product on two pipes (and a plain run's on one), so the order in which their lines interleave is not a
 * behaviour; the lines are.
 */
export function outputLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.length > 0);
}

/** The product's own annotations around a command's output (never the command's). */
const PRODUCT_LINE =
  /^\[(sandbox: |files changed by the command: |applied to the workspace: |kept for this step only |NOT applied to the workspace|rolled back: |NOT rolled back |git: \d+ file\(s\) of git's data |not covered by Revert step: )/;

/**
 * One command's outcome from the `bash` tool result the executor was sent: `exit code: N, T ms[, …]`,
 * the output, then the product's notes; a refusal or an undo (permission_denied) wraps all of that.
 */
export function parseToolResult(command: string, content: string | undefined, isError: boolean, dirs: SceneDirs): CommandOutcome {
  if (content === undefined)
    return { command, exit: 'missing', denied: true, ms: 0, output: '', notes: ['the executor was never sent a result for this command'] };
  const head = /^exit code: (\d+|none)(?:, signal \w+)?, (\d+) ms.*$/m.exec(content);
  if (!head) return { command, exit: 'missing', denied: true, ms: 0, output: '', notes: [content.slice(0, 400)] };
  // A failure's text starts with the call's id, which differs on every run.
  const before = content
    .slice(0, head.index)
    .replace(/^\[tool_call_id: [^\]]*\]\s*/, '')
    .trim();
  const body = content.slice(head.index + head[0].length + 1).split('\n');
  const notes = [...(before ? [before] : []), ...body.filter((l) => PRODUCT_LINE.test(l))];
  const output = body.filter((l) => !PRODUCT_LINE.test(l)).join('\n');
  const code = head[1] ?? 'none';
  return { command, exit: code === 'none' ? 'none' : Number(code), denied: isError, ms: Number(head[2]), output: normalise(output, dirs), notes };
}

function gitLines(dirs: SceneDirs, ...args: string[]): string[] {
  const r = spawnSync('/usr/bin/git', args, {
    cwd: dirs.ws,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dirs.home, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C.UTF-8' },
  });
  const lines = (r.stdout ?? '').split('\n').filter((l) => l.length > 0);
  return r.status === 0 ? lines : [...lines, `(git ${args[0]} failed: ${(r.stderr ?? '').trim().split('\n')[0]})`];
}

/**
 * Git's record in comparable lines. Commits made during a run get the time of the run, so a commit is
 * described by its tree, author, subject and signature, and a branch by that chain down to the root —
 * never by commit ids. The index and trees are content addressed: their ids are compared as they are.
 */
export function gitState(dirs: SceneDirs): GitState | undefined {
  if (gitLines(dirs, 'rev-parse', '--git-dir')[0] === undefined) return undefined;
  const chain = (ref: string): string => {
    const commits = gitLines(dirs, 'log', '--format=%T %an <%ae> %s', ref);
    const signed = gitLines(dirs, 'cat-file', 'commit', ref).some((l) => l.startsWith('gpgsig'));
    return `${commits.join(' < ')}${signed ? ' [signed]' : ''}`;
  };
  const refs = gitLines(dirs, 'for-each-ref', '--format=%(refname) %(upstream)').map((line) => {
    const [ref = '', upstream = ''] = line.split(' ');
    return `${ref}${upstream ? ` (tracks ${upstream})` : ''}: ${chain(ref)}`;
  });
  const symbolic = gitLines(dirs, 'symbolic-ref', '-q', 'HEAD')[0];
  const head = symbolic && !symbolic.startsWith('(') ? symbolic : `detached: ${chain('HEAD')}`;
  const flags = gitLines(dirs, 'ls-files', '-v').filter((l) => !l.startsWith('H '));
  return {
    head,
    refs,
    index: [...gitLines(dirs, 'ls-files', '-s'), ...flags.map((l) => `flag ${l}`)],
    // The product's own store is measured through the index and the commands' output, not here:
    // every CLI run leaves it, and it would hide what else differs.
    status: gitLines(dirs, 'status', '--porcelain=v1', '--untracked-files=all').filter((l) => !l.includes('.plan-execute/')),
    stash: gitLines(dirs, 'stash', 'list', '--format=%gs').map((l) => normalise(l, dirs)),
    config: gitLines(dirs, 'config', '--local', '--list')
      .map((l) => normalise(l, dirs))
      .sort(),
  };
}
