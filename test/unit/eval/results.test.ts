import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEvalArgs } from '../../../src/node/eval/evalArgs';
import { evalMain } from '../../../src/node/eval/evalCommand';
import { rebasePath, serialise } from '../../../src/node/eval/evalOutputs';
import { htmlReport } from '../../../src/node/eval/htmlReport';
import { mergeFiles, parseEvalFile, type EvalFile } from '../../../src/node/eval/results';
import { markdownSummary } from '../../../src/node/eval/summary';
import { modeTotals, spreadOf } from '../../../src/node/eval/totals';
import { metricsOfTrace } from '../../../src/node/eval/traceMetrics';
import { config, evalFile, result } from './builders';
import type { StepInput } from '../../../src/core/contracts/plan';
import { plan, step as fixtureStep } from '../../support/fixtures';

describe('eval arguments', () => {
  const ok = (argv: string[]) => {
    const parsed = parseEvalArgs(argv);
    assert.ok(parsed.ok, !parsed.ok ? parsed.error : '');
    return parsed.value;
  };
  const error = (argv: string[]): string => {
    const parsed = parseEvalArgs(argv);
    assert.ok(!parsed.ok);
    return parsed.error;
  };

  it('runs both modes once, one at a time, by default', () => {
    assert.deepEqual(ok([]), { kind: 'run', modes: ['planned', 'direct'], models: {}, limits: {}, repeat: 1, concurrency: 1, only: [], keep: false });
  });

  it('takes the models and caps exactly as run does', () => {
    const args = ok([
      '--mode',
      'direct',
      '--provider',
      'openai',
      '--base-url',
      'http://localhost:11434/v1',
      '--model',
      'qwen',
      '--planner-model',
      'anthropic:big',
      '--max-cost=2',
      '--shard',
      '2/4',
      '--repeat',
      '3',
      '--task',
      'a',
      '--task',
      'b',
      '--keep',
    ]);
    assert.deepEqual(args, {
      kind: 'run',
      modes: ['direct'],
      models: { provider: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'qwen', plannerModel: 'anthropic:big' },
      limits: { budgets: { maxCostUsd: 2 } },
      repeat: 3,
      concurrency: 1,
      only: ['a', 'b'],
      keep: true,
      shard: { index: 2, count: 4 },
    });
    assert.match(error(['--provider', 'vscode-lm']), /only inside VS Code/);
  });

  it('refuses what it cannot mean, naming the flag', () => {
    assert.match(error(['--shard', '5/4']), /--shard must be I\/N/);
    assert.match(error(['--shard', '0/2']), /--shard/);
    assert.match(error(['--mode', 'both-ish']), /--mode must be planned, direct or both/);
    assert.match(error(['--repeat', '0']), /--repeat must be a whole number/);
    assert.match(error(['--workspace', 'x']), /unknown option --workspace for "eval"/);
    assert.match(error(['--json']), /--json needs a value/);
    assert.match(error(['merge']), /needs the result files/);
    assert.deepEqual(ok(['merge', 'a.json', 'b.json', '--report', 'r.html']), { kind: 'merge', inputs: ['a.json', 'b.json'], report: 'r.html' });
    assert.deepEqual(ok(['--help']), { kind: 'help' });
  });
});

const ev = (seq: number, body: Record<string, unknown>): string => JSON.stringify({ missionId: 'm-1', seq, at: '2026-12-01T10:00:00.000Z', ...body });
const step = (id: string): StepInput =>
  fixtureStep(id, { title: id, authority: { read: ['**'], edit: ['a'], commands: [] }, evidence: { checks: [{ kind: 'files_exist', paths: ['a'] }] } });
const call = (role: string, cost: number, pricing: string) => ({
  type: 'model_call',
  role,
  stepId: null,
  model: 'x',
  promptVersion: 'v1',
  usage: { inputTokens: 100, outputTokens: 10, cacheReadTokens: 300, cacheWriteTokens: 0 },
  costUsd: cost,
  durationMs: 5,
  stopReason: 'end_turn',
  pricing,
});
const verdict = (passed: boolean, check = 'npm test') => ({
  type: 'verification',
  verification: { stepId: 's1', passed, checks: [{ check, passed, detail: '' }], at: '2026-12-01T10:00:00.000Z' },
});

