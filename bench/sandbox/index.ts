/**
 * bench/sandbox — what the OS sandbox costs per command: `npx tsx bench/sandbox/index.ts`. Every figure is
 * measured in this run, on this machine (Linux with bubblewrap; elsewhere it says so and stops).
 *  1. `node -e 0` through the Node terminal, outside vs inside the sandbox (the runner alone: private
 *     folders, mounts, namespaces), interleaved so that machine load hits both alike; median and mean.
 *     Target: under 50 ms added per command.
 *  2. The whole `bash` tool path around the same command, with the step's checkpoint (scan, spec, snapshot,
 *     run, compare): for a write scope of 200, 2,000 and 20,000 files — the first command of a step (every
 *     file read into the checkpoint) and the next ones (unchanged files known by their scan signature).
 *  4. Private build outputs (the folders git ignores): `node -e 0` inside the sandbox in a workspace whose
 *     .gitignore names dist/ (100 files, 100 KB: a small tsc output), coverage/ (10 files) and build/
 *     (missing: a placeholder), with and without the private copies, interleaved.
 *  3. The same in one workspace of 20,000 files in subfolders, for scopes that hold few of them: a
 *     top-level literal glob (`package.json`: the root's direct entries, its subfolders read-only) beside
 *     a small tree (`src/m0/**`, 400 files) and the whole `src/**`. Target: package.json near the small tree.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Step } from '../../src/core/contracts/plan';
import type { SandboxSpec } from '../../src/core/contracts/sandbox';
import type { ApprovalDecision, StepToolsContext } from '../../src/core/ports';
import { ToolCallStore } from '../../src/core/handoff/toolCallStore';
import { scrubEnv } from '../../src/core/policy/env';
import { hostFacts } from '../../src/core/policy/hostFacts';
import { policyFor } from '../../src/core/policy/policy';
import { commandWriteScope, sandboxSpec, scanPrune } from '../../src/core/policy/sandboxSpec';
import { createStepTools } from '../../src/core/tools/stepTools';
import { FileStore } from '../../src/node/fileStore';
import { NodeTerminal } from '../../src/node/nodeTerminal';
import { NodeWorkspace } from '../../src/node/nodeWorkspace';
import { detectSandbox } from '../../src/node/sandbox/detect';

const ROUNDS = 40;

/** The sandbox spec of a step that may edit src/** and nothing else, for a workspace. */
async function srcOnlySpec(root: string): Promise<{ env: Record<string, string>; spec: SandboxSpec }> {
  const env = scrubEnv(process.env);
  const policy = policyFor(root, { id: 'b', authority: { read: ['**'], edit: ['src/**'], commands: [], network: false } }, { ignoreText: null });
  const { entries } = await new NodeWorkspace(root).scan({ prune: scanPrune(policy, commandWriteScope(policy)), limit: 10_000 });
  const built = sandboxSpec({ policy, entries, env, host: hostFacts(env) });
  if (!built.ok) throw new Error(built.reason);
  return { env, spec: built.spec };
}

const terminal = new NodeTerminal();

/** Milliseconds one `node -e 0` takes, outside (null) or inside a sandbox spec. */
async function nodeE0(root: string, env: Record<string, string>, sandbox: SandboxSpec | null): Promise<number> {
  const t0 = performance.now();
  const r = await terminal.run({ command: 'node -e 0', argv: [node, '-e', '0'], cwd: root, timeoutMs: 30_000, maxOutputBytes: 10_000, env: sandbox ? sandbox.env : env, sandbox }, new AbortController().signal);
  if (r.exitCode !== 0) throw new Error(`node -e 0 failed: ${r.output}`);
  return performance.now() - t0;
}

/** ROUNDS timings of each, interleaved and alternating which goes first, so drift in load hits both alike. */
async function interleaved(a: () => Promise<number>, b: () => Promise<number>): Promise<[number[], number[]]> {
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2 === 0) {
      as.push(await a());
      bs.push(await b());
    } else {
      bs.push(await b());
      as.push(await a());
    }
  }
  return [as, bs];
}

const node = '/usr/bin/node';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const fmt = (ms: number): string => `${ms.toFixed(1).padStart(7)} ms`;

function workspace(files: number): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-bench-sbx-')));
  fs.writeFileSync(path.join(root, 'package.json'), '{"name":"bench"}\n');
  for (let i = 0; i < files; i++) {
    const dir = path.join(root, 'src', `m${i % 50}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`.repeat(20));
  }
  fs.writeFileSync(path.join(root, '.env'), 'TOKEN=x\n');
  return root;
}

