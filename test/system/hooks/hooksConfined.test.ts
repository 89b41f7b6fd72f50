/**
 * Where hooks run, through the real CLI with real hook scripts: a project hook inside its step's sandbox
 * has no network when the step has none (a listener on the host's loopback never hears from it), while the
 * user's own hook, unconfined, reaches it; a project hook that runs before any step (UserPromptSubmit)
 * runs in a read-only sandbox of the workspace, so its write does not land, while the user's hook writes
 * as the user.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { done, sh } from '../../support/messages-server/toolUses';
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
});
