/**
 * Visible waiting: whatever waits for the user (proposed edits and commands, a plan to approve) is counted
 * on the sidebar view's native badge and in the status bar, and — when no surface is in sight and the
 * `planExecute.notifyWhenWaiting` setting allows — announced once by a notification. All of it clears when
 * nothing waits.
 */
import * as vscode from 'vscode';
import type { SurfaceState } from '../webview/protocol';

export interface Waiting {
  count: number;
  /** One sentence: what waits ("2 edits and 1 command wait for your approval"). */
  summary: string;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** What waits for the user in a snapshot. Pure. */
export function waitingIn(state: Pick<SurfaceState, 'approvals' | 'planAwaitingApproval'>): Waiting {
  const edits = state.approvals.filter((a) => a.kind === 'write').length;
  const commands = state.approvals.length - edits;
  const parts: string[] = [];
  if (state.planAwaitingApproval !== null) parts.push(`plan v${state.planAwaitingApproval}`);
  if (edits > 0) parts.push(plural(edits, 'edit', 'edits'));
  if (commands > 0) parts.push(plural(commands, 'command', 'commands'));
  const count = state.approvals.length + (state.planAwaitingApproval !== null ? 1 : 0);
  if (count === 0) return { count, summary: 'Nothing waits for you.' };
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0];
  return { count, summary: `${list} ${count === 1 ? 'waits' : 'wait'} for your approval` };
}

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
    const waiting = waitingIn(state);
    this.targets.setBadge(waiting.count, waiting.summary);
    // Announce only the start of a wait (0 → n), so a burst of cards makes one notification.
    if (waiting.count > 0 && this.last === 0 && !this.targets.surfaceVisible() && this.targets.notifyEnabled()) {
      void vscode.window.showInformationMessage(`Plan & Execute: ${waiting.summary}.`, 'Show').then((pick) => (pick === 'Show' ? this.targets.showQueue() : undefined));
    }
    this.last = waiting.count;
    return waiting;
  }
}
