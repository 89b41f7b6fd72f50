/**
 * The plan's constraints (with "Add constraint" while the plan waits) and the approve bar. The approve bar
 * sticks to the bottom of the sidebar and sits in the board's header, so "Approve plan & run" stays in view
 * however long the plan is.
 */
import { button, h, icon, section } from '../dom';
import type { MissionView } from '../protocol';
import { draft, setDraft, type RenderContext } from '../context';

/** A plan waits for the user: the approver holds its request (the state every surface reads). */
function awaiting(ctx: RenderContext): boolean {
  return ctx.state.status.kind === 'planWaiting';
}

export function renderConstraints(ctx: RenderContext): HTMLElement | null {
  const m = ctx.state.mission;
  if (!m || m.planVersion === null) return null;
  const list = h('ul', { className: 'constraints' }, ...m.constraints.map((c) => h('li', { attrs: { 'data-testid': 'constraint' } }, c)));
  if (!awaiting(ctx)) return m.constraints.length ? section('Constraints', 'constraints', list) : null;
  return section(
    'Constraints',
    'constraints',
    m.constraints.length ? list : h('div', { className: 'muted' }, 'None yet. A constraint binds every step.'),
    h(
      'div',
      { className: 'row' },
      h('vscode-textfield', {
        attrs: { placeholder: 'e.g. never touch package.json', 'aria-label': 'New constraint', 'data-testid': 'constraint-input' },
        props: { label: 'New constraint', value: draft(ctx, 'constraint') },
        on: { input: (event: Event) => setDraft(ctx, 'constraint', (event.target as HTMLInputElement).value) },
      }),
      button(
        'Add constraint',
        () => {
          const text = draft(ctx, 'constraint').trim();
          if (!text) return;
          setDraft(ctx, 'constraint', '');
          ctx.post({ type: 'addConstraint', text });
        },
        { secondary: true, icon: 'add', testId: 'add-constraint' },
      ),
    ),
  );
}

/** "Approve plan & run" while a plan waits (null otherwise). */
export function renderApproveBar(ctx: RenderContext): HTMLElement | null {
  const m = ctx.state.mission;
  if (!m || !awaiting(ctx) || m.planVersion === null) return null;
  const version = m.planVersion;
  const ready = ctx.state.trusted && ctx.state.planAwaitingApproval === version;
  return h(
    'div',
    { className: 'approve-bar', attrs: { role: 'region', 'aria-label': 'Plan approval', 'data-testid': 'approve-bar' } },
    button(
      `Approve plan v${version} & run`,
      () => {
        ctx.decided('plan');
        ctx.post({ type: 'approvePlan', version });
      },
      { icon: 'play', testId: 'approve-plan', disabled: !ready },
    ),
    !ctx.state.trusted
      ? h('span', { className: 'muted' }, 'Trust the workspace to run the plan.')
      : h('span', { className: 'muted' }, `${m.steps.filter((s) => s.inPlan).length} steps; nothing runs before you approve.`),
    renderEstimate(m),
  );
}

/** What the waiting plan is expected to cost, beside Approve (docs/plans.md, "The estimate"). */
function renderEstimate(m: MissionView): HTMLElement | null {
  const e = m.costEstimate;
  if (!e || e.version !== m.planVersion) return null;
  return h(
    'span',
    {
      className: 'estimate',
      attrs: {
        'data-testid': 'plan-estimate',
        title: "Executor and verifier calls, from each step's size and its models' prices; retries and replans not included",
      },
    },
    icon('credit-card'),
    ` Estimate: ${e.total}`,
  );
}
