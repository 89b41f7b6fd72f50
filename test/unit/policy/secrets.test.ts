/**
 * What is a real secret (src/core/policy/secrets.ts), as specifications: each case is a file as it is
 * found in real repositories, with the content the rule reads when it needs to.
 */
import { strict as assert } from 'node:assert';
import { isSecret, isSecretFolder, PEEK_BYTES, type Peek } from '../../../src/core/policy/secrets';

const PEM_KEY = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n';
const RSA_KEY = '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n';
const OPENSSH_KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n';
const CERT = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUY2Vy\n-----END CERTIFICATE-----\n';
const CHAIN_WITH_KEY = `${CERT}${PEM_KEY}`;

/** A peek over a fixed set of files; anything else cannot be read. */
const files =
  (content: Record<string, string>): Peek =>
  (rel) =>
    content[rel]?.slice(0, PEEK_BYTES);

function secret(rel: string, peek?: Peek): void {
  const v = isSecret(rel, peek);
  assert.equal(v.secret, true, `${rel} should be a secret (got ${JSON.stringify(v)})`);
}
function notSecret(rel: string, peek?: Peek, rule?: string): void {
  const v = isSecret(rel, peek);
  assert.equal(v.secret, false, `${rel} should not be a secret (got ${JSON.stringify(v)})`);
  if (rule) assert.equal(v.rule, rule, `${rel} is decided by ${rule}`);
}

