/**
 * Everyday work on the shape of the tree itself: renaming a folder (git mv, Node's fs.renameSync), a file
 * the step may write that another user owns, a local clone of a repository the workspace holds, and a
 * `node_modules` that is a link to a shared install outside the workspace.
 */
import { chmodSync, chownSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { installTypeScript } from '../sandbox/scene';
import { git, json, lines, nodeTest, put, repo, type Scenario } from './scenario';
import { nodeApp } from './shapes';

/** A small app whose helpers live in `src/utils/`, and whose test requires them from wherever they are. */
function appWithUtils(): Record<string, string> {
  return {
    'src/utils/format.js': 'exports.format = (n) => `#${n}`;\n',
    'src/utils/deep/pad.js': 'exports.pad = (s) => ` ${s} `;\n',
    'src/main.js': "const { format } = require('./utils/format');\nconsole.log(format(1));\n",
    'test/format.test.js': nodeTest(
      'formats',
      lines(
        "  const dir = fs.existsSync('src/helpers') ? 'helpers' : 'utils';",
        "  assert.equal(require(`../src/${dir}/format.js`).format(2), '#2');",
        "  assert.equal(require(`../src/${dir}/deep/pad.js`).pad('x'), ' x ');",
      ).trimEnd(),
    ),
  };
}

/** An uid no account of a test machine has: the owner of a teammate's shared file. */
const OTHER_UID = 4242;

export const TREE_SCENARIOS: Scenario[] = [
  {
    name: 'rename a folder with git mv',
    about: 'an everyday refactor: `git mv src/utils src/helpers`, the import updated, the tests still pass',
    build: ({ ws }) =>
      repo(
        ws,
        nodeApp({
          ...appWithUtils(),
          'scripts/imports.js': lines(
            "const fs = require('fs');",
            "fs.writeFileSync('src/main.js', fs.readFileSync('src/main.js', 'utf8').replace('./utils/', './helpers/'));",
          ),
        }),
      ),
    authority: { edit: ['src/**'] },
    commands: ['git mv src/utils src/helpers', 'node scripts/imports.js', 'node src/main.js', 'node --test', 'git status --short'],
  },
  {
    name: "rename a folder with Node's fs.renameSync",
    about: 'a codemod renames src/utils to src/helpers in place (no copy), then the tests run',
    build: ({ ws }) =>
      repo(
        ws,
        nodeApp({
          ...appWithUtils(),
          'scripts/move.js': lines(
            "const fs = require('fs');",
            "fs.renameSync('src/utils', 'src/helpers');",
            "fs.writeFileSync('src/main.js', fs.readFileSync('src/main.js', 'utf8').replace('./utils/', './helpers/'));",
            "console.log('moved');",
          ),
        }),
      ),
    authority: { edit: ['src/**'] },
    commands: ['node scripts/move.js', 'node src/main.js', 'node --test'],
  },
  {
    name: 'a group-writable file another user owns',
    about: "a teammate's shared file (owned by another uid, group-writable, the group ours): the step appends to it",
    build: ({ ws }) => {
      repo(
        ws,
        nodeApp({
          'src/shared.txt': 'first line\n',
          'scripts/append.js': "require('fs').appendFileSync('src/shared.txt', 'added\\n');\n",
          'scripts/show.js': "process.stdout.write(require('fs').readFileSync('src/shared.txt', 'utf8'));\n",
        }),
      );
      // As root the file belongs to another uid, group root (ours); elsewhere chown is not ours to do.
      if (process.getuid?.() === 0) chownSync(join(ws, 'src/shared.txt'), OTHER_UID, 0);
      chmodSync(join(ws, 'src/shared.txt'), 0o664);
    },
    authority: { edit: ['src/**'] },
    commands: ['node scripts/append.js', 'node scripts/show.js'],
  },
  {
    name: 'a local clone of a repository the workspace holds',
    about: 'a vendored dependency cloned from a bare repository kept in fixtures/ into the ignored vendor/, then used',
    build: ({ ws }) => {
      const lib = join(ws, '..', 'lib-src');
      mkdirSync(lib, { recursive: true });
      put(lib, { 'index.js': 'exports.answer = () => 42;\n' });
      git(lib, 'init', '-q');
      git(lib, 'add', '-A');
      git(lib, 'commit', '-q', '-m', 'lib');
      repo(ws, nodeApp({ '.gitignore': 'node_modules/\nvendor/\n', 'src/use.js': "console.log(require('../vendor/lib').answer());\n" }));
      git(lib, 'clone', '-q', '--bare', '.', join(ws, 'fixtures/lib.git'));
      git(ws, 'add', '-A');
      git(ws, 'commit', '-q', '-m', 'fixture repository');
    },
    authority: { edit: ['src/**'] },
    commands: ['git clone fixtures/lib.git vendor/lib', 'node src/use.js', 'git -C vendor/lib log --format=%s'],
    privateOutputs: ['vendor', 'vendor/**'],
    privateWhy: 'the clone goes into vendor/, which git ignores: the step keeps it for its own next commands',
  },
  {
    name: 'node_modules is a link to a shared install outside the workspace',
    about: 'node_modules -> ../../shared/node_modules (a shared install, as containers and some monorepos have): `npx tsc` finds it',
    build: ({ root, ws }) => {
      const shared = join(root, 'shared');
      mkdirSync(shared, { recursive: true });
      installTypeScript(shared);
      repo(
        ws,
        nodeApp({
          'tsconfig.json': json({ compilerOptions: { strict: true, noEmit: true, types: [], lib: ['es2020'] }, include: ['src/**/*.ts'] }),
          'src/main.ts': 'export const answer: number = 42;\n',
        }),
      );
      symlinkSync('../../shared/node_modules', join(ws, 'node_modules'));
    },
    authority: { edit: ['src/**'] },
    commands: ['npx tsc --version', 'npx tsc -p .'],
  },
];
