/**
 * The sidebar's state on the host side and the one place that posts it. Structural changes are coalesced
 * into one snapshot per tick (a burst of trace events makes one post); a step's status change alone goes
 * out at once as a small `didChangeStepStatus`.
 */
import type { MissionView, SidebarState, ToWebview } from '../../webview/protocol';
import type { VsCodeApprover } from '../approvals/vscodeApprover';
import { missionActions } from '../view/missionActions';

export interface SidebarSink {
  post(message: ToWebview): Promise<boolean>;
}

export interface SidebarInputs {
  trusted(): boolean;
  hasApiKey(): boolean;
}

export class SidebarModel {
  mission: MissionView | null = null;
  busy: string | null = null;
  taskPrefill: string | null = null;
  private rev = 0;
  private scheduled: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners: ((state: SidebarState) => void)[] = [];

  constructor(
    private readonly sink: SidebarSink,
    private readonly approver: () => VsCodeApprover,
    private readonly inputs: SidebarInputs,
  ) {}

  /** A fresh snapshot with a new revision (answers `ready`, and every structural change). */
  snapshot(): SidebarState {
    this.rev += 1;
    return this.peek();
  }

  /** Called after every change; listeners (status bar, tests) see the same snapshot the webview gets. */
  onDidChange(listener: (state: SidebarState) => void): () => void {
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

  /** Posts a snapshot now (used when a test or a command needs the webview current before it returns). */
  flush(): SidebarState {
    if (this.scheduled) {
      clearTimeout(this.scheduled);
      this.scheduled = undefined;
    }
    const state = this.snapshot();
    void this.sink.post({ type: 'state', state });
    for (const l of this.listeners) l(state);
    return state;
  }

  /** Tells listeners (status bar, tests) about a change that went out as a notification, not a snapshot. */
  notifyListeners(): void {
    if (this.scheduled || this.listeners.length === 0) return;
    const state = this.peek();
    for (const l of this.listeners) l(state);
  }

  /** The current state without bumping the revision (nothing is posted). */
  peek(): SidebarState {
    const approver = this.approver();
    return {
      rev: this.rev,
      trusted: this.inputs.trusted(),
      hasApiKey: this.inputs.hasApiKey(),
      busy: this.busy ? { label: this.busy } : null,
      // Actions depend on whether this window runs the mission, which changes without a trace event.
      mission: this.mission && { ...this.mission, actions: missionActions(this.mission) },
      approvals: approver.views(),
      planAwaitingApproval: approver.pendingPlan()?.plan.version ?? null,
      rules: approver.listRules(),
      taskPrefill: this.taskPrefill,
    };
  }

  /** The first state (now, or after a change) that satisfies `predicate`; rejects after `timeoutMs`. */
  waitFor(predicate: (state: SidebarState) => boolean, timeoutMs: number): Promise<SidebarState> {
    return new Promise((resolve, reject) => {
      let unsubscribe: (() => void) | undefined;
      const finish = (): void => {
        clearTimeout(timer);
        unsubscribe?.();
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`the sidebar state did not reach the expected condition in ${timeoutMs} ms; last: ${JSON.stringify(this.peek()).slice(0, 2000)}`));
      }, timeoutMs);
      const check = (state: SidebarState): void => {
        if (!predicate(state)) return;
        finish();
        resolve(state);
      };
      unsubscribe = this.onDidChange(check);
      check(this.peek());
    });
  }

  stepStatus(stepId: string, status: MissionView['steps'][number]['status'], reason: string | undefined): void {
    if (this.scheduled) return; // a snapshot is on its way and carries the change
    this.rev += 1;
    void this.sink.post({ type: 'didChangeStepStatus', rev: this.rev, stepId, status, reason });
  }

  dispose(): void {
    if (this.scheduled) clearTimeout(this.scheduled);
  }
}
