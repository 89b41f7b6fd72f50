/**
 * Ordinary projects whose files are secrets by name only — or hold one real secret beside ordinary work.
 * What a user does in them (tests, builds, git) must behave sandboxed as it does outside: the real
 * secret stays unseen, and nothing else breaks because of it.
 */
import { randomBytes } from 'node:crypto';
import { json, lines, nodeTest, put, repo, type Scenario } from './scenario';
import { nodeApp, tlsPair, typeScriptProject } from './shapes';

const GIT_WORK = ['git status --porcelain', 'git diff --stat', 'git stash', 'git stash pop', 'git add -A', 'git commit -m bump'];

export const SECRETS_SCENARIOS: Scenario[] = [
  {
    name: 'tracked .env.example',
    about: 'a Node app whose test checks that its config names every key of the tracked .env.example; the real .env is ignored',
    build: ({ ws }) => {
      repo(
        ws,
        nodeApp({
          '.gitignore': 'node_modules/\n.env\n',
          '.env.example': 'DATABASE_URL=postgres://localhost:5432/app\nPORT=3000\n',
          'src/config.js': "exports.keys = ['DATABASE_URL', 'PORT'];\n",
          'test/config.test.js': nodeTest(
            'names every key of .env.example',
            "  const keys = fs.readFileSync('.env.example', 'utf8').split('\\n').filter(Boolean).map((l) => l.split('=')[0]);\n" +
              "  assert.deepEqual(require('../src/config.js').keys, keys);",
          ),
        }),
      );
      put(ws, { '.env': 'DATABASE_URL=postgres://admin:hunter2@db.internal:5432/app\n' });
    },
    authority: { edit: ['src/**'] },
    commands: ['node scripts/bump.js', 'npm test', ...GIT_WORK],
  },
  {
    name: 'tracked .npmrc without tokens',
    about: 'a package whose tracked .npmrc sets save-exact and engine-strict; npm reads it, git tracks it',
    build: ({ ws }) => repo(ws, nodeApp({ '.npmrc': 'save-exact=true\nengine-strict=true\n' })),
    authority: { edit: ['src/**'] },
    commands: ['node scripts/bump.js', 'npm config get save-exact', 'npm test', 'git status --porcelain', 'git diff --stat', 'git commit -am bump'],
  },
  {
    name: 'tracked .npmrc with an _authToken',
    about:
      'a tracked .npmrc holding a registry token (a real secret): kept out of the working tree, readable through git — the user allows that (--allow-tracked-secrets) — and tests and git work as outside',
    build: ({ ws }) => {
      const token = `npm_${randomBytes(18).toString('hex')}`;
      repo(ws, nodeApp({ '.npmrc': lines('@corp:registry=https://npm.corp.example.invalid/', `//npm.corp.example.invalid/:_authToken=${token}`) }));
    },
    authority: { edit: ['src/**'] },
    commands: ['node scripts/bump.js', 'npm test', ...GIT_WORK],
    // git tracks the token: no sandbox can keep it from `git show`, so the CLI runs no command unless told to.
    cliArgs: ['--allow-tracked-secrets'],
  },
  {
    name: 'Rails credentials.yml.enc and master.key',
    about: 'a Rails-like app: tracked encrypted config/credentials.yml.enc, ignored config/master.key; a script annotates a model, git stashes and commits',
    build: ({ ws }) => {
      repo(ws, {
        'README.md': '# shop\n',
        '.gitignore': '/config/master.key\n/log/\n',
        'config/credentials.yml.enc': `${randomBytes(96).toString('base64')}--${randomBytes(12).toString('base64')}--${randomBytes(16).toString('base64')}\n`,
        'config/database.yml': 'development:\n  adapter: sqlite3\n  database: db/development.sqlite3\n',
        'app/models/user.rb': 'class User < ApplicationRecord\nend\n',
        'scripts/annotate.js': lines(
          "const fs = require('fs');",
          "fs.appendFileSync('app/models/user.rb', '# == Schema: users (id, email)\\n');",
          "console.log('annotated app/models/user.rb');",
        ),
        'scripts/check-config.js': lines(
          "const fs = require('fs');",
          "for (const f of fs.readdirSync('config').sort()) if (f !== 'master.key') console.log(f, fs.readFileSync('config/' + f).length, 'bytes');",
        ),
      });
      put(ws, { 'config/master.key': `${randomBytes(16).toString('hex')}\n` });
    },
    authority: { edit: ['app/**'] },
    commands: [
      'node scripts/annotate.js',
      'node scripts/check-config.js',
      'git status --porcelain',
      'git diff --stat',
      'git stash',
      'git stash pop',
      'git commit -am annotate',
    ],
  },
  {
    name: 'TypeScript with src/auth/credentials.ts and src/secrets.ts',
    about: 'a TypeScript program whose modules are named credentials and secrets, compiled by tsc into dist/ and run',
    build: ({ ws }) => {
      repo(ws, {
        'README.md': '# auth service\n',
        '.gitignore': 'node_modules/\ndist/\n',
        'src/auth/credentials.ts': lines(
          'export function validCredentials(user: string, password: string): boolean {',
          '  return user !== "" && password !== "" && password !== user;',
          '}',
        ),
        'src/secrets.ts': lines(
          '/** The environment variables this service reads its secrets from (never their values). */',
          "export const SECRET_NAMES: string[] = ['DB_PASSWORD', 'JWT_SIGNING_KEY'];",
        ),
        'src/index.ts': lines(
          "import { validCredentials } from './auth/credentials';",
          "import { SECRET_NAMES } from './secrets';",
          '',
          "console.log('needs', SECRET_NAMES.length, 'secrets; check:', validCredentials('ada', 'correct-horse-battery'));",
        ),
      });
      typeScriptProject(ws);
    },
    authority: { edit: ['src/**', 'dist/**'] },
    commands: ['npx tsc', 'node dist/index.js'],
  },
  {
    name: 'docs build of docs/secrets-management.md',
    about: 'a docs script renders docs/*.md into the ignored site/ (the step may write site/), and a test checks the page',
    build: ({ ws }) =>
      repo(ws, {
        ...nodeApp(
          {
            '.gitignore': 'node_modules/\nsite/\n',
            'docs/secrets-management.md': '# Secrets management\n\nKeep secrets in the vault, never in the repository.\n',
            'docs/index.md': '# Handbook\n\nSee secrets-management.\n',
            'scripts/build-docs.js': [
              "const fs = require('fs');",
              "fs.mkdirSync('site', { recursive: true });",
              "for (const f of fs.readdirSync('docs').filter((n) => n.endsWith('.md')).sort()) {",
              "  const html = fs.readFileSync('docs/' + f, 'utf8').replace(/^# (.*)$/m, '<h1>$1</h1>').replace(/^(?!<h1>)(.+)$/gm, '<p>$1</p>');",
              "  fs.writeFileSync('site/' + f.replace(/\\.md$/, '.html'), html);",
              "  console.log('built site/' + f.replace(/\\.md$/, '.html'));",
              '}',
              '',
            ].join('\n'),
            'test/docs.test.js': nodeTest(
              'renders the secrets page',
              "  assert.match(fs.readFileSync('site/secrets-management.html', 'utf8'), /<h1>Secrets management<\\/h1>/);",
            ),
          },
          { docs: 'node scripts/build-docs.js' },
        ),
      }),
    authority: { edit: ['site/**'] },
    commands: ['npm run docs', 'npm test'],
  },
  {
    name: 'TLS fixtures test/fixtures/server.key and server.pem',
    about: 'an HTTPS test that serves with the key and certificate of its fixtures on loopback and checks the answer',
    build: ({ root, ws }) => {
      const { key, pem } = tlsPair(root);
      repo(
        ws,
        nodeApp({
          'test/fixtures/server.key': key,
          'test/fixtures/server.pem': pem,
          'test/https.test.js': nodeTest(
            'answers over TLS',
            [
              "  const https = require('https');",
              "  const tls = { key: fs.readFileSync('test/fixtures/server.key'), cert: fs.readFileSync('test/fixtures/server.pem') };",
              "  const server = https.createServer(tls, (req, res) => res.end('secure ok'));",
              "  await new Promise((r) => server.listen(0, '127.0.0.1', r));",
              "  const options = { host: '127.0.0.1', port: server.address().port, ca: tls.cert, servername: 'localhost' };",
              '  const body = await new Promise((resolve, reject) => https.get(options, (res) => {',
              "    let text = ''; res.on('data', (c) => (text += c)); res.on('end', () => resolve(text));",
              "  }).on('error', reject));",
              '  server.close();',
              "  assert.equal(body, 'secure ok');",
            ].join('\n'),
          ),
        }),
      );
    },
    authority: { edit: ['src/**'] },
    commands: ['node --test', 'git status --porcelain'],
  },
  {
    name: 'git diff, add -A, commit -am with a secret-named tracked file',
    about: 'a repository tracking config/secrets.yml (ERB references to the environment, no values) next to ordinary code',
    build: ({ ws }) =>
      repo(
        ws,
        nodeApp({
          'config/secrets.yml': 'production:\n  secret_key_base: <%= ENV["SECRET_KEY_BASE"] %>\n',
          'config/settings.json': json({ name: 'app' }),
        }),
      ),
    authority: { edit: ['src/**'] },
    commands: ['node scripts/bump.js', 'git diff', 'git add -A', 'git status --porcelain', 'git commit -am bump', 'git show --stat --format=%s HEAD'],
    // secrets.yml is hidden as a secret by its name; git tracks it, so the user allows going on.
    cliArgs: ['--allow-tracked-secrets'],
  },
];
