/**
 * Faults mid-mission: the model server overloads (HTTP 529 and mid-stream), resets the connection, cuts the
 * stream, or hangs until the user cancels — during the second of three steps. The mission must end (no
 * hang) with a report that says what finished, what failed or was interrupted, and what never started,
 * and the finished step's files must be intact.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  cleanup,
  bash,
  edit,
  ofType,
  plan,
  read,
  report,
  runAdversarialMission,
  step,
  write,
  type MissionRun,
  type Rule,
  describeEachProvider,
} from './harness';
import type { Reply } from '../../support/messages-server/scenario';

const s1 = step('s1', {
  authority: { read: ['**'], edit: ['src/one.js'], commands: [] },
  evidence: { checks: [{ kind: 'files_exist', paths: ['src/one.js'] }], description: '' },
});
const s2 = step('s2', {
  kind: 'command',
  dependsOn: ['s1'],
  authority: { read: ['**'], edit: ['src/two.js'], commands: ['node src/slow.js'] },
  evidence: { checks: [{ kind: 'files_exist', paths: ['src/two.js'] }], description: '' },
});
const s3 = step('s3', {
  dependsOn: ['s2'],
  authority: { read: ['**'], edit: ['src/three.js'], commands: [] },
  evidence: { checks: [{ kind: 'files_exist', paths: ['src/three.js'] }], description: '' },
});
const threeSteps = plan([s1, s2, s3], { direct: true });

const s1Rule: Rule = {
  name: 's1',
  match: { role: 'executor', firstUserIncludes: '# Step s1:' },
  turns: [{ toolUse: [edit('src/one.js', { command: 'create', file_text: 'one\n' })] }, report('one')],
};
const s3Rule: Rule = {
  name: 's3',
  match: { role: 'executor', firstUserIncludes: '# Step s3:' },
  turns: [{ toolUse: [edit('src/three.js', { command: 'create', file_text: 'three\n' })] }, report('three')],
};
const s2Always = (reply: Reply): Rule => ({ name: 's2', match: { role: 'executor', firstUserIncludes: '# Step s2:' }, respond: () => reply });

function assertPartialReport(run: MissionRun, outcome: string, s2Status: 'failed' | 'interrupted'): void {
  assert.equal(run.report.outcome, outcome, JSON.stringify(run.report));
  assert.deepEqual(run.report.succeeded, ['s1']);
  assert.deepEqual(s2Status === 'failed' ? run.report.failed : run.report.interrupted, ['s2'], JSON.stringify(run.report));
  assert.deepEqual(run.report.neverStarted, ['s3']);
  assert.equal(read(run.ws, 'src/one.js'), 'one\n', "the finished step's file is intact");
  assert.equal(run.requests.filter((r) => JSON.stringify(r.body.messages?.[0] ?? '').includes('# Step s3:')).length, 0, 's3 never reached the model');
  const finished = ofType(run.events, 'mission_finished');
  assert.equal(finished.length, 1);
}

describeEachProvider('adversarial: model faults mid-mission', function () {
  this.timeout(30_000);
  let run: MissionRun | undefined;
  afterEach(async () => {
    await cleanup(run);
    run = undefined;
  });

  const permanent: { name: string; reply: Reply; detail: RegExp }[] = [
    { name: 'HTTP 529 overloaded on every call', reply: { fault: 'overloaded', retryAfterMs: 1 }, detail: /529|overloaded/i },
    {
      name: 'an overloaded_error mid-stream on every call',
      reply: { text: 'working on it', fault: 'overloaded_midstream' },
      detail: /overloaded_error.*giving up|giving up/,
    },
    { name: 'the stream cut on every call', reply: { text: 'working on it', fault: 'stream_cut' }, detail: /giving up/ },
    { name: 'a connection reset on every call', reply: { fault: 'connection_reset' }, detail: /could not reach|connection/i },
  ];
  for (const p of permanent) {
    it(`${p.name}: the step fails with a readable failure, s1 stays done, s3 never starts`, async () => {
      run = await runAdversarialMission({
        plan: threeSteps,
        maxRetries: 1,
        setup: (ws) => write(ws, 'src/a.js', ''),
        rules: [s1Rule, s2Always(p.reply), s3Rule],
      });
      assertPartialReport(run, 'failed', 'failed');
      assert.match(run.report.failure?.message ?? '', p.detail, JSON.stringify(run.report.failure));
      const failedCalls = ofType(run.events, 'model_call').filter((e) => e.stepId === 's2' && e.failure);
      assert.ok(failedCalls.length >= 1, 'the failed model calls are in the trace');
    });
  }

  it('a rate limit mid-step waits as long as the provider asks, in the trace as model_wait, and the step goes on: no replan, no new approval', async () => {
    run = await runAdversarialMission({
      plan: threeSteps,
      setup: (ws) => write(ws, 'src/a.js', ''),
      rules: [
        s1Rule,
        {
          name: 's2',
          match: { role: 'executor', firstUserIncludes: '# Step s2:' },
          turns: [
            [
              { fault: 'rate_limit', retryAfterMs: 40 },
              { fault: 'rate_limit', retryAfterMs: 40 },
              { toolUse: [edit('src/two.js', { command: 'create', file_text: 'two\n' })] },
            ],
            report('two'),
          ],
        },
        s3Rule,
      ],
    });
    assert.equal(run.report.outcome, 'succeeded', JSON.stringify(run.report));
    const waits = ofType(run.events, 'model_wait');
    assert.deepEqual(
      waits.map((w) => [w.role, w.stepId, w.provider, w.reason, w.waitMs, w.attempt]),
      [
        ['executor', 's2', run.provider, 'rate_limited', 40, 1],
        ['executor', 's2', run.provider, 'rate_limited', 40, 2],
      ],
    );
    assert.ok(waits.every((w) => w.model === 'test-model' || w.model.startsWith('claude-')));
    const calls = ofType(run.events, 'model_call').filter((e) => e.stepId === 's2');
    assert.equal(calls[0]?.attempts, 3, 'one model call that took three attempts');
    assert.ok(run.events.indexOf(waits[0]!) < run.events.indexOf(calls[0]!), 'the wait is recorded while it happens, before the call ends');
    assert.equal(ofType(run.events, 'replan').length, 0);
    assert.equal(ofType(run.events, 'plan_approved').length, 1);
    assert.equal(read(run.ws, 'src/two.js'), 'two\n');
  });

  for (const [fault, cause] of [
    ['auth', 'auth'],
    ['model_not_found', 'model_unavailable'],
    ['spend_limit', 'spend_limit'],
  ] as const) {
    it(`a ${fault} answer mid-mission stops it with cause ${cause} and the provider named: no retry, no replan, finished steps stay`, async () => {
      run = await runAdversarialMission({
        plan: plan([s1, s2, s3]),
        setup: (ws) => write(ws, 'src/a.js', ''),
        rules: [s1Rule, s2Always({ fault }), s3Rule],
      });
      assertPartialReport(run, 'failed', 'failed');
      assert.equal(run.report.failure?.cause, cause, JSON.stringify(run.report.failure));
      assert.equal(run.report.failure?.provider, run.provider);
      assert.equal(ofType(run.events, 'replan').length, 0, 'a replan cannot fix the provider');
      assert.equal(run.requests.filter((r) => r.rule === 's2').length, 1, 'asked once');
      assert.equal(ofType(run.events, 'mission_finished')[0]?.failure?.cause, cause, 'the cause reaches the front ends');
    });
  }

  it('a stream that stalls after its headers is abandoned at the idle limit and retried; stalling every time fails the step, promptly', async () => {
    const started = Date.now();
    run = await runAdversarialMission({
      plan: threeSteps,
      streamIdleMs: 300,
      setup: (ws) => write(ws, 'src/a.js', ''),
      rules: [s1Rule, s2Always({ text: 'thinking very slowly', chunkDelayMs: 60_000 }), s3Rule],
    });
    assert.ok(Date.now() - started < 15_000, `bounded: ${Date.now() - started} ms`);
    assertPartialReport(run, 'failed', 'failed');
    assert.match(run.report.failure?.message ?? '', /stream stalled: no event for 300 ms/, JSON.stringify(run.report.failure));
  });

  it('a stream that stalls once is retried and the step goes on', async () => {
    run = await runAdversarialMission({
      plan: threeSteps,
      streamIdleMs: 300,
      setup: (ws) => write(ws, 'src/a.js', ''),
      rules: [
        s1Rule,
        {
          name: 's2',
          match: { role: 'executor', firstUserIncludes: '# Step s2:' },
          turns: [[{ text: 'slow', chunkDelayMs: 60_000 }, { toolUse: [edit('src/two.js', { command: 'create', file_text: 'two\n' })] }], report('two')],
        },
        s3Rule,
      ],
    });
    assert.equal(run.report.outcome, 'succeeded', JSON.stringify(run.report));
  });

  it('a transient mid-stream overload in a step is retried and the mission succeeds', async () => {
    run = await runAdversarialMission({
      plan: threeSteps,
      setup: (ws) => write(ws, 'src/a.js', ''),
      rules: [
        s1Rule,
        {
          name: 's2',
          match: { role: 'executor', firstUserIncludes: '# Step s2:' },
          turns: [
            [{ text: 'x', fault: 'overloaded_midstream' }, { toolUse: [edit('src/two.js', { command: 'create', file_text: 'two\n' })] }],
            [{ fault: 'stream_cut', text: 'y' }, report('two')],
          ],
        },
        s3Rule,
      ],
    });
    assert.equal(run.report.outcome, 'succeeded', JSON.stringify(run.report));
    assert.equal(read(run.ws, 'src/two.js'), 'two\n');
  });

  it('cancel while the model hangs mid-step: the mission ends promptly, s2 interrupted, s3 never started', async () => {
    const started = Date.now();
    run = await runAdversarialMission({
      plan: threeSteps,
      setup: (ws) => write(ws, 'src/a.js', ''),
      rules: [s1Rule, s2Always({ fault: 'hang' }), s3Rule],
      onStart: (handle, server) => {
        const timer = setInterval(() => {
          if (server.requests.some((r) => r.fault === 'hang')) {
            clearInterval(timer);
            handle.cancel('the user pressed stop');
          }
        }, 10);
      },
    });
    assert.ok(Date.now() - started < 10_000, 'ended promptly');
    assertPartialReport(run, 'cancelled', 'interrupted');
  });

  it('an AbortSignal mid-command kills the process and reports the step interrupted', async () => {
    const abort = new AbortController();
    run = await runAdversarialMission({
      plan: threeSteps,
      mission: { signal: abort.signal },
      // Writes only inside s2's edit glob (src/two.js): the OS sandbox would refuse anything else.
      setup: (ws) =>
        write(
          ws,
          'src/slow.js',
          "require('fs').writeFileSync('src/two.js', 'started');\nsetTimeout(() => require('fs').writeFileSync('src/two.js', 'late'), 20000);\n",
        ),
      rules: [
        s1Rule,
        { name: 's2', match: { role: 'executor', firstUserIncludes: '# Step s2:' }, turns: [{ toolUse: [bash('node src/slow.js')] }, report('two')] },
        s3Rule,
      ],
      onStart: (_handle, server) => {
        const timer = setInterval(() => {
          if (server.requests.some((r) => r.rule === 's2')) {
            clearInterval(timer);
            setTimeout(() => abort.abort(), 300);
          }
        }, 10);
      },
    });
    assertPartialReport(run, 'cancelled', 'interrupted');
    const bashCall = ofType(run.events, 'tool_call').find((e) => e.record.tool === 'bash');
    assert.ok(bashCall && !bashCall.record.ok, 'the command call ended as failed (cancelled)');
    await new Promise((r) => setTimeout(r, 100));
    // Under load the kill may come before the first write; either way the late write never happens.
    assert.ok(!existsSync(join(run!.ws, 'src/two.js')) || read(run!.ws, 'src/two.js') !== 'late', 'the process tree was killed');
  });
});
