import { strict as assert } from 'node:assert';
import { modelFor, resolveModelSettings } from '../../../src/core/model/modelSettings';
import { modelSettingsFromFlags } from '../../../src/node/cliModels';
import { PassThrough } from 'node:stream';
import { helpFor, parseArgs } from '../../../src/node/cliArgs';
import { commandHelp, HELP, parseCommand, type CommandSpec } from '../../../src/node/cliFlags';
import { createTerminalApprover } from '../../../src/node/cliApprover';
import { parsedPlan, step } from '../../support/fixtures';

describe('cli arguments', () => {
  it('parses a run with every option', () => {
    const out = parseArgs([
      'run',
      '--workspace',
      '/tmp/ws',
      '--task',
      'fix it',
      '--approve',
      'all',
      '--trace',
      't.jsonl',
      '--max-cost',
      '0.5',
      '--constraint',
      'a',
      '--constraint',
      'b',
    ]);
    assert.deepEqual(out, {
      ok: true,
      value: {
        kind: 'run',
        workspace: '/tmp/ws',
        task: 'fix it',
        approve: 'all',
        trace: 't.jsonl',
        limits: { budgets: { maxCostUsd: 0.5 } },
        constraints: ['a', 'b'],
        json: false,
        models: {},
        instructions: true,
        skipInstructions: [],
        mcpConfigs: [],
      },
    });
  });

  it('parses the setup options: --no-instructions (a switch), --skip-instruction and --mcp-config (repeatable)', () => {
    const out = parseArgs([
      'run',
      '--workspace',
      'w',
      '--task',
      't',
      '--no-instructions',
      '--skip-instruction',
      'CLAUDE.md',
      '--mcp-config',
      'a.json',
      '--mcp-config',
      'b.json',
      '--json',
    ]);
    assert.ok(out.ok && out.value.kind === 'run');
    assert.deepEqual(
      [out.value.instructions, out.value.skipInstructions, out.value.mcpConfigs, out.value.json],
      [false, ['CLAUDE.md'], ['a.json', 'b.json'], true],
    );
    assert.deepEqual(parseArgs(['run', '--workspace', 'w', '--task', 't', '--mcp-config']), { ok: false, error: '--mcp-config needs a value (FILE)' });
    assert.equal(parseArgs(['replay', '--trace', 't', '--no-instructions']).ok, false, 'a replay uses the recorded instructions');
  });

  it('parses every cap, in the units the engine uses, and refuses a cap that is not a whole positive number', () => {
    const out = parseArgs([
      'run',
      '--workspace',
      'w',
      '--task',
      't',
      '--max-tokens',
      '500000',
      '--max-replans',
      '6',
      '--max-minutes',
      '90',
      '--max-step-attempts',
      '250',
      '--max-plan-steps',
      '80',
    ]);
    assert.deepEqual(out.ok && out.value.kind === 'run' ? out.value.limits : null, {
      maxPlanSteps: 80,
      budgets: { maxTokens: 500_000, maxReplans: 6, maxWallMs: 90 * 60_000, maxSteps: 250 },
    });
    for (const bad of [
      ['--max-replans', '0'],
      ['--max-minutes', '1.5'],
      ['--max-plan-steps', 'many'],
    ]) {
      assert.equal(parseArgs(['run', '--workspace', 'w', '--task', 't', ...bad]).ok, false, bad.join(' '));
    }
  });

  it('parses continue with the same options, the mission optional, and no task', () => {
    const out = parseArgs(['continue', '--workspace', 'w', '--mission', 'm-abc', '--approve', 'plan', '--max-cost', '12']);
    assert.deepEqual(out, {
      ok: true,
      value: {
        kind: 'continue',
        workspace: 'w',
        mission: 'm-abc',
        approve: 'plan',
        limits: { budgets: { maxCostUsd: 12 } },
        json: false,
        models: {},
        instructions: true,
        skipInstructions: [],
        mcpConfigs: [],
      },
    });
    assert.equal(parseArgs(['continue', '--workspace', 'w', '--task', 't']).ok, false, 'a continued mission keeps its task');
    assert.deepEqual(parseArgs(['continue']), { ok: false, error: 'continue needs --workspace DIR' });
  });

  it('parses the provider and model options; --model alone is enough', () => {
    const out = parseArgs([
      'run',
      '--workspace',
      'w',
      '--task',
      't',
      '--provider',
      'openai',
      '--base-url',
      'http://localhost:11434/v1',
      '--model',
      'qwen2.5-coder:7b',
      '--planner-model',
      'anthropic:claude-opus-5-5',
    ]);
    assert.deepEqual(out.ok && out.value.kind === 'run' ? out.value.models : null, {
      provider: 'openai',
      baseUrl: 'http://localhost:11434/v1',
      model: 'qwen2.5-coder:7b',
      plannerModel: 'anthropic:claude-opus-5-5',
    });
    const models = modelSettingsFromFlags({ provider: 'openai', model: 'qwen2.5-coder:7b', plannerModel: 'anthropic:claude-opus-5-5' });
    const settings = resolveModelSettings(models);
    assert.deepEqual(
      modelFor(settings, 'executor', 'light'),
      { provider: 'openai', model: 'qwen2.5-coder:7b', temperature: 0, maxTokens: 8000 },
      'an Ollama tag is a model name, not a provider',
    );
    assert.equal(modelFor(settings, 'verifier').model, 'qwen2.5-coder:7b');
    assert.deepEqual(
      [modelFor(settings, 'planner').provider, modelFor(settings, 'replanner').model],
      ['anthropic', 'claude-opus-5-5'],
      'a strong planner on another provider',
    );
    assert.match(parseArgs(['run', '--workspace', 'w', '--task', 't', '--provider', 'ollama']).ok ? '' : 'x', /x/);
    assert.equal(parseArgs(['run', '--workspace', 'w', '--task', 't', '--base-url', 'localhost:1234']).ok, false);
  });

  it('defaults to ask mode', () => {
    const out = parseArgs(['run', '--workspace', 'w', '--task', 't']);
    assert.ok(out.ok && out.value.kind === 'run' && out.value.approve === 'ask');
  });

  it('refuses bad input with a message, never a throw', () => {
    assert.deepEqual(parseArgs(['run', '--task', 't']), { ok: false, error: 'run needs --workspace DIR' });
    assert.match(parseArgs(['run', '--workspace', 'w', '--task', 't', '--approve', 'some']).ok ? '' : 'approve must', /approve must/);
    assert.equal(parseArgs(['run', '--workspace', 'w', '--task', 't', '--max-cost', '-1']).ok, false);
    assert.equal(parseArgs(['fly']).ok, false);
    assert.equal(parseArgs(['replay']).ok, false);
    assert.equal(parseArgs(['run', '--workspace', 'w', '--task', 't', '--bogus', 'x']).ok, false);
  });

  it('parses --sandbox and refuses an unknown mode', () => {
    const out = parseArgs(['run', '--workspace', 'w', '--task', 't', '--sandbox', 'prefer']);
    assert.ok(out.ok && out.value.kind === 'run' && out.value.sandbox === 'prefer');
    const none = parseArgs(['run', '--workspace', 'w', '--task', 't']);
    assert.ok(none.ok && none.value.kind === 'run' && none.value.sandbox === undefined, 'unset: the platform default applies');
    const bad = parseArgs(['run', '--workspace', 'w', '--task', 't', '--sandbox', 'maybe']);
    assert.deepEqual(bad, { ok: false, error: '--sandbox must be required, prefer or off (got "maybe")' });
  });

  it('parses replay', () => {
    assert.deepEqual(parseArgs(['replay', '--trace', 'x.jsonl']), { ok: true, value: { kind: 'replay', trace: 'x.jsonl', json: false } });
  });
});

