/**
 * Ordinary git work in a step granted git: the user's own hook, stash and branches with tracking, their
 * global excludes and commit signing, the product's own store kept out of what `git add -A` takes, and
 * the git review's legitimate halves — a worktree added and committed in, notes, a rebase of the user's
 * own history, a fetch and a pull from the repository's own remote.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gitDiffs } from './compare';
import { git, lines, put, repo, userGitConfig, type Scenario } from './scenario';
import { nodeApp } from './shapes';

/**
 * A signing key is the user's secret: a step may sign only with what the user grants, and the sandbox
 * grants neither the key nor an agent. So a commit that must be signed either matches plain (signed), or
 * fails loudly naming what to do (signingHint.ts) with nothing committed — never an unsigned commit.
 */
function signedOrNamed(mode: 'sandboxed'): NonNullable<Scenario['overrides']>[number] {
  return {
    modes: [mode],
    aspects: ['exit', 'output', 'git'],
    why: 'signing works as outside, or the commit fails loudly naming what to do and nothing is committed — never an unsigned commit',
    check: (run, plain, initial) => {
      const commit = run.commands[1];
      const asPlain = run.commands.every((c, i) => c.exit === plain.commands[i]?.exit) && gitDiffs(run.git, plain.git).length === 0;
      if (asPlain) return [];
      const named = commit !== undefined && commit.exit !== 0 && /git config commit\.gpgsign false/.test(commit.notes.join('\n'));
      const nothingCommitted = run.git !== undefined && run.git.head === initial?.head && run.git.refs.join('\n') === initial.refs.join('\n');
      if (named && nothingCommitted) return [];
      const head = run.git?.refs.find((r) => r.startsWith('refs/heads/main')) ?? '';
      const made = head.endsWith('[signed]') ? 'signed' : 'UNSIGNED';
      return [
        `the commit neither matched plain (signed) nor failed naming what to do: exit ${commit?.exit}, ${made} commit — ${commit?.output.slice(0, 200)} ${commit?.notes.join(' ').slice(0, 200)}`,
      ];
    },
  };
}

