/**
 * The other events and the trust rule, through the real CLI with real hook scripts: Stop blocks once and
 * the mission still succeeds; UserPromptSubmit context reaches the planner, and its exit 2 stops the
 * mission before any model call; untrusted project hooks do not run without --trust-hooks (each named on
 * stderr) while the user's own hooks do; a hook past its timeout is reported, not waited for, and its
 * process group is gone.
 */
import { strict as assert } from 'node:assert';
import { cpSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cliPath, spawnCli } from '../../support/cliBinary';
import { createFile, done, replace, sh } from '../../support/messages-server/toolUses';
import { put, runHookMission, sentText, settings, story, use, useScenes } from './hookScene';

describe('hooks: Stop, the start of a mission, trust and timeouts', function () {
  this.timeout(180_000);
  const scenes = useScenes();

  it('Stop blocks once (the executor reads why and goes on, stop_hook_active true on the repeat) and the mission succeeds', async () => {
    const s = scenes.scene();
    put(
      s.ws,
      '.claude/hooks/stop.sh',
      `#!/bin/bash
input=$(cat)
case "$input" in
  *'"stop_hook_active":true'*) exit 0 ;;
esac
echo "run the tests first: node -e 'require(\\"./src/app.js\\")'" >&2
exit 2
`,
      0o755,
    );
    put(s.ws, '.claude/settings.json', settings({ Stop: [{ hooks: [{ command: '.claude/hooks/stop.sh' }] }] }));
    const m = await runHookMission(s, {
      args: ['--trust-hooks'],
      steps: [
        {
          id: 's1',
          edit: ['src/**'],
          commands: ['node -e *'],
          turns: [
            { toolUse: [{ id: 'first-report', name: 'report_result', input: { status: 'succeeded', output: 'done', evidence: [{ description: 'done' }] } }] },
            use(sh('tests', 'node -e "require(\'./src/app.js\')"')),
            done('tests ran'),
          ],
        },
      ],
    });
    assert.equal(m.code, 0, `the mission succeeded${story(m)}`);
    const first = m.toolResults.get('first-report');
    assert.ok(first?.isError, 'the first report was sent back');
    assert.match(first.content, /run the tests first/, 'the executor read the hook stderr');
    assert.ok(m.toolResults.has('tests'), 'the executor went on and ran the tests');
    const stops = m.hookRuns.filter((r) => r.event === 'Stop');
    assert.deepEqual(
      stops.map((r) => r.decision),
      ['block', 'none'],
      story(m),
    );
  });

  it("UserPromptSubmit's output and SessionStart's additionalContext reach the planner", async () => {
    const s = scenes.scene();
    put(s.ws, '.claude/hooks/prompt.sh', '#!/bin/bash\ncat > /dev/null\necho "Team note: the release branch is frozen-7731."\n', 0o755);
    put(
      s.home,
      '.claude/settings.json',
      settings({
        SessionStart: [
          { hooks: [{ command: `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"user context 5521"}}'` }] },
        ],
      }),
    );
    put(s.ws, '.claude/settings.json', settings({ UserPromptSubmit: [{ hooks: [{ command: '.claude/hooks/prompt.sh' }] }] }));
    const m = await runHookMission(s, { args: ['--trust-hooks'], steps: [{ id: 's1', edit: ['src/**'], turns: [done()] }] });
    assert.equal(m.code, 0, story(m));
    const planner = sentText(m, 'planner');
    assert.match(planner, /the release branch is frozen-7731/, 'the project hook stdout reached the planner');
    assert.match(planner, /user context 5521/, "the user hook's additionalContext reached the planner");
  });

  it('UserPromptSubmit exit 2 stops the mission before any model call, and the user reads why', async () => {
    const s = scenes.scene();
    put(
      s.ws,
      '.claude/settings.json',
      settings({ UserPromptSubmit: [{ hooks: [{ command: 'cat > /dev/null; echo "no missions on Fridays (ticket 88)" >&2; exit 2' }] }] }),
    );
    const m = await runHookMission(s, { args: ['--trust-hooks'], steps: [{ id: 's1', edit: ['src/**'], turns: [done()] }] });
    assert.equal(m.requests.length, 0, `no model request was made${story(m)}`);
    assert.equal(m.code, 1, 'the mission failed');
    assert.match(m.stderr + m.stdout, /no missions on Fridays \(ticket 88\)/, 'the user reads the hook stderr');
  });

  it('untrusted project hooks do not run without --trust-hooks (each named on stderr), while the user hooks do', async () => {
    const s = scenes.scene();
    put(s.ws, '.claude/settings.json', settings({ PreToolUse: [{ matcher: 'Write', hooks: [{ command: 'cat > /dev/null; echo denied >&2; exit 2' }] }] }));
    put(s.ws, '.github/hooks/audit.json', JSON.stringify({ hooks: { PostToolUse: [{ type: 'command', command: 'echo github-hook >&2' }] } }));
    put(s.home, '.claude/settings.json', settings({ PostToolUse: [{ matcher: 'Write', hooks: [{ command: `cat > "${s.marks}/user-post.json"` }] }] }));
    const m = await runHookMission(s, { steps: [{ id: 's1', edit: ['src/**'], turns: [use(createFile('w', 'src/new.txt', 'new\n')), done()] }] });
    assert.equal(readFileSync(join(s.ws, 'src/new.txt'), 'utf8'), 'new\n', `the untrusted deny hook did not run${story(m)}`);
    assert.match(
      m.stderr,
      /hook skipped[^\n]*\.claude\/settings\.json[^\n]*PreToolUse[^\n]*echo denied >&2; exit 2/,
      'the skipped hook is named by file and command',
    );
    assert.match(m.stderr, /hook skipped[^\n]*\.github\/hooks\/audit\.json[^\n]*echo github-hook/, 'every skipped file is named');
    assert.ok(existsSync(join(s.marks, 'user-post.json')), 'the user hook ran');
    assert.ok(
      m.hookRuns.every((r) => r.source === '~/.claude/settings.json'),
      'only the user hook ran',
    );
  });

  it("a hook past its timeout is reported and not waited for; the action proceeds, and the hook's process group is gone", async () => {
    const s = scenes.scene();
    const pidFile = join(s.marks, 'pids');
    put(
      s.home,
      '.claude/settings.json',
      settings({
        PreToolUse: [
          { matcher: 'Write', hooks: [{ command: `cat > /dev/null; sleep 300 & echo $! >> "${pidFile}"; echo $$ >> "${pidFile}"; wait`, timeout: 1 }] },
        ],
      }),
    );
    const started = Date.now();
    const m = await runHookMission(s, { steps: [{ id: 's1', edit: ['src/**'], turns: [use(createFile('w', 'src/new.txt', 'new\n')), done()] }] });
    assert.ok(Date.now() - started < 60_000, 'the mission did not wait for the hook');
    assert.equal(readFileSync(join(s.ws, 'src/new.txt'), 'utf8'), 'new\n', `the action proceeded${story(m)}`);
    const run = m.hookRuns.find((r) => r.event === 'PreToolUse');
    assert.ok(run?.timedOut, story(m));
    assert.match(run.warning ?? '', /timed out after 1 s/);
    assert.match(run.warning ?? '', /sleep 300/, 'the failure names the hook');
    const pids = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
    assert.equal(pids.length, 2, 'the hook wrote its shell and its child');
    const alive = pids.filter((pid) => existsSync(`/proc/${pid}`) && !/^\S+ \(\S+\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8')));
    assert.deepEqual(alive, [], 'no process of the hook is left');
    assert.ok(readdirSync(s.marks).length > 0);
  });

  it('a timeout too long for a timer still lets the hook finish and deny (it is cut to a day, never to nothing)', async () => {
    const s = scenes.scene();
    put(
      s.home,
      '.claude/settings.json',
      settings({ PreToolUse: [{ matcher: 'Write', hooks: [{ command: 'cat > /dev/null; sleep 1; echo "policy 12 says no" >&2; exit 2', timeout: 1e8 }] }] }),
    );
    const m = await runHookMission(s, { steps: [{ id: 's1', edit: ['src/**'], turns: [use(createFile('w', 'src/new.txt', 'new\n')), done()] }] });
    assert.equal(existsSync(join(s.ws, 'src/new.txt')), false, `the hook denied the write${story(m)}`);
    assert.match(m.toolResults.get('w')?.content ?? '', /policy 12 says no/, story(m));
    assert.match(m.stderr, /timeout of 100000000 s is cut to 86400 s/, 'the user is told');
  });

  it('"failClosed": a hook that times out blocks instead', async () => {
    const s = scenes.scene();
    put(s.home, '.claude/settings.json', settings({ PreToolUse: [{ matcher: 'Write', hooks: [{ command: 'sleep 30', timeout: 1, failClosed: true }] }] }));
    const m = await runHookMission(s, { steps: [{ id: 's1', edit: ['src/**'], turns: [use(createFile('w', 'src/new.txt', 'new\n')), done()] }] });
    assert.equal(existsSync(join(s.ws, 'src/new.txt')), false, `the write was refused${story(m)}`);
    assert.match(m.toolResults.get('w')?.content ?? '', /timed out after 1 s[\s\S]*failClosed/, story(m));
  });

  it('a replay runs the recorded hooks again and matches the recording (a blocked edit, then the corrected one)', async () => {
    const s = scenes.scene();
    put(
      s.ws,
      '.claude/hooks/lint.sh',
      '#!/bin/bash\ncat > /dev/null\nif grep -q "var " "$CLAUDE_PROJECT_DIR/src/app.js"; then echo "no var" >&2; exit 2; fi\n',
      0o755,
    );
    put(s.ws, '.claude/settings.json', settings({ PostToolUse: [{ matcher: 'Edit', hooks: [{ command: '.claude/hooks/lint.sh' }] }] }));
    const before = join(s.root, 'before');
    cpSync(s.ws, before, { recursive: true });
    const m = await runHookMission(s, {
      args: ['--trust-hooks'],
      steps: [
        {
          id: 's1',
          edit: ['src/**'],
          turns: [use(replace('bad', 'src/app.js', '41', '42; var x')), use(replace('good', 'src/app.js', '41', '42')), done()],
        },
      ],
    });
    assert.equal(m.code, 0, story(m));
    const env = { PATH: process.env.PATH ?? '', HOME: s.home, XDG_RUNTIME_DIR: s.run, LANG: 'C.UTF-8' };
    const replay = await spawnCli(await cliPath(), ['replay', '--trace', join(s.root, 'trace.jsonl'), '--workspace', before], env, { timeoutMs: 120_000 });
    assert.equal(replay.code, 0, `the replay matched the recording\n${replay.stdout}\n${replay.stderr}`);
    assert.equal(readFileSync(join(before, 'src/app.js'), 'utf8'), 'exports.answer = 42;\n', 'the replayed hook took the bad edit back again');
    assert.match(replay.stderr, /hook PostToolUse \[s1\] on Edit[^\n]*BLOCKED/);
  });
});
