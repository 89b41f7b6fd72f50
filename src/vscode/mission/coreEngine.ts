/**
 * The MissionEngine the extension uses: src/core's startMission/resumeMission with the roles built over the
 * user's providers and keys, the sandboxed step tools, and this window's Workspace/Terminal adapters. Keys
 * go to the model clients only — never into the settings recorded in the trace (which name the models).
 */
import { createMissionModelClient } from '../models/modelClients';
import { resumeMission, startMission, type MissionHandle } from '../../core/mission/start';
import type { ApproveMode } from '../../core/mission/options';
import type { Store, Terminal, Workspace } from '../../core/ports';
import { createRoles } from '../../core/roles/createRoles';
import { summarizeWorkspace } from '../../core/roles/workspaceSummary';
import { revertStep } from '../../core/tools/checkpoints';
import { scrubEnv } from '../../core/policy/env';
import { createStepTools } from '../../core/tools/stepTools';
import { TraceEventSchema, type TraceEvent } from '../../core/contracts/traceEvents';
import { systemClock } from '../../node/systemClock';
import type { MissionEngine, MissionRun, Outcome, StartOptions } from './engineBridge';

export interface EngineHost {
  /** This window's Workspace and Terminal adapters for a workspace root. */
  adapters(root: string): Promise<{ workspace: Workspace; terminal: Terminal }>;
  approveMode(): ApproveMode;
  /** Asked on resume when steps were running at the interruption: re-run them? */
  consentToRerun(stepIds: string[]): Promise<boolean>;
}

function toRun(handle: MissionHandle): MissionRun {
  return {
    missionId: handle.missionId,
    editPlan: async (edit) => {
      const out = await handle.editPlan(edit);
      return out.ok ? { ok: true, value: undefined } : { ok: false, reason: out.reason, message: out.message };
    },
    correct: async (stepId, message) => {
      const out = await handle.correct(stepId, message);
      return out.ok ? { ok: true, value: undefined } : { ok: false, reason: out.reason, message: out.message };
    },
    cancel: (reason) => handle.cancel(reason),
    done: handle.done.then(
      () => undefined,
      () => undefined,
    ),
  };
}

async function ports(host: EngineHost, o: Omit<StartOptions, 'task'>) {
  const { workspace, terminal } = await host.adapters(o.workspaceRoot);
  const roles = createRoles({ client: createMissionModelClient(o.model), settings: o.model.models });
  return {
    workspace,
    terminal,
    approver: o.approver,
    store: o.store,
    clock: systemClock,
    events: o.sink,
    planner: roles.planner,
    executor: roles.executor,
    verifier: roles.verifier,
    createStepTools,
    approve: host.approveMode(),
    // Commands never see the extension host's secrets (the API keys included).
    env: scrubEnv(process.env),
    models: o.model.models as Record<string, unknown>,
  };
}

export function createCoreEngine(host: EngineHost): MissionEngine {
  return {
    async start(o): Promise<Outcome<MissionRun>> {
      try {
        const p = await ports(host, o);
        const workspaceSummary = await summarizeWorkspace(p.workspace);
        return { ok: true, value: toRun(startMission({ ...p, task: o.task, workspaceSummary })) };
      } catch (error) {
        return { ok: false, reason: 'start_failed', message: `Could not start the mission: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
    async resume(missionId, o): Promise<Outcome<MissionRun>> {
      try {
        const p = await ports(host, o);
        const out = await resumeMission({ ...p, missionId, consent: (ids) => host.consentToRerun(ids) });
        return out.ok ? { ok: true, value: toRun(out.handle) } : { ok: false, reason: out.reason, message: out.message };
      } catch (error) {
        return { ok: false, reason: 'resume_failed', message: `Could not resume the mission: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
    async revertStep(missionId, stepId, o): Promise<Outcome<{ conflicts: string[] }>> {
      const events = (await o.store.readEvents(missionId)).flatMap((raw): TraceEvent[] => {
        const parsed = TraceEventSchema.safeParse(raw);
        return parsed.success ? [parsed.data] : [];
      });
      const results = events.flatMap((e) => (e.type === 'step_result' ? [e.result] : []));
      const mine = results.filter((r) => r.stepId === stepId).flatMap((r) => r.sideEffects.files);
      if (mine.length === 0) return { ok: false, reason: 'nothing', message: `Step ${stepId} changed no files.` };
      const paths = new Set(mine.map((f) => f.path));
      let lastOwnIndex = -1;
      events.forEach((e, i) => {
        if (e.type === 'step_result' && e.result.stepId === stepId) lastOwnIndex = i;
      });
      const later = events
        .slice(lastOwnIndex + 1)
        .flatMap((e) => (e.type === 'step_result' && e.result.stepId !== stepId && e.result.sideEffects.files.some((f) => paths.has(f.path)) ? [e.result.stepId] : []));
      const conflicts = [...new Set(later)];
      if (o.dryRun) return { ok: true, value: { conflicts } };
      // The step's net effect per file: its first before and its last after.
      const net = new Map<string, (typeof mine)[number]>();
      for (const f of mine) {
        const prev = net.get(f.path);
        net.set(f.path, prev ? { ...f, beforeHash: prev.beforeHash } : f);
      }
      const { workspace } = await host.adapters(o.workspaceRoot);
      // The user confirmed after seeing the conflicts: later steps' changes to these files are overwritten.
      const out = await revertStep(workspace, o.store, [...net.values()], { force: conflicts.length > 0, label: `Revert step ${stepId}` });
      return out.ok ? { ok: true, value: { conflicts } } : { ok: false, reason: out.reason, message: out.message };
    },
  };
}
