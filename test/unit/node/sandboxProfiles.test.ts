import assert from 'node:assert/strict';
import { bwrapArgs, type BwrapMounts } from '../../../src/node/sandbox/bwrapArgs';
import { sandboxNameservers, slirpArgs } from '../../../src/node/sandbox/ownNetwork';
import { sbplString, seatbeltArgs, seatbeltProfile, type SeatbeltPaths } from '../../../src/node/sandbox/seatbeltProfile';

const mounts: BwrapMounts = {
  root: '/home/ada/app',
  writable: ['/home/ada/app/src', '/home/ada/app/.git'],
  readOnly: ['/home/ada/app/.git/hooks', '/home/ada/app/.git/config'],
  hidden: [
    { path: '/home/ada/app/.env', kind: 'file' },
    { path: '/home/ada/app/.plan-execute', kind: 'directory' },
  ],
  hiddenOutside: [
    { path: '/home/ada', kind: 'directory' },
    { path: '/home', kind: 'directory' },
    { path: '/run', kind: 'directory' },
    { path: '/home/ada/.cargo/credentials.toml', kind: 'file' },
  ],
  visibleOutside: ['/home/ada/.cargo'],
  network: false,
  home: { at: '/home/ada', from: '/tmp/pe-sandbox-1/home' },
  tmp: '/tmp/pe-sandbox-1/tmp',
  networkFiles: ['/run/systemd/resolve/stub-resolv.conf'],
  cwd: '/home/ada/app',
};

/** Index of the mount whose destination is `dest` (the argument after the source, or after the flag). */
function at(args: string[], flag: string, dest: string): number {
  return args.findIndex((a, i) => a === flag && (args[i + 1] === dest || args[i + 2] === dest));
}

