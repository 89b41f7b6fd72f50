/**
 * What every renderer gets: the last snapshot, which surface it draws (the sidebar or the board), the
 * webview-local UI state (drafts, selection; kept with setState so it survives the iframe being hidden and
 * shown, and the board's reload through its serializer), and a way to post commands to the host.
 */
import type { FromWebviewInput, SurfaceKind, SurfaceState } from './protocol';

export type BoardTab = 'details' | 'waiting' | 'versions' | 'rules';

export interface UiState {
  selectedStepId: string | null;
  /** Unsent text by key ("task", "reason:<requestId>", "instr:<stepId>", "constraint", "rule"). */
  drafts: Record<string, string>;
  /** Collapsed sections by test id. */
  collapsed: Record<string, boolean>;
  /** The task text last submitted: the box keeps it until that task has become a mission with a plan. */
  submittedTask?: string | undefined;
  /** The board's right-hand tab. */
  boardTab?: BoardTab | undefined;
  /** The user asked for the new-mission form over a mission that has stopped ("New mission"). */
  newMission?: boolean | undefined;
}

export interface RenderContext {
  state: SurfaceState;
  surface: SurfaceKind;
  ui: UiState;
  post(message: FromWebviewInput): void;
  /** Persist the UI state (drafts are saved on every keystroke, without re-rendering). */
  saveUi(): void;
  /** Re-render from the current snapshot (after a local UI change such as selecting a step). */
  rerender(): void;
  /** Select a step (the board updates its details in place; the sidebar opens the board on it). */
  selectStep(stepId: string | null): void;
  /** A decision on this approval request ('plan': the plan that waits) is being sent: focus moves on once it shows (./focus.ts). */
  decided(requestId: string): void;
  /** True from a submitted task until the host has answered it (a second submit is ignored meanwhile). */
  starting(): boolean;
  /** Marks a task as submitted (see `starting`). */
  markStarting(): void;
}

export function draft(ctx: RenderContext, key: string): string {
  return ctx.ui.drafts[key] ?? '';
}

export function setDraft(ctx: RenderContext, key: string, value: string): void {
  if (value) ctx.ui.drafts[key] = value;
  else delete ctx.ui.drafts[key];
  ctx.saveUi();
}

export function isUiState(value: unknown): value is UiState {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    (v.selectedStepId === null || typeof v.selectedStepId === 'string') &&
    typeof v.drafts === 'object' &&
    v.drafts !== null &&
    typeof v.collapsed === 'object' &&
    v.collapsed !== null
  );
}
