/**
 * Ordinary projects that build, test and cache: workspaces, make, pytest, big fixtures, links, local
 * servers, tool caches, a build a later command runs, a linked package outside, a package fetched by npx.
 */
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { json, lines, nodeTest, put, repo, type Scenario } from './scenario';
import { PACKAGE, PACKAGE_SAYS } from './registry';
import { nodeApp, typeScriptProject } from './shapes';

const link = (at: string, target: string): void => {
  mkdirSync(dirname(at), { recursive: true });
  symlinkSync(target, at);
};

/** A step without a network grant must fail at once and say which grant is missing (not wait out retries). */
const GRANT = '\\b(grant|granted|authority|permission|allowed)\\b';
const NAMES_NETWORK_GRANT = new RegExp(`\\bnetwork\\b[^\\n]*${GRANT}|${GRANT}[^\\n]*\\bnetwork\\b`, 'i');
const FAST_MS = 20_000;

export const BUILD_SCENARIOS: Scenario[] = [
  {
    name: 'npm workspaces',
    about: "a monorepo with two local packages, b requiring a; `npm test -ws` runs both packages' tests",
    build: ({ ws }) => {
      repo(ws, {
        'package.json': json({ name: 'mono', private: true, workspaces: ['packages/*'] }),
        'README.md': '# mono\n',
        '.gitignore': 'node_modules/\n',
        'packages/a/package.json': json({ name: 'a', version: '1.0.0', main: 'index.js', scripts: { test: 'node --test' } }),
        'packages/a/index.js': 'exports.double = (n) => n * 2;\n',
        'packages/a/test/a.test.js': nodeTest('doubles', "  assert.equal(require('..').double(2), 4);"),
        'packages/b/package.json': json({ name: 'b', version: '1.0.0', main: 'index.js', dependencies: { a: '1.0.0' }, scripts: { test: 'node --test' } }),
        'packages/b/index.js': "exports.quadruple = (n) => require('a').double(require('a').double(n));\n",
        'packages/b/test/b.test.js': nodeTest('quadruples through a', "  assert.equal(require('..').quadruple(2), 8);"),
      });
      // What `npm install` makes of workspaces: links in the root node_modules.
      link(join(ws, 'node_modules/a'), '../packages/a');
      link(join(ws, 'node_modules/b'), '../packages/b');
    },
    authority: { edit: ['packages/**'] },
    commands: ['npm test -ws'],
  },
  {
    name: 'Makefile project',
    about: '`make` builds build/ from src/ (the step keeps its build), `make test` checks it',
    build: ({ ws }) =>
      repo(ws, {
        'README.md': '# words\n',
        '.gitignore': 'build/\n',
        'src/a.txt': 'alpha\n',
        'src/b.txt': 'beta\n',
        Makefile: [
          'build/all.txt: src/a.txt src/b.txt',
          '\tmkdir -p build',
          '\tcat src/a.txt src/b.txt > build/all.txt',
          '',
          '.PHONY: test',
          'test: build/all.txt',
          '\tgrep -q beta build/all.txt',
          '\t@echo tests passed',
          '',
        ].join('\n'),
      }),
    authority: { edit: ['src/**', 'build/**'] },
    commands: ['make', 'make test'],
  },
  {
    name: 'pytest with __pycache__ and .pytest_cache',
    about: 'a Python package tested with pytest, which writes __pycache__ and .pytest_cache (ignored, not kept by the step)',
    build: ({ ws }) =>
      repo(ws, {
        'README.md': '# calc\n',
        '.gitignore': '__pycache__/\n.pytest_cache/\n',
        'calc/__init__.py': 'def add(a, b):\n    return a + b\n',
        'tests/conftest.py': 'import os, sys\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\n',
        'tests/test_calc.py': lines(
          'from calc import add',
          '',
          '',
          'def test_add():',
          '    assert add(2, 3) == 5',
          '',
          '',
          'def test_tmp(tmp_path):',
          '    (tmp_path / "x.txt").write_text("x")',
          '    assert (tmp_path / "x.txt").read_text() == "x"',
        ),
      }),
    authority: { edit: ['calc/**'] },
    commands: ['python3 -m pytest -q', 'git status --porcelain'],
    // pytest-benchmark, where installed, makes .benchmarks/ at the root; hypothesis keeps .hypothesis/.
    privateOutputs: [
      '**/__pycache__',
      '**/__pycache__/**',
      '.pytest_cache',
      '.pytest_cache/**',
      '.benchmarks',
      '.benchmarks/**',
      '.hypothesis',
      '.hypothesis/**',
    ],
    privateWhy: 'caches pytest, its plugins and Python write and the step does not keep (private per step is right)',
  },
  {
    name: 'big binary fixture opened read-write',
    about: 'a 70 MB (sparse) data/app.db that a test opens read-write and writes its header back unchanged; the step may write data/seed.sql beside it',
    build: ({ ws }) => {
      repo(
        ws,
        nodeApp({
          '.gitignore': 'node_modules/\n*.db\n',
          'data/seed.sql': 'INSERT INTO users VALUES (1);\n',
          'test/db.test.js': nodeTest(
            'opens the database',
            [
              "  const fd = fs.openSync('data/app.db', 'r+');",
              '  const header = Buffer.alloc(16);',
              '  fs.readSync(fd, header, 0, 16, 0);',
              '  fs.writeSync(fd, header, 0, 16, 0);',
              '  fs.fsyncSync(fd);',
              '  fs.closeSync(fd);',
              "  assert.equal(header.toString('utf8', 0, 6), 'SQLite');",
            ].join('\n'),
          ),
        }),
      );
      const db = join(ws, 'data/app.db');
      writeFileSync(db, 'SQLite format 3\0');
      truncateSync(db, 70 * 1024 * 1024);
    },
    authority: { edit: ['data/seed.sql', 'src/**'] },
    commands: ['node --test', 'git status --porcelain'],
  },
  {
    name: 'tracked symlinks',
    about: 'tracked links to a file, to a script and to a folder inside the repository; a script repoints one, git commits it',
    build: ({ ws }) => {
      put(
        ws,
        nodeApp({
          'config/v1/settings.json': json({ level: 1 }),
          'config/v2/settings.json': json({ level: 2 }),
          'scripts/tool.js': "console.log('tool ran');\n",
          'scripts/repoint.js': lines(
            "const fs = require('fs');",
            "fs.unlinkSync('config/current');",
            "fs.symlinkSync('v1', 'config/current');",
            "console.log('config/current -> v1');",
          ),
          'test/links.test.js': nodeTest(
            'reads through the links',
            "  assert.equal(JSON.parse(fs.readFileSync('config/current/settings.json', 'utf8')).level >= 1, true);\n" +
              "  assert.match(fs.readFileSync('docs/README.md', 'utf8'), /# app/);",
          ),
        }),
      );
      link(join(ws, 'docs/README.md'), '../README.md');
      link(join(ws, 'bin/tool'), '../scripts/tool.js');
      link(join(ws, 'config/current'), 'v2');
      repo(ws, {});
    },
    authority: { edit: ['config/**'] },
    commands: ['node bin/tool', 'node --test', 'node scripts/repoint.js', 'node --test', 'git status --porcelain', 'git commit -am repoint'],
  },
  {
    name: 'local HTTP server started by a test',
    about: 'a test that starts an HTTP server on loopback (127.0.0.1 and localhost) and requests it',
    build: ({ ws }) =>
      repo(
        ws,
        nodeApp({
          'test/server.test.js': nodeTest(
            'serves on loopback',
            [
              "  const http = require('http');",
              "  const server = http.createServer((req, res) => res.end('pong ' + req.url));",
              "  await new Promise((r) => server.listen(0, '127.0.0.1', r));",
              "  const get = (host) => new Promise((resolve, reject) => http.get({ host, port: server.address().port, path: '/ping' }, (res) => {",
              "    let text = ''; res.on('data', (c) => (text += c)); res.on('end', () => resolve(text));",
              "  }).on('error', reject));",
              "  assert.equal(await get('127.0.0.1'), 'pong /ping');",
              "  assert.equal(await get('localhost'), 'pong /ping');",
              '  server.close();',
            ].join('\n'),
          ),
        }),
      ),
    authority: { edit: ['src/**'] },
    commands: ['node --test'],
  },
  {
    name: 'tool caches: node_modules/.cache and tsconfig.tsbuildinfo',
    about: 'a tool caching under node_modules/.cache, and tsc with `incremental` writing tsconfig.tsbuildinfo at the root, run twice',
    build: ({ ws }) => {
      repo(ws, {
        'README.md': '# cached\n',
        '.gitignore': 'node_modules/\ndist/\n*.tsbuildinfo\n',
        'src/main.ts': 'export const answer: number = 42;\n',
        'scripts/cache.js': lines(
          "const fs = require('fs');",
          "const dir = 'node_modules/.cache/corpus-tool';",
          'fs.mkdirSync(dir, { recursive: true });',
          "const f = dir + '/hits.json';",
          "const hits = fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')).hits + 1 : 1;",
          'fs.writeFileSync(f, JSON.stringify({ hits }));',
          "console.log('cache written');",
        ),
      });
      typeScriptProject(ws, { incremental: true, tsBuildInfoFile: 'tsconfig.tsbuildinfo' });
    },
    authority: { edit: ['src/**'] },
    commands: ['node scripts/cache.js', 'npx tsc', 'npx tsc'],
    privateOutputs: ['node_modules/.cache', 'node_modules/.cache/**', 'tsconfig.tsbuildinfo', 'dist', 'dist/**'],
    privateWhy: 'caches and a build the step does not keep: private to the step is right, a failure is not',
  },
  {
    name: 'build into ignored dist/, then run it',
    about: '`npm run build` compiles into the ignored dist/ (not kept by the step), then `node dist/main.js` runs it: two commands of one step',
    build: ({ ws }) => {
      repo(ws, {
        'package.json': json({ name: 'app', private: true, scripts: { build: 'tsc' } }),
        'README.md': '# app\n',
        '.gitignore': 'node_modules/\ndist/\n',
        'src/main.ts': "console.log('built and ran');\n",
      });
      typeScriptProject(ws);
    },
    authority: { edit: ['src/**'] },
    commands: ['npm run build', 'node dist/main.js'],
    privateOutputs: ['dist', 'dist/**'],
    privateWhy: 'the step does not keep its build; its next command must still see it',
  },
  {
    name: 'npm link: node_modules/foo -> ../../elsewhere/foo',
    about: 'a package linked in from a folder beside the workspace (npm link), required by the app and its test',
    build: ({ root, ws }) => {
      put(join(root, 'work/elsewhere/foo'), {
        'package.json': json({ name: 'foo', version: '1.0.0', main: 'index.js' }),
        'index.js': "exports.hello = () => 'hello from foo';\n",
      });
      repo(
        ws,
        nodeApp({
          'src/app.js': "console.log(require('foo').hello());\n",
          'test/foo.test.js': nodeTest('uses foo', "  assert.equal(require('foo').hello(), 'hello from foo');"),
        }),
      );
      link(join(ws, 'node_modules/foo'), '../../elsewhere/foo');
    },
    authority: { edit: ['src/**'] },
    commands: ['node src/app.js', 'node --test'],
    overrides: [
      {
        modes: ['sandboxed'],
        aspects: ['exit', 'output'],
        why: 'a link leading outside the workspace may be shown read-only (then as plain) or fail at once saying so (issue 16)',
        check: (run, plain) => {
          const same = run.commands.every((c, i) => c.exit === plain.commands[i]?.exit && c.output === plain.commands[i]?.output);
          const first = run.commands[0];
          const said =
            first !== undefined && first.exit !== 0 && /outside the workspace|leads outside|link/i.test(`${first.output}\n${first.notes.join('\n')}`);
          const seen = run.commands.map((c) => `\`${c.command}\` exit ${c.exit}: ${c.output.slice(0, 160)}`);
          return same || said ? [] : [`neither as plain nor a failure that names the link: ${seen.join('; ')}`];
        },
      },
    ],
  },
  {
    name: 'npx of a package not installed, no network grant',
    about: '`npx --yes corpus-hello` fetches and runs a package (from a registry on loopback); the step has no network grant',
    build: ({ ws }, ctx) => repo(ws, nodeApp({ '.npmrc': `registry=${ctx.registryUrl}\n` })),
    authority: { edit: ['src/**'] },
    commands: [`npx --yes ${PACKAGE}`],
    overrides: [
      {
        modes: ['sandboxed'],
        aspects: ['exit', 'output'],
        why: "without a network grant the fetch cannot work: it must fail fast, naming the missing grant, instead of waiting out npm's retries",
        check: (run, plain) => {
          const c = run.commands[0];
          const problems: string[] = [];
          if (!plain.commands[0]?.output.includes(PACKAGE_SAYS)) problems.push('the plain run did not fetch and run the package (the scenario is broken)');
          if (!c || c.exit === 0 || c.exit === 'missing') problems.push(`npx did not fail (exit ${c?.exit})`);
          if (c && c.ms > FAST_MS) problems.push(`npx took ${c.ms} ms to fail (over ${FAST_MS} ms: it waited on the network)`);
          if (c && !NAMES_NETWORK_GRANT.test(`${c.output}\n${c.notes.join('\n')}`)) {
            problems.push(`the failure does not name the missing network grant: ${c.output.slice(0, 300)}`);
          }
          return problems;
        },
      },
    ],
  },
  {
    name: 'formatter rewriting files in place',
    about: 'a formatter that writes each file to a temporary sibling and renames it over the original, keeping its mode',
    build: ({ ws }) =>
      repo(
        ws,
        nodeApp({
          'src/ugly.js': 'exports.x=1;exports.y=2;\n',
          'src/cli.js': '+x #!/usr/bin/env node\nconsole.log(  "cli"  );\n',
          'scripts/format.js': [
            "const fs = require('fs');",
            "for (const f of ['src/ugly.js', 'src/cli.js']) {",
            '  const st = fs.statSync(f);',
            "  const text = fs.readFileSync(f, 'utf8').replace(/;(?=\\S)/g, ';\\n').replace(/\\(\\s+/g, '(').replace(/\\s+\\)/g, ')');",
            "  fs.writeFileSync(f + '.tmp', text, { mode: st.mode });",
            "  fs.renameSync(f + '.tmp', f);",
            "  console.log('formatted', f);",
            '}',
            '',
          ].join('\n'),
        }),
      ),
    authority: { edit: ['src/**'] },
    commands: ['node scripts/format.js', 'node src/cli.js', 'git diff --stat'],
  },
];
