/**
 * The demo's scripted model on its own (`npm run demo-server`, docs/cli.md) driven by the real CLI on a copy
 * of demo/ with the sample MCP server in it: an off-script task is refused in words with nothing planned or
 * changed; the tour's task runs through the sample server's tool (confined) to a passing npm test, with no
 * key and no price; planned again, the demo puts its files back first and plays the tour again.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliPath } from '../../support/cliBinary';
import { DEMO_MODEL, startDemoModel } from '../../support/host/demoHost';
import { copyDemoWorkspace } from '../../support/host/demoWorkspace';
import type { TempWorkspace } from '../../support/host/workspace';
import { bundleSampleServer } from '../../support/mcp/fixture';
import type { MessagesServer } from '../../support/messages-server/server';
import { DEMO_TASK } from '../../support/messages-server/scenarios/demoTour';
import { toolResultsOf } from '../../support/messages-server/toolResults';
import { runCli } from './cliProcess';
import { detectSandbox } from '../../../src/node/sandbox/detect';

describe('the demo server with the CLI (docs/cli.md)', function () {
  this.timeout(240_000);
  let workspace: TempWorkspace | undefined;
  let model: MessagesServer | undefined;
  let cli = '';
  before(async function () {
    if (!detectSandbox().available) this.skip();
    cli = await cliPath();
    workspace = copyDemoWorkspace(await bundleSampleServer());
    model = await startDemoModel({ workspace: workspace.path });
  });
  after(async () => {
    await model?.close();
    workspace?.remove();
  });
  const run = (task: string, extra: string[] = []) =>
    runCli(cli, ['run', '--workspace', workspace!.path, '--base-url', model!.url, '--model', DEMO_MODEL.id, '--task', task, ...extra], {});
  const tasksJs = (): string => readFileSync(join(workspace!.path, 'src', 'tasks.js'), 'utf8');

  it('refuses a task that is not on its script, in words, and plans nothing', async () => {
    const before = tasksJs();
    // Close to the script's task, and a different one all the same.
    const out = await run('Add removeTask(list, id) to src/tasks.js and delete the tests', ['--approve', 'all']);
    assert.equal(out.code, 1);
    assert.match(out.stdout, /plan for one task only — "Add removeTask\(list, id\) to src\/tasks\.js, with a test, and make npm test pass"/);
    assert.match(out.stdout, /use a real model/);
    assert.match(out.stdout, /Plan version: -/, 'no plan');
    assert.equal(tasksJs(), before, 'nothing changed');
  });

  it('plays the tour with no key: the sample MCP server finds the TODO from its sandbox, npm test passes, no price is shown', async () => {
    const out = await run(DEMO_TASK, ['--approve', 'all']);
    assert.equal(out.code, 0, out.stderr + out.stdout);
    assert.match(out.stderr, /sample \(stdio, \.vscode\/mcp\.json; in each step's OS sandbox\): find_todos \(read-only\), sandbox_report \(read-only\)/);
    assert.match(out.stdout, /MCP grants:\n {2}s1: sample\/find_todos/);
    const todo = [...toolResultsOf(model!.requests).values()].find((r) => r.content.includes('TODO'));
    assert.match(todo?.content ?? '', /src\/tasks\.js:\d+: TODO removeTask\(list, id\)/, `the server read the workspace and found the TODO: ${todo?.content}`);
    assert.match(out.stdout, /cost unknown/);
    assert.doesNotMatch(out.stdout, /\$\d/);
    assert.match(tasksJs(), /function removeTask/);
    assert.doesNotMatch(tasksJs(), /TODO/);
  });

  it('planned again, puts the demo files back first (and says so) and plays the tour again', async () => {
    const out = await run(DEMO_TASK, ['--approve', 'all', '--json']);
    assert.equal(out.code, 0, out.stderr);
    const { plan, report } = JSON.parse(out.stdout) as { plan: { goal: string }; report: { outcome: string } };
    assert.equal(report.outcome, 'succeeded');
    assert.match(plan.goal, /played again: the demo first put back src\/tasks\.js, test\/tasks\.test\.js as they are in demo\//);
    assert.equal(tasksJs().match(/function removeTask/g)?.length, 1, 'one removeTask, not a duplicate');
  });
});