describe('bubblewrap arguments (Linux)', () => {
  const args = bwrapArgs(mounts, ['npm', 'test']);

  it('drops every capability, cannot make user namespaces inside, and cuts pid, ipc and (ungranted) network', () => {
    for (const flag of ['--unshare-user', '--disable-userns', '--unshare-pid', '--unshare-ipc', '--unshare-net', '--die-with-parent', '--new-session'])
      assert.ok(args.includes(flag), flag);
    assert.equal(args[args.indexOf('--cap-drop') + 1], 'ALL');
    assert.ok(!bwrapArgs({ ...mounts, network: true }, ['x']).includes('--unshare-net'), 'a granted network is the real one');
  });

  it('mounts in an order where each stricter rule comes after what it narrows', () => {
    const order = [
      at(args, '--ro-bind', '/'),
      at(args, '--proc', '/proc'),
      at(args, '--tmpfs', '/home'),
      at(args, '--bind', '/home/ada'),
      at(args, '--ro-bind', '/home/ada/.cargo'),
      at(args, '--ro-bind', '/home/ada/.cargo/credentials.toml'),
      at(args, '--ro-bind', '/home/ada/app'),
      at(args, '--bind', '/home/ada/app/src'),
      at(args, '--ro-bind', '/home/ada/app/.git/hooks'),
      at(args, '--ro-bind', '/home/ada/app/.env'),
    ];
    assert.ok(
      order.every((i) => i >= 0),
      JSON.stringify(order),
    );
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
      args.join(' '),
    );
  });

  it('mounts a folder root, its read-only subfolders and a write root below one of them shallowest first, so the deepest decides', () => {
    const folder = bwrapArgs(
      {
        ...mounts,
        writable: ['/home/ada/app', '/home/ada/app/src/gen'],
        readOnly: ['/home/ada/app/src', '/home/ada/app/docs', '/home/ada/app/src/gen/node_modules'],
      },
      ['x'],
    );
    const order = [
      at(folder, '--ro-bind', '/home/ada/app'),
      at(folder, '--bind', '/home/ada/app'),
      at(folder, '--ro-bind', '/home/ada/app/src'),
      at(folder, '--bind', '/home/ada/app/src/gen'),
      at(folder, '--ro-bind', '/home/ada/app/src/gen/node_modules'),
      at(folder, '--ro-bind', '/home/ada/app/.env'),
    ];
    assert.ok(
      order.every((i) => i >= 0),
      JSON.stringify(order),
    );
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
      folder.join(' '),
    );
    assert.ok(at(folder, '--ro-bind', '/home/ada/app/docs') > at(folder, '--bind', '/home/ada/app'));
  });

  it('replaces the home and /tmp with private folders, and hides files with /dev/null, folders with a read-only tmpfs', () => {
    assert.deepEqual(args.slice(at(args, '--bind', '/tmp'), at(args, '--bind', '/tmp') + 3), ['--bind', '/tmp/pe-sandbox-1/tmp', '/tmp']);
    assert.deepEqual(args.slice(at(args, '--bind', '/home/ada'), at(args, '--bind', '/home/ada') + 3), ['--bind', '/tmp/pe-sandbox-1/home', '/home/ada']);
    assert.equal(at(args, '--tmpfs', '/home/ada'), -1, 'the home is not also a tmpfs');
    const env = args.indexOf('/home/ada/app/.env');
    assert.deepEqual(args.slice(env - 2, env + 1), ['--ro-bind', '/dev/null', '/home/ada/app/.env']);
    const store = args.indexOf('/home/ada/app/.plan-execute');
    assert.deepEqual(args.slice(store - 1, store + 1), ['--tmpfs', '/home/ada/app/.plan-execute']);
    const remounts = args.flatMap((a, i) => (a === '--remount-ro' ? [args[i + 1]] : []));
    assert.deepEqual(remounts, ['/home/ada/app/.plan-execute', '/home', '/run'], 'read-only at the end, deepest first');
    assert.ok(args.indexOf('--remount-ro') > at(args, '--ro-bind', '/home/ada/app'), 'after every mount that lands inside a hidden folder');
  });

  it("with a network of its own: keeps the user's ids, hands its pid over and waits, and shows slirp's resolver, not the host's", () => {
    const own = bwrapArgs(
      {
        ...mounts,
        network: true,
        ownNetwork: { uid: 1000, gid: 1001, resolver: { from: '/tmp/pe-sandbox-1/resolv.conf', at: '/run/systemd/resolve/stub-resolv.conf' } },
      },
      ['npm', 'install'],
    );
    assert.ok(!own.includes('--unshare-net'), 'the network namespace is made around bubblewrap (unshare), with slirp4netns on it');
    for (const [flag, value] of [
      ['--info-fd', '4'],
      ['--block-fd', '5'],
      ['--uid', '1000'],
      ['--gid', '1001'],
    ])
      assert.equal(own[own.indexOf(flag as string) + 1], value, flag);
    assert.ok(at(own, '--ro-bind', '/run/systemd/resolve/stub-resolv.conf') > at(own, '--tmpfs', '/run'));
    assert.equal(own[at(own, '--ro-bind', '/run/systemd/resolve/stub-resolv.conf') + 1], '/tmp/pe-sandbox-1/resolv.conf');
    assert.ok(
      !bwrapArgs({ ...mounts, ownNetwork: { uid: 1, gid: 1, resolver: { from: 'x', at: 'y' } } }, ['x']).includes('--block-fd'),
      'without the grant: nothing to wait for',
    );
  });

  it('shows the resolver configuration only with the network, and ends with the untouched argv', () => {
    assert.equal(args.indexOf('/run/systemd/resolve/stub-resolv.conf'), -1);
    assert.ok(bwrapArgs({ ...mounts, network: true }, ['x']).includes('/run/systemd/resolve/stub-resolv.conf'));
    assert.deepEqual(args.slice(-5), ['--chdir', '/home/ada/app', '--', 'npm', 'test']);
    assert.deepEqual(bwrapArgs(mounts, ['echo', '$(id); rm -rf ~']).slice(-2), ['echo', '$(id); rm -rf ~']);
  });
});

describe('the resolver of a granted network of its own (slirp4netns)', () => {
  it("names slirp's forwarder when the host's first name server is a real one", () => {
    assert.deepEqual(sandboxNameservers('search corp.example\nnameserver 192.168.1.1\n', []), { servers: ['10.0.2.3'] });
  });

  it('names the upstream servers when the host resolves through a stub on loopback (systemd-resolved), which the sandbox cannot reach (red-team F31)', () => {
    const stub = 'nameserver 127.0.0.53\noptions edns0 trust-ad\nsearch lan\n';
    const upstream = 'nameserver 192.168.1.1\nnameserver fd00::1\nnameserver 9.9.9.9\n';
    assert.deepEqual(sandboxNameservers(stub, [upstream, '']), { servers: ['192.168.1.1', '9.9.9.9'] });
    assert.deepEqual(
      sandboxNameservers('nameserver 127.0.1.1\nnameserver 10.1.2.3\n', []),
      { servers: ['10.1.2.3'] },
      "a later real server of the host's own file",
    );
  });

  it("runs slirp4netns confined itself (its own empty root, a seccomp filter), with the host's loopback closed (red-team F32)", () => {
    const args = slirpArgs('/proc/42/ns');
    for (const flag of ['--disable-host-loopback', '--enable-sandbox', '--enable-seccomp']) assert.ok(args.includes(flag), flag);
    assert.deepEqual(args.slice(-2), ['/proc/42/ns/net', 'tap0']);
  });

  it('says so when no upstream server is known: names will not resolve', () => {
    const r = sandboxNameservers('nameserver 127.0.0.1\n', ['', '']);
    assert.deepEqual(r.servers, ['10.0.2.3']);
    assert.match(r.note ?? '', /127\.0\.0\.1[\s\S]*will not resolve/);
  });
});