async function runnerOverhead(): Promise<{ outside: number[]; inside: number[] }> {
  const root = workspace(10);
  try {
    const { env, spec } = await srcOnlySpec(root);
    await nodeE0(root, env, null);
    await nodeE0(root, env, spec); // warm both paths (the sandbox probe is cached after the first call)
    const [outside, inside] = await interleaved(() => nodeE0(root, env, null), () => nodeE0(root, env, spec));
    return { outside, inside };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

async function outputsOverhead(): Promise<{ without: number[]; with: number[]; folders: string[] }> {
  const root = workspace(10);
  try {
    fs.writeFileSync(path.join(root, '.gitignore'), 'dist/\ncoverage/\n/build\n');
    fs.mkdirSync(path.join(root, 'dist', 'lib'), { recursive: true });
    for (let i = 0; i < 100; i++) fs.writeFileSync(path.join(root, 'dist', i % 2 ? 'lib' : '', `m${i}.js`), 'x'.repeat(1000));
    fs.mkdirSync(path.join(root, 'coverage'));
    for (let i = 0; i < 10; i++) fs.writeFileSync(path.join(root, 'coverage', `c${i}.json`), '{}');
    const { env, spec } = await srcOnlySpec(root);
    const plain = { ...spec, privateOutputs: [] };
    await nodeE0(root, env, plain);
    await nodeE0(root, env, spec);
    const [without, withOutputs] = await interleaved(() => nodeE0(root, env, plain), () => nodeE0(root, env, spec));
    return { without, with: withOutputs, folders: spec.privateOutputs };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

async function toolPath(files: number, edit: string[] = ['src/**'], made?: string): Promise<{ first: number; next: number[] }> {
  const root = made ?? workspace(files);
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pe-bench-store-'));
  try {
    const step: Step = {
      id: 'b', title: 'bench', why: '', required: true, dependsOn: [], kind: 'command', instructions: '',
      authority: { read: ['**'], edit, commands: ['node -e *'], network: false, mcp: [] },
      binding: { prerequisite: '', fallback: '', consequence: '' }, expectedOutput: '', evidence: { checks: [], description: '' },
      risk: 'low', effort: 'small', modelTier: 'light',
    };
    const ctx: StepToolsContext = {
      missionId: 'bench', step, role: 'executor', workspace: new NodeWorkspace(root), terminal: new NodeTerminal(),
      approver: { request: async (): Promise<ApprovalDecision> => ({ decision: 'approved', by: 'user' }) },
      store: new FileStore(storeDir), clock: { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) },
      toolCalls: new ToolCallStore(), record: async () => undefined,
      settings: { commandTimeoutMs: 60_000, maxOutputBytes: 64_000, maxFileBytes: 1_000_000, allowSensitive: [], sandbox: 'required' },
      env: scrubEnv(process.env), signal: new AbortController().signal,
    };
    const tools = createStepTools(ctx);
    const once = async (): Promise<number> => {
      const t0 = performance.now();
      const r = await tools.bash('node -e 0');
      if (!r.ok) throw new Error(r.output);
      return performance.now() - t0;
    };
    const first = await once();
    const next: number[] = [];
    for (let i = 0; i < 8; i++) next.push(await once());
    return { first, next };
  } finally {
    if (made === undefined) fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(storeDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (process.platform !== 'linux') {
    console.log(`bench/sandbox measures bubblewrap; this is ${process.platform}: nothing measured.`);
    return;
  }
  const support = detectSandbox();
  if (!support.available) throw new Error(`no sandbox to measure: ${support.reason}`);
  console.log(`sandbox: ${support.detail}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  const { outside, inside } = await runnerOverhead();
  const added = median(inside) - median(outside);
  console.log(`\n1. node -e 0, ${ROUNDS} runs each, interleaved           median      mean`);
  console.log(`   outside the sandbox                          ${fmt(median(outside))} ${fmt(mean(outside))}`);
  console.log(`   inside the sandbox                           ${fmt(median(inside))} ${fmt(mean(inside))}`);
  console.log(`   added per command                            ${fmt(added)} ${fmt(mean(inside) - mean(outside))}   (target < 50 ms: ${added < 50 ? 'met' : 'MISSED'})`);
  console.log(`   inside / outside                             ${(median(inside) / median(outside)).toFixed(2).padStart(10)}`);

  const o = await outputsOverhead();
  console.log(`\n4. private build outputs (${o.folders.join(', ')}), node -e 0   median      mean`);
  console.log(`   inside, without private copies                ${fmt(median(o.without))} ${fmt(mean(o.without))}`);
  console.log(`   inside, with them                             ${fmt(median(o.with))} ${fmt(mean(o.with))}`);
  console.log(`   added per command                             ${fmt(median(o.with) - median(o.without))} ${fmt(mean(o.with) - mean(o.without))}`);

  console.log('\n2. the bash tool with the checkpoint, node -e 0   first command   next (median)   next / bare run');
  for (const files of (process.env.PE_FILES ? [Number(process.env.PE_FILES)] : [200, 2_000, 20_000])) {
    const t = await toolPath(files);
    console.log(`   write scope of ${String(files).padStart(6)} files              ${fmt(t.first)}      ${fmt(median(t.next))}   ${(median(t.next) / median(inside)).toFixed(2).padStart(8)}`);
  }

  console.log('\n3. one workspace of 20,000 files, node -e 0       first command   next (median)   next / bare run');
  const big = workspace(20_000);
  try {
    const rows: [string, string[]][] = [['package.json (the root\'s files)', ['package.json']], ['src/m0/** (400 files)', ['src/m0/**']], ['src/** (20,000 files)', ['src/**']]];
    const nexts: number[] = [];
    for (const [label, edit] of rows) {
      const t = await toolPath(0, edit, big);
      nexts.push(median(t.next));
      console.log(`   ${label.padEnd(43)}${fmt(t.first)}      ${fmt(median(t.next))}   ${(median(t.next) / median(inside)).toFixed(2).padStart(8)}`);
    }
    console.log(`   package.json / src/m0/**                                        ${(nexts[0]! / nexts[1]!).toFixed(2).padStart(8)}`);
  } finally {
    fs.rmSync(big, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
