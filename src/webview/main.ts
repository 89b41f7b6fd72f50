/**
 * The webview app of both surfaces (bundled to media/webview.js, iife, browser): the sidebar view and the
 * mission board read `body[data-surface]` and render the same snapshot their own way. Posts `ready` once
 * loaded, renders every snapshot the host sends, paints `didChangeStepStatus` in place (the step, and the
 * header drawn from every step's status), and keeps drafts and selection with getState/setState (no
 * retainContextWhenHidden). Every host message is shape-checked
 * (./hostMessages.ts); malformed ones are dropped; none is handled while a pointer is pressed (./pressHold.ts).
 */
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import '@vscode-elements/elements/dist/vscode-toolbar-button/index.js';
import type { FromWebviewInput, StepView, SurfaceKind, SurfaceState, ToWebview } from './protocol';
import { parseHostMessage } from './hostMessages';
import { holdWhilePressed } from './pressHold';
import { isUiState, type RenderContext, type UiState } from './context';
import { h } from './dom';
import { renderBoard, type BoardView } from './board/board';
import { renderSidebar } from './sidebar/sidebar';
import { trackCardPositions } from './render/approvals';
import { paintStatus } from './render/statusIcons';
import { settleSubmittedTask } from './render/taskForm';
import { renderMissionHeader } from './render/missionHeader';

interface VsCodeApi {
  postMessage(message: FromWebviewInput): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscodeApi = acquireVsCodeApi();
const root = document.getElementById('app') ?? document.body;
const surface: SurfaceKind = document.body.dataset.surface === 'board' ? 'board' : 'sidebar';
const saved = vscodeApi.getState();
const ui: UiState = isUiState(saved) ? saved : { selectedStepId: null, drafts: {}, collapsed: {} };
let state: SurfaceState | null = null;
let board: BoardView | null = null;
let pendingFocus: string | null | undefined;

const ctx: RenderContext = {
  get state(): SurfaceState {
    if (!state) throw new Error('no snapshot yet');
    return state;
  },
  surface,
  ui,
  post: (message) => vscodeApi.postMessage(message),
  saveUi: () => vscodeApi.setState(ui),
  rerender: () => render(),
  selectStep: (stepId) => {
    if (surface === 'sidebar') {
      if (stepId) vscodeApi.postMessage({ type: 'openBoard', stepId });
      return;
    }
    ui.selectedStepId = stepId;
    vscodeApi.setState(ui);
    board?.select(stepId, true);
  },
  focusAfterRender: (key) => {
    pendingFocus = key;
  },
};

/** The logical control that has keyboard focus, so a re-render can give it back. */
function focusKey(): string | null {
  const active = document.activeElement as HTMLElement | null;
  if (!active || active === document.body) return null;
  return active.getAttribute('data-focus-key') ?? active.getAttribute('data-testid') ?? (active.id || null);
}

function restoreFocus(key: string | null): void {
  if (!key) return;
  const q = CSS.escape(key);
  root.querySelector<HTMLElement>(`[data-focus-key="${q}"], [data-testid="${q}"], #${q}`)?.focus();
}

function render(): void {
  if (!state) return;
  const key = focusKey();
  const scroll = document.scrollingElement?.scrollTop ?? 0;
  if (surface === 'board') {
    board = renderBoard(ctx);
    root.replaceChildren(board.element);
    board.mounted();
  } else {
    root.replaceChildren(renderSidebar(ctx));
    if (document.scrollingElement) document.scrollingElement.scrollTop = scroll;
  }
  trackCardPositions(root);
  if (pendingFocus !== undefined) {
    const target = pendingFocus;
    pendingFocus = undefined;
    if (target) restoreFocus(target);
    else root.querySelector<HTMLElement>('[data-testid="approve-plan"], #task-input, [data-testid="mission-header"] vscode-button')?.focus();
  } else restoreFocus(key);
}

/**
 * Paints one step's new status wherever it is shown, and draws again what is drawn from every step's
 * status (the mission header: steps done, the strip of steps running now); false when the step is not on
 * screen (the caller renders everything).
 */
function paintStepStatus(stepId: string, status: StepView['status']): boolean {
  const shown = root.querySelectorAll<HTMLElement>(`[data-step-id="${CSS.escape(stepId)}"]`);
  for (const el of shown) {
    el.setAttribute('data-status', status);
    for (const glyph of el.querySelectorAll<HTMLElement>('.status')) paintStatus(glyph, status);
  }
  if (shown.length === 0) return false;
  const key = focusKey();
  for (const header of root.querySelectorAll('[data-testid="mission-header"]')) {
    const fresh = renderMissionHeader(ctx);
    if (fresh) header.replaceWith(fresh);
  }
  restoreFocus(key);
  // The header's height may have changed: a card it pushed settles before it takes a click, as after a render.
  trackCardPositions(root);
  return true;
}

const handlers: { [K in ToWebview['type']]: (message: Extract<ToWebview, { type: K }>) => void } = {
  state: (m) => {
    if (state && m.state.rev < state.rev) return;
    state = m.state;
    // A snapshot without a mission (the host still reading it back after a reload) keeps the selection.
    if (ui.selectedStepId && state.mission && !state.mission.steps.some((s) => s.id === ui.selectedStepId)) ui.selectedStepId = null;
    if (surface === 'board' && !ui.selectedStepId) ui.selectedStepId = state.mission?.steps.find((s) => s.inPlan)?.id ?? null;
    if (m.state.taskPrefill && !ui.drafts.task) ui.drafts.task = m.state.taskPrefill;
    settleSubmittedTask(ctx);
    render();
  },
  didChangeStepStatus: (m) => {
    const step = state?.mission?.steps.find((s) => s.id === m.stepId);
    if (!state || !step) return;
    step.status = m.status;
    step.statusReason = m.reason;
    if (!paintStepStatus(m.stepId, m.status)) return render();
    if (surface === 'board' && ui.selectedStepId === m.stepId) board?.refreshSide();
  },
  didRequestTaskFocus: () => {
    root.querySelector<HTMLElement>('#task-input')?.focus();
  },
  didNotify: (m) => {
    const note = h('div', { className: `toast ${m.level}`, attrs: { role: m.level === 'error' ? 'alert' : 'status', 'data-testid': 'toast' } }, m.message);
    root.prepend(note);
    setTimeout(() => note.remove(), 8000);
  },
  didSelectStep: (m) => {
    if (surface !== 'board') return;
    if (!state?.mission?.steps.some((s) => s.id === m.stepId)) return;
    ctx.selectStep(m.stepId);
  },
  didRequestQueueFocus: () => {
    if (surface === 'board') {
      ui.boardTab = 'waiting';
      board?.refreshSide();
    }
    const first = root.querySelector<HTMLElement>('[data-testid="approvals"] [data-testid="approve-action"]');
    first?.scrollIntoView({ block: 'center' });
    first?.focus();
  },
};

// A message that would re-render under a pressed pointer waits for the release (./pressHold.ts).
const deliver = holdWhilePressed<ToWebview>(document, (message) => (handlers[message.type] as (m: ToWebview) => void)(message));

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = parseHostMessage(event.data);
  if (!message) {
    console.warn('plan-execute: dropped a malformed host message');
    return;
  }
  deliver(message);
});

vscodeApi.postMessage({ type: 'ready' });
