/**
 * Wires one headless mission: Node adapters (workspace, terminal, file store), the roles over a model
 * client, the sandboxed step tools, a trace file, progress on stderr. Shared by `run` and `replay` (which
 * also goes on with a mission — Retry, Continue — and reverts steps, as the recorded user did).
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ApproveMode, MissionReport, MissionSettings } from '../core/mission/options';
import { startMission, type MissionHandle } from '../core/mission/start';
import { resumeMission, type ContinueMode } from '../core/mission/resume';
import { revertMissionSteps, type RevertOutcome, type RevertTarget } from '../core/mission/revert';
import type { ModelClient } from '../core/model/modelClient';
import type { DeepPartialSettings } from '../core/model/modelSettings';
import type { Plan, PlanInput } from '../core/contracts/plan';
import type { Approver, Diagnostics, EventSink } from '../core/ports';
import { createRoles } from '../core/roles/createRoles';
import { estimatePlan } from '../core/roles/costEstimate';
import type { ProviderId } from '../core/model/providers';
import { summarizeWorkspace } from '../core/roles/workspaceSummary';
import { scrubEnv } from '../core/policy/env';
import { defaultSandboxMode, type SandboxMode, type SandboxSupport } from '../core/contracts/sandbox';
import { createStepTools } from '../core/tools/stepTools';
import { createTerminalApprover } from './cliApprover';
import { ALLOW_TRACKED_SECRETS, CLI_CAP_FLAGS, type CliLimits } from './cliArgs';
import { progressLine } from './cliReport';
import { terminalSafe } from './terminalText';
import { FileStore } from './fileStore';
import { NodeTerminal } from './nodeTerminal';
import { NodeWorkspace } from './nodeWorkspace';
import { systemClock } from './systemClock';
import type { UserSetup } from '../core/mission/userSetup';
import { prepareUserSetup } from './mcp/userSetup';
import { hookLines, setupLines } from './cliSetupReport';
import { homedir } from 'node:os';
import type { MissionHooks } from '../core/mission/userSetup';
import { hookSetOf } from '../core/hooks/trust';
import { loadHookFiles } from './hooks/loadHooks';
import { NodeHookRunner } from './hooks/hookRunner';
import { errorText } from '../core/primitives/errorText';

export interface CliIO {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
}

export interface HeadlessMission {
  workspace: string;
  task: string;
  constraints: string[];
  approve: ApproveMode;
  /** Default: required on Linux and macOS, prefer elsewhere (defaultSandboxMode). */
  sandbox?: SandboxMode;
  client: ModelClient;
  /** Providers and models per role (the defaults when absent); recorded in the trace for replay. */
  models?: DeepPartialSettings;
  /** Providers served on this machine (their calls cost nothing in the plan's estimate). */
  localProviders?: readonly ProviderId[];
  trace?: string;
  /** Caps from the command line, over the recorded or default ones; messages name their flags. */
  limits?: CliLimits;
  /** Asked instead of the terminal (a replay answers from the recording). */
  approver?: Approver;
  /** Recorded settings a replay runs with (parallelism, retries, the plan-size cap, budgets); `verify` for eval's baseline. */
  settings?: Pick<MissionSettings, 'maxParallel' | 'retriesPerStep' | 'maxPlanSteps' | 'budgets' | 'verify'>;
  /** Run this plan instead of asking the planner (eval's single-loop baseline). */
  plan?: PlanInput;
  /** Go on with this stopped mission of the workspace's store instead of starting one. */
  goOn?: { missionId: string; mode: ContinueMode };
  /** The kill switch, for a caller that must stop the mission (a replay at the end of its recording). */
  signal?: AbortSignal;
  /** Read the project's instruction files (default true; --no-instructions). */
  instructions?: boolean;
  /** Instruction files to leave out (--skip-instruction). */
  skipInstructions?: string[];
  /** Extra MCP configuration files (--mcp-config). */
  mcpConfigs?: string[];
  /** Go on although git tracks secrets the mission's commands can print through git (--allow-tracked-secrets). */
  allowTrackedSecrets?: boolean;
  /** The setup to use instead of reading it (a replay: the recorded instructions and recorded MCP answers). */
  setup?: UserSetup;
  /** --trust-hooks: the project's hooks run (default: each is named on stderr and skipped). */
  trustHooks?: boolean;
}

