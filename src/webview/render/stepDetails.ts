/**
 * The selected step in full (the board's details pane): status and why it is so, why the step exists,
 * instructions (editable before approval), evidence and how the verifier judged it, binding constraints,
 * what it depends on and what needs it (click to go there), its authority (each glob and command can be
 * unticked to tighten it), the commands it ran, the files it changed (click → diff), what it waits for,
 * and its actions.
 */
import { badge, button, h, icon } from '../dom';
import { draft, setDraft, type RenderContext } from '../context';
import type { MissionView, StepView } from '../protocol';
import { renderApprovals } from './approvals';
import { statusIcon } from './statusIcons';
import { renderStepActions } from './stepActions';
import { renderHookRuns } from './hooksViews';

function field(label: string, text: string, testId?: string): HTMLElement {
  return h(
    'div',
    { className: 'field', attrs: { 'data-testid': testId } },
    h('div', { className: 'field-label' }, label),
    h('div', { className: 'field-text' }, text || '—'),
  );
}

function authorityEditor(ctx: RenderContext, step: StepView): HTMLElement {
  const grants = step.authority.mcp ?? [];
  const keep = { edit: new Set(step.authority.edit), commands: new Set(step.authority.commands), mcp: new Set(grants) };
  const box = (kind: 'edit' | 'commands' | 'mcp', value: string): HTMLElement =>
    h('vscode-checkbox', {
      attrs: { checked: true, label: value, 'data-testid': `authority-${kind}` },
      props: { label: value },
      on: {
        change: (event: Event) => {
          const checked = (event.target as HTMLInputElement).checked;
          if (checked) keep[kind].add(value);
          else keep[kind].delete(value);
        },
      },
    });
  return h(
    'div',
    { className: 'authority' },
    h('div', { className: 'field-label' }, 'May edit'),
    ...(step.authority.edit.length ? step.authority.edit.map((g) => box('edit', g)) : [h('div', { className: 'muted' }, 'nothing')]),
    h('div', { className: 'field-label' }, 'May run'),
    ...(step.authority.commands.length ? step.authority.commands.map((c) => box('commands', c)) : [h('div', { className: 'muted' }, 'no commands')]),
    ...(grants.length ? [h('div', { className: 'field-label' }, 'May call (MCP)'), ...grants.map((g) => box('mcp', g))] : []),
    step.authority.edit.length + step.authority.commands.length + grants.length > 0
      ? button(
          'Tighten authority',
          () =>
            ctx.post({
              type: 'tightenAuthority',
              stepId: step.id,
              authority: { edit: [...keep.edit], commands: [...keep.commands], ...(grants.length ? { mcp: [...keep.mcp] } : {}) },
            }),
          {
            secondary: true,
            icon: 'lock',
            testId: 'tighten-authority',
          },
        )
      : null,
  );
}

function authorityText(step: StepView): HTMLElement {
  const mcp = step.authority.mcp ?? [];
  return field(
    'Authority',
    `edit: ${step.authority.edit.join(', ') || 'nothing'} · run: ${step.authority.commands.join(', ') || 'nothing'} · network: ${step.authority.network ? 'allowed' : 'off'}${mcp.length ? ` · MCP: ${mcp.join(', ')}` : ''}`,
    'authority',
  );
}

function stepLinks(ctx: RenderContext, label: string, ids: string[], testId: string): HTMLElement {
  return h(
    'div',
    { className: 'field', attrs: { 'data-testid': testId } },
    h('div', { className: 'field-label' }, label),
    ids.length === 0
      ? h('div', { className: 'field-text muted' }, 'none')
      : h(
          'div',
          { className: 'row chips' },
          ...ids.map((id) =>
            h('button', { className: 'chip link', attrs: { type: 'button', title: `Show step ${id}` }, on: { click: () => ctx.selectStep(id) } }, id),
          ),
        ),
  );
}

function changedFiles(ctx: RenderContext, step: StepView): HTMLElement | null {
  if (step.files.length === 0) return null;
  return h(
    'div',
    { className: 'files' },
    h(
      'div',
      { className: 'field-label' },
      step.status === 'reverted' ? `Changed files (${step.files.length}, reverted since)` : `Changed files (${step.files.length})`,
    ),
    h(
      'ul',
      { className: 'file-list' },
      ...step.files.map((f) =>
        h(
          'li',
          {},
          h(
            'a',
            {
              attrs: { href: '#', role: 'button', 'data-testid': 'changed-file', title: `Open the diff of ${f.path}` },
              on: {
                click: (event: Event) => {
                  event.preventDefault();
                  ctx.post({ type: 'openDiff', target: { kind: 'stepFile', stepId: step.id, path: f.path }, focus: true });
                },
              },
            },
            icon(f.change === 'created' ? 'diff-added' : f.change === 'deleted' ? 'diff-removed' : 'diff-modified'),
            ` ${f.path}`,
          ),
        ),
      ),
    ),
  );
}

