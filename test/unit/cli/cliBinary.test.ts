import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMessagesServer, type MessagesServer } from '../../support/messages-server/server';
import { startChatServer, type ChatServer } from '../../support/openai-server/server';
import { TraceEventSchema, type TraceEvent } from '../../../src/core/contracts/traceEvents';
import { e2eReplanScenario, e2eScenario } from '../e2e-mission/scenario';
import { runCli, useCliFixture } from './cliProcess';

describe('the CLI binary (bundled like dist/cli.js)', function () {
  this.timeout(60_000);
  const fixture = useCliFixture('pe-cli-');
  const { fresh } = fixture;
  let server: MessagesServer | ChatServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('runs a mission, reports on stdout, progress on stderr, exit 0; then replays it from the trace', async () => {
    server = await startMessagesServer({ scenario: e2eScenario({ parallelLatencyMs: 20 }) });
    const ws = fresh('run1');
    const trace = join(fixture.dir, 'run1.jsonl');
    const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.url };
    const run = await runCli(
      fixture.cli,
      [
        'run',
        '--workspace',
        ws,
        '--task',
        'Greet and say goodbye',
        '--constraint',
        'Do not touch package.json',
        '--approve',
        'all',
        '--trace',
        trace,
        '--max-cost',
        '1',
      ],
      env,
    );
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.match(run.stdout, /: succeeded/);
    assert.match(run.stdout, /Every required step succeeded/);
    assert.match(run.stdout, /executor: \d+ call\(s\), \$\d+\.\d{4}, \d+% of input read from cache/);
    assert.match(run.stderr, /s1: running/);
    assert.match(readFileSync(join(ws, 'src', 'index.js'), 'utf8'), /greet/);
    const modelCalls = server.requests.length;

    const replayWs = fresh('replay1');
    const replay = await runCli(fixture.cli, ['replay', '--trace', trace, '--workspace', replayWs], { PATH: process.env.PATH ?? '' });
    assert.equal(replay.code, 0, replay.stderr + replay.stdout);
    assert.equal(server.requests.length, modelCalls, 'the replay never called the API');
    assert.match(readFileSync(join(replayWs, 'src', 'index.js'), 'utf8'), /farewell/);
  });

  it('asks for plan approval on the terminal in ask mode, and a rejection exits 1 with no file touched', async () => {
    server = await startMessagesServer({ scenario: e2eScenario() });
    const ws = fresh('ask1');
    const run = await runCli(
      fixture.cli,
      ['run', '--workspace', ws, '--task', 'Greet', '--approve', 'ask'],
      { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url },
      'n\n',
    );
    assert.equal(run.code, 1);
    assert.match(run.stderr, /Approve this plan\?/);
    assert.equal(readFileSync(join(ws, 'src', 'index.js'), 'utf8'), "console.log('start');\n");
  });

  it('exits by itself after an approved ask-mode mission even though stdin stays open', async () => {
    server = await startMessagesServer({ scenario: e2eScenario({ parallelLatencyMs: 0 }) });
    const ws = fresh('ask2');
    const run = await runCli(
      fixture.cli,
      ['run', '--workspace', ws, '--task', 'Greet', '--approve', 'ask'],
      { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url },
      'y\n'.repeat(30),
      true,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /wants to run: node src\/index\.js/);
  });

  it('stops at a cap it names by its flag, then `continue` goes on with the same mission without a new plan', async () => {
    server = await startMessagesServer({ scenario: e2eScenario({ parallelLatencyMs: 0 }) });
    const ws = fresh('cap1');
    const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
    const first = await runCli(fixture.cli, ['run', '--workspace', ws, '--task', 'Greet and say goodbye', '--approve', 'all', '--max-step-attempts', '1'], env);
    assert.equal(first.code, 1, first.stderr + first.stdout);
    assert.match(first.stdout + first.stderr, /--max-step-attempts/, 'the message names the flag to raise');
    const missionId = /mission (m-[a-z0-9-]+)/.exec(first.stderr)?.[1];
    assert.ok(missionId, first.stderr);
    const plannerCalls = (): number => server!.requests.filter((r) => r.role === 'planner').length;
    const planned = plannerCalls();

    const next = await runCli(fixture.cli, ['continue', '--workspace', ws, '--approve', 'all'], env);
    assert.equal(next.code, 0, next.stderr + next.stdout);
    assert.match(next.stderr, new RegExp(`mission ${missionId} \\(continue\\)`), 'the same mission, continued');
    assert.match(next.stdout, /Every required step succeeded/);
    assert.equal(plannerCalls(), planned, 'no new plan was asked for');
    assert.match(readFileSync(join(ws, 'src', 'index.js'), 'utf8'), /farewell/);

    const again = await runCli(fixture.cli, ['continue', '--workspace', ws], env);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /already succeeded/);
  });

  it('fails loudly when a replay diverges from its recording', async () => {
    server = await startMessagesServer({ scenario: e2eScenario({ parallelLatencyMs: 0 }) });
    const ws = fresh('run2');
    const trace = join(fixture.dir, 'run2.jsonl');
    const run = await runCli(fixture.cli, ['run', '--workspace', ws, '--task', 'Greet', '--approve', 'all', '--trace', trace], {
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: server.url,
    });
    assert.equal(run.code, 0, run.stderr);
    const changed = fresh('replay2');
    writeFileSync(join(changed, 'EXTRA.md'), 'a file the recorded workspace did not have\n');
    const replay = await runCli(fixture.cli, ['replay', '--trace', trace, '--workspace', changed], { PATH: process.env.PATH ?? '' });
    assert.equal(replay.code, 3);
    assert.match(replay.stderr, /REPLAY DIVERGED: planner call differs/);
  });

  it('runs a whole mission on an OpenAI-compatible endpoint with --model alone (plan, parallel steps, a replan, a review), then replays it', async () => {
    const chat = await startChatServer({ scenario: e2eReplanScenario({ parallelLatencyMs: 150 }) });
    server = chat;
    const ws = fresh('openai1');
    const trace = join(fixture.dir, 'openai1.jsonl');
    const run = await runCli(
      fixture.cli,
      [
        'run',
        '--workspace',
        ws,
        '--task',
        'Greet and say goodbye',
        '--constraint',
        'Do not touch package.json',
        '--approve',
        'all',
        '--trace',
        trace,
        '--provider',
        'openai',
        '--base-url',
        chat.url,
        '--model',
        'local-coder',
      ],
      {},
    );
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.match(run.stdout, /replans: 1/);
    assert.match(run.stdout, /local — no cost/);
    assert.match(readFileSync(join(ws, 'src', 'index.js'), 'utf8'), /farewell\('world'\)/);
    assert.deepEqual(
      chat.requests.filter((r) => r.rejected).map((r) => r.rejected),
      [],
      'every request was one OpenAI accepts',
    );
    assert.deepEqual([...new Set(chat.requests.map((r) => r.role))].sort(), ['executor', 'planner', 'replanner', 'verifier']);
    assert.ok(
      chat.requests.every((r) => r.chat.model === 'local-coder'),
      '--model reached every role and tier',
    );
    const started = (id: string): number => chat.requests.find((r) => r.rule === id)!.at;
    const s2Done = chat.requests.filter((r) => r.rule === 's2').at(-1)!.at;
    assert.ok(started('s1') < s2Done && started('s2') < chat.requests.filter((r) => r.rule === 's1').at(-1)!.at, 's1 and s2 ran side by side');
    const events: TraceEvent[] = readFileSync(trace, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => TraceEventSchema.parse(JSON.parse(l)));
    const calls = events.filter((e): e is Extract<TraceEvent, { type: 'model_call' }> => e.type === 'model_call');
    assert.ok(calls.length > 0 && calls.every((c) => c.provider === 'openai' && c.pricing === 'local' && c.costUsd === 0));
    assert.ok(
      calls.every((c) => c.usage.inputTokens + c.usage.cacheReadTokens > 0),
      'usage from the endpoint',
    );

    const requests = chat.requests.length;
    const replay = await runCli(fixture.cli, ['replay', '--trace', trace, '--workspace', fresh('openai1-replay')], {});
    assert.equal(replay.code, 0, replay.stderr + replay.stdout);
    assert.equal(chat.requests.length, requests, 'the replay never called the endpoint');
  });

  it('refuses an OpenAI run without a key for the public API, and a provider that exists only in VS Code', async () => {
    const noKey = await runCli(fixture.cli, ['run', '--workspace', fixture.dir, '--task', 'x', '--provider', 'openai', '--model', 'gpt-4.1'], {});
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /set OPENAI_API_KEY/);
    const noModel = await runCli(
      fixture.cli,
      ['run', '--workspace', fixture.dir, '--task', 'x', '--provider', 'openai', '--base-url', 'http://localhost:11434/v1'],
      {},
    );
    assert.equal(noModel.code, 2);
    assert.match(noModel.stderr, /no model for the light tier on openai.*--model NAME/);
    const lm = await runCli(fixture.cli, ['run', '--workspace', fixture.dir, '--task', 'x', '--provider', 'vscode-lm'], {});
    assert.equal(lm.code, 2);
    assert.match(lm.stderr, /only inside VS Code/);
  });

  it('explains a bad command line and exits 2; --help on a subcommand prints its options and exits 0', async () => {
    const run = await runCli(fixture.cli, ['run', '--task', 'x'], {});
    assert.equal(run.code, 2);
    assert.match(run.stderr, /run needs --workspace DIR/);
    assert.match(run.stderr, /usage: node dist\/cli\.js run .*\n\(node dist\/cli\.js run --help lists every option\)/);
    const help = await runCli(fixture.cli, ['run', '--help'], {});
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /--task TEXT/);
    assert.equal(help.stderr, '');
  });

  it('checks the workspace before the key, needs no key on this machine, and prices a model it does not know as unknown', async () => {
    // No key and no workspace: the workspace is what the user fixes first, so it is named first.
    const nowhere = await runCli(fixture.cli, ['run', '--workspace', join(fixture.dir, 'nowhere'), '--task', 'x'], {});
    assert.equal(nowhere.code, 2);
    assert.match(nowhere.stderr, /--workspace \S*nowhere does not exist/);
    assert.doesNotMatch(nowhere.stderr, /API_KEY/);
    // A remote endpoint still needs the key.
    const remote = await runCli(fixture.cli, ['run', '--workspace', fresh('remote'), '--task', 'x', '--base-url', 'https://models.example.invalid'], {});
    assert.equal(remote.code, 2);
    assert.match(remote.stderr, /set ANTHROPIC_API_KEY: a role uses Anthropic at https:\/\/models\.example\.invalid/);
    // A server on this machine that answers as a model of its own: no key asked, and no price borrowed.
    server = await startMessagesServer({ scenario: e2eScenario(), answersAs: 'scripted-demo-model' });
    const ws = fresh('local');
    const local = await runCli(fixture.cli, ['run', '--workspace', ws, '--task', 'Greet and say goodbye', '--approve', 'all', '--base-url', server.url], {});
    assert.equal(local.code, 0, local.stderr + local.stdout);
    assert.ok(server.requests.length > 0);
    assert.match(local.stdout, /cost unknown \(\d+ call\(s\) at an unknown price\)/);
    assert.match(local.stdout, /executor: \d+ call\(s\), unknown/);
    assert.doesNotMatch(local.stdout, /\$\d/, 'no price is shown for a model the table does not know');
  });
});
