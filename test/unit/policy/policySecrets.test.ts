/**
 * The text editor's policy decides secrets by isSecret (secrets.ts), reading a file's start where a rule
 * needs it — real files in a temp workspace — and protects a root `.devcontainer.json` like `.devcontainer/`.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkAction, policyFor, type Policy } from '../../../src/core/policy/policy';
import { nodePolicyFs } from '../../../src/node/nodePolicyFs';
import { authority } from '../../support/fixtures';

describe('policy: secrets by what they are, not by name alone', () => {
  let ws: string;
  let policy: Policy;
  const put = (rel: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  };
  const read = (rel: string): ReturnType<typeof checkAction> => checkAction(policy, { kind: 'read', path: rel });
  const write = (rel: string): ReturnType<typeof checkAction> => checkAction(policy, { kind: 'write', path: rel });

  before(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-policy-secrets-')));
    put('.env', 'DATABASE_PASSWORD=hunter2\n');
    put('.env.example', 'DATABASE_PASSWORD=\n');
    put('.npmrc', 'save-exact=true\n');
    put('packages/private/.npmrc', '//registry.npmjs.org/:_authToken=npm_a1b2c3d4e5f6\n');
    put('config/credentials.yml.enc', 'c2VjcmV0--aXY=--dGFn\n');
    put('config/master.key', '0123456789abcdef0123456789abcdef\n');
    put('src/auth/credentials.ts', 'export const x = 1;\n');
    put('src/secrets.ts', 'export const names = [];\n');
    put('docs/secrets-management.md', '# Secrets\n');
    put('test/fixtures/server.key', '-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----\n');
    put('deploy/server.pem', '-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----\n');
    put('deploy/ca.pem', '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    put('.devcontainer.json', '{ "postCreateCommand": "npm ci" }\n');
    policy = policyFor(ws, { id: 's1', authority: authority({ edit: ['**'] }) }, { fs: nodePolicyFs });
  });
  after(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('shows templates, encrypted files, fixtures, certificates and code or docs named for secrets', () => {
    for (const rel of [
      '.env.example',
      '.npmrc',
      'config/credentials.yml.enc',
      'src/auth/credentials.ts',
      'src/secrets.ts',
      'docs/secrets-management.md',
      'test/fixtures/server.key',
      'deploy/ca.pem',
    ]) {
      assert.deepEqual(read(rel), { allowed: true }, `${rel} is readable`);
    }
    assert.deepEqual(write('site/secrets-management.html'), { allowed: true }, 'a docs build output named for secrets is writable');
  });

  it('refuses the real secrets, naming the rule', () => {
    assert.equal((read('.env') as { rule: string }).rule, 'sensitive.env_file');
    assert.equal((read('packages/private/.npmrc') as { rule: string }).rule, 'sensitive.credentials');
    assert.equal((read('config/master.key') as { rule: string }).rule, 'sensitive.credentials');
    assert.equal((read('deploy/server.pem') as { rule: string }).rule, 'sensitive.private_key');
    assert.equal(write('.env').allowed, false);
  });

  it('refuses a new file where nothing can be read yet to tell (an .npmrc, a key)', () => {
    assert.equal((write('web/.npmrc') as { rule: string }).rule, 'sensitive.credentials');
    assert.equal((write('certs/new.key') as { rule: string }).rule, 'sensitive.private_key');
  });

  it('a secret the user allowed for the mission is readable', () => {
    const allowed = policyFor(ws, { id: 's1', authority: authority() }, { fs: nodePolicyFs, allowSensitive: ['.env'] });
    assert.deepEqual(checkAction(allowed, { kind: 'read', path: '.env' }), { allowed: true });
  });

  it('protects a root .devcontainer.json from writes, as .devcontainer/ (its commands run when the folder is reopened)', () => {
    assert.equal((write('.devcontainer.json') as { rule: string }).rule, 'sensitive.editor_config');
    assert.equal((write('.devcontainer/devcontainer.json') as { rule: string }).rule, 'sensitive.editor_config');
    assert.deepEqual(read('.devcontainer.json'), { allowed: true });
  });
});