describe('cli help', () => {
  const helpOf = (argv: string[]): string => {
    const out = parseArgs(argv);
    assert.ok(out.ok && out.value.kind === 'help', `${argv.join(' ')} gives help: ${JSON.stringify(out)}`);
    return out.value.text;
  };

  it('gives every subcommand its own --help, also after other flags and in place of an error', () => {
    for (const sub of ['run', 'continue', 'replay']) {
      const text = helpOf([sub, '--help']);
      assert.match(text, new RegExp(`^usage: node dist/cli\\.js ${sub} `), sub);
      assert.equal(helpOf([sub, '-h']), text);
      assert.equal(helpOf(['help', sub]), text);
      // Whatever else is on the line (a flag without its value, an unknown one), --help answers.
      assert.equal(helpOf([sub, '--workspace', '--help']), text);
      assert.equal(helpOf([sub, '--bogus', 'x', '--help']), text);
    }
    const run = helpOf(['run', '--help']);
    for (const flag of [
      '--task TEXT',
      '--constraint TEXT …',
      '--approve ask|plan|all',
      '--sandbox required|prefer|off',
      '--no-instructions',
      '--max-cost USD',
      '--base-url URL',
      '--json',
    ])
      assert.ok(run.includes(flag), `run --help lists ${flag}`);
    assert.match(run, /anthropic {2}ANTHROPIC_API_KEY, required unless the endpoint is on this machine/);
    assert.match(helpOf(['replay', '--help']), /--trace FILE/);
    assert.doesNotMatch(helpOf(['replay', '--help']), /--approve/, 'replay lists only its own flags');
  });

  it('lists every command in the overview, with the way to each one’s help', () => {
    const text = helpOf(['--help']);
    for (const sub of ['run', 'continue', 'replay', 'eval']) assert.match(text, new RegExp(`node dist/cli\\.js ${sub} `));
    assert.match(text, /COMMAND --help/);
    assert.equal(helpOf([]), text);
    assert.equal(helpFor('nope'), text);
  });

  it('gives a declared flag its help and its parsing, with no code of its own (how other commands add theirs)', () => {
    const spec: CommandSpec<{ plan: string; trust: boolean }> = {
      name: 'demo',
      synopsis: 'demo --plan FILE [--trust-hooks]',
      summary: 'A command declared elsewhere.',
      flags: [
        { name: '--plan', value: 'FILE', help: 'the plan document to run' },
        { name: '--trust-hooks', help: "run the project's hooks" },
        { name: '--mode', value: 'MODE', choices: ['a', 'b'], help: 'one of two' },
      ],
      build: (f) => ({ ok: true, value: { plan: f.one('--plan') ?? '', trust: f.has('--trust-hooks') } }),
    };
    const help = commandHelp('pe', spec);
    assert.match(help, /^usage: pe demo --plan FILE \[--trust-hooks\]/);
    assert.match(help, /--plan FILE +the plan document to run/);
    assert.match(help, /--trust-hooks +run the project's hooks/);
    assert.match(help, /--mode a\|b +one of two/);
    assert.deepEqual(parseCommand(spec, ['--plan=p.md', '--trust-hooks']), { ok: true, value: { plan: 'p.md', trust: true } });
    assert.deepEqual(parseCommand(spec, ['--help']), { ok: true, value: HELP });
    assert.deepEqual(parseCommand(spec, ['--mode', 'c']), { ok: false, error: '--mode must be a or b (got "c")' });
    assert.deepEqual(parseCommand(spec, ['--trust-hooks=yes']), { ok: false, error: '--trust-hooks takes no value' });
    assert.deepEqual(parseCommand(spec, ['--other']), { ok: false, error: 'unknown option --other for "demo"' });
  });
});

describe('terminal approver', () => {
  const plan = parsedPlan([step('s1', { title: 'one', authority: { edit: ['a.txt'] }, evidence: undefined })], { goal: 'g' });
  const base = { id: 'r1', missionId: 'm', stepId: null, actionHash: 'h', why: 'because' };

  it('asks on the terminal in ask mode and answers in order', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const approver = createTerminalApprover('ask', { input, output });
    const signal = new AbortController().signal;
    const a = approver.request({ ...base, kind: 'plan', plan }, signal);
    const b = approver.request(
      {
        ...base,
        id: 'r2',
        kind: 'command',
        command: 'npm test',
        argv: ['npm', 'test'],
        cwd: '/ws',
        confinement: 'sandboxed',
        network: false,
        stepId: 's1',
        program: '/usr/bin/npm',
      },
      signal,
    );
    input.write('y\nnot now\n');
    assert.deepEqual(await a, { decision: 'approved', by: 'user' });
    assert.deepEqual(await b, { decision: 'rejected', reason: 'not now' });
    const shown = output.read()?.toString() ?? '';
    assert.match(shown, /Approve this plan\?/);
    assert.match(shown, /wants to run: npm test/);
    assert.match(shown, /program: \/usr\/bin\/npm/, 'the prompt names the program that runs');
    approver.close();
  });

  it('in plan mode asks only for the plan and approves actions by rule', async () => {
    const approver = createTerminalApprover('plan', { input: new PassThrough(), output: new PassThrough() });
    const d = await approver.request(
      { ...base, kind: 'write', path: 'a.txt', change: 'created', beforeHash: null, afterHash: 'x' },
      new AbortController().signal,
    );
    assert.deepEqual(d, { decision: 'approved', by: 'rule', rule: 'cli:approve=plan' });
  });

  it('asks for an unsandboxed command in every mode, all included, and says it is unsandboxed', async () => {
    for (const mode of ['all', 'plan'] as const) {
      const input = new PassThrough();
      const output = new PassThrough();
      const approver = createTerminalApprover(mode, { input, output });
      const sandboxed = await approver.request(
        { ...base, id: 'r1', kind: 'command', command: 'npm test', argv: ['npm', 'test'], cwd: '.', confinement: 'sandboxed', network: false },
        new AbortController().signal,
      );
      assert.equal(sandboxed.decision, 'approved');
      const asked = approver.request(
        { ...base, id: 'r2', kind: 'command', command: 'npm test', argv: ['npm', 'test'], cwd: '.', confinement: 'unsandboxed', network: true },
        new AbortController().signal,
      );
      input.write('n\n');
      assert.deepEqual(await asked, { decision: 'rejected', reason: 'n' }, mode);
      const shown = output.read()?.toString() ?? '';
      assert.match(shown, /UNSANDBOXED/);
      assert.match(shown, /network granted/);
      approver.close();
    }
  });

  it("says plainly whether a granted network also reaches this machine's loopback services", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const approver = createTerminalApprover('ask', { input, output });
    for (const [id, hostLoopback] of [
      ['h1', true],
      ['h2', false],
    ] as const) {
      const asked = approver.request(
        { ...base, id, kind: 'command', command: 'npm install', argv: ['npm', 'install'], cwd: '.', confinement: 'sandboxed', network: true, hostLoopback },
        new AbortController().signal,
      );
      input.write('n\n');
      await asked;
      const shown = output.read()?.toString() ?? '';
      if (hostLoopback)
        assert.match(shown, /network granted — the host's, so this machine's own services on 127\.0\.0\.1 \(debugger ports, databases, code-server\) too/);
      else assert.match(shown, /network granted \(its own: this machine's loopback services stay closed\)/);
    }
    approver.close();
  });

  it('rejects when stdin closes without an answer', async () => {
    const input = new PassThrough();
    const approver = createTerminalApprover('ask', { input, output: new PassThrough() });
    const p = approver.request({ ...base, kind: 'plan', plan }, new AbortController().signal);
    input.end();
    assert.deepEqual(await p, { decision: 'rejected', reason: 'no answer (stdin closed)' });
  });
});
