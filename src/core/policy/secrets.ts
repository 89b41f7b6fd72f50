/**
 * What is a real secret in a workspace — a file whose content must never reach the model or a command
 * that was not granted it — as opposed to a file merely *named* like one. Pure: no I/O; a rule that needs
 * the content asks `peek`, which gives at most the first PEEK_BYTES of a file (undefined when it cannot:
 * missing, unreadable, a folder). Hiding a file that is not a secret breaks the user's build, tests and
 * git; showing one that is leaks it — so where a rule cannot tell, it hides.
 *
 * Rules, IN THIS ORDER; the first that applies decides (`rule` names it, secret or not):
 *   1. test_fixture    under a fixtures folder (fixtures/, testdata/, __mocks__ …): everything there is
 *                      made up for tests. Under a test folder (test/, tests/, __tests__/, spec/ …): all but
 *                      env files — a fixture key or certificate is made up, a `tests/.env` usually holds
 *                      the real keys of an integration run.
 *   2. template        `.env.example`, `config.sample.json`, `.npmrc.template`, `.env.dist`, `.defaults`,
 *                      `example.env`: placeholders by convention, the documentation of what to fill in.
 *   3. credentials     (stores) inside folders that exist only to hold keys or tokens (`.ssh`, `.gnupg`,
 *                      `.aws`, `.azure`, `.config/gh` … — a workspace holding dotfiles), and single-purpose
 *                      files: `.netrc`, `.git-credentials`, `.pgpass`, `.my.cnf`, `.htpasswd`,
 *                      `credentials.json`, OAuth client secrets, service-account keys, Terraform state,
 *                      `.docker/config.json`, `.kube/config`, Rails' `config/master.key`, `secring.gpg`.
 *   4. encrypted       `*.enc`, `*.gpg`, `*.pgp`, `*.age`, `*.vault`, `*.sops.*`, and `*.asc` unless it
 *                      holds a private key block: encrypted by design to be committed; the key is the secret.
 *   5. source_or_doc   code and prose by extension (`credentials.ts`, `secrets.py`, `secrets-management.md`,
 *                      `.html`): they name the concept; hiding the module breaks the program. Shell scripts
 *                      are not in the set: a `secrets.sh` is most often a list of `export TOKEN=…`.
 *   6. env_file        `.env`, `.env.local`, `.env.production`, `prod.env`, `.envrc`: real environment files,
 *                      the commonest place for keys.
 *   7. private_key     SSH identities (`id_rsa`, `github_rsa`, `deploy_key`; not their `.pub`), key stores
 *                      (`.p12`, `.pfx`, `.jks`, `.keystore`, `.ppk`, `.p8`, `.kdbx`, `.ovpn`); `.pem`, `.key`,
 *                      `.crt`, `.cer`, `.der` … by content: a PEM block holding `PRIVATE KEY` is a secret,
 *                      certificates and public keys are not, and what cannot be read or is not PEM at all
 *                      (a `.key` of hex, DER) stays hidden.
 *   8. credentials     tool configs (`.npmrc`, `.yarnrc.yml`, `.pypirc`, `pip.conf`, `settings.xml`,
 *                      `gradle.properties`, `auth.json` …) only when they hold a credential with a literal
 *                      value (`_authToken=npm_…`, `_auth`, `_password`, `npmAuthToken`, `password =`, a URL
 *                      with a password; `${NPM_TOKEN}` reads the environment and is none) — unreadable ones
 *                      stay hidden; and data files named for secrets (`secrets.yml`, `credentials.xml`,
 *                      `passwords.txt`, `api_keys.json`) or kept in a `secrets/` folder, unless sops or
 *                      ansible-vault encrypted them in place.
 *   9. (not secret)    everything else.
 * Names compare case-insensitively: on a case-insensitive file system `.ENV` is `.env`.
 */
import { isWithin } from '../primitives/paths';

/** The most of a file's start `peek` needs to return for these rules. */
export const PEEK_BYTES = 4096;

export type Peek = (rel: string) => string | undefined;

export interface SecretVerdict {
  secret: boolean;
  /** The rule that decided (see above); absent when no rule applied. */
  rule?: string;
  /** Hidden because the content could not tell (unreadable, not PEM): worth asking the user once rather than breaking a build. */
  unsure?: true;
}