describe('secrets: what is a real secret', () => {
  describe('environment files', () => {
    it('hides .env and the per-environment files that hold real values', () => {
      for (const rel of ['.env', '.env.local', '.env.production', 'apps/api/.env.development.local', 'deploy/prod.env', '.envrc', '.ENV']) secret(rel);
      assert.equal(isSecret('.env').rule, 'env_file');
    });
    it('shows templates: .env.example, .sample, .template, .dist, .defaults, example.env', () => {
      for (const rel of [
        '.env.example',
        '.env.sample',
        '.env.template',
        '.env.dist',
        '.env.defaults',
        'example.env',
        'apps/web/.env.local.example',
        'config/.env.schema',
      ]) {
        notSecret(rel, undefined, 'template');
      }
    });
    it('keeps a tests/.env hidden: integration tests keep their real keys there', () => {
      secret('tests/.env');
      secret('e2e/.env.test');
    });
  });

  describe('encrypted by design', () => {
    it('shows files committed encrypted: Rails credentials, gpg, age, sops, ansible-vault', () => {
      for (const rel of [
        'config/credentials.yml.enc',
        'config/credentials/production.yml.enc',
        'secrets/prod.env.gpg',
        'secrets.age',
        'secrets.sops.yaml',
        'deploy/vault.asc',
      ]) {
        notSecret(rel, files({ 'deploy/vault.asc': '-----BEGIN PGP MESSAGE-----\nhQEMA\n-----END PGP MESSAGE-----\n' }), 'encrypted');
      }
    });
    it('shows a secrets.yaml that sops or ansible-vault encrypted in place, hides one in clear', () => {
      const peek = files({
        'k8s/secrets.yaml': 'apiVersion: v1\ndata:\n    password: ENC[AES256_GCM,data:Zm9v,iv:YmFy,tag:YmF6,type:str]\nsops:\n    version: 3.8.1\n',
        'group_vars/all/secrets.yml': '$ANSIBLE_VAULT;1.1;AES256\n6134353836\n',
        'k8s/prod/secrets.yaml': 'apiVersion: v1\nkind: Secret\ndata:\n  password: aHVudGVyMg==\n',
      });
      notSecret('k8s/secrets.yaml', peek, 'encrypted');
      notSecret('group_vars/all/secrets.yml', peek, 'encrypted');
      secret('k8s/prod/secrets.yaml', peek);
    });
    it('hides the keys that decrypt them: Rails master.key and per-environment keys, a GnuPG secret keyring, an armored private key', () => {
      secret('config/master.key');
      secret('config/credentials/production.key');
      secret('keys/secring.gpg');
      secret('keys/me.asc', files({ 'keys/me.asc': '-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF\n-----END PGP PRIVATE KEY BLOCK-----\n' }));
    });
  });

  describe('source and docs named for secrets', () => {
    it('shows code and prose that only name the concept', () => {
      for (const rel of [
        'src/auth/credentials.ts',
        'src/secrets.ts',
        'app/services/credentials_service.rb',
        'pkg/secrets/secrets.go',
        'lib/credentials.py',
        'src/main/java/com/acme/Credentials.java',
        'docs/secrets-management.md',
        'site/secrets-management.html',
        'src/secrets.d.ts',
        'src/auth/credentials/index.tsx',
      ]) {
        notSecret(rel, undefined, 'source_or_doc');
      }
    });
    it('hides a shell script named for secrets: it is most often a list of exports', () => {
      secret('scripts/secrets.sh');
    });
  });

  describe('keys and certificates', () => {
    it('hides a PEM holding a private key, whatever its extension', () => {
      const peek = files({ 'deploy/server.pem': PEM_KEY, 'certs/api.key': RSA_KEY, 'deploy/bundle.crt': CHAIN_WITH_KEY, 'keys/ci.pem': OPENSSH_KEY });
      for (const rel of ['deploy/server.pem', 'certs/api.key', 'deploy/bundle.crt', 'keys/ci.pem']) secret(rel, peek);
      assert.equal(isSecret('deploy/server.pem', peek).rule, 'private_key');
    });
    it('shows certificates and public keys', () => {
      const peek = files({
        'certs/ca.pem': CERT,
        'certs/ca.crt': CERT,
        'keys/signing.pub.pem': '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n',
      });
      notSecret('certs/ca.pem', peek, 'certificate');
      notSecret('certs/ca.crt', peek, 'certificate');
      notSecret('keys/signing.pub.pem', peek, 'public_key');
      notSecret('deploy/id_ed25519.pub', undefined, 'public_key');
    });
    it('hides a key file it cannot read, or one that is not PEM (a hex secret, DER), and says it was unsure', () => {
      assert.deepEqual(isSecret('certs/server.key'), { secret: true, rule: 'private_key', unsure: true });
      const hex = files({ 'certs/server.key': '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\n' });
      assert.deepEqual(isSecret('certs/server.key', hex), { secret: true, rule: 'private_key', unsure: true });
      assert.equal(isSecret('deploy/server.pem', files({ 'deploy/server.pem': PEM_KEY })).unsure, undefined, 'a PEM private key is certain');
    });
    it('hides SSH identities and key stores by name', () => {
      for (const rel of [
        'id_rsa',
        'home/.ssh/id_ed25519',
        'deploy/id_ecdsa_sk',
        'ci/github_rsa',
        'deploy_key',
        'android/release.keystore',
        'android/app/upload.jks',
        'certs/client.p12',
        'certs/client.pfx',
        'putty/server.ppk',
        'apple/AuthKey_ABC123.p8',
        'vault/team.kdbx',
      ])
        secret(rel);
    });
  });

  describe('test fixtures', () => {
    it('shows what fixtures and test folders hold: TLS pairs, fake credentials, fake homes', () => {
      const peek = files({ 'test/fixtures/server.key': PEM_KEY });
      for (const rel of [
        'test/fixtures/server.key',
        'test/fixtures/server.pem',
        'tests/data/id_rsa',
        '__tests__/credentials.json',
        'spec/support/.npmrc',
        'pkg/x509/testdata/rsa.key',
        'fixtures/home/.ssh/id_ed25519',
        'src/__mocks__/secrets.json',
        'test/fixtures/.env',
      ]) {
        notSecret(rel, peek, 'test_fixture');
      }
    });
  });

  describe('package managers and tools: only when they hold a credential', () => {
    it('shows an .npmrc that only sets options, or takes its token from the environment', () => {
      const peek = files({
        '.npmrc': 'save-exact=true\nengine-strict=true\n@corp:registry=https://npm.corp.example/\nalways-auth=true\n',
        'web/.npmrc': '//npm.corp.example/:_authToken=${NPM_TOKEN}\n',
      });
      notSecret('.npmrc', peek, 'no_credentials');
      notSecret('web/.npmrc', peek, 'no_credentials');
    });
    it('hides an .npmrc, .yarnrc.yml, .pypirc or pip.conf holding a literal credential', () => {
      const peek = files({
        '.npmrc': '//registry.npmjs.org/:_authToken=npm_a1b2c3d4e5f6a7b8c9d0\n',
        'legacy/.npmrc': '_auth=dXNlcjpwYXNz\nemail=me@example.com\n',
        'pkg/.npmrc': '//npm.corp.example/:_password=aHVudGVyMg==\n//npm.corp.example/:username=me\n',
        '.yarnrc.yml': 'npmScopes:\n  corp:\n    npmAuthToken: "npm_a1b2c3d4"\n',
        '.pypirc': '[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmc\n',
        'pip.conf': '[global]\nindex-url = https://me:s3cret@pypi.corp.example/simple\n',
      });
      for (const rel of ['.npmrc', 'legacy/.npmrc', 'pkg/.npmrc', '.yarnrc.yml', '.pypirc', 'pip.conf']) secret(rel, peek);
      assert.equal(isSecret('.npmrc', peek).rule, 'credentials');
    });
    it('hides a tool config it cannot read (a new file, an unreadable one): it cannot tell, and says so', () => {
      assert.deepEqual(isSecret('.npmrc'), { secret: true, rule: 'credentials', unsure: true });
      assert.deepEqual(
        isSecret('.pypirc', () => undefined),
        { secret: true, rule: 'credentials', unsure: true },
      );
    });
    it('shows a Maven settings.xml without passwords, hides one with', () => {
      const peek = files({
        'ci/settings.xml': '<settings><servers><server><id>corp</id><password>${env.MVN_PASSWORD}</password></server></servers></settings>\n',
        'settings.xml': '<settings><servers><server><id>corp</id><password>hunter2</password></server></servers></settings>\n',
      });
      notSecret('ci/settings.xml', peek, 'no_credentials');
      secret('settings.xml', peek);
    });
  });

  describe('credential stores', () => {
    it('hides the files that exist to hold logins and tokens', () => {
      for (const rel of [
        '.netrc',
        '_netrc',
        '.git-credentials',
        '.pgpass',
        '.my.cnf',
        'public/.htpasswd',
        'credentials.json',
        'config/client_secret_1234.apps.json',
        'gcp/service-account.json',
        'infra/terraform.tfstate',
        'infra/prod.tfstate.backup',
        '.docker/config.json',
        '.kube/config',
        '.vault-token',
      ])
        secret(rel);
    });
    it('hides whole credential folders a workspace may hold (a dotfiles repository)', () => {
      for (const rel of ['.ssh/config', '.ssh/known_hosts', 'dotfiles/.aws/credentials', 'dotfiles/.aws/config', '.gnupg/pubring.kbx', '.config/gh/hosts.yml'])
        secret(rel);
      assert.equal(isSecretFolder('.ssh').secret, true);
      assert.equal(isSecretFolder('dotfiles/.aws').secret, true);
    });
    it("shows project folders that share a name with a tool's: .docker/ Dockerfiles, a secrets/ module folder", () => {
      notSecret('.docker/nginx/Dockerfile');
      assert.equal(isSecretFolder('.docker').secret, false);
      assert.equal(isSecretFolder('k8s/secrets').secret, false);
      assert.equal(isSecretFolder('src/auth/credentials').secret, false);
    });
  });

  describe('data files named for secrets', () => {
    it('hides secrets.yml, credentials.xml, passwords.txt, api_keys.json and data kept in a secrets/ folder', () => {
      for (const rel of [
        'config/secrets.yml',
        'config/credentials.xml',
        'passwords.txt',
        'config/api_keys.json',
        '.secrets',
        'credentials',
        'k8s/secrets/db.yaml',
        'k8s/secret.yaml',
      ])
        secret(rel);
    });
    it("shows what only looks like one: design tokens, a password form's translation, ordinary config", () => {
      for (const rel of [
        'src/styles/tokens.json',
        'locales/en/password.json',
        'config/settings.json',
        'package.json',
        'tsconfig.json',
        '.eslintrc.js',
        'README.md',
        'Makefile',
      ])
        notSecret(rel);
    });
  });

  it('never asks for content it does not need', () => {
    const asked: string[] = [];
    const peek: Peek = (rel) => {
      asked.push(rel);
      return undefined;
    };
    for (const rel of ['.env', '.env.example', 'src/secrets.ts', 'config/credentials.yml.enc', 'id_rsa', 'README.md', 'test/fixtures/server.key'])
      isSecret(rel, peek);
    assert.deepEqual(asked, []);
  });
});
