/**
 * Paths that are dangerous to touch even when a step's globs cover them. Two tiers:
 * - SECRET: credentials and keys. Refused for reads too — whatever the executor reads is sent to the
 *   model provider. Which files really are secrets is decided by `isSecret` (secrets.ts: `.env` yes,
 *   `.env.example` no; a PEM private key yes, a certificate no …). SECRET_RULES below are the names
 *   alone: every path that *might* be one, a superset of what `isSecret` hides.
 * - PROTECTED: files that run code or hold the user's control over this extension (git internals and
 *   hooks, editor tasks/launch/settings, dependencies, our own config). Refused for writes and deletes.
 * Both tiers give way only to a glob the user explicitly allowed for the mission (`allowSensitive`).
 * Matching is case-insensitive: on a case-insensitive file system `.GIT/config` IS `.git/config`.
 */
export interface SensitiveRule {
  name: string;
  globs: string[];
}

export const SECRET_RULES: SensitiveRule[] = [
  { name: 'env_file', globs: ['**/.env', '**/.env.*', '**/.envrc', '**/*.env'] },
  {
    name: 'private_key',
    globs: [
      '**/id_rsa*',
      '**/id_dsa*',
      '**/id_ecdsa*',
      '**/id_ed25519*',
      '**/*.pem',
      '**/*.key',
      '**/*.p12',
      '**/*.pfx',
      '**/*.keystore',
      '**/*.jks',
      '**/*.ppk',
    ],
  },
  {
    name: 'credentials',
    globs: [
      '**/.npmrc',
      '**/.yarnrc.yml',
      '**/.pypirc',
      '**/.netrc',
      '**/_netrc',
      '**/.git-credentials',
      '**/.pgpass',
      '**/credentials*',
      '**/secrets*',
      '**/.secrets*',
      '**/.htpasswd',
      '**/.ssh/**',
      '**/.aws/**',
      '**/.gnupg/**',
      '**/.docker/config.json',
      '**/.kube/config',
    ],
  },
];

export const PROTECTED_RULES: SensitiveRule[] = [
  { name: 'git', globs: ['**/.git', '**/.git/**', '**/.gitmodules', '**/.husky/**'] },
  // A dev container's config (folder or root file) runs its commands (postCreateCommand…) when reopened in it.
  { name: 'editor_config', globs: ['**/.vscode/**', '**/*.code-workspace', '**/.devcontainer/**', '**/.devcontainer.json', '**/.idea/**'] },
  { name: 'extension_config', globs: ['**/.planexecuteignore', '**/.plan-execute', '**/.plan-execute/**'] },
  { name: 'dependencies', globs: ['**/node_modules', '**/node_modules/**'] },
];
