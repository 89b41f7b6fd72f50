import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createAnthropicModelClient } from '../../../src/node/model/anthropicClient';
import { TraceEventSchema, type TraceEvent } from '../../../src/core/contracts/traceEvents';
import { revertHeadless, runHeadless, type HeadlessMission } from '../../../src/node/cliMission';
import { startMessagesServer, type MessagesServer } from '../../support/messages-server/server';
import { e2eReplanScenario, e2eScenario } from '../e2e-mission/scenario';
import { runCli, useCliFixture } from './cliProcess';

/**
 * `replay` on traces of missions the user went on with (Continue, Retry) and reverted, as the extension
 * records them: the recording is made through the engine's own entry points (start, go on, revert) on one
 * workspace, the trace is the store's, and the replay runs through the real CLI on a fresh copy.
 */
describe('replaying a mission the user went on with, or reverted (the CLI binary)', function () {
  this.timeout(90_000);
  const fixture = useCliFixture('pe-replay-');
  const { fresh } = fixture;
  let server: MessagesServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const quiet = (answers = '') => {
    const stdin = new PassThrough();
    stdin.end(answers);
    return { stdin, stdout: new PassThrough(), stderr: new PassThrough(), env: { PATH: process.env.PATH } };
  };
  // The user's constraint is not one the planner's plan repeats: the replay must ask with the user's own.
  const record = (ws: string, more: Partial<HeadlessMission> = {}) =>
    runHeadless(
      {
        workspace: ws,
        task: 'Greet and say goodbye',
        constraints: ['Keep it short'],
        approve: 'all',
        client: createAnthropicModelClient({ apiKey: 'k', baseURL: server!.url }),
        ...more,
      },
      quiet(),
    );
  const storeTrace = (ws: string, missionId: string): string => join(ws, '.plan-execute', 'missions', missionId, 'trace.jsonl');
  const events = (path: string): TraceEvent[] =>
    readFileSync(path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => TraceEventSchema.parse(JSON.parse(l)));

  it('replays a budget stop, the Continue after the cap was raised, and a Revert step — and reverts the same files', async () => {
    server = await startMessagesServer({ scenario: e2eReplanScenario({ parallelLatencyMs: 0 }) });
    const ws = fresh('continued');
    const first = await record(ws, { settings: { budgets: { maxReplans: 0 } } });
    assert.equal(first.report.outcome, 'budget_exceeded', first.report.summary);
    const missionId = first.report.missionId;
    const goOn = await record(ws, { settings: { budgets: { maxReplans: 1 } }, goOn: { missionId, mode: 'continue' } });
    assert.equal(goOn.report.outcome, 'succeeded', goOn.report.summary);
    const reverted = await revertHeadless({ workspace: ws }, quiet(), missionId, { steps: ['s1'] }, { stepIds: ['s1'], changedSince: [] });
    assert.ok(reverted.ok, JSON.stringify(reverted));
    assert.equal(existsSync(join(ws, 'src', 'greet.js')), false, 'the recorded revert deleted the file s1 created');
    const trace = storeTrace(ws, missionId);
    const recorded = events(trace);
    assert.deepEqual(
      recorded.filter((e) => e.type === 'mission_finished').map((e) => e.type === 'mission_finished' && e.outcome),
      ['budget_exceeded', 'succeeded'],
    );
    const continued = recorded.find((e) => e.type === 'mission_continued');
    assert.ok(
      continued?.type === 'mission_continued' && (continued.settings?.budgets as { maxReplans?: number }).maxReplans === 1,
      'the raised cap is recorded',
    );
    const requests = server.requests.length;

    const replayWs = fresh('continued-replay');
    const replay = await runCli(fixture.cli, ['replay', '--trace', trace, '--workspace', replayWs], {});
    assert.equal(replay.code, 0, replay.stderr + replay.stdout);
    assert.doesNotMatch(replay.stderr, /REPLAY (DIVERGED|STOPPED)/);
    assert.match(replay.stderr, /budget exceeded: replans 0 \/ 0/, 'the first run stopped at the recorded cap');
    assert.match(replay.stderr, /\(continue\)/);
    assert.match(replay.stderr, /revert s1 \(as recorded\)/);
    assert.equal(server.requests.length, requests, 'the replay never called the API');
    assert.match(readFileSync(join(replayWs, 'src', 'index.js'), 'utf8'), /farewell\('world'\)/);
    assert.equal(existsSync(join(replayWs, 'src', 'greet.js')), false, 'the replay reverted s1 too');
    assert.ok(existsSync(join(replayWs, 'src', 'farewell.js')));
  });

  it('replays a plan the user rejected as rejected (the recorded decision, not approve-all)', async () => {
    server = await startMessagesServer({ scenario: e2eScenario({ parallelLatencyMs: 0 }) });
    const ws = fresh('rejected');
    const trace = join(fixture.dir, 'rejected.jsonl');
    const run = await runCli(
      fixture.cli,
      ['run', '--workspace', ws, '--task', 'Greet and say goodbye', '--constraint', 'Do not touch package.json', '--approve', 'ask', '--trace', trace],
      { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url },
      'no, split it differently\n',
    );
    assert.equal(run.code, 1, run.stderr);
    const replay = await runCli(fixture.cli, ['replay', '--trace', trace, '--workspace', fresh('rejected-replay')], {});
    assert.equal(replay.code, 1, replay.stderr + replay.stdout);
    assert.doesNotMatch(replay.stderr, /REPLAY (DIVERGED|STOPPED)/);
    assert.match(replay.stdout, /cancelled/);
    assert.match(replay.stdout, /split it differently/);
  });

  it('stops at a cancel the user made — with a message, not a divergence — even when the mission was continued after it', async () => {
    server = await startMessagesServer({ scenario: e2eScenario({ parallelLatencyMs: 400 }) });
    const ws = fresh('cancelled');
    const kill = new AbortController();
    const running = record(ws, { signal: kill.signal });
    while (!server.requests.some((r) => r.role === 'executor')) await new Promise((r) => setTimeout(r, 10));
    kill.abort();
    const first = await running;
    assert.equal(first.report.outcome, 'cancelled', first.report.summary);
    const goOn = await record(ws, { goOn: { missionId: first.report.missionId, mode: 'continue' } });
    assert.equal(goOn.report.outcome, 'succeeded', goOn.report.summary);
    const requests = server.requests.length;

    const replayWs = fresh('cancelled-replay');
    const replay = await runCli(fixture.cli, ['replay', '--trace', storeTrace(ws, first.report.missionId), '--workspace', replayWs], {});
    assert.doesNotMatch(replay.stderr, /REPLAY DIVERGED/);
    assert.match(
      replay.stderr,
      /REPLAY STOPPED: the user cancelled the recorded mission; a replay cannot know where the cancel landed \(recorded event \d+\)\. Up to there the replay matched the recording: 1 model call\(s\)\./,
    );
    assert.equal(replay.code, 1, 'the replayed mission did not succeed: it stopped where the recording was cancelled');
    assert.equal(server.requests.length, requests, 'the replay never called the API');
    assert.equal(
      existsSync(join(replayWs, 'src', 'index.js')) && readFileSync(join(replayWs, 'src', 'index.js'), 'utf8'),
      "console.log('start');\n",
      'nothing past the cancel was done',
    );
  });
});
