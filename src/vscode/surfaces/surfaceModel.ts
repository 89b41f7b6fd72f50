/**
 * The surfaces' state on the host side and the one place that posts it. It folds trace events with core's
 * projection (src/core/mission/view.ts) and shapes the result for the webviews (../view/uiMission.ts) when a
 * snapshot is taken. Structural changes are coalesced into one snapshot per tick (a burst of trace events
 * makes one post); a step's status change alone goes out at once as a small `didChangeStepStatus`.
 */
import { applyEvent, emptyMissionView } from '../../core/mission/view';
import type { MissionView as CoreView } from '../../core/contracts/missionView';
import type { TraceEvent } from '../../core/contracts/traceEvents';
import type { InstructionsView, MissionView, NoticeView, SandboxStatusView, SurfaceState, ToWebview } from '../../webview/protocol';
import type { VsCodeApprover } from '../approvals/vscodeApprover';
import { toUiMission } from '../view/uiMission';
import { missionStatus } from '../view/missionStatus';

export interface SurfaceSink {
  post(message: ToWebview): void;
}

export interface SurfaceInputs {
  trusted(): boolean;
  hasApiKey(): boolean;
  /** How commands run here (cheap after the first call: the sandbox probe is cached). */
  sandbox?(): SandboxStatusView;
  /** True when a scripted demo model answers (npm start -- --demo). */
  demo(): boolean;
  /** The host's copy of the unsent task text. */
  taskDraft(): string | null;
  /** The project's instruction files for the next mission (undefined until listed). */
  instructions?(): InstructionsView | undefined;
}

export class SurfaceModel {
  busy: string | null = null;
  /** The mission shown was running here before a window reload and is being picked up again. */
  resuming = false;
  taskPrefill: string | null = null;
  notices: NoticeView[] = [];
  private core: CoreView | null = null;
  private live = false;
  /** The UI view of `core`, built on demand and kept until the next structural change. */
  private ui: MissionView | null = null;
  private rev = 0;
  private scheduled: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners: ((state: SurfaceState) => void)[] = [];

  constructor(
    private readonly sink: SurfaceSink,
    private readonly approver: () => VsCodeApprover,
    private readonly inputs: SurfaceInputs,
  ) {}

  /** The mission as the surfaces show it (null: none yet). */
  get mission(): MissionView | null {
    if (!this.core) return null;
    this.ui ??= toUiMission(this.core, { live: this.live });
    return this.ui;
  }

  /** Core's projection of the shown mission (null: none). */
  get coreView(): CoreView | null {
    return this.core;
  }

  /** Shows a mission folded from its whole trace (read back from the store: not live). */
  showMission(events: readonly TraceEvent[], live: boolean): void {
    this.core = events.reduce(applyEvent, emptyMissionView());
    this.live = live;
    this.ui = null;
    this.changed();
  }

  clearMission(): void {
    this.core = null;
    this.ui = null;
    this.changed();
  }

  setLive(live: boolean): void {
    if (this.live === live) return;
    this.live = live;
    this.ui = null;
    this.changed();
  }

  /**
   * Folds one live event. A bare status change of a step on screen is painted in place (a small message);
   * anything else schedules a snapshot.
   */
  applyEvent(event: TraceEvent): void {
    if (!this.core || (this.core.missionId !== null && this.core.missionId !== event.missionId)) {
      this.core = emptyMissionView();
      this.live = true;
      this.ui = null;
    }
    this.core = applyEvent(this.core, event);
    // The fast path repaints one step; it is taken only while the mission runs here and the step has no model
    // wait showing — otherwise the mission's actions or its waits depend on the change, and a snapshot goes out.
    const fast = event.type === 'step_status' && this.live && !this.ui?.waits.some((w) => w.stepId === event.stepId);
    const cached = fast ? this.ui?.steps.find((s) => s.id === event.stepId && s.inPlan) : undefined;
    if (event.type === 'step_status' && cached) {
      cached.status = event.status;
      cached.attempt = event.attempt;
      cached.statusReason = event.reason;
      this.stepStatus(event.stepId, event.status, event.reason);
      this.notifyListeners();
      return;
    }
    this.ui = null;
    this.changed();
  }

  /** A fresh snapshot with a new revision (answers `ready`, and every structural change). */
  snapshot(): SurfaceState {
    this.rev += 1;
    return this.peek();
  }

  /** Called after every change; listeners (status bar, badge, tests) see the same snapshot the webviews get. */
  onDidChange(listener: (state: SurfaceState) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  changed(): void {
    if (this.scheduled) return;
    this.scheduled = setTimeout(() => {
      this.scheduled = undefined;
      this.flush();
    }, 0);
  }

  /** Posts a snapshot now (used when a test or a command needs the webviews current before it returns). */
  flush(): SurfaceState {
    if (this.scheduled) {
      clearTimeout(this.scheduled);
      this.scheduled = undefined;
    }
    const state = this.snapshot();
    this.sink.post({ type: 'state', state });
    for (const l of this.listeners) l(state);
    return state;
  }

  /** Tells listeners about a change that went out as a notification, not a snapshot. */
  private notifyListeners(): void {
    if (this.scheduled || this.listeners.length === 0) return;
    const state = this.peek();
    for (const l of this.listeners) l(state);
  }

  /** The current state without bumping the revision (nothing is posted). */
  peek(): SurfaceState {
    const approver = this.approver();
    const mission = this.mission;
    const approvals = approver.views();
    const planAwaitingApproval = approver.pendingPlan()?.plan.version ?? null;
    const demo = this.inputs.demo();
    return {
      rev: this.rev,
      trusted: this.inputs.trusted(),
      hasApiKey: this.inputs.hasApiKey(),
      busy: this.busy ? { label: this.busy } : null,
      mission,
      approvals,
      planAwaitingApproval,
      rules: approver.listRules(),
      taskPrefill: this.taskPrefill,
      taskDraft: this.inputs.taskDraft(),
      demo,
      notices: this.notices,
      ...(this.inputs.sandbox ? { sandbox: this.inputs.sandbox() } : {}),
      status: missionStatus({ mission, busy: this.busy, resuming: this.resuming, approvals, planAwaitingApproval, demo }),
      ...this.#instructions(),
    };
  }

  #instructions(): Pick<SurfaceState, 'instructions'> {
    const view = this.inputs.instructions?.();
    return view ? { instructions: view } : {};
  }

  /** The first state (now, or after a change) that satisfies `predicate`; rejects after `timeoutMs`. */
  waitFor(predicate: (state: SurfaceState) => boolean, timeoutMs: number): Promise<SurfaceState> {
    return new Promise((resolve, reject) => {
      let unsubscribe: (() => void) | undefined;
      const finish = (): void => {
        clearTimeout(timer);
        unsubscribe?.();
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`the surface state did not reach the expected condition in ${timeoutMs} ms; last: ${JSON.stringify(this.peek()).slice(0, 2000)}`));
      }, timeoutMs);
      const check = (state: SurfaceState): void => {
        if (!predicate(state)) return;
        finish();
        resolve(state);
      };
      unsubscribe = this.onDidChange(check);
      check(this.peek());
    });
  }

  private stepStatus(stepId: string, status: MissionView['steps'][number]['status'], reason: string | undefined): void {
    if (this.scheduled) return; // a snapshot is on its way and carries the change
    this.rev += 1;
    this.sink.post({ type: 'didChangeStepStatus', rev: this.rev, stepId, status, reason });
  }

  dispose(): void {
    if (this.scheduled) clearTimeout(this.scheduled);
  }
}
