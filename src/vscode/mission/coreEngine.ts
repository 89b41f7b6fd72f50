/**
 * The MissionEngine the extension uses: src/core's startMission/resumeMission with the roles built over the
 * user's providers and keys, the sandboxed step tools, and this window's Workspace/Terminal adapters. Keys
 * go to the model clients only — never into the settings recorded in the trace (which name the models).
 */
import { createMissionModelClient } from '../models/modelClients';
import { startMission } from '../../core/mission/start';
import { resumeMission } from '../../core/mission/resume';
import type { ApproveMode } from '../../core/mission/options';
import type { SandboxMode } from '../../core/contracts/sandbox';
import type { Diagnostics, Terminal, Workspace } from '../../core/ports';
import { createRoles } from '../../core/roles/createRoles';
import { estimatePlan } from '../../core/roles/costEstimate';
import { isLoopbackUrl } from '../../core/model/providers';
import type { Plan } from '../../core/contracts/plan';
import { summarizeWorkspace } from '../../core/roles/workspaceSummary';
import { revertMissionSteps, type RevertPlan } from '../../core/mission/revert';
import { validatePlan } from '../../core/plan/validate';
import { scrubEnv } from '../../core/policy/env';
import { createStepTools } from '../../core/tools/stepTools';
import { systemClock } from '../../node/systemClock';
import type { MissionEngine, MissionRun, Outcome, StartOptions } from './engineBridge';
import { missionRunOf } from './missionRun';
import { prepareUserSetup } from '../../node/mcp/userSetup';
import { NodeHookRunner } from '../../node/hooks/hookRunner';
import type { HookSet } from '../../core/contracts/hooks';
import type { ConfigSource } from '../../node/mcp/config';
import { errorText } from '../../core/primitives/errorText';
import { err, ok } from '../../core/contracts/result';

export interface EngineHost {
  /** This window's Workspace and Terminal adapters for a workspace root. */
  adapters(root: string): Promise<{ workspace: Workspace; terminal: Terminal }>;
  approveMode(): ApproveMode;
  /** planExecute.sandbox (the platform default when unset). */
  sandboxMode(): SandboxMode;
  /** Instruction files the user left out of the next mission. */
  excludedInstructions(): string[];
  /** MCP servers from VS Code's settings, besides the workspace's .vscode/mcp.json and .mcp.json. */
  mcpSettings(): { text: string; source: ConfigSource }[];
  /** An untrusted workspace starts no MCP server (its configuration is repository text). */
  trusted(): boolean;
  /** The hooks the mission runs: the user's, and the project's the user trusted (./setup/hooksHost.ts). */
  hookSet(): Promise<HookSet | undefined>;
  /** The extension's log: what the trace cannot hold (its store failing, a sink throwing) is reported here. */
  log: Diagnostics;
  /** A modal question (true: the user chose `action`). */
  confirm(message: string, action: string): Promise<boolean>;
}

/** The button that lets a mission go on although git tracks secrets (named again in a refusal). */
const GO_ON = 'Go on for this mission';