describe('eval trace metrics', () => {
  it('counts from the trace alone: calls, tokens, cost, steps, replans, refusals, verdicts', () => {
    const lines = [
      { type: 'mission_started', task: 't', workspaceRoot: '/ws', settings: {} },
      { type: 'plan_version', plan: plan([step('s1')], { goal: 'g' }), author: 'planner', diff: null },
      call('planner', 0.5, 'priced'),
      { type: 'step_status', stepId: 's1', status: 'running', attempt: 1 },
      call('executor', 0.25, 'unknown'),
      { type: 'policy_denied', stepId: 's1', action: 'write x', rule: 'authority.edit', reason: 'outside' },
      {
        type: 'command_sandbox',
        stepId: 's1',
        command: 'make',
        confinement: 'sandboxed',
        sandbox: 'bubblewrap',
        network: false,
        rolledBack: ['b'],
        unrestored: [],
      },
      {
        type: 'command_sandbox',
        stepId: 's1',
        command: 'ls',
        confinement: 'sandboxed',
        sandbox: 'bubblewrap',
        network: false,
        rolledBack: [],
        unrestored: [],
      },
      verdict(false),
      { type: 'step_status', stepId: 's1', status: 'failed', attempt: 1 },
      {
        type: 'replan',
        trigger: 'verification_failed',
        stepId: 's1',
        mode: 'rest',
        evidence: 'e',
        fromVersion: 1,
        toVersion: null,
        refusedBecause: ['changed s1'],
      },
      { type: 'replan', trigger: 'verification_failed', stepId: 's1', mode: 'rest', evidence: 'e', fromVersion: 1, toVersion: 2 },
      { type: 'plan_version', plan: plan([step('s1'), step('s2')], { goal: 'g', version: 2, parentVersion: 1 }), author: 'replanner', diff: null },
      { type: 'step_status', stepId: 's1', status: 'running', attempt: 2 },
      verdict(true),
      verdict(true, 'not verified'),
      { type: 'step_status', stepId: 's1', status: 'succeeded', attempt: 2 },
      { type: 'mission_finished', outcome: 'failed', summary: 's2 never ran' },
    ];
    const m = metricsOfTrace(`${lines.map((l, i) => ev(i, l)).join('\n')}\n{ torn`);
    assert.equal(m.traceProblems, 1, 'a torn last line is counted, not guessed at');
    assert.equal(m.modelCalls, 2);
    assert.deepEqual(m.byRole, { planner: { calls: 1, costUsd: 0.5 }, executor: { calls: 1, costUsd: 0.25 } });
    assert.deepEqual(m.tokens, { input: 200, output: 20, cacheRead: 600, cacheWrite: 0 });
    assert.equal(m.costUsd, 0.75);
    assert.equal(m.pricing, 'mixed');
    assert.deepEqual(m.steps, { planned: 2, attempts: 2, succeeded: 1, failed: 0 });
    assert.deepEqual(m.replans, { accepted: 1, refused: 1 });
    assert.equal(m.policyDenials, 1);
    assert.equal(m.sandboxDenials, 1);
    assert.deepEqual(m.verifications, { passed: 1, failed: 1, unverified: 1 });
    assert.equal(m.outcome, 'failed');
  });
});