export const GIT_SCENARIOS: Scenario[] = [
  {
    name: "the user's own pre-commit hook",
    about: 'a pre-commit hook in .git/hooks that lints the staged code; it runs during `git commit`',
    build: ({ ws }) => {
      repo(
        ws,
        nodeApp({
          'scripts/lint.js': lines(
            "const fs = require('fs');",
            "if (/debugger/.test(fs.readFileSync('src/version.js', 'utf8'))) { console.error('lint: debugger left in'); process.exit(1); }",
            "console.log('lint ok');",
          ),
        }),
      );
      put(ws, { '.git/hooks/pre-commit': '+x #!/bin/sh\nexec node scripts/lint.js\n' });
    },
    authority: { edit: ['src/**'] },
    commands: ['node scripts/bump.js', 'git commit -am bump', 'git log --format=%s'],
  },
  {
    name: 'git stash, checkout -b, checkout -b with tracking',
    about: 'a clone of a local bare origin: stash and pop a change, make a branch, then one that tracks origin/main',
    build: ({ ws }) => {
      repo(ws, nodeApp());
      git(ws, 'clone', '-q', '--bare', '.', '../origin.git');
      git(ws, 'remote', 'add', 'origin', '../origin.git');
      git(ws, 'fetch', '-q', 'origin');
      git(ws, 'branch', '-q', '--set-upstream-to', 'origin/main');
    },
    authority: { edit: ['src/**'] },
    commands: [
      'node scripts/bump.js',
      'git stash',
      'git stash list',
      'git stash pop',
      'git checkout -b feature',
      'git checkout -b x origin/main',
      'git status --short --branch',
    ],
  },
  {
    name: "the user's global git excludes",
    about: 'core.excludesFile (~/.config/git/ignore) names .DS_Store and .idea/; `git add -A` must leave them out',
    build: ({ ws, home }) => {
      userGitConfig(home, '[core]\n\texcludesFile = ~/.config/git/ignore\n');
      put(home, { '.config/git/ignore': '.DS_Store\n.idea/\n' });
      repo(ws, nodeApp());
      put(ws, { '.DS_Store': Buffer.from([0, 0, 0, 1, 66, 117, 100, 49]), '.idea/workspace.xml': '<project version="4" />\n' });
    },
    authority: { edit: ['src/**'] },
    commands: ['node scripts/bump.js', 'git status --porcelain', 'git add -A', 'git commit -m bump', 'git show --stat --format=%s HEAD'],
  },
  {
    name: 'commit signing configured by the user',
    about: 'commit.gpgsign with an SSH signing key in ~/.ssh: a commit is signed, or fails loudly naming what to do — never made unsigned',
    build: ({ ws, home }) => {
      mkdirSync(join(home, '.ssh'), { recursive: true, mode: 0o700 });
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'user@example.invalid', '-f', join(home, '.ssh/id_signing')]);
      userGitConfig(home, '\tsigningkey = ~/.ssh/id_signing.pub\n[gpg]\n\tformat = ssh\n[commit]\n\tgpgsign = true\n');
      repo(ws, nodeApp());
    },
    authority: { edit: ['src/**'] },
    commands: ['node scripts/bump.js', 'git commit -am bump'],
    overrides: [signedOrNamed('sandboxed')],
  },
  {
    name: 'git worktree add inside the globs, then a commit there',
    about: 'a hotfix worktree in the ignored .worktrees/: `git worktree add -b hotfix`, a fix made there and committed from it',
    build: ({ ws }) =>
      repo(
        ws,
        nodeApp({
          '.gitignore': 'node_modules/\n.worktrees/\n',
          'scripts/hotfix.js': lines("require('fs').writeFileSync('.worktrees/hotfix/src/version.js', 'exports.version = 2;\\n');", "console.log('fixed');"),
        }),
      ),
    authority: { edit: ['.worktrees/**'] },
    commands: [
      'git worktree add -q .worktrees/hotfix -b hotfix',
      'node scripts/hotfix.js',
      'git -C .worktrees/hotfix commit -qam hotfix',
      'git log --format=%s hotfix',
      'git -C .worktrees/hotfix status --short --branch',
    ],
  },
  {
    name: 'git notes add',
    about: 'a note on the release commit (`git notes add`), listed and shown by `git log`',
    build: ({ ws }) => repo(ws, nodeApp()),
    authority: { edit: ['src/**'] },
    commands: ['git notes add -m "checked by the step"', 'git notes list', 'git log -1 --format=%s%n%N'],
  },
  {
    name: "a rebase of the user's own history onto upstream",
    about: "main carries the user's README commit; the step commits a bump and rebases main onto `upstream`, which added src/util.js",
    build: ({ ws }) => {
      repo(ws, nodeApp());
      git(ws, 'checkout', '-q', '-b', 'upstream');
      put(ws, { 'src/util.js': 'exports.twice = (x) => 2 * x;\n' });
      git(ws, 'add', '-A');
      git(ws, 'commit', '-q', '-m', 'util');
      git(ws, 'checkout', '-q', 'main');
      put(ws, { 'README.md': '# app\n\nA small app, documented.\n' });
      git(ws, 'commit', '-q', '-am', 'docs: readme');
    },
    authority: { edit: ['src/**'] },
    commands: ['node scripts/bump.js', 'git commit -qam bump', 'git rebase -q upstream', 'git log --format=%s'],
  },
  {
    name: "git fetch and git pull from the repository's own remote",
    about: 'origin is a bare repository beside the workspace (../origin.git) one commit ahead; the step fetches, sees it is behind, and pulls',
    build: ({ ws }) => {
      repo(ws, nodeApp());
      git(ws, 'clone', '-q', '--bare', '.', '../origin.git');
      git(ws, 'remote', 'add', 'origin', '../origin.git');
      git(ws, 'fetch', '-q', 'origin');
      git(ws, 'branch', '-q', '--set-upstream-to', 'origin/main');
      git(ws, 'clone', '-q', '../origin.git', '../upstream-work');
      const upstream = join(ws, '../upstream-work');
      put(upstream, { 'src/feature.js': 'exports.feature = true;\n' });
      git(upstream, 'add', '-A');
      git(upstream, 'commit', '-q', '-m', 'feature upstream');
      git(upstream, 'push', '-q', 'origin', 'main');
      rmSync(upstream, { recursive: true, force: true });
    },
    authority: { edit: ['src/**'] },
    commands: ['git fetch -q origin', 'git status --short --branch', 'git pull -q --ff-only', 'git log --format=%s'],
  },
  {
    name: "the product's store stays out of git",
    about: "after a step, `git status` and `git add -A` show only the project's own change (never .plan-execute/)",
    build: ({ ws }) => repo(ws, nodeApp()),
    authority: { edit: ['src/**'] },
    commands: ['node scripts/bump.js', 'git status --porcelain', 'git add -A', 'git diff --cached --stat'],
  },
];
