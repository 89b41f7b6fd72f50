import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeTerminal } from '../../../src/node/nodeTerminal';
import type { CommandRequest } from '../../../src/core/ports';

function request(argv: string[], extra: Partial<CommandRequest> = {}): CommandRequest {
  return {
    command: argv.join(' '),
    argv,
    cwd: os.tmpdir(),
    timeoutMs: 10_000,
    maxOutputBytes: 10_000,
    env: { PATH: process.env.PATH ?? '' },
    sandbox: null,
    ...extra,
  };
}

/** Running, not merely a zombie waiting for an init that may never reap it (containers). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

describe('NodeTerminal', () => {
  const terminal = new NodeTerminal();
  const node = process.execPath;

  it('returns exit code, output and duration', async () => {
    const r = await terminal.run(request([node, '-e', 'console.log("out"); console.error("err"); process.exit(3)']), new AbortController().signal);
    assert.equal(r.exitCode, 3);
    assert.equal(r.signal, null);
    assert.match(r.output, /out/);
    assert.match(r.output, /err/);
    assert.ok(r.durationMs >= 0);
  });

  it('runs argv without a shell: metacharacters are plain arguments', async () => {
    const r = await terminal.run(request([node, '-e', 'console.log(JSON.stringify(process.argv.slice(1)))', '$(id); `x` | y']), new AbortController().signal);
    assert.match(r.output, /"\$\(id\); `x` \| y"/);
  });

  it('passes only the given environment', async () => {
    process.env.PE_TEST_LEAK = 'leaked';
    try {
      const r = await terminal.run(
        request([node, '-e', 'console.log(JSON.stringify(Object.keys(process.env).sort()))'], { env: { PATH: process.env.PATH ?? '', ONLY: '1' } }),
        new AbortController().signal,
      );
      assert.doesNotMatch(r.output, /PE_TEST_LEAK/);
      assert.match(r.output, /"ONLY"/);
    } finally {
      delete process.env.PE_TEST_LEAK;
    }
  });

  it('caps output keeping head and tail', async () => {
    const r = await terminal.run(
      request([node, '-e', 'console.log("FIRST"); for (let i=0;i<20000;i++) console.log("filler line " + i); console.log("LAST")'], { maxOutputBytes: 2000 }),
      new AbortController().signal,
    );
    assert.equal(r.truncated, true);
    assert.match(r.output, /^FIRST/);
    assert.match(r.output, /LAST\n$/);
    assert.ok(r.output.length < 3000);
  });

  it('kills the whole process tree on timeout', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pe-tree-'));
    const pidFile = path.join(dir, 'grandchild.pid');
    const script = `const { spawn } = require('child_process');
      const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(g.pid));
      setInterval(() => {}, 1000);`;
    const r = await terminal.run(request([node, '-e', script], { timeoutMs: 1500 }), new AbortController().signal);
    assert.notEqual(r.signal, null);
    assert.ok(r.durationMs >= 1500);
    const grandchild = Number(fs.readFileSync(pidFile, 'utf8'));
    await new Promise((res) => setTimeout(res, 200));
    assert.equal(alive(grandchild), false, 'the grandchild survived');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('kills the whole process tree on abort, including one that ignores SIGTERM', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pe-tree-'));
    const pidFile = path.join(dir, 'grandchild.pid');
    const script = `const { spawn } = require('child_process');
      process.on('SIGTERM', () => {});
      const g = spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(g.pid));
      setInterval(() => {}, 1000);`;
    const ac = new AbortController();
    const pending = terminal.run(request([node, '-e', script]), ac.signal);
    while (!fs.existsSync(pidFile) || fs.readFileSync(pidFile, 'utf8') === '') await new Promise((res) => setTimeout(res, 50));
    ac.abort();
    const r = await pending;
    assert.equal(r.signal, 'SIGKILL');
    const grandchild = Number(fs.readFileSync(pidFile, 'utf8'));
    await new Promise((res) => setTimeout(res, 200));
    assert.equal(alive(grandchild), false, 'the grandchild survived');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('does not wait for a process that left the group and still holds the output', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pe-held-'));
    const pidFile = path.join(dir, 'escaped.pid');
    // The detached grandchild is a session of its own (setsid): killing the group cannot reach it, and it
    // inherited stdout and stderr.
    const script = `const { spawn } = require('child_process');
      const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: ['ignore', 'inherit', 'inherit'] });
      require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(g.pid));
      g.unref();
      console.log('leader done');`;
    const r = await terminal.run(request([node, '-e', script], { timeoutMs: 60_000 }), new AbortController().signal);
    const escaped = Number(fs.readFileSync(pidFile, 'utf8'));
    try {
      assert.equal(r.exitCode, 0);
      assert.ok(r.durationMs < 30_000, `returned after ${r.durationMs} ms, not at the 60 s timeout`);
      assert.match(r.output, /leader done/);
      assert.match(r.output, /left the command's process group still held its output: not waited for/);
    } finally {
      if (alive(escaped)) process.kill(escaped, 'SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a missing program without throwing', async () => {
    const r = await terminal.run(request(['definitely-not-a-program-pe']), new AbortController().signal);
    assert.equal(r.exitCode, null);
    assert.match(r.output, /failed to start/);
  });
});
