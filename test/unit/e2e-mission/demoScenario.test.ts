import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createAnthropicModelClient } from '../../../src/node/model/anthropicClient';
import { TraceEventSchema } from '../../../src/core/contracts/traceEvents';
import { runHeadless } from '../../../src/node/cliMission';
import { startMessagesServer } from '../../support/messages-server/server';

describe('the demo workspace with the scripted "add removeTask" scenario file', function () {
  this.timeout(60_000);

  it('edits the demo library and its tests in parallel, runs npm test for real, and passes', async () => {
    const server = await startMessagesServer({ scenario: join(__dirname, '../../support/messages-server/scenarios/demo-remove-task.json') });
    const dir = mkdtempSync(join(tmpdir(), 'pe-demo-'));
    const ws = join(dir, 'demo');
    cpSync(join(__dirname, '../../../demo'), ws, { recursive: true });
    const trace = join(dir, 'trace.jsonl');
    try {
      const quiet = new PassThrough();
      const client = createAnthropicModelClient({ apiKey: 'k', baseURL: server.url });
      const { report } = await runHeadless(
        { workspace: ws, task: 'Add a removeTask(list, id) function with a test, and make npm test pass.', constraints: [], approve: 'all', client, trace },
        { stdin: new PassThrough(), stdout: quiet, stderr: quiet, env: { PATH: process.env.PATH } },
      );
      assert.equal(report.outcome, 'succeeded', JSON.stringify(report));
      assert.match(readFileSync(join(ws, 'src', 'tasks.js'), 'utf8'), /removeTask, formatList/);
      const events = readFileSync(trace, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => TraceEventSchema.parse(JSON.parse(l)));
      const npm = events.find((e) => e.type === 'tool_call' && e.record.tool === 'bash' && e.record.role === 'executor');
      assert.ok(npm?.type === 'tool_call' && npm.record.ok, 'npm test ran and passed');
      assert.match(npm?.type === 'tool_call' ? npm.record.output : '', /pass 5/);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
