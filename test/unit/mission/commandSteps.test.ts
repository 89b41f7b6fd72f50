import assert from 'node:assert/strict';
import { runMission } from '../../../src/core/mission/start';
import { FakeExecutor, harness } from './fakes';
import { fileStep, plan } from '../../support/fixtures';

describe('mission engine: steps that run commands', () => {
  it('never runs two independent command steps at once, but runs a research step without commands alongside one', async () => {
    const executor = new FakeExecutor({}, 40);
    const command = (id: string, cmd: string) => fileStep(id, { kind: 'command', authority: { read: ['**'], edit: [], commands: [cmd] } });
    const h = harness(
      plan([
        command('install', 'npm install'),
        command('build', 'npm run build'),
        fileStep('look', { kind: 'research', authority: { read: ['**'], edit: [], commands: [] } }),
        fileStep('edit', { authority: { read: ['**'], edit: ['src/app.ts'], commands: [] } }),
      ]),
      { executor, maxParallel: 4 },
    );
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);

    const call = (id: string) => executor.calls.find((c) => c.stepId === id)!;
    const overlap = (x: string, y: string): boolean => call(x).start < call(y).end && call(y).start < call(x).end;
    assert.ok(!overlap('install', 'build'), 'the two command steps ran one after the other');
    assert.ok(!overlap('install', 'edit') && !overlap('build', 'edit'), 'an edit step never races a command step');
    assert.ok(overlap('look', 'install') || overlap('look', 'build'), 'the research step ran alongside a command step');
  });

  it("with commands confined to their step's write scope, runs command steps whose scopes do not overlap side by side", async () => {
    const executor = new FakeExecutor({}, 40);
    const command = (id: string, edit: string[]) => fileStep(id, { kind: 'command', authority: { read: ['**'], edit, commands: ['npm test'] } });
    const h = harness(
      plan([
        command('api', ['packages/api/**']),
        command('web', ['packages/web/**']),
        command('all', ['packages/**']),
        fileStep('edit-api', { authority: { read: ['**'], edit: ['packages/api/index.ts'], commands: [] } }),
      ]),
      { executor, maxParallel: 4, commandsConfined: true },
    );
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);

    const call = (id: string) => executor.calls.find((c) => c.stepId === id)!;
    const overlap = (x: string, y: string): boolean => call(x).start < call(y).end && call(y).start < call(x).end;
    assert.ok(overlap('api', 'web'), 'disjoint scopes ran side by side');
    assert.ok(!overlap('all', 'api') && !overlap('all', 'web'), 'a scope containing theirs waited');
    assert.ok(!overlap('edit-api', 'api'), "an edit inside a command step's scope waited for it");
  });
});
