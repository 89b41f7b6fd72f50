/**
 * One small handler per webview command, shared by the sidebar and the mission board (the typed map makes
 * the compiler prove each is handled). Each
 * validates against the live state — a message naming an unknown request, step or version is refused
 * with a notice, never trusted — and reports failures to the user as text, never as a stack trace.
 */
import type { FromWebview, FromWebviewHandlers } from '../../webview/protocol';
import type { PlanEditInput } from '../../core/plan/edits';
import type { VsCodeApprover } from '../approvals/vscodeApprover';
import { openBlobDiff, type DiffSides } from '../diff/blobDiff';
import { diffPlacement, type DiffRoom } from '../diff/diffPlacement';
import type { SurfaceModel } from '../surfaces/surfaceModel';
import type { Outcome } from './engineBridge';
import type { RevertTarget } from '../../core/mission/revert';
import type { MissionController } from './missionController';
import type { InstructionsHost } from '../setup/instructionsHost';
import type { HooksHost } from '../setup/hooksHost';
import { err, ok } from '../../core/contracts/result';

export interface HandlerDeps {
  controller: MissionController;
  approver: VsCodeApprover;
  model: SurfaceModel;
  notify(level: 'info' | 'warning' | 'error', message: string): void;
  trusted(): boolean;
  /** Runs a registered command (export trace, set API key, open the board, settings…): the palette and the webviews share them. */
  command(id: string, ...args: unknown[]): Thenable<unknown>;
  /** Reverts steps or the whole mission, after the user confirmed what it will do (./revertFlow.ts). */
  revert(target: RevertTarget): Promise<Outcome>;
  /** Keeps the unsent task text (survives reloads). */
  saveTaskDraft(text: string): void;
  /** The editor area as far as a diff's placement goes (../diff/diffPlacement.ts). */
  diffRoom(): DiffRoom;
  /** Where two blobs first differ (undefined: not text, or not in the store). */
  firstChange(beforeHash: string | null, afterHash: string | null): Promise<{ line: number; character: number } | undefined>;
  /** A surface reported its size (the board: where a diff fits beside it). */
  surfaceSize(width: number, height: number): void;
  /** The project's instruction files for the next mission (./setup/instructionsHost.ts). */
  instructions: Pick<InstructionsHost, 'setIncluded' | 'open'>;
  /** The hooks the next mission would run, and the trust the user gives the project's (./setup/hooksHost.ts). */
  hooks: Pick<HooksHost, 'trust'>;
  /** Why this task cannot be planned in this window (the demo's scripted model has one task), or undefined. */
  refusedTask(task: string): string | undefined;
}

/**
 * The notice that says why a task was not planned: one at a time (a new refusal replaces it, a start clears
 * it), each with an id of its own, so the surface sees the host's answer to every submit.
 */
const TASK_REFUSED = 'task-refused';
let refusals = 0;

const UNTRUSTED_MESSAGE =
  'This workspace is not trusted, so Plan & Execute will not change files or run commands here. You can still plan; trust the workspace to execute.';

