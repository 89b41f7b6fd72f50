/**
 * The private home's git files (src/node/sandbox/gitSetup.ts): the user's git behaviour carried into the
 * sandbox without their secrets. The pure part with fake ports; then the real ports, and what real git
 * does with the files they produce (identity, excludes honoured by `git add -A`, a signed commit that
 * fails loudly instead of coming out unsigned).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { hostTool } from '../../../src/node/sandbox/hostTools';
import { signingHint } from '../../../src/core/tools/signingHint';
import { gitSetupFor, nodeGitSetupPorts, parseConfigList, type GitSetupPorts } from '../../../src/node/sandbox/gitSetup';

const HOME = '/home/ada';

function ports(config: Record<string, string>, files: Record<string, string> = {}, xdgConfigHome?: string): GitSetupPorts {
  const lower = new Map(Object.entries(config).map(([k, v]) => [k.toLowerCase(), v]));
  return { home: HOME, ...(xdgConfigHome ? { xdgConfigHome } : {}), readUserGitConfig: (key) => lower.get(key.toLowerCase()), readFile: (abs) => files[abs] };
}

const fileOf = (setup: ReturnType<typeof gitSetupFor>, rel: string): string | undefined => setup.files.find((f) => f.relPath === rel)?.content;

describe("git setup of the sandbox's private home", () => {
  it('carries the identity, quoted so that a name with quotes or backslashes survives', () => {
    const setup = gitSetupFor(ports({ 'user.name': 'Ada "the Countess" L\\ovelace', 'user.email': 'ada@example.invalid' }));
    assert.equal(fileOf(setup, '.gitconfig'), '[user]\n\tname = "Ada \\"the Countess\\" L\\\\ovelace"\n\temail = "ada@example.invalid"\n');
  });

  it('writes nothing when the user has no git configuration', () => {
    assert.deepEqual(gitSetupFor(ports({})), { files: [], notes: [] });
  });

  it('copies the global excludes and attributes as content, from core.excludesFile or the default place, and names them', () => {
    const configured = gitSetupFor(ports({ 'core.excludesFile': '~/.gitignore_global' }, { [`${HOME}/.gitignore_global`]: '.DS_Store\n.idea/\n' }));
    assert.equal(fileOf(configured, '.config/git/ignore'), '.DS_Store\n.idea/\n');
    assert.match(fileOf(configured, '.gitconfig') ?? '', /\[core\]\n\texcludesFile = "~\/.config\/git\/ignore"/);
    const defaults = gitSetupFor(ports({}, { [`${HOME}/.config/git/ignore`]: '*.swp\n', [`${HOME}/.config/git/attributes`]: '*.png binary\n' }));
    assert.equal(fileOf(defaults, '.config/git/ignore'), '*.swp\n');
    assert.equal(fileOf(defaults, '.config/git/attributes'), '*.png binary\n');
    assert.match(fileOf(defaults, '.gitconfig') ?? '', /attributesFile = "~\/.config\/git\/attributes"/);
    const xdg = gitSetupFor(ports({}, { '/cfg/git/ignore': 'node_modules/\n' }, '/cfg'));
    assert.equal(fileOf(xdg, '.config/git/ignore'), 'node_modules/\n');
  });

  it('says so when the configured excludes file cannot be read or is too large to carry', () => {
    assert.match(gitSetupFor(ports({ 'core.excludesFile': '/nowhere/ignore' })).notes.join('\n'), /global excludes .*could not be read/);
    const huge = gitSetupFor(ports({}, { [`${HOME}/.config/git/ignore`]: 'x'.repeat(1024 * 1024 + 1) }));
    assert.equal(fileOf(huge, '.config/git/ignore'), undefined);
    assert.match(huge.notes.join('\n'), /was not carried/);
  });

  it('carries commit signing so that git signs or fails loudly, and says which', () => {
    const setup = gitSetupFor(ports({ 'commit.gpgsign': 'true', 'gpg.format': 'ssh', 'user.signingkey': '~/.ssh/id_signing.pub' }));
    const config = fileOf(setup, '.gitconfig') ?? '';
    assert.match(config, /\[commit\]\n\tgpgSign = "true"/);
    assert.match(config, /\[gpg\]\n\tformat = "ssh"/);
    assert.match(config, /signingKey = "~\/.ssh\/id_signing.pub"/);
    assert.match(setup.notes.join('\n'), /commit signing is on \(ssh, key ~\/\.ssh\/id_signing\.pub\).*fails.*git config commit\.gpgsign false/);
  });

  it('carries a signing program only from a system folder', () => {
    const system = gitSetupFor(ports({ 'tag.gpgsign': 'true', 'gpg.program': '/usr/bin/gpg2', 'gpg.ssh.program': '/home/ada/bin/ssh-keygen' }));
    const config = fileOf(system, '.gitconfig') ?? '';
    assert.match(config, /program = "\/usr\/bin\/gpg2"/);
    assert.doesNotMatch(config, /ssh-keygen/);
    assert.match(system.notes.join('\n'), /gpg\.ssh\.program .* not carried/);
  });

  it('carries the behaviour allowlist and never what runs programs or holds credentials, naming the dropped keys without their values', () => {
    const setup = gitSetupFor(
      ports({
        'init.defaultBranch': 'trunk',
        'core.autocrlf': 'input',
        'pull.rebase': 'true',
        'merge.conflictStyle': 'zdiff3',
        'diff.algorithm': 'histogram',
        'credential.helper': 'store --file ~/.git-credentials',
        'core.sshCommand': 'ssh -i ~/.ssh/deploy',
        'core.pager': 'delta',
        'core.hooksPath': '~/hooks',
        'core.fsmonitor': 'true',
        'http.extraHeader': 'Authorization: Bearer ghp_secret',
        'alias.co': '!rm -rf /',
      }),
    );
    const config = fileOf(setup, '.gitconfig') ?? '';
    for (const wanted of ['defaultBranch = "trunk"', 'autocrlf = "input"', 'rebase = "true"', 'conflictStyle = "zdiff3"', 'algorithm = "histogram"'])
      assert.ok(config.includes(wanted), wanted);
    for (const never of ['credential', 'sshCommand', 'pager', 'hooksPath', 'fsmonitor', 'extraHeader', 'alias', 'ghp_secret', 'deploy'])
      assert.ok(!config.includes(never), never);
    const notes = setup.notes.join('\n');
    assert.match(notes, /credential\.helper, core\.sshCommand, core\.pager, core\.fsmonitor, core\.hooksPath/);
    assert.doesNotMatch(notes, /ghp_secret|git-credentials|delta/);
  });

  it('drops a value that spans lines rather than let it write a section of its own', () => {
    const setup = gitSetupFor(ports({ 'user.name': 'Ada\n[core]\n\thooksPath = /tmp/x' }));
    assert.equal(fileOf(setup, '.gitconfig'), undefined);
    assert.match(setup.notes.join('\n'), /user\.name was not carried/);
  });

  it('parses `git config --list -z`, a bare key meaning true and the last value winning', () => {
    const map = parseConfigList('user.name\nAda\0core.bare\0user.name\nAda L\0branch.Main.remote\norigin\0');
    assert.equal(map.get('user.name'), 'Ada L');
    assert.equal(map.get('core.bare'), 'true');
    assert.equal(map.get('branch.Main.remote'), 'origin');
  });

  describe('with the real git', function () {
    this.timeout(20_000);
    let base: string;
    const git = (cwd: string, home: string, ...args: string[]): ReturnType<typeof spawnSync> =>
      spawnSync(hostTool('git') ?? '/usr/bin/git', args, { cwd, encoding: 'utf8', env: { HOME: home, PATH: '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1' } });
    const put = (abs: string, text: string): void => {
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, text);
    };
    /** The private home as the sandbox would get it, from the user's real home. */
    const privateHomeFrom = (home: string, workspace: string): { dir: string; notes: string[] } => {
      const setup = gitSetupFor(nodeGitSetupPorts({ home, workspace }));
      const dir = fs.mkdtempSync(path.join(base, 'private-home-'));
      for (const f of setup.files) put(path.join(dir, f.relPath), f.content);
      return { dir, notes: setup.notes };
    };

    beforeEach(() => {
      base = fs.mkdtempSync(path.join(os.tmpdir(), 'pe-gitsetup-'));
    });
    afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

    it("the user's identity, includes read through and the global excludes hold in the private home: git add -A leaves .DS_Store and .idea/ out", () => {
      const home = path.join(base, 'home');
      const ws = path.join(home, 'work', 'app');
      put(
        path.join(home, '.gitconfig'),
        '[user]\n\tname = Real User\n[includeIf "gitdir:~/work/"]\n\tpath = ~/.gitconfig-work\n' +
          '[core]\n\texcludesFile = ~/.gitignore_global\n[credential]\n\thelper = store\n',
      );
      put(path.join(home, '.gitconfig-work'), '[user]\n\temail = work@example.invalid\n');
      put(path.join(home, '.gitignore_global'), '.DS_Store\n.idea/\n');
      put(path.join(ws, 'a.txt'), 'a\n');
      put(path.join(ws, '.DS_Store'), 'x');
      put(path.join(ws, '.idea/workspace.xml'), '<x/>\n');
      assert.equal(git(ws, home, 'init', '-q').status, 0);
      const priv = privateHomeFrom(home, ws);
      assert.equal(git(ws, priv.dir, 'add', '-A').status, 0);
      assert.deepEqual(
        String(git(ws, priv.dir, 'ls-files').stdout)
          .trim()
          .split('\n'),
        ['a.txt'],
      );
      assert.equal(git(ws, priv.dir, 'commit', '-q', '-m', 'x').status, 0);
      assert.equal(String(git(ws, priv.dir, 'log', '--format=%an <%ae>').stdout).trim(), 'Real User <work@example.invalid>');
      assert.doesNotMatch(fs.readFileSync(path.join(priv.dir, '.gitconfig'), 'utf8'), /credential|store/);
      assert.match(priv.notes.join('\n'), /credential\.helper/);
    });

    it('with signing on and the key out of reach, git commit fails loudly and commits nothing — never unsigned', () => {
      const home = path.join(base, 'home');
      const ws = path.join(base, 'ws');
      put(
        path.join(home, '.gitconfig'),
        '[user]\n\tname = U\n\temail = u@example.invalid\n\tsigningkey = ~/.ssh/id_signing\n[gpg]\n\tformat = ssh\n[commit]\n\tgpgsign = true\n',
      );
      put(path.join(ws, 'a.txt'), 'a\n');
      assert.equal(git(ws, home, 'init', '-q').status, 0);
      const priv = privateHomeFrom(home, ws);
      assert.equal(git(ws, priv.dir, 'add', 'a.txt').status, 0);
      const commit = git(ws, priv.dir, 'commit', '-q', '-m', 'x');
      assert.notEqual(commit.status, 0, 'the commit failed');
      assert.match(String(commit.stderr), /sign/i, 'and git said it was the signing');
      // The product adds what git does not say: the cause and the way out (src/core/tools/signingHint.ts).
      assert.match(signingHint(commit.status, String(commit.stderr)) ?? '', /neither your private key nor your ssh-agent.*git config commit\.gpgsign false/);
      assert.notEqual(git(ws, priv.dir, 'rev-parse', '-q', '--verify', 'HEAD').status, 0, 'no commit was made');
      assert.match(priv.notes.join('\n'), /signing is on/);
    });

    it('the same with an OpenPGP key: gpg finds no key in the private home, the commit fails, and the failure names what to do (gnupg: the test launcher installs it)', () => {
      const home = path.join(base, 'home');
      const ws = path.join(base, 'ws');
      put(path.join(home, '.gitconfig'), '[user]\n\tname = U\n\temail = u@example.invalid\n\tsigningkey = u@example.invalid\n[commit]\n\tgpgsign = true\n');
      put(path.join(ws, 'a.txt'), 'a\n');
      assert.equal(git(ws, home, 'init', '-q').status, 0);
      const priv = privateHomeFrom(home, ws);
      assert.equal(git(ws, priv.dir, 'add', 'a.txt').status, 0);
      const commit = git(ws, priv.dir, 'commit', '-q', '-m', 'x');
      assert.notEqual(commit.status, 0, 'the commit failed');
      assert.notEqual(git(ws, priv.dir, 'rev-parse', '-q', '--verify', 'HEAD').status, 0, 'no commit was made');
      assert.match(signingHint(commit.status, String(commit.stderr)) ?? '', /gpg-agent.*git config commit\.gpgsign false/, String(commit.stderr));
    });
  });
});
