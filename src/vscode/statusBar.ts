/**
 * The status-bar item (mission phase, steps done/total, cost so far; click → the sidebar) and the
 * `planExecute.missionActive` context key that shows the Cancel button and palette entry.
 */
import * as vscode from 'vscode';
import type { MissionView } from '../webview/protocol';
import { stepCounts } from './view/missionProjection';

export class MissionStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('planExecute.status', vscode.StatusBarAlignment.Left, 50);

  constructor() {
    this.item.name = 'Plan & Execute';
    this.item.command = 'planExecute.sidebar.focus';
  }

  private active: boolean | undefined;

  update(mission: MissionView | null, busy: string | null): void {
    const active = busy !== null || (mission !== null && mission.live && !['succeeded', 'failed', 'cancelled'].includes(mission.phase));
    if (active !== this.active) {
      this.active = active;
      void vscode.commands.executeCommand('setContext', 'planExecute.missionActive', active);
    }
    if (!mission && !busy) {
      this.item.hide();
      return;
    }
    const icon = busy || mission?.phase === 'running' || mission?.phase === 'replanning' ? '$(loading~spin)' : mission?.phase === 'succeeded' ? '$(pass)' : mission?.phase === 'failed' ? '$(error)' : '$(checklist)';
    if (mission) {
      const { done, total } = stepCounts(mission);
      const phase = busy ?? mission.phase.replace('_', ' ');
      this.item.text = `${icon} ${phase} ${done}/${total} · $${mission.costUsd.toFixed(2)}`;
      this.item.tooltip = `Plan & Execute: ${mission.goal || mission.task}\n${phase}, ${done} of ${total} steps done, $${mission.costUsd.toFixed(4)} so far`;
    } else {
      this.item.text = `${icon} ${busy}`;
      this.item.tooltip = `Plan & Execute: ${busy}`;
    }
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
