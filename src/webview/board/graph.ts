/**
 * The plan as a graph on the board: waves of steps top to bottom (see ./layout.ts), each step a card with
 * its status, id, whole title, kind and authority, and the dependencies drawn as curves between the cards
 * (the cards also say "after s1, s2" in words, for screen readers and for crossings). The graph is a
 * listbox: arrow keys move the selection, which the details pane follows. Status changes and selection
 * are painted in place; only a new snapshot rebuilds it.
 */
import { h, icon, type Child } from '../dom';
import type { RenderContext } from '../context';
import type { SandboxStatusView, StepView } from '../protocol';
import { sandboxBadge } from '../render/sandboxBadge';
import { mcpBadge } from '../render/setupViews';
import { paintStatus } from '../render/statusIcons';
import { layoutGraph, type GraphLayout } from './layout';

const SVG = 'http://www.w3.org/2000/svg';

function nodeBadges(step: StepView, sandbox: SandboxStatusView | undefined): Child[] {
  const out: Child[] = [];
  if (step.authority.edit.length)
    out.push(
      h(
        'span',
        { className: 'badge badge-edit', attrs: { title: `may edit: ${step.authority.edit.join(', ')}` } },
        icon('edit'),
        ` ${step.authority.edit.length}`,
      ),
    );
  if (step.authority.commands.length)
    out.push(
      h(
        'span',
        { className: 'badge badge-cmd', attrs: { title: `may run: ${step.authority.commands.join(', ')}` } },
        icon('terminal'),
        ` ${step.authority.commands.length}`,
      ),
    );
  if (step.authority.commands.length && sandbox) out.push(sandboxBadge(sandbox, true));
  const mcp = mcpBadge(step, true);
  if (mcp) out.push(mcp);
  if (step.authority.network)
    out.push(
      h(
        'span',
        { className: 'badge badge-network', attrs: { title: 'its commands may use the network', 'data-testid': 'network-badge' } },
        icon('globe'),
        ' network',
      ),
    );
  if (step.files.length)
    out.push(h('span', { className: 'badge badge-files', attrs: { title: `changed ${step.files.length} file(s)` } }, icon('files'), ` ${step.files.length}`));
  if (step.risk === 'high') out.push(h('span', { className: 'badge risk-high', attrs: { title: 'high risk' } }, icon('warning')));
  return out;
}

function node(step: StepView, selected: boolean, waiting: number, sandbox: SandboxStatusView | undefined): HTMLElement {
  const glyph = h('span', { attrs: { role: 'img' } });
  paintStatus(glyph, step.status);
  const deps = step.dependsOn.length ? `after ${step.dependsOn.join(', ')}` : 'no dependencies';
  return h(
    'div',
    {
      className: `node${step.inPlan ? '' : ' dropped'}${step.required ? '' : ' optional'}`,
      attrs: {
        role: 'option',
        id: `node-${step.id}`,
        tabindex: selected ? '0' : '-1',
        'aria-selected': selected ? 'true' : 'false',
        'data-step-id': step.id,
        'data-status': step.status,
        'data-testid': `step-${step.id}`,
        title: step.title,
      },
    },
    h(
      'div',
      { className: 'node-head' },
      glyph,
      h('span', { className: 'step-id' }, step.id),
      h('span', { className: 'node-kind muted' }, step.kind),
      waiting
        ? h('span', { className: 'badge waiting-badge', attrs: { title: `${waiting} waiting for your approval` } }, icon('bell-dot'), ` ${waiting} waiting`)
        : null,
      h('span', { className: 'decorations' }, ...nodeBadges(step, sandbox)),
    ),
    h('div', { className: 'node-title step-title' }, step.title),
    h('div', { className: 'node-meta muted' }, deps, step.required ? '' : ' · optional'),
  );
}

export interface GraphView {
  element: HTMLElement;
  /** Moves the selection highlight (and the roving tab stop) to `stepId`. */
  select(stepId: string | null, focus: boolean): void;
  /** Redraws the dependency curves (after a resize or a change of selection). */
  drawEdges(): void;
}

