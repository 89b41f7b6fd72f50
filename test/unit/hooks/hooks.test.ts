import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Hook } from '../../../src/core/contracts/hooks';
import { readHookFile, type HookFileInput } from '../../../src/core/hooks/settings';
import { hooksFor, matches, toolUseOf, type OurToolCall } from '../../../src/core/hooks/matching';
import { answerOf, combine, type HookProcessEnd } from '../../../src/core/hooks/answer';
import { hookSetOf, trustKey, untrustedFiles } from '../../../src/core/hooks/trust';
import { discoverProjectHooks } from '../../../src/core/hooks/discover';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';

const claude = (text: string, extra: Partial<HookFileInput> = {}) =>
  readHookFile({ text, source: '.claude/settings.json', origin: 'project', format: 'claude', platform: 'linux', ...extra });

const hook = (overrides: Partial<Hook> = {}): Hook => ({
  event: 'PreToolUse',
  matcher: '',
  command: 'check.sh',
  timeoutSec: 60,
  failClosed: false,
  source: '.claude/settings.json',
  origin: 'project',
  env: {},
  ...overrides,
});

const ended = (overrides: Partial<HookProcessEnd> = {}): HookProcessEnd => ({ exitCode: 0, timedOut: false, stdout: '', stderr: '', ...overrides });

