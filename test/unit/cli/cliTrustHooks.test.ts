import { strict as assert } from 'node:assert';
import { parseArgs } from '../../../src/node/cliArgs';

describe('cli arguments: --trust-hooks', () => {
  it('is a flag without a value, for run and continue (default: off)', () => {
    const run = parseArgs(['run', '--workspace', 'w', '--trust-hooks', '--task', 't']);
    assert.ok(run.ok && run.value.kind === 'run');
    assert.equal(run.value.trustHooks, true);
    assert.equal(run.value.task, 't', 'the next argument is not taken as its value');
    const off = parseArgs(['run', '--workspace', 'w', '--task', 't']);
    assert.ok(off.ok && off.value.kind === 'run' && off.value.trustHooks === false);
    const goOn = parseArgs(['continue', '--workspace', 'w', '--trust-hooks']);
    assert.ok(goOn.ok && goOn.value.kind === 'continue' && goOn.value.trustHooks);
    assert.equal(parseArgs(['replay', '--trace', 't', '--trust-hooks']).ok, false, 'a replay runs the hooks its trace recorded');
  });
});
