/**
 * bench/sandbox — what the OS sandbox costs per command: `npm run bench -- sandbox`. Every figure is
 * measured in this run, on this machine (Linux with bubblewrap; elsewhere it says so and stops), and the
 * staged design (commands write a private overlay layer, only judged changes reach the workspace) is
 * measured beside the direct one it replaced (commands write the workspace, a checkpoint and a scan judge
 * afterwards — still what runs where no staging exists), interleaved so that load hits both alike.
 *  1. `node -e 0` through the Node terminal: outside, inside with direct writes, inside staged (the runner
 *     alone: private folders, namespaces, mounts; staged adds a user namespace and an overlay mount).
 *     Target: under 50 ms added per command.
 *  2. The whole `bash` tool path (policy, approval, scan, spec, run, judgement) around `node -e 0` with a
 *     write scope of 20,000 files: the step's first command and the next ones, direct and staged.
 *     Target: staged under 50 ms added (median) over the bare run.
 *  3. A sweep over the write scope's size (200 … 50,000 files), next command, direct vs staged: staged
 *     should not grow with the scope.
 *  4. Cost that follows the change: staged commands that rewrite 0, 10, 100 and 1,000 files of a
 *     20,000-file scope (applied to the workspace, checkpointed). Target: 1,000 files under 1 s.
 *  5. The judge is linear in the layer's entries: a command that makes 1,000, 10,000 and 100,000 new empty
 *     folders outside the step's globs (kept for the step); the time the tool adds around the command, per
 *     entry, against the 1,000 case — and the size of the tool result, which names a few paths and a count.
 * The load average is printed at the start and the end: the figures are only comparable within one run.
 * To iterate on one part: `PE_SECTIONS=3,5` runs section 1 (every other figure is measured against its bare
 * run) and the sections named; `PE_FILES=50000` sizes the sweep to one write scope.
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
import { hostFacts } from '../../src/node/sandbox/hostFacts';
import { policyFor } from '../../src/core/policy/policy';
import { commandWriteScope, sandboxSpec, scanPrune, STAGED_SCOPE } from '../../src/core/policy/sandboxSpec';
import { createStepTools } from '../../src/core/tools/stepTools';
import { FileStore } from '../../src/node/fileStore';
import { NodeTerminal } from '../../src/node/nodeTerminal';
import { NodeWorkspace } from '../../src/node/nodeWorkspace';
import { detectSandbox } from '../../src/node/sandbox/detect';
import { nodePolicyFs } from '../../src/node/nodePolicyFs';

const ROUNDS = 40;

/** Whether a section runs (PE_SECTIONS, a comma list; unset: all). */
const sectionRuns = (n: number): boolean => process.env.PE_SECTIONS?.split(',').map(Number).includes(n) ?? true;

/** The sandbox spec of a step that may edit src/** and nothing else, for a workspace. */
async function srcOnlySpec(root: string): Promise<{ env: Record<string, string>; spec: SandboxSpec }> {
  const env = scrubEnv(process.env);
  const policy = policyFor(
    root,
    { id: 'b', authority: { read: ['**'], edit: ['src/**'], commands: [], network: false } },
    { fs: nodePolicyFs, ignoreText: null },
  );
  const { entries } = await new NodeWorkspace(root).scan({ prune: scanPrune(policy, commandWriteScope(policy)), limit: 10_000 });
  const built = sandboxSpec({ policy, entries, env, host: hostFacts(env) });
  if (!built.ok) throw new Error(built.error);
  return { env, spec: built.value };
}

const terminal = new NodeTerminal();

/** The staged spec for the same step (the whole workspace writable in its layer). */
async function stagedSpecOf(root: string): Promise<SandboxSpec> {
  const env = scrubEnv(process.env);
  const policy = policyFor(
    root,
    { id: 'b', authority: { read: ['**'], edit: ['src/**'], commands: [], network: false } },
    { fs: nodePolicyFs, ignoreText: null },
  );
  const { entries } = await new NodeWorkspace(root).scan({ prune: scanPrune(policy, STAGED_SCOPE, true), limit: 100_000, detail: () => false });
  const built = sandboxSpec({ policy, entries, env, host: hostFacts(env), staged: true });
  if (!built.ok) throw new Error(built.error);
  return built.value;
}

/** Milliseconds one `node -e 0` takes, outside (null) or inside a sandbox spec. */
async function nodeE0(root: string, env: Record<string, string>, sandbox: SandboxSpec | null, staging?: { layer: string }): Promise<number> {
  const t0 = performance.now();
  const r = await terminal.run(
    {
      command: 'node -e 0',
      argv: [node, '-e', '0'],
      cwd: root,
      timeoutMs: 30_000,
      maxOutputBytes: 10_000,
      env: sandbox ? sandbox.env : env,
      sandbox,
      ...(staging ? { staging } : {}),
    },
    new AbortController().signal,
  );
  if (r.exitCode !== 0) throw new Error(`node -e 0 failed: ${r.output}`);
  return performance.now() - t0;
}

