/**
 * The user's setup on the surfaces: the project's instruction files (name, size, where each applies, a link
 * that opens it, and — before a mission — a switch to leave one out), the MCP servers a mission could use
 * with their tools, and the MCP grants a step carries (a badge on both plan trees, a line in its authority).
 */
import { h, icon, section } from '../dom';
import type { RenderContext } from '../context';
import type { InstructionFileView, InstructionsView, McpServerView, StepView } from '../protocol';

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

const STATE_WORDS: Record<InstructionFileView['state'], string> = { used: 'used', excluded: 'left out', unusable: 'not used' };
/** In the demo a file is read, and its text sent, but the scripted planner applies none of it. */
const DEMO_USED = 'read, not applied (demo)';

function fileRow(ctx: RenderContext, f: InstructionFileView, editable: boolean): HTMLElement {
  const link = h(
    'a',
    {
      attrs: { href: '#', role: 'button', 'data-testid': 'instruction-link', title: `Open ${f.path}` },
      on: {
        click: (event: Event) => {
          event.preventDefault();
          ctx.post({ type: 'openInstructionFile', path: f.path });
        },
      },
    },
    icon('book'),
    ` ${f.path}`,
  );
  const toggle =
    editable && f.state !== 'unusable'
      ? h('vscode-checkbox', {
          attrs: { checked: f.state === 'used', label: 'use', 'aria-label': `Use ${f.path} in the next mission`, 'data-testid': 'instruction-toggle' },
          props: { checked: f.state === 'used' },
          on: { change: (event: Event) => ctx.post({ type: 'setInstructionIncluded', path: f.path, included: (event.target as HTMLInputElement).checked }) },
        })
      : h(
          'span',
          { className: `badge instruction-state state-${f.state}`, attrs: { 'data-testid': 'instruction-state' } },
          f.state === 'used' && ctx.state.demo ? DEMO_USED : STATE_WORDS[f.state],
        );
  // The demo's scripted planner reads a used file but applies none of it: said on the file, switch or not.
  const demoWords =
    editable && ctx.state.demo && f.state === 'used'
      ? h('span', { className: 'badge instruction-state state-demo', attrs: { 'data-testid': 'instruction-demo' } }, DEMO_USED)
      : null;
  return h(
    'li',
    { className: `instruction-file state-${f.state}`, attrs: { 'data-testid': 'instruction-file', 'data-path': f.path, 'data-state': f.state } },
    h('div', { className: 'instruction-head' }, link, toggle, demoWords),
    h(
      'div',
      { className: 'muted instruction-scope' },
      h('span', { attrs: { 'data-testid': 'instruction-size' } }, size(f.size)),
      f.state === 'unusable' || !f.scope ? null : ` · ${f.scope}`,
      f.hash ? h('span', { attrs: { title: `sha256 ${f.hash}` } }, ` · ${f.hash.slice(0, 8)}`) : null,
    ),
    ...f.notes.map((n) => h('div', { className: 'muted instruction-note', attrs: { 'data-testid': 'instruction-note' } }, icon('warning'), ` ${n}`)),
  );
}

/**
 * The instruction files: those the shown mission recorded (`mission`), or those the next mission will read
 * (`workspace`, with a switch each). Null when there is nothing to list.
 */
export function renderInstructions(ctx: RenderContext, view: InstructionsView | undefined): HTMLElement | null {
  if (!view) return null;
  const editable = view.source === 'workspace';
  const title = editable ? 'Project instructions (next mission)' : 'Project instructions (this mission)';
  if (view.files.length === 0 && editable) return null;
  return section(
    title,
    editable ? 'instructions-next' : 'instructions',
    h(
      'div',
      { className: 'muted' },
      'Text from the repository: the planner reads it and turns checkable rules into constraints; each step gets what applies to its files. It never grants authority.',
    ),
    ctx.state.demo && view.files.some((f) => f.state === 'used')
      ? h(
          'div',
          { className: 'notice demo', attrs: { role: 'note', 'data-testid': 'instructions-demo' } },
          icon('beaker'),
          ' Demo: these files are read and sent to the scripted planner, but it does not apply them — its plan is fixed in advance, so no constraint comes from them, and its executor breaks them on purpose. A real model turns their checkable rules into constraints.',
        )
      : null,
    view.files.length === 0 ? h('div', { className: 'muted' }, 'None: this mission read no instruction file.') : null,
    h('ul', { className: 'instruction-list' }, ...view.files.map((f) => fileRow(ctx, f, editable))),
    ...view.notes.map((n) => h('div', { className: 'muted instruction-note' }, icon('warning'), ` ${n}`)),
  );
}

const CONFINED: Record<McpServerView['confinement'], string> = {
  sandboxed: "runs in each step's OS sandbox",
  unsandboxed: 'runs UNSANDBOXED (sandbox off)',
  remote: 'remote: not confined by Plan & Execute',
  vscode: 'run by VS Code: not confined by Plan & Execute',
};

/** The MCP servers the shown mission could grant, with their tools (or why one cannot be used). */
export function renderMcpServers(servers: readonly McpServerView[] | undefined): HTMLElement | null {
  if (!servers || servers.length === 0) return null;
  return section(
    'MCP servers',
    'mcp-servers',
    h(
      'ul',
      { className: 'mcp-server-list' },
      ...servers.map((s) =>
        h(
          'li',
          { attrs: { 'data-testid': 'mcp-server', 'data-server': s.name, 'data-status': s.status } },
          icon(s.status === 'ok' ? 'plug' : 'error'),
          ' ',
          h('code', {}, s.name),
          h(
            'span',
            { className: 'muted' },
            ` (${s.transport}, ${s.source}) — ${s.status === 'ok' ? CONFINED[s.confinement] : `not usable: ${s.reason ?? 'its tools could not be listed'}`}`,
          ),
          s.tools.length > 0 ? h('div', { className: 'muted' }, s.tools.map((t) => `${t.name}${t.readOnly ? ' (read-only)' : ''}`).join(', ')) : null,
        ),
      ),
    ),
  );
}

/** The mark a step with MCP grants carries on both plan trees. */
export function mcpBadge(step: StepView, labelled: boolean): HTMLElement | null {
  const grants = step.authority.mcp ?? [];
  if (grants.length === 0) return null;
  const words = `may call MCP tools: ${grants.join(', ')} (each call asks)`;
  return h(
    'span',
    { className: 'badge badge-mcp', attrs: { title: words, 'aria-label': words, role: 'img', 'data-testid': 'mcp-badge' } },
    icon('plug'),
    labelled ? ` ${grants.length === 1 ? grants[0]! : `${grants.length} MCP tools`}` : null,
  );
}