describe('hooks', () => {
  describe('settings files', () => {
    it("reads Claude Code's shape: event → matcher groups → command hooks, with timeouts and failClosed", () => {
      const file = claude(
        JSON.stringify({
          permissions: { allow: ['Bash(npm test)'] },
          hooks: {
            PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'lint.sh', timeout: 5, failClosed: true }] }],
            Stop: [{ hooks: [{ type: 'command', command: 'stop.sh' }] }],
          },
        }),
      );
      assert.deepEqual(file.notes, []);
      assert.deepEqual(
        file.hooks.map((h) => [h.event, h.matcher, h.command, h.timeoutSec, h.failClosed]),
        [
          ['PreToolUse', 'Edit|Write', 'lint.sh', 5, true],
          ['Stop', '', 'stop.sh', 600, false],
        ],
      );
      assert.match(file.hash, /^[0-9a-f]{64}$/);
    });

    it('cuts a timeout past a day to a day, and says so', () => {
      const file = claude(JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'policy.sh', timeout: 1e8 }] }] } }));
      assert.deepEqual(
        file.hooks.map((h) => h.timeoutSec),
        [86_400],
      );
      assert.match(file.notes.join('\n'), /PreToolUse\[0\]\.hooks\[0\]: its timeout of 100000000 s is cut to 86400 s/);
    });

    it('keeps every good entry of a file and names each one it does not use, with why', () => {
      const file = claude(
        JSON.stringify({
          hooks: {
            PreToolUse: [
              { matcher: 'Bash', hooks: [{ type: 'command', command: 'ok.sh' }, { type: 'prompt', prompt: 'is it safe?' }, { type: 'command' }] },
              { matcher: '(unclosed', hooks: [{ type: 'command', command: 'never.sh' }] },
              'not an object',
            ],
            Notification: [{ hooks: [{ type: 'command', command: 'notify.sh' }] }],
            PostToolUse: { matcher: 'x' },
          },
        }),
      );
      assert.deepEqual(
        file.hooks.map((h) => h.command),
        ['ok.sh'],
      );
      const notes = file.notes.join('\n');
      for (const expected of [
        /only "command" hooks run here \(this one is "prompt"\)/,
        /names no command/,
        /not a regular expression/,
        /PreToolUse\[2\] not used/,
        /Notification hooks not used/,
        /PostToolUse not used — it must be a list/,
      ])
        assert.match(notes, expected);
    });

    it('a malformed file is a note, never a throw, and never quotes the file', () => {
      const file = claude('{"hooks": {"PreToolUse": [ SECRET-TEXT-1234');
      assert.deepEqual(file.hooks, []);
      assert.equal(file.notes.length, 1);
      assert.match(file.notes[0]!, /not valid JSON/);
      assert.doesNotMatch(file.notes[0]!, /SECRET-TEXT-1234/);
      assert.deepEqual(claude('[1, 2]').hooks, []);
      assert.match(claude('[1, 2]').notes[0]!, /not used/);
    });

    it("reads .github/hooks: flat commands (every tool), Copilot's camelCase events, bash and timeoutSec, the platform's own command", () => {
      const text = JSON.stringify({
        version: 1,
        hooks: {
          preToolUse: [{ type: 'command', bash: 'copilot.sh', timeoutSec: 9, cwd: 'scripts' }],
          PostToolUse: [{ type: 'command', command: 'fmt.sh', linux: 'fmt-linux.sh', osx: 'fmt-mac.sh', env: { LEVEL: '2' } }],
          Stop: [{ matcher: '', hooks: [{ type: 'command', command: 'stop.sh' }] }],
          agentStop: [{ type: 'command', command: 'agent-stop.sh' }],
        },
      });
      const linux = readHookFile({ text, source: '.github/hooks/a.json', origin: 'project', format: 'github', platform: 'linux' });
      assert.deepEqual(
        linux.hooks.map((h) => [h.event, h.matcher, h.command, h.timeoutSec, h.env]),
        [
          ['PreToolUse', '', 'copilot.sh', 9, {}],
          ['PostToolUse', '', 'fmt-linux.sh', 30, { LEVEL: '2' }],
          ['Stop', '', 'stop.sh', 30, {}],
          ['Stop', '', 'agent-stop.sh', 30, {}],
        ],
      );
      assert.match(linux.notes.join('\n'), /"cwd" is ignored/);
      const mac = readHookFile({ text, source: '.github/hooks/a.json', origin: 'project', format: 'github', platform: 'darwin' });
      assert.equal(mac.hooks[1]!.command, 'fmt-mac.sh');
      // camelCase and flat commands are .github/hooks' own: in a Claude settings file they are not read.
      const inClaude = claude(text);
      assert.deepEqual(
        inClaude.hooks.map((h) => h.command),
        ['stop.sh'],
      );
    });

    it('reads .codex/hooks.json like Claude settings (statusMessage ignored)', () => {
      const file = readHookFile({
        text: JSON.stringify({
          hooks: { PreToolUse: [{ matcher: '^Bash$', hooks: [{ type: 'command', command: 'p.py', timeout: 30, statusMessage: 'Checking' }] }] },
        }),
        source: '.codex/hooks.json',
        origin: 'project',
        format: 'codex',
        platform: 'linux',
      });
      assert.deepEqual(
        file.hooks.map((h) => [h.matcher, h.command, h.timeoutSec]),
        [['^Bash$', 'p.py', 30]],
      );
    });
  });

  describe('matching', () => {
    const table: [string, string, boolean][] = [
      ['', 'Bash', true],
      ['*', 'mcp__db__query', true],
      ['Bash', 'Bash', true],
      ['Bash', 'BashOutput', false],
      ['Edit|Write', 'Write', true],
      ['Edit|Write', 'MultiEdit', false],
      ['mcp__db__.*', 'mcp__db__query', true],
      ['mcp__db__.*', 'mcp__dbx__query', false],
      ['Notebook.*', 'NotebookEdit', true],
      ['^Bash$', 'Bash', true],
      ['bash', 'Bash', false],
      ['(unclosed', 'Bash', false],
    ];
    for (const [matcher, name, expected] of table) {
      it(`matcher ${JSON.stringify(matcher)} ${expected ? 'takes' : 'does not take'} ${name}`, () => assert.equal(matches(matcher, name), expected));
    }

    it('picks the event, matches the tool (or SessionStart source), ignores matchers where Claude does, runs one command once', () => {
      const hooks = [
        hook({ matcher: 'Bash', command: 'a' }),
        hook({ matcher: 'Edit', command: 'b' }),
        hook({ matcher: '*', command: 'a', source: '.github/hooks/x.json' }),
        hook({ event: 'Stop', matcher: 'Bash', command: 'stop' }),
        hook({ event: 'SessionStart', matcher: 'resume', command: 'on-resume' }),
        hook({ event: 'SessionStart', matcher: 'startup|resume', command: 'on-start' }),
        hook({ matcher: 'Bash', command: 'a', origin: 'user', source: '~/.claude/settings.json' }),
      ];
      assert.deepEqual(
        hooksFor(hooks, 'PreToolUse', 'Bash').map((h) => `${h.command}@${h.source}`),
        ['a@.claude/settings.json', 'a@~/.claude/settings.json'],
      );
      assert.deepEqual(
        hooksFor(hooks, 'Stop').map((h) => h.command),
        ['stop'],
      );
      assert.deepEqual(
        hooksFor(hooks, 'SessionStart', 'startup').map((h) => h.command),
        ['on-start'],
      );
    });

    it('names our tools as Claude Code does, with absolute file paths', () => {
      const root = '/w';
      const names: [OurToolCall, string, Record<string, unknown>][] = [
        [{ tool: 'view', path: 'src/a.ts' }, 'Read', { file_path: '/w/src/a.ts' }],
        [{ tool: 'view', path: './src/a.ts', range: [3, 9] }, 'Read', { file_path: '/w/src/a.ts', offset: 3, limit: 7 }],
        [{ tool: 'create', path: '/w/b.md', text: 'x' }, 'Write', { file_path: '/w/b.md', content: 'x' }],
        [{ tool: 'str_replace', path: 'a', oldText: 'o', newText: 'n' }, 'Edit', { file_path: '/w/a', old_string: 'o', new_string: 'n', replace_all: false }],
        [{ tool: 'insert', path: 'a', afterLine: 2, text: 't' }, 'Edit', { file_path: '/w/a', old_string: '', new_string: 't', insert_line: 2 }],
        [{ tool: 'bash', command: 'npm test' }, 'Bash', { command: 'npm test' }],
        [{ tool: 'list', path: '.' }, 'LS', { path: '/w' }],
        [{ tool: 'search', pattern: 'x', glob: '*.ts' }, 'Grep', { pattern: 'x', path: '/w', glob: '*.ts' }],
        [{ tool: 'mcp', name: 'mcp__db__query', arguments: { sql: 'select 1' } }, 'mcp__db__query', { sql: 'select 1' }],
      ];
      for (const [call, name, input] of names) assert.deepEqual(toolUseOf(call, root), { name, input }, JSON.stringify(call));
    });
  });

  describe('answers', () => {
    const pre = hook();
    const post = hook({ event: 'PostToolUse' });
    const prompt = hook({ event: 'UserPromptSubmit' });
    const session = hook({ event: 'SessionStart' });
    const json = (v: unknown): string => JSON.stringify(v);
    const table: [string, Hook, HookProcessEnd, { decision: string; reason?: RegExp; context?: string; warning?: RegExp }][] = [
      ['exit 0, nothing said', pre, ended(), { decision: 'none' }],
      ['exit 2 denies a tool, stderr the reason', pre, ended({ exitCode: 2, stderr: 'no rm\n' }), { decision: 'deny', reason: /^no rm$/ }],
      ['exit 2 blocks PostToolUse', post, ended({ exitCode: 2, stderr: 'lint failed' }), { decision: 'block', reason: /lint failed/ }],
      ['exit 2 blocks the prompt', prompt, ended({ exitCode: 2, stderr: 'not today' }), { decision: 'block', reason: /not today/ }],
      ['exit 2 on SessionStart is only a warning', session, ended({ exitCode: 2, stderr: 'meh' }), { decision: 'none', warning: /cannot block/ }],
      [
        'another exit code is a warning naming the hook',
        pre,
        ended({ exitCode: 1, stderr: 'jq: not found' }),
        { decision: 'none', warning: /check\.sh.*exit code 1: jq: not found; the action proceeds/ },
      ],
      ['a timeout is a warning', pre, ended({ exitCode: null, timedOut: true }), { decision: 'none', warning: /timed out after 60 s/ }],
      [
        'a timeout with failClosed denies',
        hook({ failClosed: true }),
        ended({ exitCode: null, timedOut: true }),
        { decision: 'deny', reason: /failClosed/, warning: /timed out/ },
      ],
      [
        'a crash with failClosed blocks PostToolUse',
        hook({ event: 'PostToolUse', failClosed: true }),
        ended({ exitCode: 127 }),
        { decision: 'block', reason: /exit code 127/, warning: /exit code 127/ },
      ],
      ['could not start', pre, ended({ exitCode: null, startError: 'no sandbox' }), { decision: 'none', warning: /could not run: no sandbox/ }],
      [
        'JSON deny with reason',
        pre,
        ended({ stdout: json({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'prod' } }) }),
        { decision: 'deny', reason: /^prod$/ },
      ],
      ['JSON allow', pre, ended({ stdout: json({ hookSpecificOutput: { permissionDecision: 'allow' } }) }), { decision: 'allow' }],
      [
        'JSON ask',
        pre,
        ended({ stdout: json({ hookSpecificOutput: { permissionDecision: 'ask', permissionDecisionReason: 'sure?' } }) }),
        { decision: 'ask', reason: /sure\?/ },
      ],
      ['legacy decision approve', pre, ended({ stdout: json({ decision: 'approve' }) }), { decision: 'allow' }],
      ['legacy decision block on PreToolUse denies', pre, ended({ stdout: json({ decision: 'block', reason: 'r' }) }), { decision: 'deny', reason: /^r$/ }],
      ['decision block on PostToolUse', post, ended({ stdout: json({ decision: 'block', reason: 'fix it' }) }), { decision: 'block', reason: /fix it/ }],
      ['continue false stops', post, ended({ stdout: json({ continue: false, stopReason: 'halt' }) }), { decision: 'block', reason: /halt/ }],
      [
        'additionalContext is context',
        post,
        ended({ stdout: json({ hookSpecificOutput: { additionalContext: 'note A' } }) }),
        { decision: 'none', context: 'note A' },
      ],
      ['plain stdout of a prompt hook is context', prompt, ended({ stdout: 'branch: main\n' }), { decision: 'none', context: 'branch: main' }],
      ['plain stdout of a tool hook is ignored', pre, ended({ stdout: 'hello' }), { decision: 'none' }],
      ['malformed JSON is a warning, not a crash', pre, ended({ stdout: '{"hookSpecificOutput": ' }), { decision: 'none', warning: /not valid JSON/ }],
      [
        'JSON with a wrong field type is a warning',
        pre,
        ended({ stdout: json({ hookSpecificOutput: { permissionDecision: 'maybe' } }) }),
        { decision: 'none', warning: /does not read/ },
      ],
      [
        'updatedInput is refused with a warning',
        pre,
        ended({ stdout: json({ hookSpecificOutput: { updatedInput: { command: 'x' } } }) }),
        { decision: 'none', warning: /updatedInput/ },
      ],
      ['malformed JSON of a prompt hook is its context', prompt, ended({ stdout: '{not json' }), { decision: 'none', context: '{not json' }],
    ];
    for (const [title, h, end, want] of table) {
      it(title, () => {
        const a = answerOf(h, end);
        assert.equal(a.decision, want.decision);
        if (want.reason) assert.match(a.reason, want.reason);
        if (want.context !== undefined) assert.equal(a.context, want.context);
        if (want.warning) assert.match(a.warning, want.warning);
        else assert.equal(a.warning, '');
      });
    }

    it('the most restrictive answer of several hooks wins, and every context is kept', () => {
      const v = (decision: 'none' | 'allow' | 'ask' | 'deny', command: string, reason = '', context = '') => ({
        hook: hook({ command }),
        answer: { decision, reason, context, warning: '' },
      });
      assert.equal(combine([]).decision, 'none');
      assert.equal(combine([v('allow', 'a'), v('none', 'b')]).decision, 'allow');
      assert.equal(combine([v('allow', 'a'), v('ask', 'b', 'why')]).decision, 'ask');
      const c = combine([v('ask', 'a'), v('deny', 'b', 'no', 'ctx1'), v('allow', 'c', '', 'ctx2'), v('deny', 'd', 'never')]);
      assert.equal(c.decision, 'deny');
      assert.equal(c.reason, 'no\nnever');
      assert.deepEqual(c.by, ['b (.claude/settings.json)', 'd (.claude/settings.json)']);
      assert.deepEqual(c.context, ['ctx1', 'ctx2']);
    });
  });

  describe('trust', () => {
    const files = [
      { source: '~/.claude/settings.json', origin: 'user' as const, hash: 'u', hooks: [hook({ origin: 'user', command: 'mine' })], notes: [] },
      { source: '.claude/settings.json', origin: 'project' as const, hash: 'p1', hooks: [hook({ command: 'theirs' })], notes: ['a note'] },
      {
        source: '.github/hooks/x.json',
        origin: 'project' as const,
        hash: 'p2',
        hooks: [hook({ command: 'other', source: '.github/hooks/x.json' })],
        notes: [],
      },
    ];

    it("runs the user's hooks always, a project file's only when trusted by its content hash", () => {
      const trusted = new Set([trustKey(files[1]!)]);
      const set = hookSetOf(files, (f) => trusted.has(trustKey(f)));
      assert.deepEqual(
        set.hooks.map((h) => h.command),
        ['mine', 'theirs'],
      );
      assert.deepEqual(
        set.skipped.map((h) => h.command),
        ['other'],
      );
      assert.deepEqual(set.notes, ['a note']);
      assert.deepEqual(
        untrustedFiles(files, (f) => trusted.has(trustKey(f))).map((f) => f.source),
        ['.github/hooks/x.json'],
      );
    });

    it('a changed file is a new key: it asks again', () => {
      const before = claude(JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'a' }] }] } }));
      const after = claude(JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'a; curl evil' }] }] } }));
      assert.notEqual(trustKey(before), trustKey(after));
      assert.equal(hookSetOf([after], (f) => trustKey(f) === trustKey(before)).hooks.length, 0);
    });
  });

  describe('discovery', () => {
    let dir = '';
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pe-hooks-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    const put = (rel: string, text: string): void => {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), text);
    };

    it('reads the project files in order, .github/hooks/*.json sorted, and never through a link', async () => {
      const group = (command: string): string => JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] } });
      put('.claude/settings.json', group('one'));
      put('.claude/settings.local.json', group('two'));
      put('.codex/hooks.json', group('three'));
      put('.github/hooks/b.json', group('five'));
      put('.github/hooks/a.json', group('four'));
      put('.github/hooks/readme.md', 'not json');
      put('outside.json', group('linked'));
      symlinkSync(join(dir, 'outside.json'), join(dir, '.github/hooks/c.json'));
      const files = await discoverProjectHooks(await NodeWorkspace.open(dir), 'linux');
      assert.deepEqual(
        files.map((f) => [f.source, f.hooks.map((h) => h.command).join()]),
        [
          ['.claude/settings.json', 'one'],
          ['.claude/settings.local.json', 'two'],
          ['.codex/hooks.json', 'three'],
          ['.github/hooks/a.json', 'four'],
          ['.github/hooks/b.json', 'five'],
          ['.github/hooks/c.json', ''],
        ],
      );
      assert.match(files[5]!.notes[0]!, /it is a link/);
    });
  });
});
