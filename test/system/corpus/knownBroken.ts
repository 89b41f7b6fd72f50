/**
 * Scenarios of the corpus that do not yet behave the same sandboxed, unsandboxed and plain on main, each
 * with the cause found. The corpus test runs them all the same and asserts that each is STILL broken, so
 * that a fix shows up as a failure here ("remove it from the list") rather than passing unseen — and a
 * scenario that is not listed must pass. Empty this list as the sandbox rewrite (issue 16) lands.
 */
export interface KnownBroken {
  scenario: string;
  reason: string;
}

export const KNOWN_BROKEN_ON_MAIN: KnownBroken[] = [
  {
    scenario: 'tracked .env.example',
    reason:
      'sandboxed: hidden by name (`.env.*`) as an unreadable file — the test cannot read it (EACCES), `git status` shows it ' +
      'modified, `git diff`/`stash`/`add -A`/`commit` die on it ("unsupported file type", "cannot hash"); unsandboxed: the ' +
      'product\'s store .plan-execute/ lies unignored in the workspace — `git status` lists it and the commit that `git add -A` made ' +
      'of it is put back by the git record check',
  },
  {
    scenario: 'tracked .npmrc without tokens',
    reason:
      'sandboxed: hidden by name, so npm loses the project\'s settings (`npm config get save-exact` prints false) and `git ' +
      'diff`/`commit -am` die on the hidden tracked file; unsandboxed: `git status` lists the product\'s store',
  },
  {
    scenario: 'tracked .npmrc with an _authToken',
    reason:
      'sandboxed: hidden rightly, but git dies on the hidden tracked file (`diff`, `stash`, `add -A`, `commit`) instead of behaving ' +
      'as outside; unsandboxed: `git add -A` stages the product\'s store and the commit is put back by the record check',
  },
  {
    scenario: 'Rails credentials.yml.enc and master.key',
    reason:
      'sandboxed: config/credentials.yml.enc (encrypted by design) is hidden by name (`credentials*`): a script reading config/ ' +
      'fails, and `git diff`/`stash`/`commit` die on it; unsandboxed: `git status` lists the product\'s store',
  },
  {
    scenario: 'TypeScript with src/auth/credentials.ts and src/secrets.ts',
    reason:
      'sandboxed: both modules are hidden by name, so tsc fails (TS6053 file not found) and dist/ lacks them (unsandboxed passes ' +
      'since the policy uses isSecret: their outputs are no longer undone)',
  },
  {
    scenario: 'docs build of docs/secrets-management.md',
    reason:
      'sandboxed: docs/secrets-management.md is hidden by name (EACCES), so the docs build fails and site/secrets-management.html is ' +
      'never made (unsandboxed passes since the policy uses isSecret)',
  },
  {
    scenario: 'TLS fixtures test/fixtures/server.key and server.pem',
    reason:
      'sandboxed: the fixture pair is hidden by name (`*.key`, `*.pem`): the HTTPS test cannot open it and `git status` shows both ' +
      'modified; unsandboxed: `git status` lists the product\'s store',
  },
  {
    scenario: 'git diff, add -A, commit -am with a secret-named tracked file',
    reason:
      'sandboxed: config/secrets.yml is hidden (rightly, by name) but git dies on it (`diff`, `add -A`, `commit -am`); unsandboxed: ' +
      '`git add -A` stages the product\'s store and `git commit -am` commits it',
  },
  {
    scenario: 'pytest with __pycache__ and .pytest_cache',
    reason: 'unsandboxed: `git status` lists the product\'s store (sandboxed passes: pytest\'s caches are private outputs)',
  },
  {
    scenario: 'big binary fixture opened read-write',
    reason:
      'DATA LOSS in both modes: a test that opens data/app.db (70 MB, ignored) read-write and writes its header back unchanged makes ' +
      'the post-command judgement delete the file (data/ is in the write scope because of the literal glob data/seed.sql), reported ' +
      'as "rolled back" with permission_denied',
  },
  {
    scenario: 'tracked symlinks',
    reason: 'unsandboxed: `git status` lists the product\'s store (sandboxed passes: links read, repointed and committed as outside)',
  },
  {
    scenario: 'tool caches: node_modules/.cache and tsconfig.tsbuildinfo',
    reason:
      'sandboxed: node_modules is protected, so a tool cannot create node_modules/.cache (ENOENT), and the root tsconfig.tsbuildinfo ' +
      'is read-only, so `tsc` with `incremental` fails (TS5033 EROFS) — caches should be private per step, never a failure',
  },
  {
    scenario: 'build into ignored dist/, then run it',
    reason:
      'sandboxed: the private copy of the ignored dist/ is thrown away when `npm run build` ends, so `node dist/main.js` finds ' +
      'nothing, and nothing says so',
  },
  {
    scenario: 'npm link: node_modules/foo -> ../../elsewhere/foo',
    reason:
      'sandboxed: the link\'s target beside the workspace is hidden, so `require(\'foo\')` fails with "Cannot find module" and ' +
      'nothing says the link leads outside',
  },
  {
    scenario: 'npx of a package not installed, no network grant',
    reason:
      'sandboxed: the project\'s .npmrc (no credentials) is hidden by name, and without a network npm retries for about 70 s before ' +
      'EAI_AGAIN, never naming the missing network grant',
  },
  {
    scenario: 'git stash, checkout -b, checkout -b with tracking',
    reason:
      'sandboxed: .git/config is read-only, so `git checkout -b x origin/main` prints "could not write config file .git/config", ' +
      'says tracking was set up and sets none; unsandboxed: `git stash pop` and `git status` list the product\'s store',
  },
  {
    scenario: 'the user\'s global git excludes',
    reason:
      'sandboxed: the private home carries only the identity, so core.excludesFile is lost and `git add -A` commits .DS_Store and ' +
      '.idea/; unsandboxed: `git add -A` stages the product\'s store and the commit is put back by the record check',
  },
  {
    scenario: 'commit signing configured by the user',
    reason: 'sandboxed: the private home drops commit.gpgsign and the signing key setting, so the commit is made unsigned without a word',
  },
  {
    scenario: 'the product\'s store stays out of git',
    reason:
      'unsandboxed: .plan-execute/ lies unignored in the workspace: `git status` lists it and `git add -A` stages it (sandboxed ' +
      'passes: the store is hidden inside)',
  },
];
