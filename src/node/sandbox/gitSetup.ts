/**
 * The git files of a sandboxed command's private home: the user's git behaviour, carried in without their
 * secrets (with only an identity, their global excludes were dropped — `.DS_Store` and `.idea/`
 * got committed — and commits came out unsigned without a word).
 *
 * `gitSetupFor` is pure: it reads the user's configuration and files only through its ports. What it
 * carries, into `~/.gitconfig` (and beside it):
 *   1. identity       user.name, user.email (and user.useConfigOnly);
 *   2. ignore rules   the user's global excludes (core.excludesFile, default ~/.config/git/ignore) and
 *                     attributes (core.attributesFile, default ~/.config/git/attributes), copied as
 *                     content to ~/.config/git/ and named explicitly, since XDG_CONFIG_HOME may still point
 *                     at the real (hidden) folder;
 *   3. signing        commit.gpgsign, tag.gpgsign, gpg.format, user.signingkey (a key's path or a public
 *                     key — never the key itself): git then signs, or fails and says why; never a commit
 *                     quietly unsigned. A signing program is carried only from a fixed system folder;
 *   4. behaviour      an allowlist of keys that change what git does, never what it runs (BEHAVIOUR_KEYS).
 * Never carried: anything that runs a program or holds a credential — credential.*, url.*.insteadOf
 * (tokens ride in URLs), http.* (extra headers, client keys), core.sshCommand, core.pager, core.editor,
 * core.fsmonitor, core.hooksPath, alias.*, filter.*, diff and merge drivers, *.textconv, include and
 * includeIf (their values are read through, the directives are not copied). The ones the user has set
 * are named in the notes, values never.
 *
 * `nodeGitSetupPorts` reads the real configuration with git found by absolute path in fixed system folders
 * (never through PATH: a workspace folder can be on it).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { hasCode, isDenied, isMissing } from '../fsErrors';
import { hostTool, SYSTEM_BIN_DIRS } from './hostTools';

export interface GitSetupPorts {
  /** The value git uses for `key` in the user's global configuration (includes read through); undefined when unset. */
  readUserGitConfig(key: string): string | undefined;
  /** A file's text, undefined when missing or unreadable (the ports cap its size). */
  readFile(absPath: string): string | undefined;
  /** The user's real home, for `~/` and the default locations. */
  home: string;
  /** XDG_CONFIG_HOME, when set. */
  xdgConfigHome?: string;
}

interface GitSetupFile {
  /** Relative to the private home. */
  relPath: string;
  content: string;
}

export interface GitSetup {
  files: GitSetupFile[];
  notes: string[];
}

/** Keys that change git's behaviour and run nothing; carried as the user set them. */
const BEHAVIOUR_KEYS = [
  'user.useConfigOnly',
  'init.defaultBranch',
  'core.autocrlf',
  'core.eol',
  'core.safecrlf',
  'core.quotePath',
  'core.whitespace',
  'core.precomposeUnicode',
  'core.abbrev',
  'pull.rebase',
  'pull.ff',
  'push.default',
  'push.autoSetupRemote',
  'push.followTags',
  'merge.conflictStyle',
  'merge.ff',
  'diff.algorithm',
  'diff.renames',
  'diff.colorMoved',
  'diff.mnemonicPrefix',
  'diff.noprefix',
  'rebase.autoStash',
  'rebase.autoSquash',
  'rebase.updateRefs',
  'rerere.enabled',
  'fetch.prune',
  'branch.autoSetupMerge',
  'branch.autoSetupRebase',
  'branch.sort',
  'tag.sort',
  'status.showUntrackedFiles',
  'status.short',
  'status.branch',
  'commit.verbose',
  'commit.cleanup',
  'log.date',
  'color.ui',
  'column.ui',
  'advice.detachedHead',
  'help.autocorrect',
] as const;

const SIGNING_KEYS = ['commit.gpgSign', 'tag.gpgSign', 'gpg.format', 'user.signingKey'] as const;
const SIGNING_PROGRAMS = ['gpg.program', 'gpg.openpgp.program', 'gpg.ssh.program', 'gpg.x509.program'] as const;