/** ROUNDS timings of each, interleaved and alternating which goes first, so drift in load hits both alike. */
async function interleaved(a: () => Promise<number>, b: () => Promise<number>, rounds = ROUNDS): Promise<[number[], number[]]> {
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < rounds; i++) {
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

/** One step's bash tool in `root` (direct writes, or staged in a layer of its own). */
function stepTools(
  root: string,
  staged: boolean,
  edit: string[],
): { bash(command: string): Promise<number>; run(command: string): Promise<{ ms: number; output: string }>; close(): Promise<void> } {
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pe-bench-store-'));
  const step: Step = {
    id: 'b',
    title: 'bench',
    why: '',
    required: true,
    dependsOn: [],
    kind: 'command',
    instructions: '',
    authority: { read: ['**'], edit, commands: ['node -e *', 'node scripts/touch.js *', 'node scripts/mkdirs.js *'], network: false, mcp: [] },
    binding: { prerequisite: '', fallback: '', consequence: '' },
    expectedOutput: '',
    evidence: { checks: [], description: '' },
    risk: 'low',
    effort: 'small',
    modelTier: 'light',
  };
  const layer = `bench-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const ctx: StepToolsContext = {
    missionId: 'bench',
    step,
    role: 'executor',
    workspace: new NodeWorkspace(root),
    terminal,
    approver: { request: async (): Promise<ApprovalDecision> => ({ decision: 'approved', by: 'user' }) },
    store: new FileStore(storeDir),
    clock: { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) },
    toolCalls: new ToolCallStore(),
    record: async () => undefined,
    settings: { commandTimeoutMs: 60_000, maxOutputBytes: 64_000, maxFileBytes: 1_000_000, allowSensitive: [], sandbox: 'required' },
    env: scrubEnv(process.env),
    signal: new AbortController().signal,
    ...(staged ? { layer } : {}),
  };
  const tools = createStepTools(ctx);
  const run = async (command: string): Promise<{ ms: number; output: string }> => {
    const t0 = performance.now();
    const r = await tools.bash(command);
    if (!r.ok) throw new Error(r.output);
    if (staged && !/exit code: 0/.test(r.output)) throw new Error(r.output);
    return { ms: performance.now() - t0, output: r.output };
  };
  return {
    bash: async (command) => (await run(command)).ms,
    run,
    close: async () => {
      await terminal.staging.drop(layer, root);
      fs.rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

/** The step's first command and the next ones, direct and staged, interleaved. */
async function firstAndNext(
  root: string,
  edit: string[],
  rounds: number,
): Promise<{ direct: { first: number; next: number[] }; staged: { first: number; next: number[] } }> {
  const direct = stepTools(root, false, edit);
  const staged = stepTools(root, true, edit);
  try {
    const d0 = await direct.bash('node -e 0');
    const s0 = await staged.bash('node -e 0');
    const [dn, sn] = await interleaved(
      () => direct.bash('node -e 0'),
      () => staged.bash('node -e 0'),
      rounds,
    );
    return { direct: { first: d0, next: dn }, staged: { first: s0, next: sn } };
  } finally {
    await direct.close();
    await staged.close();
  }
}

async function main(): Promise<void> {
  if (process.platform !== 'linux') {
    console.log(`bench/sandbox measures bubblewrap; this is ${process.platform}: nothing measured.`);
    return;
  }
  const support = detectSandbox();
  if (!support.available) throw new Error(`no sandbox to measure: ${support.reason}`);
  console.log(
    `sandbox: ${support.detail}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  const small = workspace(10);
  try {
    const staging = await terminal.staging.support(small);
    if (!staging.available) throw new Error(`no staging to measure: ${staging.reason}`);
    console.log(`staging: ${staging.detail}`);
    const { env, spec } = await srcOnlySpec(small);
    const stagedSpec = await stagedSpecOf(small);
    const layer = `bench-e0-${process.pid}`;
    const e0Staged = (): Promise<number> => nodeE0(small, env, stagedSpec, { layer });
    await nodeE0(small, env, null);
    await nodeE0(small, env, spec);
    await e0Staged();
    const outside: number[] = [];
    const direct: number[] = [];
    const staged: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const order = [
        () => nodeE0(small, env, null).then((t) => outside.push(t)),
        () => nodeE0(small, env, spec).then((t) => direct.push(t)),
        () => e0Staged().then((t) => staged.push(t)),
      ];
      for (let k = 0; k < 3; k++) await order[(i + k) % 3]!();
    }
    await terminal.staging.drop(layer, small);
    console.log(`\n1. node -e 0, ${ROUNDS} runs each, interleaved              median      mean   added (median)`);
    console.log(`   outside the sandbox                             ${fmt(median(outside))} ${fmt(mean(outside))}`);
    console.log(`   sandboxed, direct writes (before)               ${fmt(median(direct))} ${fmt(mean(direct))} ${fmt(median(direct) - median(outside))}`);
    console.log(
      `   sandboxed, staged layer (now)                   ${fmt(median(staged))} ${fmt(mean(staged))} ${fmt(median(staged) - median(outside))}   (target < 50 ms: ${median(staged) - median(outside) < 50 ? 'met' : 'MISSED'})`,
    );
    console.log(`   staged / direct                                 ${(median(staged) / median(direct)).toFixed(2).padStart(10)}`);

    const sweep = !sectionRuns(2) && !sectionRuns(3) ? [] : process.env.PE_FILES ? [Number(process.env.PE_FILES)] : [200, 2_000, 20_000, 50_000];
    console.log('\n2–3. the bash tool around node -e 0, write scope src/** of N files');
    console.log('     N files      direct: first    next (median)   staged: first    next (median)   next: staged / direct   staged next − bare');
    for (const files of sweep) {
      const root = workspace(files);
      try {
        const t = await firstAndNext(root, ['src/**'], files >= 20_000 ? 8 : 12);
        const dn = median(t.direct.next);
        const sn = median(t.staged.next);
        const over = sn - median(outside);
        console.log(
          `   ${String(files).padStart(7)}      ${fmt(t.direct.first)}   ${fmt(dn)}        ${fmt(t.staged.first)}   ${fmt(sn)}          ${(sn / dn).toFixed(2).padStart(6)}        ${fmt(over)}   (target < 50 ms: ${over < 50 ? 'met' : 'MISSED'})`,
        );
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    }

    if (sectionRuns(4)) await rewrites();
    if (sectionRuns(5)) await entrySweep();
  } finally {
    fs.rmSync(small, { recursive: true, force: true });
  }
  console.log(
    `\nload average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

/** 4. Staged commands that rewrite K of 20,000 files: listed, judged, checkpointed, applied. */
async function rewrites(): Promise<void> {
  console.log('\n4. staged commands that rewrite K files of a 20,000-file scope (applied, checkpointed)   median');
  const big = workspace(20_000);
  try {
    fs.mkdirSync(path.join(big, 'scripts'), { recursive: true });
    fs.writeFileSync(
      path.join(big, 'scripts', 'touch.js'),
      "const fs = require('fs'); const n = Number(process.argv[2]); const r = Math.random(); for (let i = 0; i < n; i++) fs.writeFileSync(`src/m${i % 50}/f${i}.ts`, `export const v = ${r};\\n`);\n",
    );
    const tools = stepTools(big, true, ['src/**']);
    try {
      for (const k of [0, 10, 100, 1_000]) {
        const times: number[] = [];
        for (let i = 0; i < 5; i++) times.push(await tools.bash(`node scripts/touch.js ${k}`));
        const target = k === 1_000 ? `   (target < 1 s: ${median(times) < 1000 ? 'met' : 'MISSED'})` : '';
        console.log(`   K = ${String(k).padStart(5)}                                                          ${fmt(median(times))}${target}`);
      }
    } finally {
      await tools.close();
    }
  } finally {
    fs.rmSync(big, { recursive: true, force: true });
  }
}

/** 5. New entries outside the globs, N = 1,000 … 100,000: what the tool adds around the command, per entry. */
async function entrySweep(): Promise<void> {
  console.log('\n5. a staged command that makes N new empty folders outside the globs (kept for the step)');
  console.log('     N entries     tool total    the command   judged, kept   per entry   per entry / N=1,000   tool result');
  console.log('     (judged, kept: what the tool adds beyond what it adds around a command that changes nothing)');
  let perEntry1k: number | undefined;
  for (const n of [1_000, 10_000, 100_000]) {
    const root = workspace(10);
    fs.mkdirSync(path.join(root, 'scripts'), { recursive: true });
    fs.writeFileSync(
      path.join(root, 'scripts', 'mkdirs.js'),
      "const fs = require('fs'); const n = Number(process.argv[2]); fs.mkdirSync('out'); for (let i = 0; i < n; i++) fs.mkdirSync(`out/d${i}`);\n",
    );
    const tools = stepTools(root, true, ['src/**']);
    const commandMs = (output: string): number => Number(/exit code: 0, (\d+) ms/.exec(output)?.[1] ?? NaN);
    try {
      // What the tool adds around a command that changes nothing (spawn, spec, an empty judgement), to take off.
      const fixed: number[] = [];
      for (let i = 0; i < 5; i++) {
        const e0 = await tools.run('node -e 0');
        fixed.push(e0.ms - commandMs(e0.output));
      }
      const r = await tools.run(`node scripts/mkdirs.js ${n}`);
      const command = commandMs(r.output);
      const judged = r.ms - command - median(fixed);
      const per = (judged * 1000) / n;
      perEntry1k ??= per;
      console.log(
        `   ${String(n).padStart(8)}    ${fmt(r.ms)}   ${fmt(command)}   ${fmt(judged)}   ${per.toFixed(1).padStart(6)} µs   ${(per / perEntry1k).toFixed(2).padStart(12)}         ${String(r.output.length).padStart(6)} chars`,
      );
    } finally {
      await tools.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
