import { strict as assert } from 'node:assert';
import { spawnGroup, liveGroups } from '../../support/host/processGroups';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

describe('test host: process groups', () => {
  it('ends the whole group on stop: the leader and every child it started', async () => {
    // The leader prints the pids of two background children, then waits on them.
    const group = spawnGroup('sh', ['-c', 'sleep 60 & echo $!; sleep 60 & echo $!; wait'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    group.child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    assert.ok(await until(() => out.trim().split('\n').length >= 2, 5000), 'the children did not start');
    const children = out.trim().split('\n').map(Number);
    assert.ok(children.every(alive), 'the children should be running before stop');
    assert.ok(liveGroups().includes(group.pid));

    await group.stop(2000);

    assert.ok(await until(() => !children.some(alive), 3000), `children still alive: ${children.filter(alive).join(', ')}`);
    assert.equal(alive(group.pid), false);
    assert.ok(!liveGroups().includes(group.pid), 'a stopped group is forgotten');
  });

  it('kills a leader that ignores SIGTERM once the grace period is over', async () => {
    const group = spawnGroup('sh', ['-c', "trap '' TERM; echo ready; while :; do sleep 1; done"], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    group.child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    assert.ok(await until(() => out.includes('ready'), 5000));
    const started = Date.now();
    await group.stop(300);
    assert.equal(alive(group.pid), false);
    assert.ok(Date.now() - started < 3000, 'stop should not wait past the grace period by much');
  });
});
