/**
 * The OS sandbox for real (Linux, bubblewrap): commands run through the Node terminal with a spec built
 * from a step's authority, and every assertion looks at what the process did — files on disk, connections
 * that arrived, processes still alive — not at what a function returned. On Linux without bubblewrap these
 * tests fail (they never pass in silence); elsewhere they are pending.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { authority, type AuthorityInput } from '../../support/fixtures';
import type { SandboxSpec } from '../../../src/core/contracts/sandbox';
import { scrubEnv } from '../../../src/core/policy/env';
import { hostFacts } from '../../../src/node/sandbox/hostFacts';
import { policyFor } from '../../../src/core/policy/policy';
import { commandWriteScope, sandboxSpec, scanPrune } from '../../../src/core/policy/sandboxSpec';
import { NodeTerminal } from '../../../src/node/nodeTerminal';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';
import { prepareConfined } from '../../../src/node/sandbox/confinedRun';
import { detectSandbox } from '../../../src/node/sandbox/detect';
import { nodePolicyFs } from '../../../src/node/nodePolicyFs';

const node = '/usr/bin/node';

describe('the OS sandbox on Linux (bubblewrap, real commands)', function () {
  this.timeout(30_000);
  let base: string;
  let root: string;
  let neighbour: string;
  const terminal = new NodeTerminal();

  before(function () {
    if (process.platform !== 'linux') this.skip();
    const support = detectSandbox();
    assert.ok(
      support.available,
      `bubblewrap must be installed and working for these tests: ${support.available ? '' : `${support.reason} — ${support.remedy}`}`,
    );
  });

  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-sbx-')));
    root = path.join(base, 'ws');
    neighbour = path.join(base, 'neighbour');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.mkdirSync(neighbour);
    fs.writeFileSync(path.join(root, 'README.md'), 'readme\n');
    fs.writeFileSync(path.join(root, 'src', 'a.js'), 'a\n');
    fs.writeFileSync(path.join(root, '.env'), 'TOKEN=canary-env\n');
    fs.writeFileSync(path.join(neighbour, 'secret.txt'), 'canary-neighbour\n');
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  async function specFor(granted: AuthorityInput): Promise<SandboxSpec> {
    const policy = policyFor(root, { id: 's', authority: authority(granted) }, { fs: nodePolicyFs, ignoreText: null });
    const ws = new NodeWorkspace(root);
    const { entries } = await ws.scan({ prune: scanPrune(policy, commandWriteScope(policy)), limit: 10_000 });
    const env = scrubEnv(process.env);
    const built = sandboxSpec({ policy, entries, env, host: hostFacts(env) });
    assert.ok(built.ok);
    return built.value;
  }

  async function run(spec: SandboxSpec, script: string, timeoutMs = 15_000) {
    return terminal.run(
      { command: 'node -e …', argv: [node, '-e', script], cwd: root, timeoutMs, maxOutputBytes: 64_000, env: spec.env, sandbox: spec },
      new AbortController().signal,
    );
  }

  it('writes inside the write scope and nowhere else: not the rest of the workspace, not a neighbour, not the host /tmp', async () => {
    const spec = await specFor({ edit: ['src/**'] });
    const marker = `pe-sbx-tmp-${process.pid}-${Date.now()}`;
    const r = await run(
      spec,
      `
      const fs = require('fs');
      const tryWrite = (p) => { try { fs.writeFileSync(p, 'x'); return 'wrote'; } catch (e) { return e.code; } };
      console.log(JSON.stringify({
        inside: tryWrite('src/new.js'),
        readme: tryWrite('README.md'),
        neighbour: tryWrite(${JSON.stringify(path.join(neighbour, 'planted.txt'))}),
        tmp: tryWrite('/tmp/${marker}'),
      }));`,
    );
    const seen = JSON.parse(r.output.trim().split('\n').pop() ?? '{}') as Record<string, string>;
    assert.equal(seen.inside, 'wrote', r.output);
    assert.notEqual(seen.readme, 'wrote');
    assert.equal(fs.readFileSync(path.join(root, 'src', 'new.js'), 'utf8'), 'x');
    assert.equal(fs.readFileSync(path.join(root, 'README.md'), 'utf8'), 'readme\n');
    assert.ok(!fs.existsSync(path.join(neighbour, 'planted.txt')), 'nothing planted next door');
    assert.ok(!fs.existsSync(path.join(os.tmpdir(), marker)), 'the sandbox /tmp is private');
  });

  it("cannot read .env, the neighbours, the home or this process's environment through /proc", async () => {
    const spec = await specFor({ edit: ['src/**'] });
    const r = await run(
      spec,
      `
      const fs = require('fs');
      const read = (p) => { try { return String(fs.readFileSync(p)); } catch (e) { return e.code; } };
      const list = (p) => { try { return fs.readdirSync(p).join(','); } catch (e) { return e.code; } };
      console.log(JSON.stringify({
        env: read('.env'), neighbour: read(${JSON.stringify(path.join(neighbour, 'secret.txt'))}),
        home: list(${JSON.stringify(os.homedir())}), parent: read('/proc/${process.pid}/environ'), pids: list('/proc').split(',').filter((x) => /^\\d+$/.test(x)).length,
      }));`,
    );
    const out = r.output;
    assert.doesNotMatch(out, /canary-env|canary-neighbour/);
    const seen = JSON.parse(out.trim().split('\n').pop() ?? '{}') as Record<string, string | number>;
    assert.notEqual(seen.parent, undefined);
    assert.doesNotMatch(String(seen.parent), /PATH=/, "the parent's /proc is not visible");
    assert.ok(Number(seen.pids) < 10, `own pid namespace (saw ${seen.pids} pids)`);
    // The home is a private, empty one, except the toolchains on PATH shown again (and our git identity).
    const home = fs.realpathSync(os.homedir());
    const shown = new Set([
      '.gitconfig',
      ...spec.visibleOutside.filter((v) => v.startsWith(`${home}/`)).map((v) => v.slice(home.length + 1).split('/')[0] ?? ''),
    ]);
    const listed = String(seen.home)
      .split(',')
      .filter((e) => e !== '');
    assert.deepEqual(
      listed.filter((e) => !shown.has(e)),
      [],
      `the home shows only toolchains: ${listed.join(', ')}`,
    );
  });

  describe('the network', () => {
    let arrived: Record<string, number>;
    let servers: net.Server[];
    let targets: Record<string, [string | number, string?]>;
    const lan = Object.values(os.networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    const listen = async (name: string, ...where: [number, string] | [string]): Promise<net.AddressInfo | string> => {
      const server = net.createServer((sock) => {
        arrived[name] = (arrived[name] ?? 0) + 1;
        sock.end();
      });
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(...(where as [number, string]), resolve));
      return server.address() as net.AddressInfo | string;
    };
    beforeEach(async () => {
      arrived = {};
      servers = [];
      const loopback = (await listen('loopback', 0, '127.0.0.1')) as net.AddressInfo;
      const abstract = `\0pe-sbx-${process.pid}-${Date.now()}`;
      targets = { loopback: [loopback.port, '127.0.0.1'], abstract: [abstract] };
      await listen('abstract', abstract);
      if (lan) targets.lan = [((await listen('lan', 0, lan)) as net.AddressInfo).port, lan];
    });
    afterEach(() => servers.forEach((server) => server.close()));

    /** Inside: a loopback server of its own, then each host target; one line per target. */
    const probe = (): string => `
      const net = require('net');
      const targets = ${JSON.stringify(targets)};
      const own = net.createServer((s) => s.end('pong')).listen(0, '127.0.0.1', async () => {
        const c = net.connect(own.address().port, '127.0.0.1');
        await new Promise((r) => c.on('data', r));
        console.log('loopback-inside:ok');
        for (const [name, [where, host]] of Object.entries(targets)) {
          await new Promise((r) => {
            const h = host ? net.connect(where, host) : net.connect(where);
            const t = setTimeout(() => { console.log(name + ':timeout'); h.destroy(); r(); }, 3000);
            h.on('connect', () => { console.log(name + ':connected'); clearTimeout(t); h.destroy(); r(); });
            h.on('error', (e) => { console.log(name + ':' + e.code); clearTimeout(t); r(); });
          });
        }
        console.log('resolver:' + require('fs').readFileSync('/etc/resolv.conf', 'utf8').split('\\n').filter((l) => l.startsWith('nameserver')).join(','));
        process.exit(0);
      });`;

    it('is cut when not granted: nothing of the host is reached, loopback inside the sandbox works', async () => {
      const denied = await run(await specFor({}), probe());
      assert.match(denied.output, /loopback-inside:ok/, denied.output);
      for (const name of Object.keys(targets)) assert.doesNotMatch(denied.output, new RegExp(`${name}:connected`), denied.output);
      assert.deepEqual(arrived, {}, 'no connection reached the host');
    });

    it("is the command's own when granted: the LAN is reached, this machine's loopback services and abstract sockets are not", async () => {
      const support = detectSandbox();
      assert.ok(support.available && support.ownNetwork === true, `slirp4netns must be installed for this test: ${JSON.stringify(support)}`);
      assert.ok(lan, 'this machine has a non-loopback IPv4 address to stand for the network');
      const granted = await run(await specFor({ network: true }), probe());
      assert.match(granted.output, /loopback-inside:ok/, granted.output);
      assert.match(granted.output, /lan:connected/, granted.output);
      assert.doesNotMatch(granted.output, /loopback:connected|abstract:connected/, granted.output);
      assert.match(granted.output, /resolver:nameserver 10\.0\.2\.3/, granted.output);
      assert.deepEqual(arrived, { lan: 1 }, 'only the LAN listener saw a connection');
    });

    it("is the host's when slirp4netns is missing: then this machine's loopback is reached too (the card says so)", async () => {
      const before = process.env.PLAN_EXECUTE_SLIRP4NETNS;
      process.env.PLAN_EXECUTE_SLIRP4NETNS = path.join(base, 'no-slirp4netns');
      try {
        const fallback = detectSandbox();
        assert.ok(fallback.available && fallback.ownNetwork === false, JSON.stringify(fallback));
        const granted = await run(await specFor({ network: true }), probe());
        assert.match(granted.output, /loopback:connected/, granted.output);
        assert.equal(arrived.loopback, 1);
      } finally {
        if (before === undefined) delete process.env.PLAN_EXECUTE_SLIRP4NETNS;
        else process.env.PLAN_EXECUTE_SLIRP4NETNS = before;
      }
    });
  });

  it('leaves nothing running: a daemon in its own session dies with the command', async () => {
    const marker = `pe-daemon-${process.pid}-${Date.now()}`;
    const spec = await specFor({});
    const r = await run(
      spec,
      `
      const { spawn } = require('child_process');
      const child = spawn('/usr/bin/node', ['-e', 'setInterval(() => {}, 1000)', '${marker}'], { detached: true, stdio: 'ignore' });
      child.unref();
      console.log('started ' + child.pid);`,
    );
    assert.match(r.output, /started \d+/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const alive = fs
      .readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(marker);
        } catch {
          return false;
        }
      });
    assert.deepEqual(alive, [], 'no process with the marker survives');
  });

  it('does not follow a symlinked folder out of the workspace, and removes a placeholder the command left untouched', async () => {
    fs.symlinkSync('../neighbour', path.join(root, 'out'));
    const spec = await specFor({ edit: ['out/**', 'docs/new.md'] });
    const r = await run(
      spec,
      `
      const fs = require('fs');
      try { fs.writeFileSync('out/planted.txt', 'x'); console.log('wrote'); } catch (e) { console.log(e.code); }`,
    );
    assert.ok(!fs.existsSync(path.join(neighbour, 'planted.txt')), r.output);
    assert.match(r.output, /out is a symbolic link: it stays read-only/);
    assert.ok(!fs.existsSync(path.join(root, 'docs', 'new.md')), 'the empty placeholder is gone');
    assert.ok(!fs.existsSync(path.join(root, 'docs')), 'and so is the folder made for it');
  });

  it('pins the folders that hold what it hides or keeps read-only: they cannot be renamed away from their mounts (red-team F29)', async () => {
    fs.mkdirSync(path.join(root, 'src', 'conf', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'conf', 'deep', '.env'), 'TOKEN=canary-deep\n');
    fs.mkdirSync(path.join(root, 'src', 'ui', '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'ui', '.vscode', 'settings.json'), '{}\n');
    const spec = await specFor({ edit: ['src/**'] });
    const r = await run(
      spec,
      `
      const fs = require('fs');
      for (const [from, to] of [['src/conf', 'src/moved'], ['src/conf/deep', 'src/deep'], ['src/ui', 'src/ui2']]) {
        try { fs.renameSync(from, to); console.log(from + ':moved'); } catch (e) { console.log(from + ':' + e.code); }
      }
      fs.writeFileSync('src/conf/deep/app.json', '{}'); fs.renameSync('src/conf/deep/app.json', 'src/conf/deep/app2.json'); console.log('wrote');`,
    );
    assert.match(r.output, /src\/conf:EBUSY/, r.output);
    assert.match(r.output, /src\/conf\/deep:(EBUSY|EXDEV)/, r.output);
    assert.match(r.output, /src\/ui:EBUSY/, r.output);
    assert.match(r.output, /wrote/, 'the pinned folders are still writable');
    assert.equal(fs.readFileSync(path.join(root, 'src', 'conf', 'deep', '.env'), 'utf8'), 'TOKEN=canary-deep\n');
    assert.ok(fs.existsSync(path.join(root, 'src', 'conf', 'deep', 'app2.json')));
  });

  it('lets a command create a missing file its scope names', async () => {
    const spec = await specFor({ edit: ['docs/new.md'] });
    await run(spec, `require('fs').writeFileSync('docs/new.md', 'made inside');`);
    assert.equal(fs.readFileSync(path.join(root, 'docs', 'new.md'), 'utf8'), 'made inside');
  });

  it('works for a workspace outside /tmp and the home, with a toolchain in a hidden neighbour folder on PATH', async () => {
    // e.g. /srv/app or /work/app: the workspace's parent is hidden, and mounts land inside that hidden folder.
    const results = path.join(__dirname, '..', '..', '..', 'test-results');
    fs.mkdirSync(results, { recursive: true });
    const outer = fs.realpathSync(fs.mkdtempSync(path.join(results, 'pe-sbx-')));
    try {
      const ws = path.join(outer, 'app');
      const bin = path.join(outer, 'tools', 'bin');
      fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
      fs.mkdirSync(bin, { recursive: true });
      fs.writeFileSync(path.join(bin, 'mytool'), '#!/bin/sh\necho tool-ran\n', { mode: 0o755 });
      fs.writeFileSync(path.join(outer, 'notes.txt'), 'canary-neighbour\n');
      const policy = policyFor(ws, { id: 's', authority: authority({ edit: ['src/**'] }) }, { fs: nodePolicyFs, ignoreText: null });
      const env = { ...scrubEnv(process.env), PATH: `${bin}:/usr/bin:/bin` };
      const { entries } = await new NodeWorkspace(ws).scan({ prune: scanPrune(policy, [{ path: 'src', kind: 'tree' }]), limit: 1000 });
      const built = sandboxSpec({ policy, entries, env, host: hostFacts(env) });
      assert.ok(built.ok);
      const r = await terminal.run(
        {
          command: 'mytool',
          argv: ['sh', '-c', `mytool; cat ${path.join(outer, 'notes.txt')}; echo x > src/ok.txt`],
          cwd: ws,
          timeoutMs: 15_000,
          maxOutputBytes: 10_000,
          env: built.value.env,
          sandbox: built.value,
        },
        new AbortController().signal,
      );
      assert.match(r.output, /tool-ran/, r.output);
      assert.equal(fs.readFileSync(path.join(ws, 'src', 'ok.txt'), 'utf8'), 'x\n');
      assert.doesNotMatch(r.output, /canary-neighbour/, 'the toolchain is shown again, not the rest of the neighbouring folders');
    } finally {
      fs.rmSync(outer, { recursive: true, force: true });
    }
  });

  it('gives every command an empty private /tmp and home: nothing one command leaves there reaches the next', async () => {
    const spec = await specFor({ edit: ['src/**'] });
    const plant = await run(
      spec,
      `
      const fs = require('fs'), os = require('os');
      fs.writeFileSync('/tmp/payload.sh', 'x'); fs.mkdirSync(os.homedir() + '/.cache/x', { recursive: true });
      console.log('planted');`,
    );
    assert.match(plant.output, /planted/, plant.output);
    const look = await run(
      spec,
      `
      const fs = require('fs'), os = require('os');
      console.log('tmp=' + fs.readdirSync('/tmp').join(',') + ';home=' + fs.readdirSync(os.homedir()).join(','));`,
    );
    // What is listed there besides is mount points (this workspace's path, toolchains shown again).
    assert.match(look.output, /^tmp=.*;home=/m, look.output);
    assert.doesNotMatch(look.output, /payload\.sh|\.cache/, look.output);
  });

  it("carries the user's git identity into the private home, and reads it again when their git config changes", async () => {
    const home = path.join(base, 'home');
    fs.mkdirSync(home);
    const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
    process.env.HOME = home;
    delete process.env.XDG_CONFIG_HOME;
    try {
      const spec = await specFor({ edit: ['src/**'] });
      const whoami = `console.log('name=' + require('child_process').execFileSync('git', ['config', 'user.name'], { encoding: 'utf8' }).trim())`;
      fs.writeFileSync(path.join(home, '.gitconfig'), '[user]\n\tname = First Name\n\temail = first@example.com\n');
      const first = await run(spec, whoami);
      assert.match(first.output, /^name=First Name$/m, first.output);
      // The same process, the same workspace: an edit to ~/.gitconfig shows at the next command, no reload needed.
      fs.writeFileSync(path.join(home, '.gitconfig'), '[user]\n\tname = Second Name, Longer\n\temail = second@example.com\n');
      const second = await run(spec, whoami);
      assert.match(second.output, /^name=Second Name, Longer$/m, second.output);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('does not spend mounts hiding an empty folder, which stays read-only and empty all the same', async () => {
    // Outside /tmp and the workspace's parent, which the sandbox hides anyway.
    const results = path.resolve(__dirname, '../../../test-results');
    fs.mkdirSync(results, { recursive: true });
    const areas = fs.realpathSync(fs.mkdtempSync(path.join(results, 'pe-sbx-areas-')));
    try {
      const empty = path.join(areas, 'empty-area');
      const full = path.join(areas, 'full-area');
      fs.mkdirSync(empty);
      fs.mkdirSync(full);
      fs.writeFileSync(path.join(full, 'secret.txt'), 'canary-full\n');
      const spec = { ...(await specFor({ edit: ['src/**'] })), hiddenOutside: [empty, full] };
      const confined = prepareConfined(spec, detectSandbox(), ['true'], root);
      assert.ok(confined.ok);
      const prepared = confined.value;
      const options = prepared.fd3?.toString().split('\0') ?? [];
      prepared.cleanup();
      assert.equal(options.indexOf(empty), -1, 'no tmpfs, no remount for the empty folder');
      assert.ok(options.includes(full));
      const r = await run(
        spec,
        `
        const fs = require('fs');
        try { fs.writeFileSync(${JSON.stringify(path.join(empty, 'x'))}, 'x'); console.log('empty:wrote'); } catch (e) { console.log('empty:' + e.code); }
        console.log('full:' + fs.readdirSync(${JSON.stringify(full)}).length);`,
      );
      // ENOENT where the checkout itself lies under /tmp, which the sandbox replaces with a private one.
      assert.match(r.output, /empty:(EROFS|EACCES|ENOENT)/, r.output);
      assert.match(r.output, /full:0/, r.output);
      assert.deepEqual(fs.readdirSync(empty), []);
    } finally {
      fs.rmSync(areas, { recursive: true, force: true });
    }
  });

  it('lets git work in a worktree whose repository is a neighbouring folder, and commit when granted', async () => {
    const main = path.join(base, 'main');
    const git = (cwd: string, ...args: string[]): string =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', ...args], { cwd, encoding: 'utf8' });
    fs.mkdirSync(main);
    git(main, 'init', '-q');
    fs.writeFileSync(path.join(main, 'main-secret.txt'), 'canary-main-checkout\n');
    git(main, 'add', '.');
    git(main, 'commit', '-q', '-m', 'base');
    const wt = path.join(base, 'wt');
    git(main, 'worktree', 'add', '-q', wt);
    fs.mkdirSync(path.join(wt, 'src'));
    fs.writeFileSync(path.join(wt, 'src', 'a.js'), 'a\n');
    const policy = policyFor(
      wt,
      { id: 's', authority: authority({ edit: ['src/**'], commands: ['git add *', 'git commit *', 'git status'] }) },
      { fs: nodePolicyFs, ignoreText: null },
    );
    const env = { ...scrubEnv(process.env), GIT_AUTHOR_NAME: 'S', GIT_AUTHOR_EMAIL: 's@e', GIT_COMMITTER_NAME: 'S', GIT_COMMITTER_EMAIL: 's@e' };
    const { entries } = await new NodeWorkspace(wt).scan({ prune: scanPrune(policy, commandWriteScope(policy)), limit: 1000 });
    const built = sandboxSpec({ policy, entries, env, host: hostFacts(env) });
    assert.ok(built.ok);
    const inWt = (argv: string[]) =>
      terminal.run(
        { command: argv.join(' '), argv, cwd: wt, timeoutMs: 15_000, maxOutputBytes: 10_000, env: built.value.env, sandbox: built.value },
        new AbortController().signal,
      );
    const status = await inWt(['git', 'status', '--short']);
    assert.equal(status.exitCode, 0, status.output);
    assert.match(status.output, /\?\? src\//);
    assert.equal((await inWt(['git', 'add', 'src/a.js'])).exitCode, 0);
    const commit = await inWt(['git', 'commit', '-q', '-m', 'from the worktree']);
    assert.equal(commit.exitCode, 0, commit.output);
    assert.match(git(main, 'log', '--all', '--format=%s'), /from the worktree/);
    const peek = await inWt(['cat', path.join(main, 'main-secret.txt')]);
    assert.doesNotMatch(peek.output, /canary-main-checkout/, "the main checkout's files stay hidden");
  });

  it('does not trust a .git file that points somewhere that does not point back', async () => {
    fs.writeFileSync(path.join(neighbour, 'HEAD'), 'ref: refs/heads/main\n');
    fs.writeFileSync(path.join(root, '.git'), `gitdir: ${neighbour}\n`);
    const spec = await specFor({ edit: ['src/**'], commands: ['git commit *'] });
    assert.ok(!spec.visibleOutside.includes(neighbour) && spec.writableOutside.length === 0);
    const r = await run(
      spec,
      `try { console.log(String(require('fs').readFileSync(${JSON.stringify(path.join(neighbour, 'secret.txt'))}))); } catch (e) { console.log(e.code); }`,
    );
    assert.doesNotMatch(r.output, /canary-neighbour/);
  });

  it('refuses to run a sandboxed request when there is no sandbox, instead of running it unconfined', async () => {
    const spec = await specFor({ edit: ['src/**'] });
    const saved = process.env.PLAN_EXECUTE_BWRAP;
    process.env.PLAN_EXECUTE_BWRAP = path.join(base, 'no-bwrap-here');
    try {
      const r = await run(spec, `require('fs').writeFileSync('src/ran.txt', 'x')`);
      assert.equal(r.exitCode, null);
      assert.match(r.output, /not run: no OS sandbox: bubblewrap \(bwrap\) is not installed/);
      assert.ok(!fs.existsSync(path.join(root, 'src', 'ran.txt')));
    } finally {
      if (saved === undefined) delete process.env.PLAN_EXECUTE_BWRAP;
      else process.env.PLAN_EXECUTE_BWRAP = saved;
    }
  });
});