describe('eval totals and merge', () => {
  it('spreads a figure over repeats: mean, min, max, sample standard deviation', () => {
    assert.deepEqual(spreadOf([0.5, 0.75, 1]), { mean: 0.75, min: 0.5, max: 1, sd: 0.25 });
    assert.deepEqual(spreadOf([0.4]), { mean: 0.4, min: 0.4, max: 0.4, sd: 0 });
  });

  it('rates resolved runs of those that ran, repeat by repeat; errors are counted apart', () => {
    const rs = [
      result({ task: 'a', mode: 'planned', repeat: 1, resolved: true }),
      result({ task: 'b', mode: 'planned', repeat: 1 }),
      result({ task: 'a', mode: 'planned', repeat: 2, resolved: true }),
      result({ task: 'b', mode: 'planned', repeat: 2, resolved: true, falseFail: true }),
      result({ task: 'c', mode: 'planned', repeat: 1, status: 'error', error: 'malformed' }),
      result({ task: 'a', mode: 'direct', repeat: 1, falseDone: true }),
    ];
    const t = modeTotals({ results: rs, repeat: 2 }, 'planned');
    assert.deepEqual([t.runs, t.ran, t.errors, t.resolved, t.resolveRate, t.perRepeat, t.falseFail], [5, 4, 1, 3, 0.75, [0.5, 1], 1]);
    assert.equal(t.spread.min, 0.5);
    assert.equal(t.tokens.cachedShare, 50 / 150);
    assert.equal(modeTotals({ results: rs, repeat: 2 }, 'direct').falseDone, 1);
  });

  it('merges shards of one configuration; other models stay apart; an overlap is refused', () => {
    const suite = config([result({ task: 'a', mode: 'planned' }), result({ task: 'b', mode: 'planned' })]).suite;
    const a = evalFile([config([result({ task: 'a', mode: 'planned', trace: 'traces/a.jsonl' })], { suite })]);
    const b = evalFile([config([result({ task: 'b', mode: 'planned' })], { suite })]);
    const other = evalFile([config([result({ task: 'a', mode: 'planned' })], { suite, models: { ...config([]).models, planner: 'anthropic:other' } })]);
    const merged = mergeFiles([
      { name: 'a', file: a, rebase: (p) => `shard1/${p}` },
      { name: 'b', file: b, rebase: (p) => p },
      { name: 'o', file: other, rebase: (p) => p },
    ]);
    assert.ok(merged.ok);
    assert.equal(merged.value.file.configs.length, 2);
    const [joined] = merged.value.file.configs;
    assert.deepEqual(
      joined!.results.map((r) => [r.task, r.trace]),
      [
        ['a', 'shard1/traces/a.jsonl'],
        ['b', null],
      ],
    );
    assert.equal(joined!.parts.length, 2);
    const overlap = mergeFiles([
      { name: 'a', file: a, rebase: (p) => p },
      { name: 'again', file: a, rebase: (p) => p },
    ]);
    assert.ok(!overlap.ok && /a \(planned, repeat 1\) is in both a and again/.test(overlap.error));
    assert.equal(rebasePath('traces/x.jsonl', '/r/shard1', '/r/merged'), '../shard1/traces/x.jsonl');
    assert.equal(rebasePath('/abs/x.jsonl', '/r/shard1', '/r/merged'), '/abs/x.jsonl');
  });

  it('says what a merge is missing: a shard that never came back', () => {
    const c = config([result({ task: 'a', mode: 'planned' })]);
    c.suite.tasks.push({ id: 'z', language: 'python', kind: 'bugfix', difficulty: 'easy' });
    const merged = mergeFiles([{ name: 'a', file: evalFile([c]), rebase: (p) => p }]);
    assert.ok(merged.ok);
    assert.match(merged.value.notes.join('\n'), /no results for 1 of 2 tasks \(z\)/);
  });

  it('reads a results file back only in its own format and version', () => {
    const text = serialise(evalFile([config([result({ task: 'a', mode: 'planned' })])]));
    const back = parseEvalFile(text, 'r.json');
    assert.ok(back.ok && back.value.configs[0]!.results.length === 1);
    assert.match(JSON.stringify(JSON.parse(text).configs[0].totals), /"resolveRate"/, 'totals are written for machines');
    const newer = parseEvalFile(JSON.stringify({ ...JSON.parse(text), version: 2 }), 'new.json');
    assert.ok(!newer.ok && /version 2; this build reads version 1/.test(newer.error));
    const wrong = parseEvalFile('{"format":"plan-execute-eval","version":1}', 'w.json');
    assert.ok(!wrong.ok && /w\.json is not an eval results file: createdAt/.test(wrong.error));
    assert.ok(!parseEvalFile('{', 'x.json').ok);
  });
});

