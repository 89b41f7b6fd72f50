/**
 * A mission that failed or stopped on a cap while no surface is in sight says so once, as an error
 * notification carrying the actions that help — Retry / Continue, Set API key, the setting to raise, or
 * Show (the board). A user's own cancel, a success and a mission shown from the store announce nothing.
 */
import * as vscode from 'vscode';
import type { MissionAction, MissionView, SurfaceState } from '../webview/protocol';

export interface StoppedNoticeTargets {
  /** True when the user can see a surface (the sidebar or the board). */
  surfaceVisible(): boolean;
  /** Runs the chosen action (the same handlers the surfaces' buttons reach). */
  act(action: MissionAction | { kind: 'show' }): Thenable<unknown> | void;
  /** Shows the notification (default: an error message); resolves with the chosen label. */
  show?(message: string, labels: string[]): Thenable<string | undefined>;
}

const LABELS: Partial<Record<MissionAction['kind'], string>> = { retry: 'Retry', continue: 'Continue', setApiKey: 'Set API Key' };

export class StoppedNotice {
  /** The mission whose stop was seen last (announced or not), so each stop is announced at most once. */
  private seen: string | null = null;
  /** The last message shown (for tests). */
  last: { message: string; labels: string[] } | null = null;
  /** Missions this window ran (a mission read back from the store after a reload is not announced). */
  private readonly ran = new Set<string>();

  constructor(private readonly targets: StoppedNoticeTargets) {}

  update(state: SurfaceState): void {
    const m = state.mission;
    if (!m) return;
    if (m.live) {
      this.ran.add(m.missionId);
      if (this.seen === m.missionId) this.seen = null; // a Retry or Continue: the next stop is news again
      return;
    }
    if (!this.ran.has(m.missionId) || this.seen === m.missionId || !announced(m)) return;
    this.seen = m.missionId;
    if (this.targets.surfaceVisible()) return;
    const actions = m.actions.filter((a) => a.kind in LABELS || a.kind === 'openSettings').slice(0, 2);
    const labels = [...actions.map((a) => (a.kind === 'openSettings' ? a.label : LABELS[a.kind]!)), 'Show'];
    const message = `Plan & Execute: the mission ${m.outcome === 'budget_exceeded' ? 'stopped' : 'failed'} — ${m.summary ?? ''}`;
    this.last = { message, labels };
    const show = this.targets.show ?? ((text: string, items: string[]) => vscode.window.showErrorMessage(text, ...items));
    void show(message, labels).then((pick) => {
      if (pick === undefined) return;
      const i = labels.indexOf(pick);
      return this.targets.act(i < actions.length ? actions[i]! : { kind: 'show' });
    });
  }
}

/** Failures and cap stops are news; a success or the user's own cancel is not. */
function announced(m: MissionView): boolean {
  return m.outcome === 'failed' || m.outcome === 'budget_exceeded';
}
