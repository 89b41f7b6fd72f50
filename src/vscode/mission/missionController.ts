/**
 * Runs missions for this window: starts one through the engine bridge, feeds every trace event into the
 * surfaces' model (sidebar, board, status bar) and the log, and restores the latest mission from the store
 * after a reload. The webviews' commands are handled in ./surfaceHandlers.ts; this class owns the state they
 * act on.
 */
import * as vscode from 'vscode';
import type { EventSink, Store } from '../../core/ports';
import { TraceEventSchema, type TraceEvent } from '../../core/contracts/traceEvents';
import type { MissionView } from '../../webview/protocol';
import { VsCodeApprover } from '../approvals/vscodeApprover';
import type { ModelSetup } from '../models/modelSetup';
import type { Log } from '../log';
import type { SurfaceModel } from '../surfaces/surfaceModel';
import { mirrorToLog } from '../traceLog';
import type { MissionEngine, MissionRun, Outcome } from './engineBridge';
import type { ContinueMode } from '../../core/mission/resume';
import type { RevertPlan, RevertTarget } from '../../core/mission/revert';
import type { Limits } from '../limits';
import { latestMissionId, type MissionOwnerStore } from './missionOwner';
import { errorText } from '../../core/primitives/errorText';
import { err, ok } from '../../core/contracts/result';
import type { PlanInput } from '../../core/contracts/plan';

export interface ControllerDeps {
  engine: MissionEngine;
  model: SurfaceModel;
  approver: VsCodeApprover;
  /** The mission store (created lazily; undefined when there is no place to keep it). */
  store(): Promise<Store | undefined>;
  /** Providers, models and keys for the next mission, or why there are none (a missing key: no_api_key). */
  modelSetup(): Outcome<ModelSetup>;
  /** Replaces any API key in text bound for the log. */
  redact(text: string): string;
  log: Log;
  /** The caps from settings (read at each start, retry and continue). */
  limits(): Limits;
  /** Asks the user a yes/no question in a modal (re-run interrupted steps on Resume). */
  confirm(message: string, action: string): Promise<boolean>;
  /** Which mission this window runs, kept across a window reload (the workspace's memento). */
  owner: MissionOwnerStore;
}

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

export class MissionController implements vscode.Disposable {
  private run: MissionRun | null = null;
  /** A start or a go-on is on its way (before the engine has a run): a second one is refused, not queued. */
  private starting = false;
  /** The window is closing: the run is interrupted, not ended, and stays this window's to pick up. */
  private closing = false;
  /** Events seen for the current mission, in order (the webview view is a projection of these). */
  private readonly sink: EventSink = { emit: (event) => this.onEvent(event) };

  constructor(private readonly deps: ControllerDeps) {}

  get mission(): MissionView | null {
    return this.deps.model.mission;
  }

  get current(): MissionRun | null {
    return this.run;
  }

  workspaceRoot(): string | undefined {
    return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  }

  /** Why a new start or a go-on must wait, or null when nothing runs or starts in this window. */
  private busyReason(): string | null {
    if (this.starting) return 'A mission is starting in this window already.';
    if (this.run && this.mission && !TERMINAL.has(this.mission.phase)) return 'A mission is already running in this window. Cancel it first.';
    return null;
  }

  /**
   * Starts planning `task`, with cancellable progress in the notification area. One start at a time. With
   * `plan` (a saved plan document), the planner is not asked: the plan waits for approval as it is.
   */
  async start(task: string, plan?: PlanInput): Promise<Outcome> {
    const busy = this.busyReason();
    if (busy) return err({ reason: 'busy', message: busy });
    this.starting = true;
    try {
      return await this.startNow(task, plan);
    } finally {
      this.starting = false;
      this.deps.model.changed();
    }
  }