const FIXTURE_DIRS = new Set(['fixtures', 'fixture', '__fixtures__', 'testdata', 'test-data', 'test_data', '__mocks__', 'mocks', '__snapshots__']);
const TEST_DIRS = new Set(['test', 'tests', '__tests__', 'spec', 'specs', 'e2e', 'testing']);
/** A name part that makes a file a template (`.env.example`, `config.json.dist`, `.env.defaults`). */
const TEMPLATE_SUFFIXES = new Set([
  'example',
  'examples',
  'sample',
  'samples',
  'template',
  'templates',
  'tmpl',
  'tpl',
  'dist',
  'default',
  'defaults',
  'schema',
  'stub',
]);
/** Before the name's first dot only the unambiguous ones count: `example.env`, `credentials-sample.json` (not `dist-credentials.json`). */
const TEMPLATE_WORDS = new Set(['example', 'sample', 'template', 'tmpl']);

/** Folders that exist only to hold credentials (a home folder or dotfiles checked into the workspace). */
const STORE_DIRS = ['.ssh', '.gnupg', '.aws', '.azure', '.password-store', '.config/gcloud', '.config/gh', '.config/hub', '.terraform.d'];
/** Single credential files inside folders that also hold ordinary project files (`.docker/` often holds Dockerfiles). */
const STORE_PATHS = ['.docker/config.json', '.kube/config'];
const STORE_FILES = new Set([
  '.netrc',
  '_netrc',
  '.git-credentials',
  '.pgpass',
  '.my.cnf',
  '.htpasswd',
  '.vault-token',
  '.s3cfg',
  '.boto',
  '.dockercfg',
  'credentials.json',
  'kubeconfig',
  'secring.gpg',
  'secring.kbx',
  'terraform.tfstate',
  'terraform.tfstate.backup',
]);
const STORE_PATTERNS = [/^client_secrets?[^/]*\.json$/, /^service[-_]?account[^/]*\.json$/, /\.tfstate(\.backup)?$/];

const ENCRYPTED_EXTENSIONS = new Set(['enc', 'gpg', 'pgp', 'age', 'asc', 'vault']);

const SOURCE_EXTENSIONS = new Set([
  'ts',
  'tsx',
  'mts',
  'cts',
  'js',
  'jsx',
  'mjs',
  'cjs',
  'py',
  'pyi',
  'rb',
  'go',
  'java',
  'kt',
  'kts',
  'scala',
  'groovy',
  'swift',
  'rs',
  'c',
  'h',
  'cc',
  'cpp',
  'hpp',
  'cs',
  'fs',
  'vb',
  'php',
  'pl',
  'pm',
  'lua',
  'ex',
  'exs',
  'erl',
  'clj',
  'dart',
  'vue',
  'svelte',
  'elm',
  'hs',
  'ml',
  'r',
  'jl',
  'nim',
  'zig',
  'sol',
  'graphql',
  'gql',
  'proto',
  'sql',
  'css',
  'scss',
  'less',
  'html',
  'htm',
  'erb',
  'haml',
  'md',
  'mdx',
  'markdown',
  'rst',
  'adoc',
  'tex',
  'ipynb',
  'map',
  'snap',
]);

const KEY_STORE_EXTENSIONS = new Set(['p12', 'pfx', 'jks', 'keystore', 'bks', 'ppk', 'p8', 'kdbx', 'kdb', 'ovpn']);
const PEM_EXTENSIONS = new Set(['pem', 'key', 'crt', 'cer', 'cert', 'csr', 'der']);

const TOOL_CONFIGS = new Set([
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pypirc',
  'pip.conf',
  'pip.ini',
  '.condarc',
  'settings.xml',
  'gradle.properties',
  '.gemrc',
  'auth.json',
]);

/**
 * Words that make a data file a secret by its name. Not `token` (design tokens) nor a singular `password`
 * (`password.json` is as often a translation or a form's schema).
 */
const SECRET_WORD = /(^|[._-])(secrets?|credentials?|creds|passwords|passwd|api[_-]?keys?|private[_-]?keys?)([._-]|$)/;
const SECRET_FOLDERS = new Set(['secrets', 'secret', '.secrets', 'credentials', '.credentials']);

/** SSH identities: `id_rsa`, `id_ed25519_sk`, `github_rsa`, `deploy_key` (and their `.pub`, which are public). */
const SSH_IDENTITY = /^(id_|[\w.-]*[_-])(rsa|dsa|ecdsa|ed25519)(_sk)?([._-][\w.-]*)?$|^deploy[-_]key([._-][\w.-]*)?$/;

const yes = (rule: string): SecretVerdict => ({ secret: true, rule });
const no = (rule: string): SecretVerdict => ({ secret: false, rule });
const unsure = (rule: string): SecretVerdict => ({ secret: true, rule, unsure: true });

