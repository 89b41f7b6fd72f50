/**
 * Visible waiting: whatever waits for the user (proposed edits and commands, a plan to approve) is counted
 * on the sidebar view's native badge and in the status bar, and — when no surface is in sight and the
 * `planExecute.notifyWhenWaiting` setting allows — announced once by a notification. All of it clears when
 * nothing waits.
 */
import * as vscode from 'vscode';
import type { SurfaceState } from '../webview/protocol';
import type { Waiting } from './view/waitingSummary';

export interface WaitingTargets {
  setBadge(count: number, tooltip: string): void;
  /** True when the user can see a surface showing the queue (the sidebar or the board). */
  surfaceVisible(): boolean;
  notifyEnabled(): boolean;
  showQueue(): Thenable<unknown>;
}

export class WaitingIndicators {
  private last = 0;

  constructor(private readonly targets: WaitingTargets) {}

  update(state: SurfaceState): Waiting {
    const waiting = state.status.waiting;
    this.targets.setBadge(waiting.count, waiting.summary);
    // Announce only the start of a wait (0 → n), so a burst of cards makes one notification.
    if (waiting.count > 0 && this.last === 0 && !this.targets.surfaceVisible() && this.targets.notifyEnabled()) {
      void vscode.window
        .showInformationMessage(`Plan & Execute: ${waiting.summary}.`, 'Show')
        .then((pick) => (pick === 'Show' ? this.targets.showQueue() : undefined));
    }
    this.last = waiting.count;
    return waiting;
  }
}