describe('eval reports', () => {
  it('escapes everything a task, a model or a check wrote, and links only local paths', () => {
    const hostile = result({
      task: 'a',
      mode: 'planned',
      mission: { id: 'm', outcome: 'failed', summary: '<img src=x onerror=alert(1)>' },
      trace: 'javascript:alert(1)',
      log: 'logs/a b.log',
      check: { passed: false, exitCode: 1, signal: null, timedOut: false, durationMs: 1, outputTail: '</pre><script>x</script>' },
    });
    const file: EvalFile = evalFile([config([hostile])]);
    file.configs[0]!.suite.tasks[0]!.language = 'java|script <b>';
    const html = htmlReport(file);
    assert.doesNotMatch(html, /<script|<img|script <b>/);
    assert.match(html, /java\|script &#60;b&#62;/);
    assert.doesNotMatch(html, /href="javascript/);
    assert.match(html, /href="logs\/a%20b\.log"/);
    assert.match(markdownSummary(file), /\| a \| java\\\|script <b> \| bugfix \| ✗ \| – \|/);
  });

  it('says "local — no cost" when every run ran on this machine, and counts unpriced runs', () => {
    const local = evalFile([config([result({ task: 'a', mode: 'planned', pricing: 'local', costUsd: 0 })], { modes: ['planned'] })]);
    assert.match(markdownSummary(local), /\| cost \| local — no cost \|/);
    const unknown = evalFile([config([result({ task: 'a', mode: 'planned', pricing: 'unknown' })], { modes: ['planned'] })]);
    assert.match(markdownSummary(unknown), /1 run\(s\) at unknown price/);
  });
});

describe('the eval CI workflow', () => {
  it('runs the CLI with flags it takes, and merges what the shards upload', () => {
    const yaml = readFileSync(resolve(__dirname, '../../../.github/workflows/eval.yml'), 'utf8');
    const samples: Record<string, string> = {
      SHARD: '2/4',
      MODE: 'both',
      REPEAT: '3',
      PROVIDER: 'openai',
      MAX_COST: '2',
      MODEL: 'gpt-4.1',
      BASE_URL: 'http://localhost:4000/v1',
      TASKS: 'evals/tasks',
    };
    const argv = [...yaml.matchAll(/(--[a-z-]+) (?:"\$([A-Z_]+)"|([\w/.-]+))/g)].flatMap((m) => [m[1]!, m[2] ? (samples[m[2]] ?? `unknown ${m[2]}`) : m[3]!]);
    assert.ok(argv.includes('--shard') && argv.includes('--model'), argv.join(' '));
    const run = parseEvalArgs(argv.slice(0, argv.indexOf('--json')));
    assert.ok(run.ok, !run.ok ? run.error : '');
    assert.match(yaml, /workflow_dispatch:/);
    assert.match(yaml, /secrets\.ANTHROPIC_API_KEY/);
    assert.match(yaml, /shard: \$\{\{ fromJSON\(needs\.matrix\.outputs\.shards\) \}\}\n\s+model: \$\{\{ fromJSON\(inputs\.models\) \}\}/);
    const merge = /node dist\/cli\.js eval (merge [^\n]+)/.exec(yaml)?.[1]?.split(' ') ?? [];
    assert.ok(parseEvalArgs(merge).ok, merge.join(' '));
  });
});

describe('eval setup', () => {
  const io = (env: Record<string, string | undefined>) => {
    let out = '';
    let err = '';
    const sink = (add: (t: string) => void) => ({ write: (t: string) => (add(t), true) }) as unknown as NodeJS.WritableStream;
    return { io: { stdin: process.stdin, stdout: sink((t) => (out += t)), stderr: sink((t) => (err += t)), env }, out: () => out, err: () => err };
  };

  it('stops before any run when no model could answer or no sandbox could confine: exit 2, saying what to do', async () => {
    const noKey = io({});
    assert.equal(await evalMain(['--task', 'js-median-even'], noKey.io), 2);
    assert.match(noKey.err(), /set ANTHROPIC_API_KEY/);
    const noModel = io({});
    assert.equal(await evalMain(['--provider', 'openai', '--base-url', 'http://localhost:11434/v1'], noModel.io), 2);
    assert.match(noModel.err(), /no model for the light tier on openai/);
    const unknown = io({ ANTHROPIC_API_KEY: 'k' });
    assert.equal(await evalMain(['--task', 'no-such-task'], unknown.io), 2);
    assert.match(unknown.err(), /no task no-such-task in .*evals\/tasks/);
    const saved = process.env.PLAN_EXECUTE_BWRAP;
    process.env.PLAN_EXECUTE_BWRAP = '/nonexistent/bwrap';
    try {
      const noSandbox = io({ ANTHROPIC_API_KEY: 'k' });
      assert.equal(await evalMain(['--task', 'js-median-even', '--sandbox', 'required'], noSandbox.io), 2);
      assert.match(noSandbox.err(), /no OS sandbox here \(bubblewrap \(bwrap\) is not installed.*--sandbox off/);
    } finally {
      if (saved === undefined) delete process.env.PLAN_EXECUTE_BWRAP;
      else process.env.PLAN_EXECUTE_BWRAP = saved;
    }
  });

  it('prints its help, with how to run it with a key, a local model and in CI', async () => {
    const help = io({});
    assert.equal(await evalMain(['--help'], help.io), 0);
    assert.match(help.out(), /ANTHROPIC_API_KEY=… npm run eval/);
    assert.match(help.out(), /--base-url http:\/\/localhost:11434\/v1 --model qwen2\.5-coder:7b/);
    assert.match(help.out(), /\.github\/workflows\/eval\.yml/);
  });
});