describe('Seatbelt profile (macOS)', () => {
  const paths: SeatbeltPaths = {
    root: '/Users/ada/app',
    writable: ['/Users/ada/app/src', '/Users/ada/app/.git'],
    readOnly: ['/Users/ada/app/.git/hooks', '/Users/ada/app/.git/config'],
    hidden: ['/Users/ada/app/.env'],
    hiddenOutside: ['/Users', '/Users/ada', '/Volumes', '/Users/ada/.cargo/credentials.toml'],
    visibleOutside: ['/Users/ada/.cargo'],
    network: false,
    privateHome: '/private/var/folders/x/pe-sandbox-1/home',
    privateTmp: '/private/var/folders/x/pe-sandbox-1/tmp',
  };
  const profile = seatbeltProfile(paths);

  it('denies by default and grants only with allow rules (no deny rule whose precedence would matter)', () => {
    assert.match(profile, /^\(version 1\)\n\(deny default\)\n/);
    assert.equal((profile.match(/^\(deny /gm) ?? []).length, 1);
    assert.doesNotMatch(profile, /\(allow file-write\* \(subpath "\/"\)/);
    assert.doesNotMatch(profile, /\(allow default\)/);
  });

  it('reads everything but the hidden areas and entries; shows the workspace and the toolchains again', () => {
    const reads = profile.split('\n(allow ').filter((r) => r.startsWith('file-read*'));
    assert.ok(
      reads[0]?.includes('(subpath "/")') &&
        reads[0].includes('(require-not (subpath "/Users"))') &&
        reads[0].includes('(require-not (subpath "/Users/ada/app/.env"))'),
    );
    assert.ok(reads.some((r) => r.includes('(subpath "/Users/ada/.cargo")') && r.includes('(require-not (subpath "/Users/ada/.cargo/credentials.toml"))')));
    assert.ok(reads.some((r) => r.startsWith('file-read* (require-all (subpath "/Users/ada/app")') && r.includes('/Users/ada/app/.env')));
  });

  it('writes only the writable paths minus their read-only and hidden entries, the private folders and tty devices', () => {
    const writes = profile.split('\n').filter((l) => l.startsWith('(allow file-write*'));
    const start = profile.indexOf('(allow file-write* (require-all (subpath "/Users/ada/app/.git")');
    const git = profile.slice(start, profile.indexOf('\n(allow', start + 1));
    assert.ok(git.includes('(require-not (subpath "/Users/ada/app/.git/hooks"))') && git.includes('(require-not (subpath "/Users/ada/app/.git/config"))'), git);
    assert.ok(writes.some((l) => l.includes('(subpath "/private/var/folders/x/pe-sandbox-1/home")')));
    assert.ok(!profile.includes('(allow file-write* (subpath "/Users/ada/app")'), 'not the whole workspace');
  });

  it("writes a folder root's own entries, not its read-only subfolders, and a write root below one of them", () => {
    const folder = seatbeltProfile({
      ...paths,
      writable: ['/Users/ada/app', '/Users/ada/app/src/gen'],
      readOnly: ['/Users/ada/app/src', '/Users/ada/app/docs'],
    });
    const writes = folder.split('\n(allow ').filter((r) => r.startsWith('file-write*'));
    const top = writes.find((r) => r.includes('(subpath "/Users/ada/app")'));
    assert.ok(top && ['/Users/ada/app/src', '/Users/ada/app/docs', '/Users/ada/app/.env'].every((x) => top.includes(`(require-not (subpath "${x}"))`)), top);
    const gen = writes.find((r) => r.includes('(subpath "/Users/ada/app/src/gen")'));
    assert.ok(gen && !gen.includes('require-not (subpath "/Users/ada/app/src")'), 'its own allow rule, not narrowed by the subfolder above it');
  });

  it('allows loopback only, unless the network is granted; no keychain service', () => {
    assert.match(profile, /\(allow network\* \(remote ip "localhost:\*"\)\)/);
    assert.doesNotMatch(profile, /\(allow network\*\)\n/);
    assert.match(seatbeltProfile({ ...paths, network: true }), /\(allow network\*\)\n/);
    assert.doesNotMatch(profile, /securityd|SecurityServer/);
  });

  it('quotes paths as SBPL strings and passes argv untouched', () => {
    assert.equal(sbplString('/a "b"\\c'), '"/a \\"b\\"\\\\c"');
    assert.deepEqual(seatbeltArgs('(version 1)', ['git', 'commit', '-m', 'x; y']), {
      file: '/usr/bin/sandbox-exec',
      args: ['-p', '(version 1)', '--', 'git', 'commit', '-m', 'x; y'],
    });
  });
});
