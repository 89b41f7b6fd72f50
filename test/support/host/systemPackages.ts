/**
 * The Debian packages the test host needs: Chromium (the browser that runs the workbench), ripgrep (the
 * `rg` that code-server's @vscode/ripgrep would otherwise download) and, only to build code-server's
 * native modules, libkrb5-dev plus a compiler toolchain; bubblewrap, the OS sandbox every command runs in on
 * Linux, and slirp4netns, which gives a command granted the network a network of its own; for the system
 * tier's escape suite and ordinary-projects corpus, Debian's pytest
 * (a command in the OS sandbox may not see a python under the user's home, such as pyenv's, and then
 * runs the system's /usr/bin/python3), and gcc, which builds a staged command's rename helper. As root they are installed with apt-get; anyone
 * else is told the exact command, because a half-working host wastes more time than a clear stop.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromiumPath, isRoot, onPath } from './hostPaths';

interface Requirement {
  /** The Debian package that provides it. */
  debian: string;
  present(): boolean;
}

const RUNTIME: Requirement[] = [
  { debian: 'chromium', present: () => existsSync(chromiumPath()) },
  { debian: 'ripgrep', present: () => onPath('rg') !== undefined },
  { debian: 'bubblewrap', present: () => existsSync('/usr/bin/bwrap') || onPath('bwrap') !== undefined },
  { debian: 'slirp4netns', present: () => existsSync('/usr/bin/slirp4netns') || onPath('slirp4netns') !== undefined },
];

const BUILD: Requirement[] = [
  // kerberos' binding.gyp includes <gssapi/gssapi.h> and links against krb5.
  { debian: 'libkrb5-dev', present: () => existsSync('/usr/include/gssapi/gssapi.h') || onPath('krb5-config') !== undefined },
  { debian: 'python3', present: () => onPath('python3') !== undefined },
  { debian: 'make', present: () => onPath('make') !== undefined },
  { debian: 'g++', present: () => onPath('g++') !== undefined },
];

/** bubblewrap: every command runs inside it on Linux (src/node/sandbox); tests of the sandbox need the real one. */
const SANDBOX: Requirement = { debian: 'bubblewrap', present: () => existsSync('/usr/bin/bwrap') || onPath('bwrap') !== undefined };

/** slirp4netns: a granted network of the command's own, without this machine's loopback (src/node/sandbox/ownNetwork.ts). */
const OWN_NETWORK: Requirement = { debian: 'slirp4netns', present: () => existsSync('/usr/bin/slirp4netns') || onPath('slirp4netns') !== undefined };

/** What the unit and system tiers need: the escape suite and the corpus run `python3 -m pytest` inside the sandbox. */
const UNIT: Requirement[] = [
  SANDBOX,
  OWN_NETWORK,
  {
    debian: 'python3-pytest',
    present: () => existsSync('/usr/bin/python3') && spawnSync('/usr/bin/python3', ['-c', 'import pytest'], { stdio: 'ignore' }).status === 0,
  },
  // The corpus makes a TLS fixture pair (openssl) and an SSH signing key (ssh-keygen).
  { debian: 'openssl', present: () => onPath('openssl') !== undefined },
  { debian: 'openssh-client', present: () => onPath('ssh-keygen') !== undefined },
  // A staged command's rename helper (src/node/sandbox/renameShim.ts) is built with the system's C compiler:
  // the staging-layer unit tests and the corpus's folder renames and local clones need it.
  { debian: 'gcc', present: () => ['cc', 'gcc', 'clang'].some((c) => onPath(c) !== undefined) },
];

export type Log = (line: string) => void;

/** Makes sure what the unit and system tiers need is there (see ensureSystemPackages). */
export function ensureUnitPackages(options: { log: Log }): void {
  ensure(UNIT, options.log);
}

/**
 * Makes sure the packages are there. `forBuild` adds what compiling code-server's native modules needs.
 * Throws with the install command when something is missing and this process cannot install it.
 */
export function ensureSystemPackages(options: { forBuild: boolean; log: Log }): void {
  ensure([...RUNTIME, ...(options.forBuild ? BUILD : [])], options.log);
}

function ensure(wanted: Requirement[], log: Log): void {
  const missing = wanted.filter((requirement) => !requirement.present()).map((requirement) => requirement.debian);
  if (missing.length === 0) return;
  const command = `apt-get update && apt-get install -y ${missing.join(' ')}`;
  if (!isRoot() || onPath('apt-get') === undefined) {
    throw new Error(
      `the test host needs these Debian packages: ${missing.join(', ')}.\n` +
        `Install them (as root): ${command}\n` +
        'or point PLAN_EXECUTE_CHROMIUM at a Chromium binary if you have one elsewhere.',
    );
  }
  log(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Another apt (a second CI run, unattended upgrades) may hold the dpkg lock for a while: wait for it
  // rather than fail the run on "Could not get lock".
  const lockWait = ['-o', 'DPkg::Lock::Timeout=300'];
  for (const args of [
    [...lockWait, 'update'],
    [...lockWait, 'install', '-y', ...missing],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env });
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
  }
  const still = wanted.filter((requirement) => !requirement.present()).map((requirement) => requirement.debian);
  if (still.length > 0) throw new Error(`still missing after apt-get install: ${still.join(', ')}`);
}
