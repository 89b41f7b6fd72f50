import assert from 'node:assert/strict';
import * as path from 'node:path';
import { quoteArgument, resolveWindowsProgram, windowsSpawn } from '../../../src/node/windowsCommand';

/** A Windows file system as a set of paths (case-insensitive, like NTFS). */
function disk(...files: string[]): (p: string) => boolean {
  const set = new Set(files.map((f) => f.toLowerCase()));
  return (p) => set.has(p.toLowerCase());
}

const env = {
  Path: 'C:\\Program Files\\nodejs;relative\\bin;C:\\Windows\\System32',
  PATHEXT: '.COM;.EXE;.BAT;.CMD',
  ComSpec: 'C:\\Windows\\System32\\cmd.exe',
};

describe('running argv on Windows (PATH and PATHEXT, without a shell where possible)', () => {
  it('finds npm as npm.cmd and node as node.exe through PATH and PATHEXT, in PATHEXT order', () => {
    const exists = disk('C:\\Program Files\\nodejs\\npm.cmd', 'C:\\Program Files\\nodejs\\node.exe', 'C:\\Program Files\\nodejs\\npm');
    assert.equal(resolveWindowsProgram('npm', env, exists, path.win32), 'C:\\Program Files\\nodejs\\npm.cmd');
    assert.equal(resolveWindowsProgram('node', env, exists, path.win32), 'C:\\Program Files\\nodejs\\node.exe');
    assert.equal(resolveWindowsProgram('node.exe', env, exists, path.win32), 'C:\\Program Files\\nodejs\\node.exe');
    assert.equal(
      resolveWindowsProgram('NPM', env, disk('C:\\Program Files\\nodejs\\npm.cmd'), path.win32)?.toLowerCase(),
      'c:\\program files\\nodejs\\npm.cmd',
    );
  });

  it('never looks in the working directory or a relative PATH entry', () => {
    const exists = disk('C:\\ws\\npm.cmd', 'relative\\bin\\npm.cmd');
    assert.equal(resolveWindowsProgram('npm', env, exists, path.win32), undefined);
    assert.equal(resolveWindowsProgram('.\\npm', env, exists, path.win32), undefined);
    assert.equal(resolveWindowsProgram('C:\\ws\\npm', env, exists, path.win32), 'C:\\ws\\npm.cmd', 'an absolute path the policy approved is taken as written');
  });

  it('runs an .exe directly with argv untouched', () => {
    const spawn = windowsSpawn(['node', '-e', 'console.log("a & b")'], env, disk('C:\\Program Files\\nodejs\\node.exe'), path.win32);
    assert.ok(spawn.ok);
    assert.deepEqual(
      { file: spawn.value.file, args: spawn.value.args, verbatim: spawn.value.verbatim },
      { file: 'C:\\Program Files\\nodejs\\node.exe', args: ['-e', 'console.log("a & b")'], verbatim: false },
    );
    assert.equal(spawn.value.env.NoDefaultCurrentDirectoryInExePath, '1');
  });

  it('runs a batch file through cmd.exe with every metacharacter escaped, twice for the arguments', () => {
    const spawn = windowsSpawn(['npm', 'test', '--', 'a&b', 'x y'], env, disk('C:\\Program Files\\nodejs\\npm.cmd'), path.win32);
    assert.ok(spawn.ok);
    assert.equal(spawn.value.file, 'C:\\Windows\\System32\\cmd.exe');
    assert.deepEqual(spawn.value.args.slice(0, 3), ['/d', '/s', '/c']);
    assert.equal(spawn.value.verbatim, true);
    assert.equal(spawn.value.args[3], '"^"C:\\Program^ Files\\nodejs\\npm.cmd^" test -- a^^^&b ^^^"x^^^ y^^^""');
  });

  it('refuses arguments cmd.exe would reinterpret for a batch file, and says why', () => {
    for (const bad of ['%PATH%', 'hi!', 'say "x"', 'a\nb']) {
      const spawn = windowsSpawn(['npm', 'run', bad], env, disk('C:\\Program Files\\nodejs\\npm.cmd'), path.win32);
      assert.ok(!spawn.ok && /batch file/.test(spawn.error), bad);
    }
    const missing = windowsSpawn(['nope'], env, disk(), path.win32);
    assert.ok(!missing.ok && /not found on PATH/.test(missing.error));
  });

  it('quotes arguments by the C runtime rules', () => {
    assert.equal(quoteArgument('plain'), 'plain');
    assert.equal(quoteArgument(''), '""');
    assert.equal(quoteArgument('a b'), '"a b"');
    assert.equal(quoteArgument('say "hi"'), '"say \\"hi\\""');
    assert.equal(quoteArgument('C:\\dir with space\\'), '"C:\\dir with space\\\\"');
  });
});
