/**
 * The task box. What the user typed is never lost: it is kept locally on every keystroke and by the host
 * (so a window reload brings it back), and it stays in the box after "Plan & Execute" until that task has
 * become a mission with a plan — a missing key, a 401, an unreachable server or a cancel leave it there.
 */
import { button, h, section } from '../dom';
import { draft, setDraft, type RenderContext } from '../context';
import { missionIsActive } from './missionHeader';

let saveTimer: ReturnType<typeof setTimeout> | undefined;

/** Keeps the text locally now and with the host shortly after typing pauses. */
export function keepTaskDraft(ctx: RenderContext, text: string): void {
  setDraft(ctx, 'task', text);
  if (saveTimer) clearTimeout(saveTimer);
  saveTimer = setTimeout(() => ctx.post({ type: 'saveTaskDraft', text }), 300);
}

/** The text to show: the local draft, else the host's copy (after a reload), else the editor selection. */
export function taskText(ctx: RenderContext): string {
  return ctx.ui.drafts.task ?? ctx.state.taskDraft ?? '';
}

export function renderTaskForm(ctx: RenderContext): HTMLElement | null {
  if (missionIsActive(ctx.state.mission) || ctx.state.busy) return null;
  const submit = (): void => {
    const task = taskText(ctx).trim();
    if (!task) return;
    ctx.ui.submittedTask = task;
    setDraft(ctx, 'task', taskText(ctx));
    ctx.post({ type: 'saveTaskDraft', text: taskText(ctx) });
    ctx.post({ type: 'runTask', task });
  };
  return section(
    'New mission',
    'task-form',
    h('vscode-textarea', {
      attrs: { id: 'task-input', rows: '5', resize: 'vertical', placeholder: 'What should be done? (Ctrl+Enter to plan)', 'aria-label': 'Task', 'data-testid': 'task-input' },
      props: { label: 'Task', value: taskText(ctx) },
      on: {
        input: (event: Event) => keepTaskDraft(ctx, (event.target as HTMLTextAreaElement).value),
        keydown: (event: Event) => {
          const k = event as KeyboardEvent;
          if (k.key === 'Enter' && (k.ctrlKey || k.metaKey)) submit();
        },
      },
    }),
    h('div', { className: 'row' }, button('Plan & Execute', submit, { icon: 'rocket', testId: 'run-task' })),
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
