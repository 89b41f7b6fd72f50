/**
 * PreToolUse through the real CLI with real hook scripts: exit 2 and a JSON deny keep the tool from
 * running (the model reads the hook's reason), `allow` never widens what the policy refuses (and the hook
 * is never even asked), `allow` stands in for the user's approval of what the policy permits, and a hook's
 * input on stdin carries Claude Code's fields. Assertions are effects: files, what reached the model, the
 * markers a hook writes.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFile, done, replace, sh } from '../../support/messages-server/toolUses';
import { put, runHookMission, settings, story, use, useScenes } from './hookScene';

/** A node hook script: reads its JSON input, then runs `body` with `input` in scope. */
const nodeHook = (body: string): string =>
  `let raw = '';\nprocess.stdin.on('data', (c) => (raw += c));\nprocess.stdin.on('end', () => {\n  const input = JSON.parse(raw);\n${body}\n});\n`;

describe('hooks: PreToolUse', function () {
  this.timeout(180_000);
  const scenes = useScenes();

  it('exit 2 blocks a Bash command: it never runs, and the model reads the hook stderr', async () => {
    const s = scenes.scene();
    put(
      s.ws,
      '.claude/hooks/no-touch.sh',
      '#!/bin/bash\ninput=$(cat)\ncase "$input" in\n  *touch*) echo "touch is not allowed here (policy 7)" >&2; exit 2 ;;\nesac\nexit 0\n',
      0o755,
    );
    put(
      s.ws,
      '.claude/settings.json',
      settings({ PreToolUse: [{ matcher: 'Bash', hooks: [{ command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/no-touch.sh' }] }] }),
    );
    const m = await runHookMission(s, {
      args: ['--trust-hooks'],
      steps: [{ id: 's1', edit: ['src/**'], commands: ['touch src/made.txt'], turns: [use(sh('t', 'touch src/made.txt')), done()] }],
    });
    assert.equal(existsSync(join(s.ws, 'src/made.txt')), false, `the command did not run${story(m)}`);
    const seen = m.toolResults.get('t');
    assert.ok(seen?.isError, `the model got an error for the command${story(m)}`);
    assert.match(seen.content, /touch is not allowed here \(policy 7\)/, 'the hook stderr reached the model');
    assert.ok(
      m.hookRuns.some((r) => r.event === 'PreToolUse' && r.decision === 'deny' && r.exit === 2 && r.source === '.claude/settings.json'),
      story(m),
    );
  });

  it('a JSON permissionDecision "deny" blocks an Edit: the file keeps its content, the reason reaches the model', async () => {
    const s = scenes.scene();
    put(
      s.ws,
      '.claude/hooks/guard.js',
      nodeHook(
        `  if (input.tool_name === 'Edit' && String(input.tool_input.new_string).includes('42')) {\n    process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'the answer stays 41 until review' } }));\n  }`,
      ),
    );
    put(
      s.ws,
      '.claude/settings.json',
      settings({ PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ command: 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.js"' }] }] }),
    );
    const m = await runHookMission(s, {
      args: ['--trust-hooks'],
      steps: [{ id: 's1', edit: ['src/**'], turns: [use(replace('e', 'src/app.js', '41', '42')), done()] }],
    });
    assert.equal(readFileSync(join(s.ws, 'src/app.js'), 'utf8'), 'exports.answer = 41;\n', `the edit did not land${story(m)}`);
    assert.match(m.toolResults.get('e')?.content ?? '', /the answer stays 41 until review/, story(m));
  });

  it('"allow" never widens: a command outside the step\'s allowlist is refused, and the hook is not asked', async () => {
    const s = scenes.scene();
    put(
      s.ws,
      '.claude/hooks/allow-all.sh',
      `#!/bin/bash\ncat > /dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"trusted"}}'\n`,
      0o755,
    );
    put(s.ws, '.claude/settings.json', settings({ PreToolUse: [{ matcher: '*', hooks: [{ command: '.claude/hooks/allow-all.sh' }] }] }));
    put(s.home, '.claude/settings.json', settings({ PreToolUse: [{ hooks: [{ command: `cat > "${s.marks}/asked-$(date +%s%N).json"` }] }] }));
    const m = await runHookMission(s, {
      args: ['--trust-hooks'],
      steps: [
        {
          id: 's1',
          edit: ['src/**'],
          commands: ['node -e 0'],
          turns: [use(sh('out', 'touch src/outside-allowlist.txt'), createFile('w', 'docs/outside-globs.md', 'no\n')), done()],
        },
      ],
    });
    assert.equal(existsSync(join(s.ws, 'src/outside-allowlist.txt')), false, `the command outside the allowlist did not run${story(m)}`);
    assert.equal(existsSync(join(s.ws, 'docs/outside-globs.md')), false, 'the write outside the edit globs did not land');
    assert.match(m.toolResults.get('out')?.content ?? '', /permission_denied/, 'the policy refused the command');
    assert.match(m.toolResults.get('w')?.content ?? '', /permission_denied/, 'the policy refused the write');
    assert.equal(m.hookRuns.filter((r) => r.event === 'PreToolUse').length, 0, `no hook was asked about a refused action${story(m)}`);
  });

  it('"allow" stands in for the approval of what the policy permits: with --approve ask and nobody to answer, the write lands', async () => {
    const s = scenes.scene();
    put(
      s.ws,
      '.claude/hooks/allow-src.sh',
      `#!/bin/bash\ncat > /dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'\n`,
      0o755,
    );
    put(s.ws, '.claude/settings.json', settings({ PreToolUse: [{ matcher: 'Write', hooks: [{ command: '.claude/hooks/allow-src.sh' }] }] }));
    // --approve ask: the plan is approved on stdin ("y"); then stdin closes, so anything else asked is rejected.
    const m = await runHookMission(s, {
      args: ['--trust-hooks'],
      approve: 'ask',
      stdin: 'y\n',
      steps: [{ id: 's1', edit: ['src/**'], turns: [use(createFile('w', 'src/allowed.txt', 'by the hook\n')), done()], exists: ['src/allowed.txt'] }],
    });
    assert.equal(readFileSync(join(s.ws, 'src/allowed.txt'), 'utf8'), 'by the hook\n', `the hook's allow approved the write${story(m)}`);
    const decided = m.events.filter((e) => e.type === 'approval_decided').map((e) => e.decision as { by?: string; rule?: string });
    assert.ok(
      decided.some((d) => d.by === 'rule' && /PreToolUse hook allowed it/.test(d.rule ?? '')),
      'the decision is recorded as the hook rule',
    );
  });

  it('"ask" asks the user even with --approve all: nobody answers, so the write is refused', async () => {
    const s = scenes.scene();
    put(
      s.ws,
      '.claude/hooks/ask.sh',
      `#!/bin/bash\ncat > /dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"config files need a human"}}'\n`,
      0o755,
    );
    put(s.ws, '.claude/settings.json', settings({ PreToolUse: [{ matcher: 'Write', hooks: [{ command: '.claude/hooks/ask.sh' }] }] }));
    const m = await runHookMission(s, {
      args: ['--trust-hooks'],
      approve: 'all',
      steps: [{ id: 's1', edit: ['src/**'], turns: [use(createFile('w', 'src/config.txt', 'x\n')), done()] }],
    });
    assert.equal(existsSync(join(s.ws, 'src/config.txt')), false, `nobody approved the write${story(m)}`);
    assert.match(m.stderr, /config files need a human/, 'the question named the hook reason');
    assert.match(m.toolResults.get('w')?.content ?? '', /rejected_by_user/, story(m));
  });

  it("a hook's stdin carries Claude Code's fields (user hook, fake HOME)", async () => {
    const s = scenes.scene();
    const keep = (name: string): string => `cat > "${s.marks}/${name}-$(date +%s%N).json"`;
    put(
      s.home,
      '.claude/settings.json',
      settings({
        PreToolUse: [{ matcher: 'Write', hooks: [{ command: keep('pre') }] }],
        PostToolUse: [{ matcher: 'Write', hooks: [{ command: keep('post') }] }],
        UserPromptSubmit: [{ hooks: [{ command: keep('prompt') }] }],
        SessionStart: [{ hooks: [{ command: keep('session') }] }],
        Stop: [{ hooks: [{ command: keep('stop') }] }],
      }),
    );
    const m = await runHookMission(s, { steps: [{ id: 's1', edit: ['src/**'], turns: [use(createFile('w', 'src/new.txt', 'new\n')), done()] }] });
    assert.equal(m.code, 0, story(m));
    const read = (prefix: string): Record<string, unknown> => {
      const name = require('node:fs')
        .readdirSync(s.marks)
        .find((n: string) => n.startsWith(`${prefix}-`));
      assert.ok(name, `the ${prefix} hook ran`);
      return JSON.parse(readFileSync(join(s.marks, name), 'utf8')) as Record<string, unknown>;
    };
    const pre = read('pre');
    const missionId = m.events[0]?.missionId;
    for (const input of [pre, read('post'), read('prompt'), read('session'), read('stop')]) {
      assert.equal(input.session_id, missionId, 'session_id is the mission');
      assert.equal(input.cwd, s.ws, 'cwd is the workspace');
      assert.equal(input.transcript_path, join(s.root, 'trace.jsonl'), 'transcript_path is the trace');
    }
    assert.equal(pre.hook_event_name, 'PreToolUse');
    assert.equal(pre.tool_name, 'Write');
    assert.deepEqual(pre.tool_input, { file_path: join(s.ws, 'src/new.txt'), content: 'new\n' });
    assert.equal(pre.step_id, 's1');
    assert.deepEqual(read('post').tool_response, { filePath: join(s.ws, 'src/new.txt'), success: true });
    assert.equal(read('prompt').prompt, 'hooks case task');
    assert.equal(read('session').source, 'startup');
    assert.equal(read('stop').stop_hook_active, false);
  });
});
