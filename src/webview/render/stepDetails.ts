/**
 * The selected step in full: why, instructions (editable before approval), evidence, binding, authority
 * (each glob and command can be unticked to tighten it), the files it changed (click → diff) and Revert.
 */
import { badge, button, h, icon } from '../dom';
import { draft, setDraft, type RenderContext } from '../context';
import type { StepView } from '../protocol';
import { statusIcon } from './statusIcons';
import { missionIsActive } from './mission';

const REVERTIBLE = new Set<StepView['status']>(['succeeded', 'failed', 'blocked', 'cancelled', 'interrupted', 'skipped']);

function field(label: string, text: string): HTMLElement {
  return h('div', { className: 'field' }, h('div', { className: 'field-label' }, label), h('div', { className: 'field-text' }, text || '—'));
}

function authorityEditor(ctx: RenderContext, step: StepView): HTMLElement {
  const keep = { edit: new Set(step.authority.edit), commands: new Set(step.authority.commands) };
  const box = (kind: 'edit' | 'commands', value: string): HTMLElement =>
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
    step.authority.edit.length + step.authority.commands.length > 0
      ? button('Tighten authority', () => ctx.post({ type: 'tightenAuthority', stepId: step.id, authority: { edit: [...keep.edit], commands: [...keep.commands] } }), {
          secondary: true,
          icon: 'lock',
          testId: 'tighten-authority',
        })
      : null,
  );
}

function changedFiles(ctx: RenderContext, step: StepView): HTMLElement | null {
  if (step.files.length === 0) return null;
  return h(
    'div',
    { className: 'files' },
    h('div', { className: 'field-label' }, 'Changed files'),
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

export function renderStepDetails(ctx: RenderContext): HTMLElement | null {
  const mission = ctx.state.mission;
  const step = mission?.steps.find((s) => s.id === ctx.ui.selectedStepId);
  if (!mission || !step) return null;
  // Only steps of the plan under review that have not started can change (the engine enforces it too).
  const editable = mission.phase === 'awaiting_approval' && mission.live && (step.status === 'pending' || step.status === 'ready');
  const s = statusIcon(step.status);
  const key = `instr:${step.id}`;
  const instructions = editable
    ? h(
        'div',
        { className: 'field' },
        h('label', { className: 'field-label', attrs: { for: 'instructions-editor' } }, 'Instructions'),
        h('vscode-textarea', {
          attrs: { id: 'instructions-editor', rows: '6', resize: 'vertical', 'aria-label': `Instructions of step ${step.id}`, 'data-testid': 'instructions-editor' },
          props: { value: ctx.ui.drafts[key] ?? step.instructions },
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
          !step.required ? button('Drop step', () => ctx.post({ type: 'dropStep', stepId: step.id }), { secondary: true, icon: 'trash', testId: 'drop-step' }) : null,
        ),
      )
    : field('Instructions', step.instructions);
  // Reverting is offered once the mission has stopped, for any step that changed files and is not reverted
  // already — succeeded, failed, cancelled or interrupted alike (the host re-checks, and names later steps
  // that changed the same files and go too).
  const canRevert = !missionIsActive(mission) && step.files.length > 0 && REVERTIBLE.has(step.status);
  return h(
    'div',
    { className: 'step-details', attrs: { 'data-testid': 'step-details', 'aria-label': `Step ${step.id} details` } },
    h('h3', { className: 'details-title' }, icon(s.icon, s.label, `status status-${s.tone}`), ` ${step.id} `, h('span', {}, step.title)),
    h(
      'div',
      { className: 'row badges' },
      badge(step.required ? 'required' : 'optional'),
      badge(step.kind),
      badge(`${step.risk} risk`, undefined, `badge risk-${step.risk}`),
      badge(step.effort),
      step.attempt > 1 ? badge(`attempt ${step.attempt}`) : null,
    ),
    step.statusReason ? h('div', { className: 'status-reason' }, step.statusReason) : null,
    field('Why', step.why),
    instructions,
    field('Evidence', step.evidence.join('\n')),
    field('Prerequisite', step.binding.prerequisite),
    field('Fallback', step.binding.fallback),
    field('Consequence', step.binding.consequence),
    field('Depends on', step.dependsOn.join(', ')),
    editable ? authorityEditor(ctx, step) : field('Authority', `edit: ${step.authority.edit.join(', ') || 'nothing'} · run: ${step.authority.commands.join(', ') || 'nothing'}`),
    step.output ? field('Result', step.output) : null,
    changedFiles(ctx, step),
    canRevert ? button('Revert step', () => ctx.post({ type: 'revertStep', stepId: step.id }), { secondary: true, icon: 'discard', testId: 'revert-step' }) : null,
  );
}
