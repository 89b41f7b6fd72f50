/**
 * What an ordinary-project scenario is: a repository shape (built once, then copied for each way it is
 * run), one step's authority, and the commands its executor runs, in order — plus what the comparison may
 * leave aside (see compare.ts for the rule). Builders for the shapes live here too: files, a git
 * repository whose commits are identical in every copy, the user's home.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The folders of one scene: `root/home` (HOME), `root/work/app` (the workspace), `root/run` (XDG_RUNTIME_DIR). */
export interface SceneDirs {
  root: string;
  home: string;
  ws: string;
  run: string;
}

/** What a scenario's builder may use that exists once per test process. */
export interface CorpusContext {
  /** A package registry on the host's loopback (registry.ts), e.g. `http://127.0.0.1:PORT/`. */
  registryUrl: string;
}

export type Mode = 'plain' | 'unsandboxed' | 'sandboxed';
export type Aspect = 'exit' | 'output' | 'files' | 'git';

/** One command as it ran: its exit, its output (normalised, see observe.ts), and what the product added. */
export interface CommandOutcome {
  command: string;
  /** The exit code; `none` when killed by a signal; `missing` when the product never ran it (or never said). */
  exit: number | 'none' | 'missing';
  /** The product refused it, or undid what it did (a permission_denied failure). */
  denied: boolean;
  ms: number;
  output: string;
  /** The product's own lines around the output (`[sandbox: …]`, `[files changed …]`), kept for the report. */
  notes: string[];
}

/** A path's state after the run: content (by hash), mode, link target. */
export type FileFact =
  { kind: 'file'; mode: number; size: number; sha: string } | { kind: 'link'; target: string } | { kind: 'dir'; mode: number } | { kind: 'other' };

/** What git records, each part as comparable lines (see observe.ts for how each is read). */
export interface GitState {
  head: string;
  refs: string[];
  index: string[];
  status: string[];
  stash: string[];
  config: string[];
}

export interface ModeRun {
  mode: Mode;
  dirs: SceneDirs;
  commands: CommandOutcome[];
  files: Map<string, FileFact>;
  git: GitState | undefined;
  /** The CLI's stderr (empty for plain), for the report. */
  log: string;
}

/** A part of the comparison that a scenario replaces for one mode, with the reason (see compare.ts). */
interface Override {
  modes: Mode[];
  aspects: Aspect[];
  /** Why the three runs may not be equal here, and what is asked instead. */
  why: string;
  /** Problems with `run` (empty when it is as the scenario wants); `plain` and `initial` for reference. */
  check(run: ModeRun, plain: ModeRun, initial: GitState | undefined): string[];
}

export interface Scenario {
  /** Short, unique; the test title and the table's row. */
  name: string;
  /** The project in one sentence (what a user would recognise). */
  about: string;
  build(dirs: SceneDirs, ctx: CorpusContext): void;
  /** The step's authority; its command allowlist is exactly `commands`. */
  authority: { edit: string[]; read?: string[]; network?: boolean };
  commands: string[];
  /**
   * Globs of workspace paths the step may leave private (a build output or a cache it does not keep):
   * what a plain run leaves there is not compared. Say why in `privateWhy`.
   */
  privateOutputs?: string[];
  privateWhy?: string;
  overrides?: Override[];
  /** The CLI's deadline (default 180 s). */
  timeoutMs?: number;
  /** Folders put on PATH before the user's own, as direnv's `PATH_add bin` does (plain and CLI runs alike). */
  pathBefore?: (dirs: SceneDirs) => string[];
}

/** Fixed identity and dates for fixture commits: every copy of a scene holds the same commit ids. */
const FIXTURE_ENV = {
  GIT_AUTHOR_NAME: 'Fixture',
  GIT_AUTHOR_EMAIL: 'fixture@example.invalid',
  GIT_COMMITTER_NAME: 'Fixture',
  GIT_COMMITTER_EMAIL: 'fixture@example.invalid',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  GIT_CONFIG_NOSYSTEM: '1',
};

/** git in a fixture folder, never reading the user's configuration (HOME is the folder itself). */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('/usr/bin/git', ['-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, ...FIXTURE_ENV },
  });
}

/** Writes files (relative path → content; a leading `+x ` on the content makes it executable). */
export function put(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    const executable = typeof content === 'string' && content.startsWith('+x ');
    writeFileSync(p, executable ? content.slice(3) : content);
    if (executable) chmodSync(p, 0o755);
  }
}

/** Makes `ws` a repository holding `files`, committed once on `main`. */
export function repo(ws: string, files: Record<string, string | Buffer>, message = 'initial'): void {
  put(ws, files);
  git(ws, 'init', '-q');
  commitAll(ws, message);
}

function commitAll(ws: string, message: string): void {
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', message);
}

/** The user's own ~/.gitconfig: an identity, plus whatever else the scenario's user set up. */
export function userGitConfig(home: string, extra = ''): void {
  put(home, { '.gitconfig': `[user]\n\tname = Real User\n\temail = user@example.invalid\n${extra}` });
}

export const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** A text file from its lines (each ends with a newline). */
export const lines = (...text: string[]): string => `${text.join('\n')}\n`;

/** A `node --test` file with one test whose body is `body` (CommonJS; `assert` and `fs` in scope). */
export const nodeTest = (title: string, body: string): string =>
  lines(
    "const test = require('node:test');",
    "const assert = require('node:assert');",
    "const fs = require('node:fs');",
    '',
    `test(${JSON.stringify(title)}, async () => {`,
    body,
    '});',
  );