/** The first progress line: how commands will run, and what to do when that is not the OS sandbox. */
function sandboxLine(mode: SandboxMode, support: SandboxSupport): string {
  if (mode === 'off') return '· sandbox: off (--sandbox off) — commands run UNSANDBOXED, with everything you can do';
  if (support.available) return `· sandbox: commands run in ${support.kind} (${support.detail}), cut to each step's authority`;
  if (mode === 'prefer') return `· sandbox: none here (${support.reason}) — every command will ask before it runs UNSANDBOXED. ${support.remedy}`;
  return `· sandbox: none here (${support.reason}) — commands will be refused (--sandbox required). ${support.remedy}`;
}

/** Per role: calls, cost, cache use, and how many calls ran locally (no cost) or had no known price. */
export type RoleCosts = Record<string, { calls: number; costUsd: number; cacheReadTokens: number; inputTokens: number; local: number; unpriced: number }>;

/** The CLI's log for what a trace cannot hold: stderr. */
function cliDiagnostics(io: CliIO): Diagnostics {
  return {
    error: (message) => {
      try {
        io.stderr.write(`${terminalSafe(`error: ${message}`)}\n`);
      } catch {
        // EPIPE or a closed stream: stderr itself is gone, there is nowhere left to say it.
      }
    },
  };
}

async function headlessPorts(m: Pick<HeadlessMission, 'workspace' | 'trace'>, io: CliIO, byRole: RoleCosts) {
  const workspace = await NodeWorkspace.open(resolve(m.workspace));
  const store = FileStore.forWorkspace(workspace.root);
  const tracePath = m.trace ? resolve(m.trace) : undefined;
  if (tracePath) mkdirSync(dirname(tracePath), { recursive: true });
  let sinkFailed = false;
  const events: EventSink = {
    emit(event) {
      try {
        if (event.type === 'model_call') {
          const r = (byRole[event.role] ??= { calls: 0, costUsd: 0, cacheReadTokens: 0, inputTokens: 0, local: 0, unpriced: 0 });
          r.calls++;
          if (event.pricing === 'local') r.local++;
          if (event.pricing === 'unknown') r.unpriced++;
          r.costUsd += event.costUsd;
          r.cacheReadTokens += event.usage.cacheReadTokens;
          r.inputTokens += event.usage.inputTokens + event.usage.cacheReadTokens + event.usage.cacheWriteTokens;
        }
        if (tracePath) appendFileSync(tracePath, `${JSON.stringify(event)}\n`);
        const line = progressLine(event);
        if (line) io.stderr.write(`${terminalSafe(line)}\n`);
      } catch (error) {
        // A sink must not throw (the store already holds the event), but the user hears once that the
        // trace file or the progress lines are incomplete.
        if (!sinkFailed) cliDiagnostics(io).error(`the trace file or progress output missed events from seq ${event.seq}: ${errorText(error)}`);
        sinkFailed = true;
      }
    },
  };
  return { workspace, store, events, tracePath };
}

