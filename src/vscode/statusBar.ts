/**
 * The status-bar item and the `planExecute.missionActive` context key that shows the Cancel button and
 * palette entry. While something waits for the user it says "N waiting" in the warning colour and a click
 * shows the approval queue; otherwise it shows the mission's phase, steps done/total and cost so far.
 */
import * as vscode from 'vscode';
import type { MissionView } from '../webview/protocol';
import { stepCounts } from './view/uiMission';
import type { Waiting } from './view/waitingSummary';

export class MissionStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('planExecute.status', vscode.StatusBarAlignment.Left, 50);
  private active: boolean | undefined;
  private visible = false;

  constructor() {
    this.item.name = 'Plan & Execute';
  }

  update(mission: MissionView | null, busy: string | null, waiting: Waiting): void {
    const active = busy !== null || (mission !== null && mission.live && !['succeeded', 'failed', 'cancelled'].includes(mission.phase));
    if (active !== this.active) {
      this.active = active;
      void vscode.commands.executeCommand('setContext', 'planExecute.missionActive', active);
    }
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
    if (!mission && !busy) {
      this.item.hide();
      this.visible = false;
      return;
    }
    const icon = busy || mission?.phase === 'running' || mission?.phase === 'replanning' ? '$(loading~spin)' : mission?.phase === 'succeeded' ? '$(pass)' : mission?.phase === 'failed' ? '$(error)' : '$(checklist)';
    if (mission) {
      const { done, total } = stepCounts(mission);
      const phase = busy ?? mission.phaseLabel ?? mission.phase.replace('_', ' ');
      this.item.text = `${icon} ${phase} ${done}/${total} · $${mission.costUsd.toFixed(2)}`;
      this.item.tooltip = `Plan & Execute: ${mission.goal || mission.task}\n${phase}, ${done} of ${total} steps done, $${mission.costUsd.toFixed(4)} so far. Click to open the mission board.`;
    } else {
      this.item.text = `${icon} ${busy}`;
      this.item.tooltip = `Plan & Execute: ${busy}`;
    }
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