/** Set keys worth naming when dropped (they run programs or hold credentials). */
const DROPPED_KEYS = [
  'credential.helper',
  'core.sshCommand',
  'core.pager',
  'core.editor',
  'core.askPass',
  'core.fsmonitor',
  'core.hooksPath',
  'sequence.editor',
  'diff.external',
  'http.extraHeader',
  'http.sslKey',
  'http.cookieFile',
];

/** Ignore and attribute files larger than this are not copied (a note says so). */
const MAX_CARRIED_FILE = 1024 * 1024;

const truthy = (v: string | undefined): boolean => v !== undefined && /^(true|yes|on|1)$/i.test(v.trim());

/** A value as git config syntax: quoted, `\` and `"` escaped; undefined when it cannot be written safely. */
function quoted(value: string): string | undefined {
  if (/[\0\r\n]/.test(value)) return undefined;
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** `~/x`, absolute, or relative to the home (as git takes a relative excludesFile from the user's config). */
function expandPath(value: string, home: string): string {
  if (value === '~') return home;
  if (value.startsWith('~/')) return nodePath.posix.join(home, value.slice(2));
  return nodePath.posix.isAbsolute(value) ? value : nodePath.posix.join(home, value);
}

interface Section {
  name: string;
  lines: string[];
}

export function gitSetupFor(ports: GitSetupPorts): GitSetup {
  const notes: string[] = [];
  const files: GitSetupFile[] = [];
  const sections: Section[] = [];
  const set = (key: string, value: string): void => {
    const dot = key.lastIndexOf('.');
    const section = key.slice(0, dot);
    const q = quoted(value);
    if (q === undefined) {
      notes.push(`git: ${key} was not carried into the sandbox (its value spans lines)`);
      return;
    }
    // `gpg.ssh.program` is section gpg, subsection ssh: written `[gpg "ssh"]`.
    const first = section.indexOf('.');
    const name = first < 0 ? section : `${section.slice(0, first)} ${quoted(section.slice(first + 1)) ?? '""'}`;
    let s = sections.find((x) => x.name === name);
    if (!s) sections.push((s = { name, lines: [] }));
    s.lines.push(`\t${key.slice(dot + 1)} = ${q}`);
  };
  const get = (key: string): string | undefined => ports.readUserGitConfig(key);

  for (const key of ['user.name', 'user.email']) {
    const v = get(key);
    if (v !== undefined) set(key, v);
  }

  // The user's ignore rules and attributes, as content: the files themselves live in the hidden home.
  const xdg = ports.xdgConfigHome && nodePath.posix.isAbsolute(ports.xdgConfigHome) ? ports.xdgConfigHome : nodePath.posix.join(ports.home, '.config');
  for (const [key, name, what] of [
    ['core.excludesFile', 'ignore', 'global excludes'],
    ['core.attributesFile', 'attributes', 'global attributes'],
  ] as const) {
    const configured = get(key);
    const source = configured !== undefined ? expandPath(configured, ports.home) : nodePath.posix.join(xdg, 'git', name);
    const content = ports.readFile(source);
    if (content === undefined) {
      if (configured !== undefined) notes.push(`git: your ${what} (${key} = ${configured}) could not be read; the sandbox has none`);
      continue;
    }
    if (Buffer.byteLength(content) > MAX_CARRIED_FILE) {
      notes.push(`git: your ${what} (${source}) is over ${MAX_CARRIED_FILE / 1024} KB and was not carried into the sandbox`);
      continue;
    }
    files.push({ relPath: `.config/git/${name}`, content });
    set(key, `~/.config/git/${name}`);
  }

  // Signing: carried so that git signs or fails loudly, never quietly skipped.
  const signs = truthy(get('commit.gpgSign')) || truthy(get('tag.gpgSign'));
  for (const key of SIGNING_KEYS) {
    const v = get(key);
    if (v !== undefined && (signs || key !== 'user.signingKey')) set(key, v);
  }
  for (const key of SIGNING_PROGRAMS) {
    const program = get(key);
    if (program === undefined) continue;
    if (nodePath.posix.isAbsolute(program) && SYSTEM_BIN_DIRS.includes(nodePath.posix.dirname(nodePath.posix.normalize(program)))) set(key, program);
    else notes.push(`git: ${key} (${program}) is not in a system folder and was not carried; signing uses the default program`);
  }
  if (signs) {
    const format = get('gpg.format') ?? 'openpgp';
    const key = get('user.signingKey');
    notes.push(
      `git: commit signing is on (${format}${key !== undefined ? `, key ${key}` : ''}); the sandbox gives commands neither your private key nor your agent ` +
        '(either would let every command sign as you), so a commit or tag that must be signed fails rather than being made unsigned — ' +
        'turn signing off for this repository while the mission runs (`git config commit.gpgsign false`) and sign its commits afterwards, or commit yourself',
    );
  }

  for (const key of BEHAVIOUR_KEYS) {
    const v = get(key);
    if (v !== undefined) set(key, v);
  }
  const dropped = DROPPED_KEYS.filter((k) => get(k) !== undefined);
  if (dropped.length > 0) notes.push(`git: not carried into the sandbox (they run programs or hold credentials): ${dropped.join(', ')}`);

  if (sections.length > 0) {
    const text = sections.map((s) => `[${s.name}]\n${s.lines.join('\n')}\n`).join('');
    files.unshift({ relPath: '.gitconfig', content: text });
  }
  return { files, notes };
}

/** `git config --list -z` output as a map; a later value wins, as git reads a single-valued key. */
export function parseConfigList(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of text.split('\0')) {
    if (entry === '') continue;
    const nl = entry.indexOf('\n');
    // A key with no `=` in the file is a boolean true.
    const [key, value] = nl < 0 ? [entry, 'true'] : [entry.slice(0, nl), entry.slice(nl + 1)];
    out.set(configKeyId(key), value);
  }
  return out;
}

/** Section and variable names are case-insensitive, a subsection is not: `branch.Main.remote` → `branch.Main.remote` lower at both ends. */
function configKeyId(key: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first < 0) return key.toLowerCase();
  return `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}${key.slice(last).toLowerCase()}`;
}