function verification(step: StepView): HTMLElement | null {
  if (!step.verification) return null;
  return h(
    'div',
    { className: 'field', attrs: { 'data-testid': 'verification' } },
    h(
      'div',
      { className: 'field-label' },
      step.verification.passed ? (step.status === 'reverted' ? 'Verified before it was reverted' : 'Verified') : 'Verification failed',
    ),
    h(
      'ul',
      { className: 'check-list' },
      ...step.verification.checks.map((c) =>
        h(
          'li',
          {},
          icon(c.passed ? 'pass' : 'error', c.passed ? 'passed' : 'failed', c.passed ? 'status-ok' : 'status-error'),
          ` ${c.check}`,
          c.detail ? h('span', { className: 'muted' }, ` — ${c.detail}`) : null,
        ),
      ),
    ),
  );
}

function instructionsEditor(ctx: RenderContext, step: StepView): HTMLElement {
  const key = `instr:${step.id}`;
  return h(
    'div',
    { className: 'field' },
    h('label', { className: 'field-label', attrs: { for: 'instructions-editor' } }, 'Instructions'),
    h('vscode-textarea', {
      attrs: {
        id: 'instructions-editor',
        rows: '6',
        resize: 'vertical',
        'aria-label': `Instructions of step ${step.id}`,
        'data-testid': 'instructions-editor',
      },
      props: { label: `Instructions of step ${step.id}`, value: ctx.ui.drafts[key] ?? step.instructions },
      on: { input: (event: Event) => setDraft(ctx, key, (event.target as HTMLTextAreaElement).value) },
    }),
    h(
      'div',
      { className: 'row' },
      button(
        'Save instructions',
        () => {
          const text = draft(ctx, key) || step.instructions;
          setDraft(ctx, key, '');
          ctx.post({ type: 'editStep', stepId: step.id, instructions: text });
        },
        { icon: 'save', testId: 'save-instructions' },
      ),
      !step.required
        ? button('Drop step', () => ctx.post({ type: 'dropStep', stepId: step.id }), { secondary: true, icon: 'trash', testId: 'drop-step' })
        : null,
    ),
  );
}

export function renderStepDetails(ctx: RenderContext, mission: MissionView, step: StepView): HTMLElement {
  // Only steps of the plan under review that have not started can change (the engine enforces it too).
  const editable = ctx.state.status.kind === 'planWaiting' && step.inPlan && (step.status === 'pending' || step.status === 'ready');
  const s = statusIcon(step.status);
  const dependents = mission.steps.filter((x) => x.inPlan && x.dependsOn.includes(step.id)).map((x) => x.id);
  return h(
    'div',
    { className: 'step-details', attrs: { 'data-testid': 'step-details', 'data-step-id': step.id, 'aria-label': `Step ${step.id} details` } },
    h('h3', { className: 'details-title' }, icon(s.icon, s.label, `status status-${s.tone}`), ` ${step.id} `, h('span', {}, step.title)),
    h(
      'div',
      { className: 'row badges' },
      badge(s.label, 'status', `badge status-badge tone-${s.tone}`),
      badge(step.required ? 'required' : 'optional'),
      badge(step.kind),
      badge(`${step.risk} risk`, undefined, `badge risk-${step.risk}`),
      badge(step.effort),
      step.attempt > 1 ? badge(`attempt ${step.attempt}`) : null,
      !step.inPlan ? badge('not in the current plan') : null,
    ),
    step.statusReason ? h('div', { className: 'status-reason', attrs: { 'data-testid': 'status-reason' } }, step.statusReason) : null,
    renderStepActions(ctx, mission, step),
    renderHookRuns(step),
    renderApprovals(ctx, { stepId: step.id, title: 'Waiting for you (this step)' }),
    field('Why', step.why),
    editable ? instructionsEditor(ctx, step) : field('Instructions', step.instructions),
    stepLinks(ctx, 'Depends on', step.dependsOn, 'depends-on'),
    stepLinks(ctx, 'Needed by', dependents, 'needed-by'),
    field('Evidence', step.evidence.join('\n')),
    mission.costEstimate?.version === mission.planVersion ? field('Estimate', mission.costEstimate?.steps[step.id] ?? '', 'step-estimate') : null,
    verification(step),
    step.output ? field('Result', step.output, 'step-output') : null,
    changedFiles(ctx, step),
    step.commands.length ? field('Commands run', step.commands.map((c) => `${c.command} → ${c.exitCode ?? 'no exit code'}`).join('\n')) : null,
    field('Prerequisite', step.binding.prerequisite),
    field('Fallback', step.binding.fallback),
    field('Consequence', step.binding.consequence),
    editable ? authorityEditor(ctx, step) : authorityText(step),
  );
}
