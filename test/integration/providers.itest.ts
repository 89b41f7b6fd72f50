/**
 * Any model the user has, inside a real VS Code: a whole mission on an OpenAI-compatible endpoint (the
 * scriptable Chat Completions server plays it, through the real `openai` SDK) set up by the settings
 * alone — provider, model, base URL, no key for a loopback server — and what happens when the key the
 * settings need is missing, or the endpoint refuses it.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TraceEvent } from '../../src/core/contracts/traceEvents';
import { startChatServer, type ChatServer } from '../support/openai-server/server';
import { api, runMission, withSettings, workspaceRoot } from './missionDriver';
import { NOTE_ONE, NOTE_TWO, providerScenario, removeNotes } from './providerScenario';

describe('providers: an OpenAI-compatible endpoint from the settings', function () {
  this.timeout(120_000);
  let server: ChatServer | undefined;
  let restore: (() => Promise<void>) | undefined;

  afterEach(async () => {
    await restore?.();
    restore = undefined;
    await server?.close();
    server = undefined;
    removeNotes(workspaceRoot());
  });

  it('runs a whole mission (plan, parallel steps, a replan, a review) with provider, model and base URL set, and no key for a local server', async () => {
    const pe = await api();
    server = await startChatServer({ scenario: providerScenario() });
    restore = await withSettings({ provider: 'openai', model: 'local-coder', 'openai.baseUrl': server.url, approvalMode: 'all' });
    await pe.test.setApiKey('', 'openai');
    assert.equal(pe.test.sidebarState().hasApiKey, true, 'a loopback endpoint needs no key');

    const mission = await runMission(pe, 'Write two notes and a summary');
    assert.equal(mission.phase, 'succeeded', `${mission.summary}`);
    assert.equal(mission.versions.filter((v) => v.author === 'replanner').length, 1);
    assert.equal(readFileSync(join(workspaceRoot(), 'notes/one.txt'), 'utf8'), NOTE_ONE);
    assert.equal(readFileSync(join(workspaceRoot(), 'notes/two.txt'), 'utf8'), NOTE_TWO);
    assert.equal(mission.costUsd, 0, 'a local model costs nothing');

    assert.deepEqual(
      server.requests.filter((r) => r.rejected).map((r) => r.rejected),
      [],
      'every request was one OpenAI itself accepts',
    );
    assert.deepEqual([...new Set(server.requests.map((r) => r.role))].sort(), ['executor', 'planner', 'replanner', 'verifier']);
    assert.ok(server.requests.every((r) => r.chat.model === 'local-coder'));
    const toolsOf = (role: string): string[] =>
      [...new Set(server!.requests.filter((r) => r.role === role).flatMap((r) => (r.chat.tools ?? []).map((t) => t.function?.name ?? '')))].sort();
    assert.ok(toolsOf('executor').includes('str_replace_based_edit_tool') && toolsOf('executor').includes('bash'), 'the executor edits through the same tools');
    for (const role of ['planner', 'replanner', 'verifier']) {
      assert.ok(!toolsOf(role).some((t) => t === 'str_replace_based_edit_tool' || t === 'bash'), `${role} got no write tool: ${toolsOf(role).join(', ')}`);
    }
    const started = (rule: string): number => server!.requests.find((r) => r.rule === rule)!.at;
    const last = (rule: string): number => server!.requests.filter((r) => r.rule === rule).at(-1)!.at;
    assert.ok(started('s1') < last('s2') && started('s2') < last('s1'), 's1 and s2 ran side by side');

    const store = await pe.test.missionStore();
    const events = (await store!.readEvents(mission.missionId)) as TraceEvent[];
    const calls = events.filter((e): e is Extract<TraceEvent, { type: 'model_call' }> => e.type === 'model_call');
    assert.ok(calls.length > 0 && calls.every((c) => c.provider === 'openai' && c.pricing === 'local'));
    const startedEvent = events.find((e): e is Extract<TraceEvent, { type: 'mission_started' }> => e.type === 'mission_started');
    assert.deepEqual(startedEvent?.settings.models, { provider: 'openai', model: 'local-coder' }, 'the trace names the models, never a key or URL');
  });

  it("refuses to start without the key OpenAI's own API needs, and stops with cause auth and the provider when a key is refused", async () => {
    const pe = await api();
    restore = await withSettings({ provider: 'openai', model: 'gpt-4.1', 'openai.baseUrl': 'https://api.openai.com/v1', approvalMode: 'all' });
    await pe.test.setApiKey('', 'openai');
    assert.equal(pe.test.sidebarState().hasApiKey, false, 'the surfaces offer "Set API key"');
    const before = pe.test.sidebarState().mission?.missionId ?? null;
    pe.test.postFromWebview({ type: 'runTask', task: 'anything' });
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(pe.test.sidebarState().mission?.missionId ?? null, before, 'no mission starts without the key');
    assert.equal(pe.test.sidebarState().busy, null);
    assert.equal(existsSync(join(workspaceRoot(), 'notes')), false);

    await restore();
    server = await startChatServer({ scenario: { rules: [] }, apiKey: 'the-right-key' });
    restore = await withSettings({ provider: 'openai', model: 'gpt-4.1', 'openai.baseUrl': server.url, approvalMode: 'all' });
    await pe.test.setApiKey('a-wrong-key', 'openai');
    try {
      const mission = await runMission(pe, 'Write two notes and a summary');
      assert.equal(mission.phase, 'failed');
      const store = await pe.test.missionStore();
      const events = (await store!.readEvents(mission.missionId)) as TraceEvent[];
      const finished = events.find((e): e is Extract<TraceEvent, { type: 'mission_finished' }> => e.type === 'mission_finished');
      assert.equal(finished?.failure?.cause, 'auth', JSON.stringify(finished?.failure));
      assert.equal(finished?.failure?.provider, 'openai');
      assert.ok(finished?.failure?.message.includes(server.url), finished?.failure?.message);
      assert.ok(!JSON.stringify(events).includes('a-wrong-key'), 'the key is not in the trace');
    } finally {
      await pe.test.setApiKey('', 'openai');
    }
  });
});