export function surfaceHandlers(d: HandlerDeps): Omit<FromWebviewHandlers, 'ready'> {
  const report = (outcome: Outcome): void => {
    if (!outcome.ok) d.notify('warning', outcome.error.message);
  };
  const edit = async (e: PlanEditInput): Promise<void> => {
    const run = d.controller.current;
    if (!run || d.controller.mission?.phase !== 'awaiting_approval') {
      d.notify('warning', 'The plan can be edited only while it waits for your approval.');
      return;
    }
    report(await run.editPlan(e));
  };
  return {
    runTask: async (m) => {
      const refused = d.refusedTask(m.task);
      const others = d.model.notices.filter((n) => !n.id.startsWith(TASK_REFUSED));
      d.model.notices = refused ? [...others, { id: `${TASK_REFUSED}-${++refusals}`, level: 'warning', message: refused, actions: [] }] : others;
      d.model.changed();
      if (!refused) report(await d.controller.start(m.task));
    },
    approvePlan: async (m) => {
      if (!d.trusted()) return d.notify('warning', UNTRUSTED_MESSAGE);
      const pending = await d.approver.waitForPlan(m.version, 5_000);
      if (!pending) {
        const current = d.approver.pendingPlan()?.plan.version;
        return d.notify(
          'warning',
          current ? `Plan v${m.version} is no longer current (v${current} is). Review it and approve again.` : 'No plan is waiting for approval.',
        );
      }
      d.approver.decide(pending.id, { decision: 'approved', by: 'user' });
    },
    editStep: (m) => edit({ kind: 'instructions', stepId: m.stepId, instructions: m.instructions }),
    dropStep: (m) => edit({ kind: 'drop_step', stepId: m.stepId }),
    tightenAuthority: (m) =>
      edit({
        kind: 'tighten_authority',
        stepId: m.stepId,
        authority: { edit: m.authority.edit, commands: m.authority.commands, ...(m.authority.mcp ? { mcp: m.authority.mcp } : {}) },
      }),
    addConstraint: (m) => edit({ kind: 'add_constraint', text: m.text }),
    approveAction: (m) => {
      if (!d.trusted()) return d.notify('warning', UNTRUSTED_MESSAGE);
      if (!d.approver.approve(m.requestId, m.remember)) d.notify('warning', 'That request is no longer waiting.');
    },
    rejectAction: (m) => {
      // The reason goes to the executor first, as the refused call's result: it may redo the action within
      // the step. The planner hears it only if the step then fails or escalates (the engine carries it).
      if (!d.approver.reject(m.requestId, m.reason)) d.notify('warning', 'That request is no longer waiting.');
    },
    openDiff: async (m) => {
      const sides = diffSides(d, m.target);
      if (!sides.ok) return d.notify('warning', sides.error.message);
      const reveal = await d.firstChange(sides.value.beforeHash, sides.value.afterHash);
      await openBlobDiff(sides.value, { focus: m.focus, placement: diffPlacement(d.diffRoom()), ...(reveal ? { reveal } : {}) });
    },
    revertStep: async (m) => report(await d.revert({ steps: [m.stepId] })),
    revertMission: async () => report(await d.revert({ all: true })),
    cancelMission: async () => report(await d.controller.cancelAsked()),
    exportTrace: async () => {
      await d.command('planExecute.exportTrace');
    },
    openPlanDocument: async () => {
      await d.command('planExecute.openPlanDocument');
    },
    savePlan: async () => {
      await d.command('planExecute.savePlan');
    },
    resume: async () => {
      if (!d.trusted()) return d.notify('warning', UNTRUSTED_MESSAGE);
      report(await d.controller.goOn('resume'));
    },
    retryMission: async () => {
      if (!d.trusted()) return d.notify('warning', UNTRUSTED_MESSAGE);
      report(await d.controller.goOn('retry'));
    },
    continueMission: async () => {
      if (!d.trusted()) return d.notify('warning', UNTRUSTED_MESSAGE);
      report(await d.controller.goOn('continue'));
    },
    chooseModel: async () => {
      await d.command('planExecute.chooseModel');
    },
    openSettings: async (m) => {
      // A cap to raise or the base URL when the failure named one; else every setting of the extension.
      await d.command('workbench.action.openSettings', m.query ?? '@ext:plan-execute.plan-execute');
    },
    addRule: (m) => {
      if (!d.controller.mission) return d.notify('warning', 'Rules belong to a mission; start one first.');
      d.approver.addRule(m.kind, m.pattern);
    },
    revokeRule: (m) => {
      if (!d.approver.revokeRule(m.ruleId)) d.notify('warning', 'That rule no longer exists.');
    },
    setApiKey: async () => {
      // After a refused key, the key of the provider that refused it; else the one the settings miss.
      const provider = d.controller.mission?.failure?.cause === 'auth' ? d.controller.mission.failure.provider : undefined;
      await d.command('planExecute.setApiKey', ...(provider ? [provider] : []));
    },
    openBoard: async (m) => {
      if (m.stepId !== undefined && !d.controller.mission?.steps.some((s) => s.id === m.stepId)) return d.notify('warning', `There is no step ${m.stepId}.`);
      await d.command('planExecute.openBoard', m.stepId);
    },
    approveStep: (m) => {
      if (!d.trusted()) return d.notify('warning', UNTRUSTED_MESSAGE);
      if (!d.controller.mission?.steps.some((s) => s.id === m.stepId)) return d.notify('warning', `There is no step ${m.stepId}.`);
      d.approver.approveStep(m.stepId);
    },
    saveTaskDraft: (m) => d.saveTaskDraft(m.text),
    focusQueue: async () => {
      await d.command('planExecute.focusQueue');
    },
    surfaceSize: (m) => d.surfaceSize(m.width, m.height),
    openInstructionFile: async (m) => {
      const recorded = d.controller.mission?.instructions?.files.map((f) => f.path) ?? [];
      if (!(await d.instructions.open(m.path, recorded))) d.notify('warning', `${m.path} is not one of the listed instruction files.`);
    },
    setInstructionIncluded: async (m) => {
      if (!(await d.instructions.setIncluded(m.path, m.included))) d.notify('warning', `${m.path} is not one of the listed instruction files.`);
    },
    trustHooks: async (m) => {
      if (!d.trusted()) return d.notify('warning', 'This workspace is not trusted: its hooks never run here. Trust the workspace first.');
      if (await d.hooks.trust(m.fingerprint))
        return d.notify('info', "The project's hooks are trusted: they run, in each step's sandbox, from the next mission on.");
      d.notify('warning', 'The hook files changed since the card showed them (or nothing waits for trust): review them again.');
    },
    dismissNotice: (m) => {
      const before = d.model.notices.length;
      d.model.notices = d.model.notices.filter((n) => n.id !== m.id);
      if (d.model.notices.length !== before) d.model.changed();
    },
  };
}

/** The two sides of the diff a surface asked for: a proposed edit still waiting, or a file a step changed. */
function diffSides(d: HandlerDeps, target: Extract<FromWebview, { type: 'openDiff' }>['target']): Outcome<DiffSides> {
  if (target.kind === 'approval') {
    const r = d.approver.get(target.requestId);
    if (!r || r.kind !== 'write') return err({ reason: 'gone', message: 'That proposed edit is no longer waiting.' });
    return ok({ path: r.path, beforeHash: r.beforeHash, afterHash: r.afterHash, beforeLabel: 'checkpoint', afterLabel: 'proposed' });
  }
  const { stepId, path } = target;
  const file = d.controller.mission?.steps.find((s) => s.id === stepId)?.files.find((f) => f.path === path);
  if (!file) return err({ reason: 'unknown', message: `Step ${stepId} did not change ${path}.` });
  const value = { path: file.path, beforeHash: file.beforeHash, afterHash: file.afterHash, beforeLabel: `before ${stepId}`, afterLabel: `after ${stepId}` };
  return ok(value);
}
