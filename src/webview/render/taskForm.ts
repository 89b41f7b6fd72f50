/**
 * The task box. It is shown only when no mission is active here and either none is shown or the user asked
 * for a new one ("New mission", or the palette's "Plan & Execute") — never pre-filled with the task of the
 * mission below it, which would offer a duplicate start. One start at a time: a second Ctrl+Enter or click
 * while the first is on its way does nothing (the host refuses a second start too).
 * What the user typed is never lost: it is kept locally on every keystroke and by the host (so a window
 * reload brings it back), and it stays in the box after "Plan & Execute" until that task has become a
 * mission with a plan — a missing key, a 401, an unreachable server or a cancel leave it there.
 */
import { button, focusElement, h, icon, section } from '../dom';
import { setDraft, type RenderContext } from '../context';

let saveTimer: ReturnType<typeof setTimeout> | undefined;
/** "Plan & Execute" was pressed over an empty box: it says what is missing until something is typed. */
let emptyPressed = false;

const TASK_NEEDED = 'Type the task first: what should be done? Then press Plan & Execute (or Ctrl+Enter).';

/** Keeps the text locally now and with the host shortly after typing pauses. */
function keepTaskDraft(ctx: RenderContext, text: string): void {
  setDraft(ctx, 'task', text);
  if (saveTimer) clearTimeout(saveTimer);
  saveTimer = setTimeout(() => ctx.post({ type: 'saveTaskDraft', text }), 300);
}

/** The text to show: the local draft, else the host's copy (after a reload) — never the shown mission's own task. */
function taskText(ctx: RenderContext): string {
  if (ctx.ui.drafts.task !== undefined) return ctx.ui.drafts.task;
  const host = ctx.state.taskDraft ?? '';
  return isShownTask(ctx.state, host) ? '' : host;
}

/**
 * Whether `text` is the task of the mission shown below the form: a suggestion (the host's draft, the
 * demo's task) that would only offer a duplicate start of it is not put in the box.
 */
export function isShownTask(state: Pick<RenderContext['state'], 'mission'>, text: string): boolean {
  return state.mission !== null && text.trim() !== '' && text.trim() === state.mission.task.trim();
}

export function renderTaskForm(ctx: RenderContext): HTMLElement | null {
  const { status, mission } = ctx.state;
  if (status.active || ctx.state.busy || (mission && !ctx.ui.newMission)) return null;
  const starting = ctx.starting();
  const submit = (): void => {
    const task = taskText(ctx).trim();
    if (!task) {
      // Nothing to plan: said next to the box (and to a screen reader), never a silent no-op.
      emptyPressed = true;
      ctx.rerender();
      const box = document.querySelector<HTMLElement>('#task-input');
      if (box) focusElement(box);
      return;
    }
    if (ctx.starting()) return;
    emptyPressed = false;
    ctx.markStarting();
    ctx.ui.submittedTask = task;
    setDraft(ctx, 'task', taskText(ctx));
    ctx.post({ type: 'saveTaskDraft', text: taskText(ctx) });
    ctx.post({ type: 'runTask', task });
    ctx.rerender();
  };
  const cancelNew = mission
    ? button(
        'Back to the mission',
        () => {
          ctx.ui.newMission = false;
          ctx.saveUi();
          ctx.rerender();
        },
        { secondary: true, icon: 'arrow-left', testId: 'cancel-new-mission' },
      )
    : null;
  return section(
    'New mission',
    'task-form',
    h('vscode-textarea', {
      attrs: {
        id: 'task-input',
        rows: '5',
        resize: 'vertical',
        placeholder: 'What should be done? (Ctrl+Enter to plan)',
        'aria-label': 'Task',
        'data-testid': 'task-input',
      },
      props: { label: 'Task', value: taskText(ctx) },
      on: {
        input: (event: Event) => {
          const text = (event.target as HTMLTextAreaElement).value;
          keepTaskDraft(ctx, text);
          if (emptyPressed && text.trim()) {
            emptyPressed = false;
            document.querySelector('[data-testid="task-needed"]')?.remove();
          }
        },
        keydown: (event: Event) => {
          const k = event as KeyboardEvent;
          if (k.key === 'Enter' && (k.ctrlKey || k.metaKey)) submit();
        },
      },
    }),
    emptyPressed && !taskText(ctx).trim()
      ? h('div', { className: 'reason-needed', attrs: { id: 'task-needed', role: 'alert', 'data-testid': 'task-needed' } }, icon('error'), ` ${TASK_NEEDED}`)
      : null,
    h(
      'div',
      { className: 'row' },
      button(starting ? 'Starting…' : 'Plan & Execute', submit, { icon: 'rocket', testId: 'run-task', disabled: starting }),
      cancelNew,
    ),
  );
}

/**
 * Forgets the submitted text once it became a mission with a plan (the snapshot shows it); until then the
 * box keeps it, whatever went wrong.
 */
export function settleSubmittedTask(ctx: Pick<RenderContext, 'state' | 'ui' | 'saveUi'>): void {
  const submitted = ctx.ui.submittedTask;
  const mission = ctx.state.mission;
  if (!submitted || !mission || mission.task.trim() !== submitted || mission.planVersion === null) return;
  ctx.ui.submittedTask = undefined;
  if ((ctx.ui.drafts.task ?? '').trim() === submitted) delete ctx.ui.drafts.task;
  ctx.saveUi();
}