async function ports(host: EngineHost, o: Omit<StartOptions, 'task'>, goOn: boolean) {
  const { workspace, terminal } = await host.adapters(o.workspaceRoot);
  const sandbox = host.sandboxMode();
  const support = await terminal.confinement();
  const env = scrubEnv(process.env);
  // The user's setup: instruction files (a mission that goes on keeps what its trace recorded) and MCP servers.
  const setup = await prepareUserSetup({
    workspace,
    env,
    fullEnv: process.env,
    sandbox,
    support,
    instructions: !goOn,
    excludeInstructions: host.excludedInstructions(),
    extraConfigs: host.mcpSettings(),
    mcp: host.trusted(),
    signal: new AbortController().signal,
  });
  // The planner checks its own answer against the same size cap, named, so its repair turn and the
  // message that ends planning say what to raise.
  const hookSet = await host.hookSet();
  const tracePath = (o.store as { tracePath?: (missionId: string) => string }).tracePath;
  const hooks = hookSet
    ? { set: hookSet, runner: new NodeHookRunner(process.env), ...(tracePath ? { transcriptPath: (id: string) => tracePath.call(o.store, id) } : {}) }
    : undefined;
  const limits = { maxSteps: o.limits.maxPlanSteps, maxStepsName: o.limits.capNames.planSteps };
  const roles = createRoles({ client: createMissionModelClient(o.model), settings: o.model.models, validatePlan: (input) => validatePlan(input, limits) });
  // A model on this machine (an OpenAI-compatible loopback endpoint) costs nothing in the estimate.
  const localProviders = o.model.openai && isLoopbackUrl(o.model.openai.baseURL) ? (['openai'] as const) : [];
  return {
    workspace,
    terminal,
    approver: o.approver,
    store: o.store,
    clock: systemClock,
    events: o.sink,
    diagnostics: host.log,
    planner: roles.planner,
    executor: roles.executor,
    verifier: roles.verifier,
    createStepTools,
    estimatePlan: (plan: Plan) => estimatePlan(plan, roles.settings, { localProviders }),
    approve: host.approveMode(),
    // In VS Code every plan version, the first and each replanned one, waits for the user whatever the
    // approval mode: the mode decides only the prompts inside a plan the user approved.
    planApproval: 'user' as const,
    maxPlanSteps: o.limits.maxPlanSteps,
    budgets: o.limits.budgets,
    capNames: o.limits.capNames,
    // Commands never see the extension host's secrets (the API keys included).
    env,
    ...(setup.instructions ? { instructions: setup.instructions } : {}),
    ...(setup.mcp ? { mcp: setup.mcp } : {}),
    ...(hooks ? { hooks } : {}),
    close: () => setup.close(),
    models: o.model.models as Record<string, unknown>,
    toolSettings: { sandbox },
    // Confined command steps with disjoint write scopes may run side by side.
    commandsConfined: sandbox !== 'off' && support.available,
    // Secrets git tracks: one confirmation naming the files, remembered for the mission (its trace).
    trackedSecrets: {
      confirm: async (_files: readonly string[], message: string) => ({
        allowed: await host.confirm(message, GO_ON),
        by: 'user' as const,
        howToAllow: `start the mission again and choose "${GO_ON}"`,
      }),
    },
  };
}

export function createCoreEngine(host: EngineHost): MissionEngine {
  return {
    async start(o): Promise<Outcome<MissionRun>> {
      try {
        const { close, ...p } = await ports(host, o, false);
        const workspaceSummary = await summarizeWorkspace(p.workspace);
        return ok(missionRunOf(startMission({ ...p, task: o.task, workspaceSummary, ...(o.plan ? { plan: o.plan } : {}) }), close, host.log));
      } catch (error) {
        return err({ reason: 'start_failed', message: `Could not start the mission: ${errorText(error)}` });
      }
    },
    async resume(missionId, o): Promise<Outcome<MissionRun>> {
      try {
        const { close, ...p } = await ports(host, o, true);
        // The caller decided about re-running interrupted steps before anything went live (see the controller).
        const out = await resumeMission({ ...p, missionId, mode: o.mode, consent: () => Promise.resolve(o.rerunInterrupted) });
        if (!out.ok) await close();
        return out.ok ? ok(missionRunOf(out.value, close, host.log)) : err({ reason: out.error.reason, message: out.error.message });
      } catch (error) {
        return err({ reason: 'resume_failed', message: `Could not resume the mission: ${errorText(error)}` });
      }
    },
    async revert(missionId, target, o): Promise<Outcome<RevertPlan>> {
      try {
        const { workspace } = await host.adapters(o.workspaceRoot);
        const out = await revertMissionSteps({
          missionId,
          store: o.store,
          workspace,
          clock: systemClock,
          events: o.sink,
          diagnostics: host.log,
          target,
          dryRun: o.dryRun,
          ...(o.confirmed ? { confirmed: o.confirmed } : {}),
        });
        return out.ok ? ok(out.value.plan) : err({ reason: out.error.reason, message: out.error.message });
      } catch (error) {
        return err({ reason: 'revert_failed', message: `Could not revert: ${errorText(error)}` });
      }
    },
  };
}
