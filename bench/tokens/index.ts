/**
 * Token bench: one scripted 10-step mission through the whole stack (real SDK → messages server, the
 * engine, real files and commands in a temp workspace). Prints, measured in this one run:
 *  - the share of input tokens inside the cacheable stable prefix (tools + system + mission block),
 *    per role and overall, and the share the cache actually served (usage.cache_read_input_tokens);
 *  - how many distinct stable prefixes each role sent (1 = byte-identical across the mission);
 *  - duplicate tool calls across planner and executors: same tool, same input, files unchanged (target 0).
 *
 *   npx tsx bench/tokens/index.ts            (the script uses what the handoff carries)
 *   npx tsx bench/tokens/index.ts --naive    (control: the script re-reads everything it needs)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createAnthropicModelClient } from '../../src/node/model/anthropicClient';
import { TraceEventSchema, type TraceEvent } from '../../src/core/contracts/traceEvents';
import { runHeadless } from '../../src/node/cliMission';
import { segments } from '../../test/support/messages-server/cacheSim';
import { startMessagesServer } from '../../test/support/messages-server/server';
import { FILES, scenario10 } from './mission10';

const WRITE_TOOLS = new Set(['create', 'str_replace', 'insert', 'delete']);
const pct = (a: number, b: number): string => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);

async function main(): Promise<void> {
  const ws = mkdtempSync(join(tmpdir(), 'pe-bench-tokens-'));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(ws, path)), { recursive: true });
    writeFileSync(join(ws, path), text);
  }
  const trace = `${ws}.trace.jsonl`;
  const naive = process.argv.includes('--naive');
  const server = await startMessagesServer({ scenario: scenario10(naive) });
  try {
    const client = createAnthropicModelClient({ apiKey: 'bench', baseURL: server.url });
    const quiet = new PassThrough();
    quiet.resume();
    const { report } = await runHeadless(
      {
        workspace: ws,
        task: 'Add four greeting modules, wire them into index.js, run it, document the output',
        constraints: ['Do not touch package.json'],
        approve: 'all',
        client,
        trace,
      },
      { stdin: new PassThrough(), stdout: quiet, stderr: quiet, env: { PATH: process.env.PATH } },
    );
    const events: TraceEvent[] = readFileSync(trace, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => TraceEventSchema.parse(JSON.parse(l)));

    // Stable prefix share, from what was actually sent.
    const perRole = new Map<string, { prefix: number; total: number; prefixes: Set<string>; calls: number }>();
    for (const r of server.requests.filter((q) => q.path === '/v1/messages')) {
      const segs = segments(r.body);
      const tools = (r.body.tools ?? []).length;
      const system = Array.isArray(r.body.system) ? r.body.system.length : r.body.system ? 1 : 0;
      const stable = segs.slice(0, 1 + tools + system);
      const prefixChars = stable.reduce((n, s) => n + s.text.length, 0);
      const totalChars = segs.reduce((n, s) => n + s.text.length, 0);
      const row = perRole.get(r.role ?? '?') ?? { prefix: 0, total: 0, prefixes: new Set<string>(), calls: 0 };
      row.prefix += Math.ceil(prefixChars / 4);
      row.total += Math.ceil(totalChars / 4);
      row.prefixes.add(stable.map((s) => s.text).join(''));
      row.calls++;
      perRole.set(r.role ?? '?', row);
    }

    // What the cache served, from usage as recorded in the trace.
    const calls = events.filter((e): e is Extract<TraceEvent, { type: 'model_call' }> => e.type === 'model_call');
    const usage = calls.reduce(
      (u, c) => ({
        input: u.input + c.usage.inputTokens,
        read: u.read + c.usage.cacheReadTokens,
        write: u.write + c.usage.cacheWriteTokens,
        cost: u.cost + c.costUsd,
      }),
      { input: 0, read: 0, write: 0, cost: 0 },
    );
    const allInput = usage.input + usage.read + usage.write;

    // Duplicate tool calls across planner and executors.
    const toolCalls = events.filter((e): e is Extract<TraceEvent, { type: 'tool_call' }> => e.type === 'tool_call');
    const seen: { key: string; fp: string; writesBefore: number; stepId: string }[] = [];
    const duplicates: string[] = [];
    let writes = 0;
    for (const e of toolCalls) {
      const r = e.record;
      if (r.role === 'planner' || r.role === 'executor') {
        const key = `${r.tool} ${JSON.stringify(r.input)}`;
        const fp = JSON.stringify(r.inputsFingerprint);
        const hasFp = Object.keys(r.inputsFingerprint).length > 0;
        const earlier = seen.find((s) => s.key === key && (hasFp ? s.fp === fp : s.writesBefore === writes));
        if (earlier && r.ok && !WRITE_TOOLS.has(r.tool)) duplicates.push(`${r.stepId}: ${key.slice(0, 80)} (first in ${earlier.stepId})`);
        seen.push({ key, fp, writesBefore: writes, stepId: r.stepId });
      }
      if (WRITE_TOOLS.has(r.tool) && r.ok) writes++;
    }
    const plannerExecutorCalls = toolCalls.filter((e) => e.record.role === 'planner' || e.record.role === 'executor').length;

    const all = [...perRole.values()].reduce((a, r) => ({ prefix: a.prefix + r.prefix, total: a.total + r.total }), { prefix: 0, total: 0 });
    const lines = [
      `bench/tokens — scripted 10-step mission${naive ? ' (naive control script)' : ''}, one run (${report.outcome}; ${report.succeeded.length}/10 steps succeeded)`,
      `model calls: ${calls.length} (${[...perRole].map(([role, r]) => `${role} ${r.calls}`).join(', ')})`,
      `input tokens inside the cacheable stable prefix (tools + system + mission block): ${pct(all.prefix, all.total)} of ${all.total} (chars/4)`,
      ...[...perRole].map(([role, r]) => `  ${role.padEnd(9)} ${pct(r.prefix, r.total).padStart(6)}  distinct stable prefixes: ${r.prefixes.size}`),
      `input tokens served from the cache (usage): ${pct(usage.read, allInput)} read, ${pct(usage.write, allInput)} written, ${pct(usage.input, allInput)} uncached`,
      `tool calls by planner and executors: ${plannerExecutorCalls}; duplicates (same tool+input, files unchanged): ${duplicates.length} (target 0)`,
      ...duplicates.map((d) => `  duplicate: ${d}`),
      `priced cost of the run at list prices: $${usage.cost.toFixed(4)}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (report.outcome !== 'succeeded') process.exitCode = 1;
  } finally {
    await server.close();
    rmSync(ws, { recursive: true, force: true });
    rmSync(trace, { force: true });
  }
}

void main();
