import assert from 'node:assert/strict';
import { ToolCallStore } from '../../../src/core/handoff/toolCallStore';
import { capText } from '../../../src/core/handoff/contextBudget';
import type { ToolCallRecord } from '../../../src/core/contracts/handoff';

const record = (id: string, over: Partial<ToolCallRecord> = {}): ToolCallRecord => ({
  id,
  stepId: 's1',
  role: 'executor',
  tool: 'view',
  input: { path: 'a.ts' },
  output: 'content',
  ok: true,
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  inputsFingerprint: { 'a.ts': 'h1' },
  ...over,
});

describe('tool-call store', () => {
  const hashes = new Map<string, string | null>([
    ['a.ts', 'h1'],
    ['b.ts', 'h2'],
  ]);
  const hashOf = async (p: string): Promise<string | null> => hashes.get(p) ?? null;

  it('finds an earlier call with the same tool and input while its files are unchanged', async () => {
    const store = new ToolCallStore([record('t1')]);
    assert.equal((await store.findReusable('view', { path: 'a.ts' }, hashOf))?.id, 't1');
  });

  it('does not reuse a call whose input files changed, that failed, or that has no fingerprint', async () => {
    const store = new ToolCallStore([
      record('changed', { inputsFingerprint: { 'a.ts': 'old' } }),
      record('failed', { ok: false }),
      record('unfingerprinted', { tool: 'bash', input: { command: 'ls' }, inputsFingerprint: {} }),
    ]);
    assert.equal(await store.findReusable('view', { path: 'a.ts' }, hashOf), undefined);
    assert.equal(await store.findReusable('bash', { command: 'ls' }, hashOf), undefined);
  });

  it('prefers the newest valid call and matches inputs structurally', async () => {
    const store = new ToolCallStore([record('old', { input: { b: 1, path: 'a.ts' } }), record('new', { input: { path: 'a.ts', b: 1 } })]);
    assert.equal((await store.findReusable('view', { b: 1, path: 'a.ts' }, hashOf))?.id, 'new');
  });

  it('treats a recorded absence as valid only while the file is still absent', async () => {
    const store = new ToolCallStore([record('absent', { input: { path: 'gone.ts' }, inputsFingerprint: { 'gone.ts': null } })]);
    assert.equal((await store.findReusable('view', { path: 'gone.ts' }, hashOf))?.id, 'absent');
    hashes.set('gone.ts', 'now-here');
    assert.equal(await store.findReusable('view', { path: 'gone.ts' }, hashOf), undefined);
  });
});

describe('context budget', () => {
  it('keeps head and tail of long output and says where the rest is', () => {
    const text = `HEAD${'x'.repeat(10_000)}TAIL`;
    const capped = capText(text, 200, 't9');
    assert.ok(capped.length <= 200);
    assert.ok(capped.startsWith('HEAD') && capped.endsWith('TAIL'));
    assert.match(capped, /characters cut; fetch tool call t9/);
    assert.equal(capText('short', 200), 'short');
  });
});
