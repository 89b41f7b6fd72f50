/**
 * The sidebar app's entry (bundled to media/webview.js, iife, browser). Posts `ready` once loaded, renders
 * every snapshot the host sends, paints `didChangeStepStatus` in place, and keeps drafts and selection with
 * getState/setState (no retainContextWhenHidden). Every host message is shape-checked (./hostMessages.ts);
 * malformed ones are dropped.
 */
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import '@vscode-elements/elements/dist/vscode-toolbar-button/index.js';
import '@vscode-elements/elements/dist/vscode-tree/index.js';
import '@vscode-elements/elements/dist/vscode-tree-item/index.js';
import type { FromWebviewInput, SidebarState, ToWebview } from './protocol';
import { parseHostMessage } from './hostMessages';
import { isUiState, type RenderContext, type UiState } from './context';
import { h } from './dom';
import { renderApprovals, renderRules } from './render/approvals';
import { renderBusy, renderMissionHeader, renderNotices, renderPlanActions, renderTaskForm } from './render/mission';
import { renderPlanTree, updateStepStatus } from './render/planTree';
import { renderStepDetails } from './render/stepDetails';
import { renderTimeline } from './render/timeline';

interface VsCodeApi {
  postMessage(message: FromWebviewInput): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscodeApi = acquireVsCodeApi();
const root = document.getElementById('app') ?? document.body;
const saved = vscodeApi.getState();
const ui: UiState = isUiState(saved) ? saved : { selectedStepId: null, drafts: {}, collapsed: {} };
let state: SidebarState | null = null;

const ctx: RenderContext = {
  get state(): SidebarState {
    if (!state) throw new Error('no snapshot yet');
    return state;
  },
  ui,
  post: (message) => vscodeApi.postMessage(message),
  saveUi: () => vscodeApi.setState(ui),
  rerender: () => render(),
};

/** Keeps keyboard focus on the same logical control across a re-render. */
function focusKey(): string | null {
  const active = document.activeElement as HTMLElement | null;
  if (!active || active === document.body) return null;
  return active.getAttribute('data-testid') ?? active.id ?? null;
}

function render(): void {
  if (!state) return;
  const key = focusKey();
  const scroll = document.scrollingElement?.scrollTop ?? 0;
  const view = h(
    'main',
    { attrs: { 'data-rev': String(state.rev) } },
    renderNotices(ctx),
    renderTaskForm(ctx),
    renderBusy(ctx),
    renderMissionHeader(ctx),
    renderApprovals(ctx),
    renderPlanTree(ctx),
    renderStepDetails(ctx),
    renderPlanActions(ctx),
    renderRules(ctx),
    renderTimeline(ctx),
  );
  root.replaceChildren(view);
  if (document.scrollingElement) document.scrollingElement.scrollTop = scroll;
  if (key) {
    const target = root.querySelector<HTMLElement>(`[data-testid="${CSS.escape(key)}"], #${CSS.escape(key)}`);
    target?.focus();
  }
}

const handlers: { [K in ToWebview['type']]: (message: Extract<ToWebview, { type: K }>) => void } = {
  state: (m) => {
    if (state && m.state.rev < state.rev) return;
    state = m.state;
    if (ui.selectedStepId && !state.mission?.steps.some((s) => s.id === ui.selectedStepId)) ui.selectedStepId = null;
    if (m.state.taskPrefill && !ui.drafts.task) ui.drafts.task = m.state.taskPrefill;
    render();
  },
  didChangeStepStatus: (m) => {
    const step = state?.mission?.steps.find((s) => s.id === m.stepId);
    if (!state || !step) return;
    step.status = m.status;
    step.statusReason = m.reason;
    if (!updateStepStatus(root, m.stepId, m.status) || ui.selectedStepId === m.stepId) render();
  },
  didRequestTaskFocus: () => {
    root.querySelector<HTMLElement>('#task-input')?.focus();
  },
  didNotify: (m) => {
    const note = h('div', { className: `toast ${m.level}`, attrs: { role: m.level === 'error' ? 'alert' : 'status' } }, m.message);
    root.prepend(note);
    setTimeout(() => note.remove(), 8000);
  },
};

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = parseHostMessage(event.data);
  if (!message) {
    console.warn('plan-execute: dropped a malformed host message');
    return;
  }
  (handlers[message.type] as (m: ToWebview) => void)(message);
});

vscodeApi.postMessage({ type: 'ready' });