  private async startNow(task: string, plan: PlanInput | undefined): Promise<Outcome> {
    const root = this.workspaceRoot();
    if (!root) return err({ reason: 'no_workspace', message: 'Open a folder first: missions run inside a workspace folder.' });
    const model = this.deps.modelSetup();
    if (!model.ok) return model;
    const store = await this.deps.store();
    if (!store) return err({ reason: 'no_store', message: 'There is no storage location for missions in this window.' });

    this.deps.approver.reset('a new mission started');
    // The mission shown so far stays until the new one has its first event: a start that fails shows it again.
    const previous = this.deps.model.coreView;
    this.deps.model.taskPrefill = null;
    this.setBusy('Planning…');
    this.deps.log.info(`planning with ${model.value.destination}`);
    try {
      const outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Plan & Execute: planning with ${model.value.destination}`, cancellable: true },
        async (_progress, token) => {
          const options = {
            task,
            workspaceRoot: root,
            model: model.value,
            approver: this.deps.approver,
            store,
            sink: this.sink,
            limits: this.deps.limits(),
            ...(plan ? { plan } : {}),
          };
          const started = await this.deps.engine.start(options);
          if (!started.ok) return started;
          this.attach(started.value);
          // Planning ends when the plan waits for approval or the mission ends, whichever comes first.
          const cancel = token.onCancellationRequested(() => started.value.cancel('cancelled while planning'));
          await Promise.race([started.value.done, this.until((m) => m.missionId === started.value.missionId && m.phase !== 'planning')]);
          cancel.dispose();
          return ok();
        },
      );
      if (!outcome.ok && this.deps.model.coreView === previous && previous) this.deps.model.changed();
      return outcome;
    } catch (error) {
      return err({ reason: 'start_failed', message: `Could not start the mission: ${errorText(error)}` });
    } finally {
      this.setBusy(null);
    }
  }

  /**
   * Goes on with the shown mission once it stopped: `resume` (interrupted), `retry` (failed, from the
   * failing step) or `continue` (cancelled or budget-stopped). A mission that failed before it had a plan
   * is planned again from its task (a new mission).
   */
  /**
   * `rerunInterrupted`: re-run the steps an interruption cut off without asking (a window reload picking its
   * own mission up); otherwise Resume asks first — before anything goes live, so no step spins behind the
   * question — and a "no" leaves the mission as it is.
   */
  async goOn(mode: ContinueMode, options: { rerunInterrupted?: boolean } = {}): Promise<Outcome> {
    const mission = this.mission;
    if (mission && mode === 'retry' && mission.planVersion === null) return this.start(mission.task);
    const busy = this.busyReason();
    if (busy) return err({ reason: 'busy', message: busy });
    this.starting = true;
    try {
      return await this.exclusive(() => this.goOnNow(mode, options.rerunInterrupted));
    } finally {
      this.starting = false;
      this.deps.model.changed();
    }
  }

  private async goOnNow(mode: ContinueMode, rerunInterrupted: boolean | undefined): Promise<Outcome> {
    const mission = this.mission;
    if (!mission) return err({ reason: 'nothing', message: 'There is no mission to go on with.' });
    if (mission.live) return err({ reason: 'live', message: 'This mission is already running.' });
    const root = this.workspaceRoot();
    const model = this.deps.modelSetup();
    if (!model.ok) return model;
    const store = await this.deps.store();
    if (!root || !store) return err({ reason: 'not_ready', message: 'Going on needs an open folder and the mission store.' });
    const cut = mission.steps.filter((s) => s.inPlan && s.status === 'interrupted').map((s) => s.id);
    let rerun = rerunInterrupted ?? true;
    if (mode === 'resume' && cut.length > 0 && rerunInterrupted === undefined) {
      const list = cut.join(', ');
      const many = cut.length > 1;
      const question =
        `${many ? 'Steps' : 'Step'} ${list} ${many ? 'were' : 'was'} running when the mission stopped. ` +
        `Resume runs ${many ? 'them' : 'it'} again from the start (finished steps are kept).`;
      rerun = await this.deps.confirm(question, 'Run again');
      if (!rerun) return ok(undefined);
    }
    const options = { workspaceRoot: root, model: model.value, approver: this.deps.approver, store, sink: this.sink, limits: this.deps.limits() };
    const resumed = await this.deps.engine.resume(mission.missionId, { ...options, mode, rerunInterrupted: rerun });
    if (!resumed.ok) return resumed;
    this.deps.model.setLive(true);
    this.attach(resumed.value);
    return ok(undefined);
  }

  /**
   * "Resume Mission" from the palette: goes on the way the mission's state offers (Resume, Retry, Continue,
   * or running again what a revert undid), or says plainly why there is nothing to go on with.
   */
  resume(): Promise<Outcome> {
    const mission = this.mission;
    if (!mission) return Promise.resolve(err({ reason: 'nothing', message: 'There is no mission to resume in this window.' }));
    if (mission.live) return Promise.resolve(err({ reason: 'live', message: 'The mission is already running.' }));
    const way = mission.actions.find((a) => a.kind === 'resume' || a.kind === 'retry' || a.kind === 'continue' || a.kind === 'rerun');
    if (!way) {
      const said = mission.outcome === 'succeeded' ? 'The mission succeeded: there is nothing left to resume.' : 'This mission cannot go on: start a new one.';
      return Promise.resolve(err({ reason: 'finished', message: said }));
    }
    return this.goOn(way.kind === 'rerun' ? 'continue' : way.kind);
  }

  /**
   * Reverts steps (or the whole mission) of the shown mission once it has stopped. `dryRun` only plans it
   * (for the confirmation); `confirmed` is what the user agreed to.
   */
  revert(target: RevertTarget, dryRun: boolean, confirmed?: { stepIds: string[]; changedSince: string[] }): Promise<Outcome<RevertPlan>> {
    return dryRun ? this.revertNow(target, true) : this.exclusive(() => this.revertNow(target, false, confirmed));
  }

  private async revertNow(target: RevertTarget, dryRun: boolean, confirmed?: { stepIds: string[]; changedSince: string[] }): Promise<Outcome<RevertPlan>> {
    const root = this.workspaceRoot();
    const store = await this.deps.store();
    const mission = this.mission;
    if (!root || !store || !mission) return err({ reason: 'not_ready', message: 'There is no mission to revert in.' });
    if (mission.live && this.run) return err({ reason: 'live', message: 'Revert is possible once the mission has stopped: cancel it, or wait until it ends.' });
    return this.deps.engine.revert(mission.missionId, target, { store, workspaceRoot: root, sink: this.sink, dryRun, ...(confirmed ? { confirmed } : {}) });
  }

  /**
   * Runs what appends to a stopped mission's trace (a revert, going on with it) one at a time: two reverts
   * from two surfaces, or a revert racing Continue, would otherwise number their events from the same end.
   */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.tail.then(work, work);
    this.tail = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  private tail: Promise<void> = Promise.resolve();

  /**
   * A whole edited plan (a saved plan document) as the next version, with its diff and "edited by you":
   * while the plan waits for approval, or for the steps that have not started once it runs.
   */
  replacePlan(plan: unknown): Promise<Outcome> {
    if (!this.run) return Promise.resolve(err({ reason: 'not_running', message: 'The mission is not running here: its plan can no longer be edited.' }));
    return this.run.editPlan({ kind: 'replace_plan', plan, reason: 'edited by you' });
  }

  /** Cancel Mission as the user asks it: a mission with a plan is cancelled only after a confirmation. */
  async cancelAsked(): Promise<Outcome> {
    if (!this.run) return err({ reason: 'nothing', message: 'No mission is running.' });
    if (this.mission?.planVersion !== null && this.mission?.planVersion !== undefined) {
      const question = 'Cancel the mission? Running steps are stopped and nothing new starts; finished steps stay done, and Continue can go on with it later.';
      const sure = await this.deps.confirm(question, 'Cancel Mission');
      if (!sure) return ok(undefined);
    }
    return this.cancel();
  }

  cancel(): Outcome {
    if (!this.run) return err({ reason: 'nothing', message: 'No mission is running.' });
    this.run.cancel('cancelled by the user');
    return ok(undefined);
  }

  /**
   * Shows the most recent mission in the store (after a window reload). One this window was running when
   * it reloaded is picked up where it was: a plan or an approval that waited waits again, a step that ran
   * runs again from its start (see ./missionOwner.ts for how "this window" is known).
   */
  async restoreLatest(): Promise<boolean> {
    const store = await this.deps.store();
    if (!store || this.mission) return false;
    const latest = await this.latestStored(store);
    // A mission may have started while the store was read (a window restores while the user already typed
    // and ran a task): showing the stored copy over it would mark the running mission as not live.
    if (!latest || this.mission || this.run || this.starting) return false;
    this.deps.model.showMission(latest.events, false);
    const owner = this.deps.owner.get();
    if (owner?.missionId === latest.id && this.deps.model.coreView?.outcome === null) await this.pickUp(store, owner);
    return true;
  }

  /** The latest mission: by the time in its id when every id has one (one trace read), else by reading all. */
  private async latestStored(store: Store): Promise<{ id: string; events: TraceEvent[] } | undefined> {
    const ids = await store.listMissions();
    const byId = latestMissionId(ids);
    if (byId) {
      const events = await this.readTrace(store, byId);
      if (events.length > 0) return { id: byId, events };
    }
    let latest: { id: string; events: TraceEvent[]; at: string } | undefined;
    for (const id of ids) {
      const events = await this.readTrace(store, id);
      const at = events[0]?.at ?? '';
      if (events.length > 0 && (!latest || at > latest.at)) latest = { id, events, at };
    }
    return latest;
  }

  /** Picks up the mission this window ran before it reloaded, once the old extension host has let go of it. */
  private async pickUp(store: Store, owner: { missionId: string; pid: number }): Promise<void> {
    this.deps.model.resuming = true;
    this.deps.model.changed();
    try {
      const waitFrom = Date.now();
      if (!(await this.deps.owner.released(owner))) {
        this.deps.log.warn(`mission ${owner.missionId} is still run by process ${owner.pid}: not picked up here`);
        return;
      }
      this.deps.log.info(`the previous window's extension host (process ${owner.pid}) let go of mission ${owner.missionId} after ${Date.now() - waitFrom} ms`);
      // The old host may have recorded its interruption meanwhile: show the trace as it is now.
      const events = await this.readTrace(store, owner.missionId);
      if (this.run || this.mission?.missionId !== owner.missionId) return;
      this.deps.model.showMission(events, false);
      const mission = this.mission;
      if (!mission || mission.outcome !== null) return;
      this.deps.log.info(`picking mission ${owner.missionId} up after the window reload`);
      const out = await this.goOn(mission.planVersion === null ? 'retry' : 'resume', { rerunInterrupted: true });
      if (!out.ok) this.deps.log.warn(`could not pick the mission up after the reload: ${out.error.message}`);
    } finally {
      this.deps.model.resuming = false;
      this.deps.model.changed();
    }
  }

