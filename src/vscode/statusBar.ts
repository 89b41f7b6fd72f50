/** The status-bar item: mission phase, steps done/total, cost so far. Click → the sidebar. */
import * as vscode from 'vscode';
import type { MissionView } from '../webview/protocol';
import { stepCounts } from './view/missionProjection';

export class MissionStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('planExecute.status', vscode.StatusBarAlignment.Left, 50);

  constructor() {
    this.item.name = 'Plan & Execute';
    this.item.command = 'planExecute.sidebar.focus';
  }

  update(mission: MissionView | null, busy: string | null): void {
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
