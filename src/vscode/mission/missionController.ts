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
}

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

export class MissionController implements vscode.Disposable {
  private run: MissionRun | null = null;
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

  /** Starts planning `task`, with cancellable progress in the notification area. */
  async start(task: string): Promise<Outcome> {
    if (this.run && this.mission && !TERMINAL.has(this.mission.phase)) {
      return { ok: false, reason: 'busy', message: 'A mission is already running in this window. Cancel it first.' };
    }
    const root = this.workspaceRoot();
    if (!root) return { ok: false, reason: 'no_workspace', message: 'Open a folder first: missions run inside a workspace folder.' };
    const model = this.deps.modelSetup();
    if (!model.ok) return model;
    const store = await this.deps.store();
    if (!store) return { ok: false, reason: 'no_store', message: 'There is no storage location for missions in this window.' };

    this.deps.approver.reset('a new mission started');
    this.deps.model.clearMission();
    this.deps.model.taskPrefill = null;
    this.setBusy('Planning…');
    this.deps.log.info(`planning with ${model.value.destination}`);
    const outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Plan & Execute: planning with ${model.value.destination}`, cancellable: true },
      async (_progress, token) => {
        const started = await this.deps.engine.start({ task, workspaceRoot: root, model: model.value, approver: this.deps.approver, store, sink: this.sink, limits: this.deps.limits() });
        if (!started.ok) return started;
        this.attach(started.value);
        // Planning ends when the plan waits for approval or the mission ends, whichever comes first.
        const cancel = token.onCancellationRequested(() => started.value.cancel('cancelled while planning'));
        await Promise.race([started.value.done, this.until((m) => m.phase !== 'planning')]);
        cancel.dispose();
        return { ok: true, value: undefined } as const;
      },
    );
    this.setBusy(null);
    return outcome;
  }

  /**
   * Goes on with the shown mission once it stopped: `resume` (interrupted), `retry` (failed, from the
   * failing step) or `continue` (cancelled or budget-stopped). A mission that failed before it had a plan
   * is planned again from its task (a new mission).
   */
  goOn(mode: ContinueMode): Promise<Outcome> {
    return this.exclusive(() => this.goOnNow(mode));
  }

  private async goOnNow(mode: ContinueMode): Promise<Outcome> {
    const mission = this.mission;
    if (!mission) return { ok: false, reason: 'nothing', message: 'There is no mission to go on with.' };
    if (mission.live) return { ok: false, reason: 'live', message: 'This mission is already running.' };
    if (mode === 'retry' && mission.planVersion === null) return this.start(mission.task);
    const root = this.workspaceRoot();
    const model = this.deps.modelSetup();
    if (!model.ok) return model;
    const store = await this.deps.store();
    if (!root || !store) return { ok: false, reason: 'not_ready', message: 'Going on needs an open folder and the mission store.' };
    const resumed = await this.deps.engine.resume(mission.missionId, { workspaceRoot: root, model: model.value, approver: this.deps.approver, store, sink: this.sink, limits: this.deps.limits(), mode });
    if (!resumed.ok) return resumed;
    this.deps.model.setLive(true);
    this.attach(resumed.value);
    return { ok: true, value: undefined };
  }

  resume(): Promise<Outcome> {
    return this.goOn('resume');
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
    if (!root || !store || !mission) return { ok: false, reason: 'not_ready', message: 'There is no mission to revert in.' };
    if (mission.live && this.run) return { ok: false, reason: 'live', message: 'Revert is possible once the mission has stopped: cancel it, or wait until it ends.' };
    return this.deps.engine.revert(mission.missionId, target, { store, workspaceRoot: root, sink: this.sink, dryRun, ...(confirmed ? { confirmed } : {}) });
  }

  /**
   * Runs what appends to a stopped mission's trace (a revert, going on with it) one at a time: two reverts
   * from two surfaces, or a revert racing Continue, would otherwise number their events from the same end.
   */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.tail.then(work, work);
    this.tail = next.then(() => undefined, () => undefined);
    return next;
  }

  private tail: Promise<void> = Promise.resolve();

  cancel(): Outcome {
    if (!this.run) return { ok: false, reason: 'nothing', message: 'No mission is running.' };
    this.run.cancel('cancelled by the user');
    return { ok: true, value: undefined };
  }

  /** Shows the most recent mission in the store (after a window reload). */
  async restoreLatest(): Promise<boolean> {
    const store = await this.deps.store();
    if (!store || this.mission) return false;
    const ids = await store.listMissions();
    let latest: { id: string; events: TraceEvent[]; at: string } | undefined;
    for (const id of ids) {
      const events = await this.readTrace(store, id);
      const at = events[0]?.at ?? '';
      if (events.length > 0 && (!latest || at > latest.at)) latest = { id, events, at };
    }
    // A mission may have started while the store was read (a window restores while the user already typed
    // and ran a task): showing the stored copy over it would mark the running mission as not live.
    if (!latest || this.mission || this.run) return false;
    this.deps.model.showMission(latest.events, false);
    return true;
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
    void run.done.then(() => {
      if (this.run === run) this.run = null;
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
      this.deps.log.error(`surfaces: could not apply event ${event.type}: ${error instanceof Error ? error.message : String(error)}`);
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
    this.run?.cancel('the window is closing');
  }
}