  /** The mission's trace as recorded; lines that do not validate are skipped and logged. */
  async readTrace(store: Store, missionId: string): Promise<TraceEvent[]> {
    const raw = await store.readEvents(missionId);
    const events: TraceEvent[] = [];
    for (const line of raw) {
      const parsed = TraceEventSchema.safeParse(line);
      if (parsed.success) events.push(parsed.data);
      else this.deps.log.warn(`trace ${missionId}: skipped an invalid event`);
    }
    return events;
  }

  private attach(run: MissionRun): void {
    this.run = run;
    void this.deps.owner.set(run.missionId);
    void run.done.then(() => {
      if (this.run === run) {
        this.run = null;
        // Ended here: not this window's to pick up after a reload. Interrupted by the window closing: it is.
        if (!this.closing) void this.deps.owner.clear(run.missionId);
      }
      this.deps.model.setLive(false);
    });
  }

  private onEvent(event: TraceEvent): void {
    try {
      mirrorToLog(this.deps.log, event, (t) => this.deps.redact(t));
      this.deps.model.applyEvent(event);
      for (const waiter of [...this.waiters]) waiter();
    } catch (error) {
      // EventSink.emit must not throw: a rendering problem never stops a mission.
      this.deps.log.error(`surfaces: could not apply event ${event.type}: ${errorText(error)}`);
    }
  }

  private readonly waiters = new Set<() => void>();

  /** Resolves when the mission view satisfies `predicate` (checked after every event). */
  until(predicate: (mission: MissionView) => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.mission && predicate(this.mission)) {
          this.waiters.delete(check);
          resolve();
        }
      };
      this.waiters.add(check);
      check();
    });
  }

  private setBusy(label: string | null): void {
    this.deps.model.busy = label;
    this.deps.model.changed();
  }

  dispose(): void {
    // A window reload is not the user stopping the mission: it is interrupted (no outcome), and the reloaded
    // window picks it up.
    this.closing = true;
    if (this.run) this.deps.log.info(`the window is closing: mission ${this.run.missionId} is interrupted, to be picked up by the reloaded window`);
    this.run?.interrupt('the window closed');
  }
}