interface PathParts {
  /** Lower-cased segments, the file's name last. */
  segments: string[];
  name: string;
  /** The dot-separated parts of the name after its first (`.env.example` → env, example). */
  suffixes: string[];
  /** The last suffix, or '' (`.npmrc` has none: a leading dot starts the name). */
  ext: string;
}

function partsOf(rel: string): PathParts {
  const segments = rel
    .replace(/\\/g, '/')
    .toLowerCase()
    .split('/')
    .filter((s) => s !== '' && s !== '.');
  const name = segments[segments.length - 1] ?? '';
  const dotted = name.startsWith('.') ? name.slice(1).split('.') : name.split('.');
  const suffixes = dotted.slice(1);
  return { segments, name, suffixes, ext: suffixes[suffixes.length - 1] ?? '' };
}

const isEnvFile = (p: PathParts): boolean =>
  p.name === '.env' || p.name.startsWith('.env.') || p.name === '.envrc' || (p.ext === 'env' && p.suffixes.length >= 1);

function testFixture(p: PathParts): SecretVerdict | undefined {
  const folders = p.segments.slice(0, -1);
  if (folders.some((s) => FIXTURE_DIRS.has(s))) return no('test_fixture');
  if (folders.some((s) => TEST_DIRS.has(s)) && !isEnvFile(p)) return no('test_fixture');
  return undefined;
}

function template(p: PathParts): SecretVerdict | undefined {
  // `example.env`, `sample.npmrc` name the template first; `.env.example`, `config.json.dist` last.
  const stem = p.name.startsWith('.') ? '' : (p.name.split('.')[0] ?? '');
  if (p.suffixes.some((w) => TEMPLATE_SUFFIXES.has(w)) || stem.split(/[-_]/).some((w) => TEMPLATE_WORDS.has(w))) return no('template');
  return undefined;
}

const inStore = (path: string): boolean => STORE_DIRS.some((d) => isWithin(path, d) || path.includes(`/${d}/`) || path.endsWith(`/${d}`));

function credentialStore(p: PathParts): SecretVerdict | undefined {
  const path = p.segments.join('/');
  if (inStore(path) || STORE_PATHS.some((f) => path === f || path.endsWith(`/${f}`))) return yes('credentials');
  if (STORE_FILES.has(p.name) || STORE_PATTERNS.some((re) => re.test(p.name))) return yes('credentials');
  // Rails decrypts config/credentials*.yml.enc with this key (and config/credentials/<env>.key).
  if (p.name === 'master.key' || (p.ext === 'key' && p.segments.includes('credentials'))) return yes('credentials');
  return undefined;
}

const PRIVATE_KEY_BLOCK = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/;
const PUBLIC_PEM_BLOCK = new RegExp(
  `-----BEGIN (${[
    'CERTIFICATE',
    'TRUSTED CERTIFICATE',
    'X509 CRL',
    '(NEW )?CERTIFICATE REQUEST',
    '(RSA )?PUBLIC KEY',
    'DH PARAMETERS',
    'EC PARAMETERS',
    'PGP PUBLIC KEY BLOCK',
    'PGP MESSAGE',
    'PGP SIGNATURE',
  ].join('|')})-----`,
);

function encrypted(p: PathParts, rel: string, peek: Peek | undefined): SecretVerdict | undefined {
  const sops = p.suffixes.includes('sops');
  if (!sops && !ENCRYPTED_EXTENSIONS.has(p.ext)) return undefined;
  // An armored export can be a private key (`gpg --export-secret-keys --armor`): that one is not encrypted.
  if (p.ext === 'asc') return PRIVATE_KEY_BLOCK.test(peek?.(rel) ?? '') ? yes('private_key') : no('encrypted');
  return no('encrypted');
}

function sourceOrDoc(p: PathParts): SecretVerdict | undefined {
  if (p.name.endsWith('.d.ts')) return no('source_or_doc');
  return SOURCE_EXTENSIONS.has(p.ext) && !p.name.startsWith('.') ? no('source_or_doc') : undefined;
}

