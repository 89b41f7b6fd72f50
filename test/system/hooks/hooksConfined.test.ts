/**
 * Where hooks run, through the real CLI with real hook scripts: a project hook inside its step's sandbox
 * has no network when the step has none (a listener on the host's loopback never hears from it), while the
 * user's own hook, unconfined, reaches it; a project hook that runs before any step (UserPromptSubmit)
 * runs in a read-only sandbox of the workspace, so its write does not land, while the user's hook writes
 * as the user; a project hook past its timeout inside the sandbox is killed, nothing of it left running.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { createFile, done, sh } from '../../support/messages-server/toolUses';
import { put, runHookMission, sentText, settings, story, use, useScenes } from './hookScene';

/** A TCP listener on the host's loopback that counts who connected. */
async function listener(): Promise<{ server: Server; port: number; connections(): number }> {
  let count = 0;
  const server = createServer((socket) => {
    count++;
    socket.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the listener has no port');
  return { server, port: address.port, connections: () => count };
}

/** The processes on this machine whose command line is exactly `argv` (zombies aside). */
function processesRunning(argv: string[]): number[] {
  const wanted = `${argv.join('\0')}\0`;
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8') !== wanted) continue;
      if (/^\S+ \(\S+\) Z/.test(readFileSync(`/proc/${entry}/stat`, 'utf8'))) continue;
      out.push(Number(entry));
    } catch (error) {
      // A process that ended while we looked is not running; anything else is the test's failure.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
  return out;
}

/** Tries the listener with bash's /dev/tcp and says on stderr what came of it (exit 1: a warning, the action proceeds). */
const netProbe = (port: number): string => `#!/bin/bash
cat > /dev/null
if (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null; then echo "net:$1:reached" >&2; else echo "net:$1:unreachable" >&2; fi
exit 1
`;

describe('hooks: confinement', function () {
  this.timeout(180_000);
  const scenes = useScenes();

  it("a project hook has no network when its step has none; the user's hook, unconfined, has", async () => {
    const s = scenes.scene();
    const net = await listener();
    try {
      put(s.ws, '.claude/hooks/net.sh', netProbe(net.port), 0o755);
      put(s.ws, '.claude/settings.json', settings({ PreToolUse: [{ matcher: 'Bash', hooks: [{ command: '.claude/hooks/net.sh project' }] }] }));
      put(s.home, '.claude/settings.json', settings({ PreToolUse: [{ matcher: 'Bash', hooks: [{ command: `${s.ws}/.claude/hooks/net.sh user` }] }] }));
      const m = await runHookMission(s, {
        args: ['--trust-hooks'],
        steps: [{ id: 's1', edit: ['src/**'], commands: ['node -e 0'], turns: [use(sh('c', 'node -e 0')), done()] }],
      });
      const project = m.hookRuns.find((r) => r.source === '.claude/settings.json');
      const user = m.hookRuns.find((r) => r.source === '~/.claude/settings.json');
      assert.match(project?.warning ?? '', /net:project:unreachable/, `the project hook could not reach the host${story(m)}`);
      assert.match(user?.warning ?? '', /net:user:reached/, `the user hook reached it${story(m)}`);
      assert.equal(net.connections(), 1, 'only the user hook connected');
      assert.equal(m.toolResults.get('c')?.isError, false, `a hook exiting 1 lets the command run${story(m)}`);
      assert.equal(m.code, 0, story(m));
    } finally {
      net.server.close();
    }
  });

  it("a project UserPromptSubmit hook runs in a read-only sandbox of the workspace: its write does not land, the user's does", async () => {
    const s = scenes.scene();
    put(
      s.ws,
      '.claude/hooks/start.sh',
      '#!/bin/bash\ncat > /dev/null\nif echo x > "$CLAUDE_PROJECT_DIR/src/project-start.txt" 2>/dev/null; then echo "start-write:landed-3391"; else echo "start-write:refused-3391"; fi\n',
      0o755,
    );
    put(s.ws, '.claude/settings.json', settings({ UserPromptSubmit: [{ hooks: [{ command: '.claude/hooks/start.sh' }] }] }));
    put(s.home, '.claude/settings.json', settings({ UserPromptSubmit: [{ hooks: [{ command: `cat > /dev/null; echo y > "${s.ws}/src/user-start.txt"` }] }] }));
    const m = await runHookMission(s, { args: ['--trust-hooks'], steps: [{ id: 's1', edit: ['src/**'], turns: [done()] }] });
    assert.equal(existsSync(join(s.ws, 'src/project-start.txt')), false, `the project hook's write did not land${story(m)}`);
    assert.match(sentText(m, 'planner'), /start-write:refused-3391/, 'the project hook ran, and its write was refused inside the sandbox');
    assert.ok(existsSync(join(s.ws, 'src/user-start.txt')), "the user's hook wrote as the user");
    assert.equal(m.code, 0, story(m));
  });

  it('a project hook past its timeout inside the sandbox is killed with everything it started, and the action proceeds', async () => {
    const s = scenes.scene();
    put(
      s.ws,
      '.claude/settings.json',
      settings({ PreToolUse: [{ matcher: 'Write', hooks: [{ command: 'cat > /dev/null; sleep 3071 & sleep 3072', timeout: 1 }] }] }),
    );
    const started = Date.now();
    const m = await runHookMission(s, {
      args: ['--trust-hooks'],
      steps: [{ id: 's1', edit: ['src/**'], turns: [use(createFile('w', 'src/new.txt', 'new\n')), done()] }],
    });
    assert.ok(Date.now() - started < 60_000, 'the mission did not wait for the hook');
    const run = m.hookRuns.find((r) => r.event === 'PreToolUse' && r.source === '.claude/settings.json');
    assert.ok(run?.timedOut, `the run is recorded as timed out${story(m)}`);
    assert.match(run.warning ?? '', /sleep 3072[^\n]*timed out after 1 s/, `the failure names the hook${story(m)}`);
    assert.equal(existsSync(join(s.ws, 'src/new.txt')), true, `the action proceeded${story(m)}`);
    assert.deepEqual([...processesRunning(['sleep', '3071']), ...processesRunning(['sleep', '3072'])], [], 'nothing the hook started is left');
  });
});
