/**
 * Ordinary project layouts the staged judge must read as the user's tools do: a Rails-style `tmp/` that git
 * ignores around a tracked `tmp/.keep` (a test leaves a unix socket there), an edit glob under a build folder
 * git ignores and that does not exist yet, a test script that also touches a file outside the step's globs
 * (its result must still say the tests passed), and a workspace folder on PATH (direnv's `PATH_add bin`).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { lines, nodeTest, repo, type ModeRun, type Scenario } from './scenario';
import { gitDiffs } from './compare';
import { describeFact } from './observe';
import { nodeApp } from './shapes';

/** Files of `run` that differ from `plain`, but for `kept`, which must still hold `text` (as the scene was built). */
function filesLike(run: ModeRun, plain: ModeRun, kept: string, text: string): string[] {
  const out: string[] = [];
  for (const p of new Set([...plain.files.keys(), ...run.files.keys()])) {
    const got = run.files.get(p);
    if (p === kept) {
      const sha = createHash('sha256').update(text).digest('hex').slice(0, 16);
      if (got?.kind !== 'file' || got.sha !== sha) out.push(`${p}: ${describeFact(got)}, expected it as it was (${text.length} B ${sha})`);
    } else if (describeFact(got) !== describeFact(plain.files.get(p))) out.push(`${p}: ${describeFact(got)}, plain ${describeFact(plain.files.get(p))}`);
  }
  return out;
}

const README = '# app\n\nA small app.\n';

export const LAYOUT_SCENARIOS: Scenario[] = [
  {
    name: 'Rails tmp/: a test leaves a unix socket in the ignored tmp/',
    about: 'tmp/.keep is tracked and tmp/* ignored (as Rails does); a test binds a unix socket in tmp/ and leaves it there',
    build: ({ ws }) =>
      repo(
        ws,
        nodeApp({
          '.gitignore': lines('node_modules/', '/tmp/*', '!/tmp/.keep'),
          'tmp/.keep': '',
          'app/models/user.rb': 'class User; end\n',
          'scripts/socket_test.py': lines(
            'import socket',
            's = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)',
            "s.bind('tmp/test.sock')",
            's.listen(1)',
            "print('bound tmp/test.sock')",
          ),
        }),
      ),
    authority: { edit: ['app/**'] },
    commands: ['python3 scripts/socket_test.py', 'git status --porcelain'],
    privateOutputs: ['tmp/test.sock'],
    privateWhy: 'a socket a test leaves in the ignored tmp/: private to the step is right, a refusal is not',
  },
  {
    name: 'edit glob build/reports/** under an ignored, missing build/',
    about:
      '`.gitignore` names build/, which does not exist yet; the step may write build/reports/** and a script writes a report there plus an object file beside it',
    build: ({ ws }) =>
      repo(
        ws,
        nodeApp({
          '.gitignore': lines('node_modules/', 'build/'),
          'scripts/report.js': lines(
            "const fs = require('fs');",
            "fs.mkdirSync('build/reports', { recursive: true });",
            "fs.mkdirSync('build/cache', { recursive: true });",
            "fs.writeFileSync('build/reports/summary.txt', 'all good\\n');",
            "fs.writeFileSync('build/cache/app.o', 'object\\n');",
            "console.log('report written');",
          ),
        }),
      ),
    authority: { edit: ['build/reports/**'] },
    commands: ['node scripts/report.js', 'cat build/reports/summary.txt', 'git status --porcelain'],
    privateOutputs: ['build/cache', 'build/cache/**'],
    privateWhy: 'the object file is a build output the step does not keep; the report is in its globs and must reach the workspace',
  },
  {
    name: 'npm test that also touches README.md',
    about: "`npm test` runs the tests, then its script appends to README.md (outside the step's globs): the tests' result must reach the model",
    build: ({ ws }) =>
      repo(
        ws,
        nodeApp(
          {
            'test/math.test.js': nodeTest('adds', '  assert.equal(1 + 1, 2);'),
            'scripts/stamp.js': "require('fs').appendFileSync('README.md', 'tested\\n');\n",
          },
          { test: 'node --test && node scripts/stamp.js' },
        ),
      ),
    authority: { edit: ['src/**'] },
    commands: ['npm test'],
    overrides: [
      {
        modes: ['sandboxed'],
        aspects: ['exit', 'files', 'git'],
        why: 'README.md lies outside the edit globs: sandboxed, its change is refused (unsandboxed nothing confines it) — and the exit status, the output and the refusal with its reason must all reach the model',
        check: (run, plain) => {
          const c = run.commands[0];
          const problems: string[] = [];
          if (c?.exit !== plain.commands[0]?.exit) problems.push(`exit ${c?.exit}, plain ${plain.commands[0]?.exit}`);
          if (!c?.notes.some((n) => /README\.md \(content\)[^\n]*outside the step's edit globs/.test(n)))
            problems.push(`the refusal of README.md is not named with its reason: ${c?.notes.join(' | ')}`);
          // git sees what the workspace holds: all as plain, but README.md unchanged (no ` M README.md`).
          const git = gitDiffs(run.git, plain.git && { ...plain.git, status: plain.git.status.filter((l) => l !== ' M README.md') });
          return [...problems, ...filesLike(run, plain, 'README.md', README), ...git];
        },
      },
    ],
  },
  {
    name: "direnv's PATH_add bin: git and a binstub by its path",
    about: "the project's bin/ is on PATH before the system's (direnv); git is the system's, and the project's own bin/hello runs by its path",
    build: ({ ws }) =>
      repo(
        ws,
        nodeApp({
          'bin/hello': '+x #!/bin/sh\necho "hello from the project"\n',
          'src/feature.js': 'exports.feature = true;\n',
        }),
      ),
    pathBefore: ({ ws }) => [join(ws, 'bin')],
    authority: { edit: ['src/**'] },
    commands: ['node scripts/bump.js', 'git add src/version.js', 'bin/hello', 'git status --porcelain'],
  },
];