export interface NodeGitSetupOptions {
  home: string;
  xdgConfigHome?: string;
  /** The workspace: `includeIf "gitdir:…"` sections of the user's config then apply as they would there. */
  workspace?: string;
}

/**
 * Ports over the real configuration: one `git config --global --includes --list -z` (run with a fixed PATH,
 * in the workspace so conditional includes match) read once, and files read up to MAX_CARRIED_FILE + 1 bytes.
 */
export function nodeGitSetupPorts(o: NodeGitSetupOptions): GitSetupPorts {
  const git = hostTool('git');
  let config = new Map<string, string>();
  if (git !== undefined) {
    const env: Record<string, string> = {
      HOME: o.home,
      PATH: '/usr/bin:/bin',
      GIT_CONFIG_NOSYSTEM: '1',
      ...(o.xdgConfigHome ? { XDG_CONFIG_HOME: o.xdgConfigHome } : {}),
    };
    const r = spawnSync(git, ['config', '--global', '--includes', '--list', '-z'], { cwd: o.workspace ?? o.home, env, encoding: 'utf8', timeout: 5000 });
    if (r.status === 0) config = parseConfigList(r.stdout);
  }
  return {
    home: o.home,
    ...(o.xdgConfigHome ? { xdgConfigHome: o.xdgConfigHome } : {}),
    readUserGitConfig: (key) => config.get(configKeyId(key)),
    readFile: (abs) => {
      try {
        const fd = fs.openSync(abs, 'r');
        try {
          const buf = Buffer.alloc(MAX_CARRIED_FILE + 1);
          return buf.toString('utf8', 0, fs.readSync(fd, buf, 0, buf.length, 0));
        } finally {
          fs.closeSync(fd);
        }
      } catch (error) {
        // Missing, unreadable or a folder: nothing to carry (a configured one gets a note saying so).
        if (!isMissing(error) && !isDenied(error) && !hasCode(error, 'EISDIR')) throw error;
        return undefined;
      }
    },
  };
}