export function renderGraph(ctx: RenderContext, steps: StepView[]): GraphView {
  const layout: GraphLayout = layoutGraph(steps);
  const byId = new Map(steps.map((s) => [s.id, s]));
  const waitingBy = new Map<string, number>();
  for (const a of ctx.state.approvals) if (a.stepId) waitingBy.set(a.stepId, (waitingBy.get(a.stepId) ?? 0) + 1);
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'edges');
  svg.setAttribute('aria-hidden', 'true');
  const selected = ctx.ui.selectedStepId;
  const waves = layout.waves.map((ids, i) =>
    h(
      'div',
      { className: 'wave', attrs: { 'data-wave': String(i + 1), role: 'presentation' } },
      h(
        'div',
        { className: 'wave-label', attrs: { 'aria-hidden': 'true', title: i === 0 ? 'Wave 1: needs nothing' : `Wave ${i + 1}: after wave ${i}` } },
        String(i + 1),
      ),
      h(
        'div',
        { className: 'wave-nodes', attrs: { role: 'presentation' } },
        ...ids.map((id) => node(byId.get(id)!, id === selected, waitingBy.get(id) ?? 0, ctx.state.sandbox)),
      ),
    ),
  );
  const order = layout.waves.flat();
  const element = h(
    'div',
    {
      className: 'graph',
      attrs: { role: 'listbox', 'aria-label': `Plan steps (${steps.length}), in waves by dependency`, 'data-testid': 'plan-graph' },
      on: {
        click: (event: Event) => {
          const id = (event.target as Element).closest('[data-step-id]')?.getAttribute('data-step-id');
          if (id) ctx.selectStep(id);
        },
        keydown: (event: Event) => {
          const k = event as KeyboardEvent;
          const current = ctx.ui.selectedStepId ?? order[0];
          const i = current ? order.indexOf(current) : -1;
          let next: string | undefined;
          if (k.key === 'ArrowDown' || k.key === 'ArrowRight') next = order[Math.min(order.length - 1, i + 1)];
          else if (k.key === 'ArrowUp' || k.key === 'ArrowLeft') next = order[Math.max(0, i - 1)];
          else if (k.key === 'Home') next = order[0];
          else if (k.key === 'End') next = order[order.length - 1];
          if (!next) return;
          k.preventDefault();
          ctx.selectStep(next);
        },
      },
    },
    svg,
    ...waves,
  );
  if (!selected && order[0]) element.querySelector<HTMLElement>('.node')?.setAttribute('tabindex', '0');

  const drawEdges = (): void => {
    if (!element.isConnected) return;
    const box = element.getBoundingClientRect();
    const ox = element.scrollLeft - box.left;
    const oy = element.scrollTop - box.top;
    svg.setAttribute('width', String(element.scrollWidth));
    svg.setAttribute('height', String(element.scrollHeight));
    const rects = new Map<string, DOMRect>();
    for (const el of element.querySelectorAll<HTMLElement>('.node[data-step-id]')) rects.set(el.dataset.stepId ?? '', el.getBoundingClientRect());
    const sel = ctx.ui.selectedStepId;
    const paths: SVGPathElement[] = [];
    for (const e of layout.edges) {
      const a = rects.get(e.from);
      const b = rects.get(e.to);
      if (!a || !b) continue;
      const x1 = a.left + a.width / 2 + ox;
      const y1 = a.bottom + oy;
      const x2 = b.left + b.width / 2 + ox;
      const y2 = b.top + oy;
      const bend = Math.max(18, (y2 - y1) / 2);
      const path = document.createElementNS(SVG, 'path');
      path.setAttribute(
        'd',
        `M${x1.toFixed(1)},${y1.toFixed(1)} C${x1.toFixed(1)},${(y1 + bend).toFixed(1)} ${x2.toFixed(1)},${(y2 - bend).toFixed(1)} ${x2.toFixed(1)},${y2.toFixed(1)}`,
      );
      const done = byId.get(e.from)?.status === 'succeeded';
      path.setAttribute('class', `edge${sel && (e.from === sel || e.to === sel) ? ' edge-active' : ''}${done ? ' edge-done' : ''}`);
      path.setAttribute('data-edge', `${e.from}->${e.to}`);
      paths.push(path);
    }
    svg.replaceChildren(...paths);
  };

  const select = (stepId: string | null, focus: boolean): void => {
    for (const el of element.querySelectorAll<HTMLElement>('.node[aria-selected="true"]')) {
      el.setAttribute('aria-selected', 'false');
      el.setAttribute('tabindex', '-1');
    }
    const target = stepId ? element.querySelector<HTMLElement>(`.node[data-step-id="${CSS.escape(stepId)}"]`) : null;
    if (target) {
      target.setAttribute('aria-selected', 'true');
      target.setAttribute('tabindex', '0');
      target.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      if (focus) target.focus({ preventScroll: true });
    }
    for (const p of svg.querySelectorAll('path')) {
      const [from, to] = (p.getAttribute('data-edge') ?? '').split('->');
      p.classList.toggle('edge-active', stepId !== null && (from === stepId || to === stepId));
    }
  };

  new ResizeObserver(() => requestAnimationFrame(drawEdges)).observe(element);
  return { element, select, drawEdges };
}
