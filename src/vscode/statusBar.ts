/**
 * The status-bar item and the `planExecute.missionActive` context key that shows the Cancel button and
 * palette entry. While something waits for the user it says "N waiting" in the warning colour and a click
 * shows the approval queue; otherwise it shows the mission's state (the header's words), steps done/total and
 * the cost so far when there is a real one.
 */
import * as vscode from 'vscode';
import type { SurfaceStatus } from '../webview/protocol';

const ICONS: Record<SurfaceStatus['kind'], string> = {
  idle: '$(checklist)',
  starting: '$(loading~spin)',
  planning: '$(loading~spin)',
  planWaiting: '$(checklist)',
  running: '$(loading~spin)',
  replanning: '$(loading~spin)',
  resuming: '$(loading~spin)',
  interrupted: '$(debug-pause)',
  succeeded: '$(pass)',
  failed: '$(error)',
  cancelled: '$(circle-slash)',
  stopped: '$(debug-stop)',
};

export class MissionStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('planExecute.status', vscode.StatusBarAlignment.Left, 50);
  private active: boolean | undefined;
  private visible = false;

  constructor() {
    this.item.name = 'Plan & Execute';
  }

  /** Shows the one state every surface reads (../view/missionStatus.ts): the same words as the header's badge. */
  update(status: SurfaceStatus, goal: string | null): void {
    const active = status.active;
    if (active !== this.active) {
      this.active = active;
      void vscode.commands.executeCommand('setContext', 'planExecute.missionActive', active);
    }
    const waiting = status.waiting;
    if (waiting.count > 0) {
      this.item.text = `$(bell-dot) ${waiting.count} waiting`;
      this.item.tooltip = `Plan & Execute: ${waiting.summary}. Click to show them.`;
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      this.item.color = new vscode.ThemeColor('statusBarItem.warningForeground');
      this.item.command = 'planExecute.focusQueue';
      this.item.accessibilityInformation = { label: `Plan & Execute: ${waiting.summary}`, role: 'button' };
      this.item.show();
      this.visible = true;
      return;
    }
    this.item.backgroundColor = undefined;
    this.item.color = undefined;
    this.item.command = 'planExecute.openBoard';
    if (status.kind === 'idle') {
      this.item.hide();
      this.visible = false;
      return;
    }
    const steps = status.steps ? ` ${status.steps.done}/${status.steps.total}` : '';
    const cost = status.costUsd !== null ? ` · $${status.costUsd.toFixed(2)}` : '';
    this.item.text = `${ICONS[status.kind]} ${status.label}${steps}${cost}`;
    const done = status.steps ? `, ${status.steps.done} of ${status.steps.total} steps done` : '';
    const spent = status.costUsd !== null ? `, $${status.costUsd.toFixed(4)} so far` : '';
    this.item.tooltip = `Plan & Execute: ${goal ?? ''}\n${status.label}${done}${spent}.${status.detail ? ` ${status.detail}` : ''} Click to open the mission board.`;
    this.item.accessibilityInformation = undefined;
    this.item.show();
    this.visible = true;
  }

  /** What the item shows now (for the integration tests). */
  get shown(): { text: string; warning: boolean; visible: boolean } {
    return { text: this.item.text, warning: this.item.backgroundColor !== undefined, visible: this.visible };
  }

  dispose(): void {
    this.item.dispose();
  }
}
