import assert from 'node:assert/strict';
import picomatch from 'picomatch';
import { globMatcher } from '../../../src/core/policy/globMatcher';
import { PROTECTED_RULES, SECRET_RULES } from '../../../src/core/policy/sensitivePaths';

const PATHS = [
  '.env',
  '.env.local',
  'app/.ENV',
  'a.env',
  'envs/x',
  '.envrc',
  'x/.envrcx',
  'id_rsa',
  'keys/id_ed25519.pub',
  'server.PEM',
  'pem',
  'a.pem.bak',
  '.npmrc',
  'pkg/.npmrc',
  '.yarnrc.yml',
  'credentials',
  'config/credentials.json',
  'my-credentials',
  'secrets.yaml',
  '.secrets/x',
  '.ssh',
  '.ssh/id',
  'home/.ssh/known_hosts',
  'x.ssh/y',
  '.aws/credentials',
  'a/.gnupg',
  '.docker/config.json',
  'x/.docker/config.json',
  '.docker/other',
  '.kube/config',
  '.git',
  '.git/config',
  'sub/.git/hooks/pre-commit',
  '.gitmodules',
  '.github/workflows/ci.yml',
  '.husky/pre-commit',
  '.huskyx/a',
  '.vscode',
  '.vscode/tasks.json',
  'a.code-workspace',
  '.devcontainer/devcontainer.json',
  '.idea/x',
  '.planexecuteignore',
  '.plan-execute',
  '.plan-execute/missions/x',
  'node_modules',
  'packages/a/node_modules/b/index.js',
  'node_modules_backup/x',
  'src/index.ts',
  'README.md',
  'x/..',
  '',
];

describe('glob matcher (one fast test for a set of globs)', () => {
  for (const [label, globs] of [
    ['the secret rules', SECRET_RULES.flatMap((r) => r.globs)],
    ['the protected rules', PROTECTED_RULES.flatMap((r) => r.globs)],
    ['mixed globs', ['src/**/*.ts', '*.md', '**/gen/**', 'docs/{a,b}.md']],
  ] as const) {
    it(`says what picomatch says for ${label}, case-insensitively and with dotfiles`, () => {
      const options = { dot: true, nocase: true };
      const fast = globMatcher(globs, options);
      const slow = picomatch([...globs], options);
      for (const p of [...PATHS, ...PATHS.map((x) => `${x}/x`)]) assert.equal(fast(p), slow(p), `${p} against ${label}`);
    });
  }

  it('honours case when asked to', () => {
    const fast = globMatcher(['**/.ssh/**', '**/*.pem'], { dot: true });
    assert.ok(fast('.ssh/x') && !fast('.SSH/x') && fast('a.pem') && !fast('a.PEM'));
  });
});