function privateKey(p: PathParts, rel: string, peek: Peek | undefined): SecretVerdict | undefined {
  if (SSH_IDENTITY.test(p.name)) return p.ext === 'pub' ? no('public_key') : yes('private_key');
  if (KEY_STORE_EXTENSIONS.has(p.ext)) return yes('private_key');
  if (!PEM_EXTENSIONS.has(p.ext)) return undefined;
  const head = peek?.(rel);
  if (head === undefined) return unsure('private_key');
  if (PRIVATE_KEY_BLOCK.test(head)) return yes('private_key');
  if (PUBLIC_PEM_BLOCK.test(head)) return no(p.ext === 'csr' || /PUBLIC KEY/.test(head) ? 'public_key' : 'certificate');
  // Not PEM at all: a raw or binary key (DER, a hex secret) cannot be told from anything else.
  return unsure('private_key');
}

/** Keys that hold a credential in tool configs (npm's `_authToken`, `_auth`, `_password`; yarn's `npmAuthToken`; `password =`). */
const CREDENTIAL_KEY = /(_authtoken|_auth$|_password|npmauth(token|ident)|password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)/i;
/** A URL carrying a password (`https://user:pass@host/`), as pip's `index-url` or npm's `registry` can. */
const URL_PASSWORD = /:\/\/[^/\s:@]+:[^/\s@]+@/;
/** A value taken from the environment (`${NPM_TOKEN}`, Maven's `${env.TOKEN}`, `$TOKEN`, `%TOKEN%`) is not a credential in the file. */
const FROM_ENV = /^(\$\{[A-Za-z_][\w.]*\}|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%)$/;
const XML_SECRET = /<(password|passphrase|privateKey|token)>\s*([^<]*?)\s*<\//gi;

/** Whether a tool config's text holds a credential with a literal value. */
function holdsCredential(text: string): boolean {
  for (const m of text.matchAll(XML_SECRET)) if ((m[2] ?? '') !== '' && !FROM_ENV.test(m[2] ?? '')) return true;
  return text.split(/\r?\n/).some((raw) => {
    if (URL_PASSWORD.test(raw)) return true;
    // npm's per-registry keys: `//host/path/:_authToken=…`.
    const line = raw.replace(/^\s*\/\/\S*?\/:(?=\w)/, '');
    const m = /^\s*["']?([\w.@/-]+?)["']?\s*[=:]\s*(.*)$/.exec(line);
    if (!m || !CREDENTIAL_KEY.test(m[1] ?? '')) return false;
    const value = (m[2] ?? '')
      .trim()
      .replace(/,$/, '')
      .trim()
      .replace(/^["']|["']$/g, '');
    return value !== '' && !FROM_ENV.test(value);
  });
}

/** A data file encrypted in place: ansible-vault's header, or sops' metadata beside `ENC[…]` values. */
const encryptedInPlace = (head: string): boolean => head.startsWith('$ANSIBLE_VAULT;') || (/\bsops\b/.test(head) && /ENC\[[A-Z0-9_]+,data:/.test(head));

function credentials(p: PathParts, rel: string, peek: Peek | undefined): SecretVerdict | undefined {
  if (TOOL_CONFIGS.has(p.name)) {
    const head = peek?.(rel);
    if (head === undefined) return unsure('credentials');
    return holdsCredential(head) ? yes('credentials') : no('no_credentials');
  }
  const stem = p.name.startsWith('.') ? p.name.slice(1) : p.name;
  if (!SECRET_WORD.test(stem) && !p.segments.slice(0, -1).some((s) => SECRET_FOLDERS.has(s))) return undefined;
  // sops and ansible-vault encrypt `secrets.yaml` where it lies: committed by design, like a `.enc` file.
  const head = peek?.(rel);
  return head !== undefined && encryptedInPlace(head) ? no('encrypted') : yes('credentials');
}

/** Whether the workspace file `rel` (relative, `/`-separated) is a secret; see the rules above. */
export function isSecret(rel: string, peek?: Peek): SecretVerdict {
  const p = partsOf(rel);
  if (p.name === '') return { secret: false };
  return (
    testFixture(p) ??
    template(p) ??
    credentialStore(p) ??
    encrypted(p, rel, peek) ??
    sourceOrDoc(p) ??
    (isEnvFile(p) ? yes('env_file') : undefined) ??
    privateKey(p, rel, peek) ??
    credentials(p, rel, peek) ?? { secret: false }
  );
}

/**
 * Whether a folder is a secret as a whole: only a credential store (`.ssh`, `.aws` …) is; a folder merely
 * named `secrets` or `credentials` is listed, and its files are judged one by one.
 */
export function isSecretFolder(rel: string): SecretVerdict {
  const p = partsOf(rel);
  if (p.name === '' || testFixture(p)) return { secret: false };
  return inStore(p.segments.join('/')) ? yes('credentials') : { secret: false };
}
