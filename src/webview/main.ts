/**
 * The webview app of both surfaces (bundled to media/webview.js, iife, browser): the sidebar view and the
 * mission board read `body[data-surface]` and render the same snapshot their own way. Posts `ready` once
 * loaded, renders every snapshot the host sends, paints `didChangeStepStatus` in place (the step, and the
 * header drawn from every step's status), and keeps drafts, selection and the last snapshot with
 * getState/setState (no retainContextWhenHidden). Every host message is checked against the protocol's derived schema (./hostMessages.ts);
 * malformed ones are dropped; none is handled while a pointer is pressed (./pressHold.ts).
 *
 * No flicker: a surface shown again draws its last snapshot at once (then the host's fresh one); a snapshot
 * that changes nothing draws nothing; and the sidebar keeps every section whose content did not change
 * (its elements, their focus and their icons stay as they were). Keyboard focus follows ./focus.ts.
 */
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { FromWebviewInput, StepView, SurfaceKind, SurfaceState, ToWebview } from './protocol';
import hostMessageSchema from 'virtual:host-message-schema';
import { hostMessageParser } from './hostMessages';
import { holdWhilePressed } from './pressHold';
import { isUiState, type RenderContext, type UiState } from './context';
import { focusElement, h } from './dom';
import { createAnnouncer, createQueueFocus } from './focus';
import { installKeyIntent } from './keyIntent';
import { patchChildren, remember, sameRendering, signature } from './patch';
import { renderBoard, type BoardView } from './board/board';
import { renderSidebar } from './sidebar/sidebar';
import { trackCardPositions } from './render/approvals';
import { paintStatus } from './render/statusIcons';
import { isShownTask, settleSubmittedTask } from './render/taskForm';
import { renderMissionHeader } from './render/missionHeader';

interface VsCodeApi {
  postMessage(message: FromWebviewInput): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** What the webview keeps across being hidden and shown: its own UI state and the last snapshot it drew. */
interface Saved {
  ui: UiState;
  snapshot?: SurfaceState;
}

const parseHostMessage = hostMessageParser(hostMessageSchema);
const vscodeApi = acquireVsCodeApi();
const root = document.getElementById('app') ?? document.body;
const surface: SurfaceKind = document.body.dataset.surface === 'board' ? 'board' : 'sidebar';
const saved = readSaved(vscodeApi.getState());
const ui: UiState = saved.ui;
let state: SurfaceState | null = null;
let board: BoardView | null = null;
/** The last snapshot drawn, without its revision: an identical one draws nothing. */
let drawn = '';
/** When a task was submitted and the host has not answered yet (ms since page load; null: none). */
let startingAt: number | null = null;
const announce = createAnnouncer();
// Before any button sees a key: a key press decides only the card it was aimed at (./keyIntent.ts).
installKeyIntent(document);
const queueFocus = createQueueFocus(root, announce);

function readSaved(value: unknown): Saved {
  const empty: UiState = { selectedStepId: null, drafts: {}, collapsed: {} };
  if (isUiState(value)) return { ui: value }; // the shape kept before snapshots were
  if (typeof value !== 'object' || value === null) return { ui: empty };
  const v = value as { ui?: unknown; snapshot?: unknown };
  const restored = parseHostMessage({ type: 'state', state: v.snapshot });
  return { ui: isUiState(v.ui) ? v.ui : empty, ...(restored?.type === 'state' ? { snapshot: restored.state } : {}) };
}

let saveTimer: ReturnType<typeof setTimeout> | undefined;
/** Keeps the UI state now and the snapshot shortly after (snapshots come in bursts while a mission runs). */
function save(withSnapshot: boolean): void {
  const write = (): void => vscodeApi.setState({ ui, ...(state ? { snapshot: state } : {}) } satisfies Saved);
  if (!withSnapshot) return write();
  if (saveTimer) return;
  saveTimer = setTimeout(() => {
    saveTimer = undefined;
    write();
  }, 400);
}

const ctx: RenderContext = {
  get state(): SurfaceState {
    if (!state) throw new Error('no snapshot yet');
    return state;
  },
  surface,
  ui,
  post: (message) => vscodeApi.postMessage(message),
  saveUi: () => save(false),
  rerender: () => render(),
  selectStep: (stepId) => {
    if (surface === 'sidebar') {
      if (stepId) vscodeApi.postMessage({ type: 'openBoard', stepId });
      return;
    }
    ui.selectedStepId = stepId;
    save(false);
    board?.select(stepId, true);
  },
  decided: (requestId) => queueFocus.decided(requestId),
  starting: () => startingAt !== null && performance.now() - startingAt < 15_000,
  markStarting: () => {
    startingAt = performance.now();
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
  const target = root.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(key)}"], [data-testid="${CSS.escape(key)}"], #${CSS.escape(key)}`);
  if (target && target !== document.activeElement) focusElement(target);
}

function render(): void {
  if (!state) return;
  const key = focusKey();
  if (surface === 'board') {
    const next = renderBoard(ctx);
    // The same board again keeps the one on screen (its listeners, focus and scroll positions).
    const sig = signature(next.element);
    if (!board || !board.element.isConnected || !sameRendering(board.element, next.element, sig)) {
      board = next;
      remember(board.element, sig);
      root.replaceChildren(board.element);
      board.mounted();
    }
  } else {
    const scroll = document.scrollingElement?.scrollTop ?? 0;
    const next = renderSidebar(ctx);
    const current = root.firstElementChild;
    if (current instanceof HTMLElement && current.tagName === next.tagName) {
      for (const name of next.getAttributeNames()) current.setAttribute(name, next.getAttribute(name) ?? '');
      patchChildren(current, [...next.children] as HTMLElement[]);
    } else {
      for (const section of next.children) remember(section);
      root.replaceChildren(next);
    }
    if (document.scrollingElement) document.scrollingElement.scrollTop = scroll;
  }
  root.toggleAttribute('aria-busy', state.rev < 0);
  trackCardPositions(root);
  restoreFocus(key);
  queueFocus.afterRender();
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
    if (fresh && !fresh.isEqualNode(header)) header.replaceWith(fresh);
  }
  restoreFocus(key);
  // The header's height may have changed: a card it pushed settles before it takes a click, as after a render.
  trackCardPositions(root);
  return true;
}