export async function runHeadless(
  m: HeadlessMission,
  io: CliIO,
): Promise<{ report: MissionReport; plan: Plan | undefined; byRole: RoleCosts; setup: UserSetup }> {
  const byRole: RoleCosts = {};
  const { workspace, store, events, tracePath } = await headlessPorts(m, io, byRole);
  const sandbox = m.sandbox ?? defaultSandboxMode(process.platform);
  const terminal = new NodeTerminal();
  const support = await terminal.confinement();
  io.stderr.write(`${sandboxLine(sandbox, support)}\n`);
  // In `all` mode the terminal approver still asks for commands that would run without the sandbox.
  const terminalApprover = m.approver === undefined ? createTerminalApprover(m.approve, { input: io.stdin, output: io.stderr }, store) : undefined;
  const approver = m.approver ?? terminalApprover!;
  const roles = createRoles({ client: m.client, ...(m.models ? { settings: m.models } : {}) });
  const env = scrubEnv(io.env);
  // A mission that goes on uses the setup its trace recorded; only its servers are needed again.
  const ready = m.setup
    ? { ...m.setup, close: async () => undefined }
    : await prepareUserSetup({
        workspace,
        env,
        fullEnv: io.env,
        sandbox,
        support,
        instructions: m.goOn === undefined && m.instructions !== false,
        excludeInstructions: m.skipInstructions ?? [],
        mcpConfigFiles: m.mcpConfigs ?? [],
        signal: m.signal ?? new AbortController().signal,
      });
  for (const line of setupLines(ready)) io.stderr.write(`${terminalSafe(line)}\n`);
  const hooks = m.setup ? m.setup.hooks : await cliHooks(m, workspace, io, (id) => tracePath ?? store.tracePath(id));
  const setup: UserSetup = {
    ...(ready.instructions ? { instructions: ready.instructions } : {}),
    ...(ready.mcp ? { mcp: ready.mcp } : {}),
    ...(hooks ? { hooks } : {}),
  };
  const options = {
    task: m.task,
    constraints: m.constraints,
    workspace,
    terminal,
    approver,
    store,
    clock: systemClock,
    events,
    diagnostics: cliDiagnostics(io),
    planner: roles.planner,
    executor: roles.executor,
    verifier: roles.verifier,
    createStepTools,
    estimatePlan: (plan: Plan) => estimatePlan(plan, roles.settings, { localProviders: m.localProviders ?? [] }),
    approve: m.approve,
    env,
    ...setup,
    ...(m.models && Object.keys(m.models).length > 0 ? { models: m.models as Record<string, unknown> } : {}),
    toolSettings: { sandbox },
    commandsConfined: sandbox !== 'off' && support.available,
    // Secrets git tracks are readable through git by any command: refused unless the flag says go on.
    trackedSecrets: {
      confirm: async () => ({ allowed: m.allowTrackedSecrets === true, by: 'flag' as const, howToAllow: `run again with ${ALLOW_TRACKED_SECRETS}` }),
    },
    ...m.settings,
    ...(m.limits?.maxPlanSteps !== undefined ? { maxPlanSteps: m.limits.maxPlanSteps } : {}),
    ...(m.limits?.budgets ? { budgets: { ...m.settings?.budgets, ...m.limits.budgets } } : {}),
    capNames: CLI_CAP_FLAGS,
    ...(m.signal ? { signal: m.signal } : {}),
    ...(m.plan ? { plan: m.plan } : {}),
  };
  let handle: MissionHandle;
  if (m.goOn) {
    // Retry and Continue never ask for consent (resume.ts); a headless resume re-runs what was cut off.
    const out = await resumeMission({ ...options, missionId: m.goOn.missionId, mode: m.goOn.mode, consent: async () => true });
    if (!out.ok) throw new Error(`cannot ${m.goOn.mode} mission ${m.goOn.missionId}: ${out.error.message}`);
    handle = out.value;
  } else {
    handle = startMission({ ...options, workspaceSummary: await summarizeWorkspace(workspace) });
  }
  io.stderr.write(`· mission ${handle.missionId}${m.goOn ? ` (${m.goOn.mode})` : ''} in ${workspace.root}${tracePath ? `, trace ${tracePath}` : ''}\n`);
  const onSigint = (): void => handle.cancel('interrupted (SIGINT)');
  process.once('SIGINT', onSigint);
  try {
    const report = await handle.done;
    return { report, plan: handle.plan(), byRole, setup };
  } finally {
    process.removeListener('SIGINT', onSigint);
    terminalApprover?.close();
    await ready.close();
  }
}

/**
 * The hooks a CLI mission runs: the user's own, and the project's with --trust-hooks. Without the flag each
 * project hook is named on stderr — its file and command — and skipped.
 */
async function cliHooks(
  m: HeadlessMission,
  workspace: NodeWorkspace,
  io: CliIO,
  transcriptPath: (missionId: string) => string,
): Promise<MissionHooks | undefined> {
  const files = await loadHookFiles(workspace, io.env.HOME ?? homedir());
  const set = hookSetOf(files, () => m.trustHooks === true);
  for (const line of hookLines(set)) io.stderr.write(`${terminalSafe(line)}\n`);
  if (set.hooks.length === 0 && set.skipped.length === 0 && set.notes.length === 0) return undefined;
  return { set, runner: new NodeHookRunner(io.env), transcriptPath };
}

/** Reverts steps of a stopped mission of the workspace's store (what Revert step does in VS Code). */
export async function revertHeadless(
  m: Pick<HeadlessMission, 'workspace' | 'trace'>,
  io: CliIO,
  missionId: string,
  target: RevertTarget,
  confirmed: { stepIds: readonly string[]; changedSince: readonly string[] },
): Promise<RevertOutcome> {
  const { workspace, store, events } = await headlessPorts(m, io, {});
  return revertMissionSteps({ missionId, store, workspace, clock: systemClock, events, diagnostics: cliDiagnostics(io), target, dryRun: false, confirmed });
}
