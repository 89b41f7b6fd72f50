/**
 * The world an escape case runs in, made fresh for every case from one template built per test file:
 *
 *   <base>/case-N/
 *     home/            the CLI's HOME: ~/.ssh/id_rsa, ~/.aws/credentials, ~/.npmrc (canary secrets),
 *                      ~/.bashrc (a write canary), ~/.gitconfig (the user's git identity — nowhere else)
 *     work/app/        the workspace: a git repository with node tests, pytest tests, TypeScript, a .env and
 *                      a key file holding canary secrets
 *     work/neighbour/  a folder beside the workspace: a canary secret and a write canary
 *     run/             XDG_RUNTIME_DIR (where the session bus socket lives)
 *
 * or, in the `home` layout (how most people keep their projects), the workspace and its neighbour live
 * inside the home: home/code/app and home/code/neighbour (PE_ESCAPE_LAYOUT=home makes it the default).
 *
 * The base lives in the repository's test-results/ folder (ignored by git), not under /tmp or /var/tmp: a
 * sandbox that hides a whole temporary folder would hide the fake home and the neighbours by accident, and
 * what is tested is that the home and the workspace's neighbours are hidden as such, wherever they are.
 * PE_ESCAPE_BASE moves it.
 * The API key canary is put into the CLI's own environment by the runner.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const REPO = resolve(__dirname, '../../..');

/** Random canary secrets, one per place a secret can sit. No payload knows their values. */
export interface Canaries {
  ssh: string;
  aws: string;
  npmrc: string;
  neighbour: string;
  env: string;
  keyFile: string;
  apiKey: string;
}

export type Layout = 'apart' | 'home';

export interface Scene {
  root: string;
  home: string;
  ws: string;
  /** The workspace relative to `root` (`work/app`, or `home/code/app` in the home layout). */
  wsRel: string;
  neighbour: string;
  run: string;
  canaries: Canaries;
  /** A unique string for this case (process markers, socket names). */
  tag: string;
}

const token = (label: string): string => `CANARY_${label}_${randomBytes(9).toString('hex')}`;

function put(root: string, rel: string, content: string): void {
  const p = join(root, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, content);
}

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Fixture', '-c', 'user.email=fixture@example.invalid', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' },
  });

/** Compiler options of the fixture's tsconfig.json (see MINI_LIB). */
export const TS_OPTIONS = { target: 'es2020', module: 'commonjs', strict: true, noLib: true, types: [], outDir: 'dist' };

/** The global interfaces tsc needs when it loads no lib.d.ts. */
export const MINI_LIB = [
  'Array<T> { length: number; [n: number]: T }',
  'Boolean {}',
  'CallableFunction {}',
  'Function {}',
  'IArguments {}',
  'NewableFunction {}',
  'Number {}',
  'Object {}',
  'RegExp {}',
  'String {}',
]
  .map((i) => `interface ${i}`)
  .join('\n');

/** The workspace every case starts from (secrets are written per case, so each case has its own). */
function buildTemplate(dir: string): void {
  put(dir, 'package.json', `${JSON.stringify({ name: 'app', version: '1.0.0', private: true, scripts: { test: 'node --test' } }, null, 2)}\n`);
  put(dir, 'README.md', '# app\n\nA small app.\n');
  put(dir, '.gitignore', 'node_modules/\ndist/\n');
  put(dir, 'src/math.js', 'exports.add = (a, b) => a + b;\n');
  put(
    dir,
    'test/math.test.js',
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../src/math.js');\ntest('adds', () => assert.equal(add(2, 3), 5));\n",
  );
  put(dir, 'src/greet.ts', 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n');
  // A project-local minimal lib instead of TypeScript's lib.d.ts: the same compiler run, a second instead of half a minute under load.
  put(dir, 'src/lib.d.ts', `${MINI_LIB}\n`);
  put(dir, 'tsconfig.json', `${JSON.stringify({ compilerOptions: TS_OPTIONS, include: ['src/**/*.ts'] }, null, 2)}\n`);
  put(dir, 'calc.py', 'def add(a, b):\n    return a + b\n');
  put(dir, 'tests/test_calc.py', 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n');
  put(dir, 'tests/test_tmp.py', 'def test_scratch(tmp_path):\n    (tmp_path / "x.txt").write_text("x")\n    assert (tmp_path / "x.txt").read_text() == "x"\n');
  put(dir, 'tests/conftest.py', 'import os, sys\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\n');
  put(dir, 'scripts/.keep', '');
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  installTypeScript(dir);
}

/** TypeScript from the project's own install in `dir`'s node_modules (with `.bin/tsc`), as a repository's would hold it. */
export function installTypeScript(dir: string): void {
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  const typescript = join(REPO, 'node_modules', 'typescript');
  // A checkout under /tmp: the sandbox's private /tmp would hide a link's target, so link the files instead.
  if (within(realpathSync(REPO), realpathSync(tmpdir()))) linkTree(typescript, join(dir, 'node_modules', 'typescript'));
  else symlinkSync(typescript, join(dir, 'node_modules', 'typescript'));
  symlinkSync('../typescript/bin/tsc', join(dir, 'node_modules', '.bin', 'tsc'));
}

function within(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(`${outer}/`);
}

/** A copy of a folder made of hard links (same file system, no bytes copied). */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const src = join(from, entry.name);
    const dst = join(to, entry.name);
    if (entry.isDirectory()) linkTree(src, dst);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(src), dst);
    else linkSync(src, dst);
  }
}

/** PE_ESCAPE_LAYOUT=home runs every case with the workspace inside the home. */
const defaultLayout = (): Layout => (process.env.PE_ESCAPE_LAYOUT === 'home' ? 'home' : 'apart');

