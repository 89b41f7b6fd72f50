/**
 * The plan tree: one vscode-tree item per step (status glyph, title, required/risk/effort, authority
 * badges), its children the why, instructions, evidence, binding and dependencies. Selecting a step opens
 * its details below the tree. Status changes are painted in place (see `updateStepStatus`).
 */
import { h, icon, type Child } from '../dom';
import type { RenderContext } from '../context';
import type { SandboxStatusView, StepView } from '../protocol';
import { paintStatus } from './statusIcons';

const FIRST_BATCH = 60;
/** Runs `fn` after the next frame is painted (a bare rAF callback would run before that paint). */
const afterPaint = (fn: () => void): void => void requestAnimationFrame(() => setTimeout(fn, 0));
const BATCH = 150;

function leaf(label: string, text: string): HTMLElement {
  return h('vscode-tree-item', { attrs: { title: `${label}: ${text}` } }, h('span', { className: 'leaf-label' }, `${label}: `), text || '—');
}

/** Per command step: whether its commands run in the OS sandbox here. */
const SANDBOX_BADGE: Record<SandboxStatusView['state'], { icon: string; text: string; className: string }> = {
  sandboxed: { icon: 'shield', text: 'sandboxed', className: 'badge badge-sandboxed' },
  unsandboxed: { icon: 'warning', text: 'unsandboxed', className: 'badge badge-unsandboxed' },
  refused: { icon: 'error', text: 'no sandbox', className: 'badge badge-unsandboxed' },
  off: { icon: 'warning', text: 'sandbox off', className: 'badge badge-unsandboxed' },
};

function authorityBadges(step: StepView, sandbox: SandboxStatusView | undefined): Child[] {
  const badges: Child[] = [];
  if (step.authority.edit.length > 0) {
    badges.push(h('span', { className: 'badge badge-edit', attrs: { title: `may edit: ${step.authority.edit.join(', ')}` } }, icon('edit'), ` ${step.authority.edit.length}`));
  }
  if (step.authority.commands.length > 0) {
    badges.push(h('span', { className: 'badge badge-cmd', attrs: { title: `may run: ${step.authority.commands.join(', ')}` } }, icon('terminal'), ` ${step.authority.commands.length}`));
    if (sandbox) {
      const b = SANDBOX_BADGE[sandbox.state];
      badges.push(h('span', { className: b.className, attrs: { title: sandbox.detail, 'data-testid': 'sandbox-badge' } }, icon(b.icon), ` ${b.text}`));
    }
  }
  if (step.authority.network) {
    badges.push(h('span', { className: 'badge badge-network', attrs: { title: 'its commands may use the network', 'data-testid': 'network-badge' } }, icon('globe'), ' network'));
  }
  return badges;
}

function statusGlyph(step: StepView, slot: string): HTMLElement {
  const el = h('span', { attrs: { slot, role: 'img' } });
  paintStatus(el, step.status);
  return el;
}

/** The why/instructions/evidence/binding rows, added when a step is first expanded (keeps big plans light). */
export function stepLeaves(step: StepView): HTMLElement[] {
  const evidence = step.evidence.length > 0 ? step.evidence.join('; ') : '';
  const binding = [
    step.binding.prerequisite && `prerequisite: ${step.binding.prerequisite}`,
    step.binding.fallback && `fallback: ${step.binding.fallback}`,
    step.binding.consequence && `consequence: ${step.binding.consequence}`,
  ]
    .filter(Boolean)
    .join('; ');
  return [
    leaf('Why', step.why),
    leaf('Instructions', step.instructions),
    leaf('Evidence', evidence),
    leaf('Binding', binding),
    leaf('Depends on', step.dependsOn.join(', ')),
  ];
}

export function stepItem(step: StepView, selected: boolean, sandbox?: SandboxStatusView): HTMLElement {
  const meta = `${step.required ? 'required' : 'optional'} · ${step.risk} risk · ${step.effort}`;
  const item = h(
    'vscode-tree-item',
    {
      className: 'step',
      attrs: {
        'data-step-id': step.id,
        'data-status': step.status,
        'data-testid': `step-${step.id}`,
        branch: true,
        selected,
        'aria-label': `${step.id} ${step.title}, ${step.status}, ${meta}`,
      },
    },
    statusGlyph(step, 'icon-branch'),
    statusGlyph(step, 'icon-branch-opened'),
    h('span', { className: 'step-label' }, h('span', { className: 'step-id' }, step.id), ' ', h('span', { className: 'step-title' }, step.title)),
    h('span', { attrs: { slot: 'description' } }, meta),
    h('span', { attrs: { slot: 'decoration' }, className: 'decorations' }, ...authorityBadges(step, sandbox)),
  );
  return item;
}

export function renderPlanTree(ctx: RenderContext): HTMLElement | null {
  const mission = ctx.state.mission;
  if (!mission || mission.steps.length === 0) return null;
  const tree = h(
    'vscode-tree',
    {
      attrs: { 'aria-label': 'Plan steps', 'data-testid': 'plan-tree', 'indent-guides': 'onHover' },
      on: {
        'vsc-tree-select': (event: Event) => {
          // The component's typings say { selectedItems }, its code sends the array itself: accept both.
          const detail = (event as CustomEvent<HTMLElement[] | { selectedItems: HTMLElement[] }>).detail;
          const items = Array.isArray(detail) ? detail : detail.selectedItems;
          const first = items[0];
          const stepEl = first?.closest('[data-step-id]');
          const id = stepEl?.getAttribute('data-step-id') ?? null;
          if (id !== ctx.ui.selectedStepId) {
            ctx.ui.selectedStepId = id;
            ctx.saveUi();
            ctx.rerender();
          }
        },
      },
    },
    ...mission.steps.slice(0, FIRST_BATCH).map((s) => stepItem(s, s.id === ctx.ui.selectedStepId, ctx.state.sandbox)),
  );
  // Big plans: the first screenful renders at once, the rest in frame-sized batches, so the sidebar
  // is interactive immediately. A newer render detaches this tree, which stops the batches.
  let next = FIRST_BATCH;
  const appendBatch = (): void => {
    if (next >= mission.steps.length || (next > FIRST_BATCH && !tree.isConnected)) return;
    tree.append(...mission.steps.slice(next, next + BATCH).map((s) => stepItem(s, s.id === ctx.ui.selectedStepId, ctx.state.sandbox)));
    next += BATCH;
    afterPaint(appendBatch);
  };
  if (mission.steps.length > FIRST_BATCH) afterPaint(appendBatch);
  const byId = new Map(mission.steps.map((s) => [s.id, s]));
  const populate = (item: Element): void => {
    const step = byId.get(item.getAttribute('data-step-id') ?? '');
    if (!step || item.hasAttribute('data-populated')) return;
    item.setAttribute('data-populated', '');
    item.append(...stepLeaves(step));
  };
  new MutationObserver((records) => {
    for (const r of records) if (r.target instanceof Element && r.target.hasAttribute('open')) populate(r.target);
  }).observe(tree, { attributes: true, attributeFilter: ['open'], subtree: true });
  return tree;
}

/** Paints one step's new status without rebuilding the tree; false when the step is not on screen. */
export function updateStepStatus(root: ParentNode, stepId: string, status: StepView['status']): boolean {
  const item = root.querySelector(`vscode-tree-item[data-step-id="${CSS.escape(stepId)}"]`);
  if (!item) return false;
  item.setAttribute('data-status', status);
  for (const glyph of item.querySelectorAll<HTMLElement>(':scope > .status')) paintStatus(glyph, status);
  return true;
}
