/**
 * The one state model of the surfaces: what the mission is doing, in the words every surface uses — the
 * header's badge and banner, the status-bar item, the view's badge, the approve and resume buttons and
 * the new-mission form all read this, so none can say something another contradicts. Pure (no vscode).
 *
 * Order of the rules (first match wins): a mission starting (busy, nothing shown yet) → a mission picked up
 * after a window reload (resuming) → no mission (idle) → a mission this window runs: its plan waits only
 * when the approver really holds the request, else its phase → a mission this window does not run: its
 * outcome, or interrupted when it has none (whatever phase the trace stopped in).
 */
import type { ApprovalView, MissionView, SurfaceStatus } from '../../webview/protocol';
import { stepCounts } from './uiMission';
import { waitingIn } from './waitingSummary';

export interface StatusInput {
  mission: MissionView | null;
  /** A long operation in progress (planning a new mission). */
  busy: string | null;
  /** The mission was running here before a window reload and is being picked up again. */
  resuming: boolean;
  approvals: readonly ApprovalView[];
  /** The plan version the approver holds a request for (null: none waits). */
  planAwaitingApproval: number | null;
  /** A scripted demo model answers: no cost is shown (there is none). */
  demo: boolean;
}

const OUTCOME_KIND = { succeeded: 'succeeded', failed: 'failed', cancelled: 'cancelled', budget_exceeded: 'stopped' } as const;

export function missionStatus(input: StatusInput): SurfaceStatus {
  const { mission: m } = input;
  const waiting = waitingIn(input);
  const steps = m && m.planVersion !== null ? stepCounts(m) : null;
  const costUsd = m && !input.demo && m.costUsd > 0 ? m.costUsd : null;
  const base = { waiting, steps, costUsd };
  if (input.busy && (!m || !m.live)) return { ...base, kind: 'starting', label: input.busy.replace(/…$/, '').toLowerCase(), detail: null, active: true };
  if (input.resuming) {
    const detail = 'The window reloaded while this mission ran here: it is picked up where it was.';
    return { ...base, kind: 'resuming', label: 'resuming', detail, active: true };
  }
  if (!m) return { ...base, kind: 'idle', label: 'no mission', detail: null, active: false };
  if (m.live) {
    const plan = input.planAwaitingApproval;
    if (plan !== null) return { ...base, kind: 'planWaiting', label: `plan v${plan} waits for you`, detail: null, active: true };
    if (m.phase === 'replanning') return { ...base, kind: 'replanning', label: 'replanning', detail: null, active: true };
    // Planning, or a plan on its way to the approver (the phase is recorded just before the request).
    if (m.phase === 'planning' || m.phase === 'awaiting_approval') return { ...base, kind: 'planning', label: 'planning', detail: null, active: true };
    if (m.outcome === null) return { ...base, kind: 'running', label: 'running', detail: null, active: true };
  }
  if (m.outcome !== null) {
    const kind = OUTCOME_KIND[m.outcome];
    return { ...base, kind, label: m.phaseLabel ?? (kind === 'stopped' ? 'stopped' : kind), detail: null, active: false };
  }
  return { ...base, kind: 'interrupted', label: 'interrupted', detail: m.phaseReason, active: false };
}