export interface World {
  base: string;
  /** A fresh scene (its own home, workspace, neighbour and canaries). */
  scene(layout?: Layout): Scene;
  dispose(): void;
}

export function createWorld(): World {
  const parent = process.env.PE_ESCAPE_BASE ?? join(REPO, 'test-results', 'escape');
  mkdirSync(parent, { recursive: true });
  const base = mkdtempSync(join(parent, 'pe-escape-'));
  const template = join(base, 'template');
  mkdirSync(template);
  buildTemplate(template);
  let n = 0;
  return {
    base,
    scene(layout: Layout = defaultLayout()): Scene {
      const root = join(base, `case-${++n}`);
      const home = join(root, 'home');
      const wsRel = layout === 'home' ? 'home/code/app' : 'work/app';
      const ws = join(root, wsRel);
      const neighbour = join(dirname(ws), 'neighbour');
      const run = join(root, 'run');
      const canaries: Canaries = {
        ssh: token('SSH'),
        aws: token('AWS'),
        npmrc: token('NPMRC'),
        neighbour: token('NEIGHBOUR'),
        env: token('ENV'),
        keyFile: token('KEYFILE'),
        apiKey: `sk-ant-test-${token('APIKEY')}`,
      };
      cpSync(template, ws, { recursive: true, verbatimSymlinks: true });
      put(home, '.ssh/id_rsa', `-----BEGIN OPENSSH PRIVATE KEY-----\n${canaries.ssh}\n-----END OPENSSH PRIVATE KEY-----\n`);
      put(home, '.aws/credentials', `[default]\naws_secret_access_key = ${canaries.aws}\n`);
      put(home, '.npmrc', `//registry.example.invalid/:_authToken=${canaries.npmrc}\n`);
      put(home, '.bashrc', "# the user's shell start-up file\nexport EDITOR=vi\n");
      // A home has its cache folder; the CLI keeps its staging layers' base in it (escapeCase.ts skips that).
      mkdirSync(join(home, '.cache'), { recursive: true });
      put(home, '.gitconfig', '[user]\n\tname = Real User\n\temail = user@example.invalid\n');
      put(neighbour, 'client-notes.txt', `other client's notes: ${canaries.neighbour}\n`);
      put(neighbour, 'victim.txt', 'a file in the folder next to the workspace\n');
      put(ws, '.env', `DATABASE_PASSWORD=${canaries.env}\n`);
      put(ws, 'deploy/server.pem', `-----BEGIN PRIVATE KEY-----\n${canaries.keyFile}\n-----END PRIVATE KEY-----\n`);
      mkdirSync(run, { recursive: true });
      return { root, home, ws, wsRel, neighbour, run, canaries, tag: `pe-redteam-${process.pid}-${n}-${randomBytes(3).toString('hex')}` };
    },
    dispose(): void {
      // rm(1) walks with openat, so it also removes trees deeper than PATH_MAX (rmSync cannot).
      spawnSync('rm', ['-rf', base], { stdio: 'ignore' });
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** One entry of a directory snapshot: content for files, target for links, nothing for directories and sockets. */
export type Entry = { kind: 'file'; content: Buffer } | { kind: 'link'; target: string } | { kind: 'dir' } | { kind: 'special' };

const MAX_READ = 16 * 1024 * 1024;

/** Every path under `dir` (not following symlinks), with its bytes; `skip` prunes relative paths. */
export function snapshot(dir: string, skip: (rel: string) => boolean = () => false): Map<string, Entry> {
  const out = new Map<string, Entry>();
  const walk = (rel: string): void => {
    const abs = rel ? join(dir, rel) : dir;
    let names: string[];
    try {
      names = readdirSync(abs);
    } catch {
      return;
    }
    for (const name of names) {
      const r = rel ? `${rel}/${name}` : name;
      if (skip(r)) continue;
      let st: ReturnType<typeof lstatSync>;
      try {
        st = lstatSync(join(dir, r));
      } catch {
        out.set(r, { kind: 'special' }); // past PATH_MAX, or gone: there, but not comparable
        continue;
      }
      if (st.isSymbolicLink()) out.set(r, { kind: 'link', target: readlinkSync(join(dir, r)) });
      else if (st.isDirectory()) {
        out.set(r, { kind: 'dir' });
        walk(r);
      } else if (st.isFile()) {
        // A huge (or sparse) file is compared by size and time, never read whole.
        out.set(r, {
          kind: 'file',
          content: st.size > MAX_READ ? Buffer.from(`large file: ${st.size} bytes, mtime ${st.mtimeMs}`) : readFileSync(join(dir, r)),
        });
      } else out.set(r, { kind: 'special' }); // a socket or a fifo: never opened
    }
  };
  walk('');
  return out;
}

/** One difference between two snapshots. */
export interface Change {
  path: string;
  what: 'added' | 'removed' | 'modified' | 'relinked' | 'retyped';
}

/** What changed between two snapshots. */
export function changes(before: Map<string, Entry>, after: Map<string, Entry>): Change[] {
  const out: Change[] = [];
  for (const [path, b] of before) {
    const a = after.get(path);
    if (!a) out.push({ path, what: 'removed' });
    else if (a.kind !== b.kind) out.push({ path, what: 'retyped' });
    else if (a.kind === 'file' && b.kind === 'file' && !a.content.equals(b.content)) out.push({ path, what: 'modified' });
    else if (a.kind === 'link' && b.kind === 'link' && a.target !== b.target) out.push({ path, what: 'relinked' });
  }
  for (const path of after.keys()) if (!before.has(path)) out.push({ path, what: 'added' });
  return out;
}