function adopt(next: SurfaceState): void {
  const before = state;
  state = next;
  // A snapshot without a mission (the host still reading it back after a reload) keeps the selection.
  if (ui.selectedStepId && state.mission && !state.mission.steps.some((s) => s.id === ui.selectedStepId)) ui.selectedStepId = null;
  if (surface === 'board' && !ui.selectedStepId) ui.selectedStepId = state.mission?.steps.find((s) => s.inPlan)?.id ?? null;
  // A suggested task (the editor selection, the demo's) fills an empty box, never one over a shown mission.
  if (next.taskPrefill && !ui.drafts.task && (!next.mission || ui.newMission) && !isShownTask(next, next.taskPrefill)) ui.drafts.task = next.taskPrefill;
  // The host has the task: it is planning it, or a mission runs, or it refused it (a toast, or a new notice).
  const noticed = next.notices.some((n) => !(before?.notices ?? []).some((o) => o.id === n.id && o.message === n.message));
  if (next.busy || next.status.active || noticed) startingAt = null;
  if (next.status.active) ui.newMission = false;
  settleSubmittedTask(ctx);
}

const handlers: { [K in ToWebview['type']]: (message: Extract<ToWebview, { type: K }>) => void } = {
  state: (m) => {
    if (state && state.rev >= 0 && m.state.rev < state.rev) return;
    const content = JSON.stringify({ ...m.state, rev: 0 });
    const stale = state?.rev === -1;
    adopt(m.state);
    save(true);
    // Nothing changed since the last drawing (a snapshot that repeats the state): nothing to draw.
    if (content === drawn && !stale) {
      root.firstElementChild?.setAttribute('data-rev', String(m.state.rev));
      return;
    }
    drawn = content;
    render();
  },
  didChangeStepStatus: (m) => {
    const step = state?.mission?.steps.find((s) => s.id === m.stepId);
    if (!state || !step) return;
    step.status = m.status;
    step.statusReason = m.reason;
    drawn = '';
    if (!paintStepStatus(m.stepId, m.status)) return render();
    if (surface === 'board' && ui.selectedStepId === m.stepId) board?.refreshSide();
  },
  didRequestTaskFocus: () => {
    if (state?.mission && !state.status.active && !ui.newMission) {
      ui.newMission = true;
      if (state.taskPrefill && !ui.drafts.task && !isShownTask(state, state.taskPrefill)) ui.drafts.task = state.taskPrefill;
      save(false);
      render();
    }
    const box = root.querySelector<HTMLElement>('#task-input');
    if (box) focusElement(box);
  },
  didNotify: (m) => {
    startingAt = null;
    const note = h('div', { className: `toast ${m.level}`, attrs: { role: m.level === 'error' ? 'alert' : 'status', 'data-testid': 'toast' } }, m.message);
    root.prepend(note);
    setTimeout(() => note.remove(), 8000);
    if (state) render(); // a refused start: the task form is usable again
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
    queueFocus.requested();
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

// Rule 4 of the focus model: the view got focus and nothing inside has it (the first Tab starts here).
window.addEventListener('focus', () => {
  if (!state) return;
  setTimeout(() => {
    if (document.activeElement === document.body || document.activeElement === null) queueFocus.entered();
  }, 0);
});

// The board says how wide it is, so a diff opens beside it only when both fit (the host decides).
if (surface === 'board') {
  let sizeTimer: ReturnType<typeof setTimeout> | undefined;
  const report = (): void => vscodeApi.postMessage({ type: 'surfaceSize', width: Math.round(window.innerWidth), height: Math.round(window.innerHeight) });
  window.addEventListener('resize', () => {
    clearTimeout(sizeTimer);
    sizeTimer = setTimeout(report, 200);
  });
  report();
}

// Shown again: draw the last snapshot now (marked busy, its revision below any the host sends), then the host's.
if (saved.snapshot) {
  adopt({ ...saved.snapshot, rev: -1 });
  render();
}
vscodeApi.postMessage({ type: 'ready' });
