/**
 * What the user can do about a mission as it stands — computed on the host from the mission's view, so the
 * sidebar and the board offer the same actions. Pure (no vscode).
 *
 * Order: the way forward first (Retry / Continue / Resume / Run again after a revert), then what fixes the cause (set the key, open the
 * setting), then undo (Revert mission). Nothing is offered while this window runs the mission.
 */
import type { MissionAction, MissionView } from '../../webview/protocol';
import { CAP_SETTINGS } from '../limitNames';

const ACTIVE = new Set(['planning', 'awaiting_approval', 'running', 'replanning']);
const UNDOABLE = new Set(['succeeded', 'failed', 'blocked', 'cancelled', 'interrupted', 'skipped']);

export function missionActions(m: MissionView): MissionAction[] {
  if (m.live) return [];
  const actions: MissionAction[] = [];
  const stopped = m.phase === 'interrupted' || ACTIVE.has(m.phase);
  // Without a plan there is nothing to go on with: Retry plans the task again.
  if (m.planVersion === null) {
    if (stopped || (m.outcome !== null && m.outcome !== 'succeeded')) actions.push({ kind: 'retry' });
  } else if (stopped) actions.push({ kind: 'resume' });
  else if (m.outcome === 'succeeded') {
    // A revert undid part of it: going on runs that again (the reverted steps and those that depend on them).
    const undone = m.steps.filter((s) => s.inPlan && (s.status === 'reverted' || s.status === 'pending')).map((s) => s.id);
    if (undone.length > 0) actions.push({ kind: 'rerun', stepIds: undone });
  } else if (m.outcome === 'failed') actions.push({ kind: 'retry' });
  else if (m.outcome === 'cancelled' || m.outcome === 'budget_exceeded') actions.push({ kind: 'continue' });
  actions.push(...fixesFor(m.failure));
  if (m.steps.some((s) => s.files.length > 0 && UNDOABLE.has(s.status))) actions.push({ kind: 'revertMission' });
  return actions;
}

/** The action that fixes a failure's cause, if one does. */
function fixesFor(failure: MissionView['failure']): MissionAction[] {
  if (!failure) return [];
  // VS Code's language models have no key: a refusal there is consent, given again by retrying.
  if (failure.cause === 'auth') return failure.provider === 'vscode-lm' ? [] : [{ kind: 'setApiKey' }];
  if (failure.cause === 'connection') {
    // Where the provider is reached: its base URL setting.
    const query = failure.provider === 'anthropic' ? 'planExecute.baseUrl' : failure.provider === 'openai' ? 'planExecute.openai.baseUrl' : 'planExecute';
    return [{ kind: 'openSettings', query, label: 'Open settings' }];
  }
  if (failure.cause === 'model_unavailable' || failure.cause === 'no_tool_support') return [{ kind: 'chooseModel' }];
  if (failure.detail === 'too_many_steps') return [{ kind: 'openSettings', query: CAP_SETTINGS.planSteps, label: 'Raise the plan-size cap' }];
  const budget = /^budget:(\w+)$/.exec(failure.detail ?? '')?.[1];
  if (budget && budget in CAP_SETTINGS) return [{ kind: 'openSettings', query: CAP_SETTINGS[budget as keyof typeof CAP_SETTINGS], label: 'Raise the limit' }];
  return [];
}
