/**
 * The approval card of an MCP tool call: which server and tool, the arguments it will get (as sent), the
 * server's read-only hint, and what confines the server — its step's OS sandbox (with or without network)
 * or, said plainly, nothing of ours: a remote server, one VS Code runs, or a stdio server with the sandbox
 * off. "Always allow this tool in this mission" remembers `server/tool` as a rule (listed, revocable).
 */
import { button, h, icon } from '../dom';
import type { RenderContext } from '../context';
import type { ApprovalView } from '../protocol';
import { focusNextCard, ignoredClicks, ignoredNote, noteIgnoredClick, reasonBox, reject, settled } from './approvals';

type McpApproval = Extract<ApprovalView, { kind: 'mcp' }>;

const CONFINEMENT: Record<McpApproval['confinement'], { label: string; title: string; confined: boolean }> = {
  sandboxed: {
    label: "server in the step's sandbox",
    title: "The server runs inside this step's OS sandbox: it writes nothing in the workspace and cannot see your home or secrets",
    confined: true,
  },
  unsandboxed: { label: 'server UNSANDBOXED', title: 'The sandbox is off (planExecute.sandbox): the server runs with everything you can do', confined: false },
  remote: {
    label: 'remote server: not confined',
    title: 'A remote (HTTP) server: what it does runs elsewhere, not confined by Plan & Execute',
    confined: false,
  },
  vscode: { label: 'VS Code runs this server: not confined', title: 'VS Code runs this server: Plan & Execute does not confine it', confined: false },
};

function confinementRow(a: McpApproval): HTMLElement {
  const c = CONFINEMENT[a.confinement];
  const network =
    a.confinement === 'sandboxed'
      ? h(
          'span',
          {
            className: a.network ? 'badge badge-network' : 'badge',
            attrs: {
              'data-testid': 'mcp-network',
              title: a.network ? 'The step grants the network: the server may reach it' : 'No network beyond loopback inside the sandbox',
            },
          },
          icon(a.network ? 'globe' : 'circle-slash'),
          a.network ? ' network' : ' no network',
        )
      : null;
  return h(
    'div',
    { className: 'row', attrs: { 'data-testid': 'mcp-confinement' } },
    h(
      'span',
      { className: c.confined ? 'badge badge-sandboxed' : 'badge badge-unsandboxed', attrs: { title: c.title } },
      icon(c.confined ? 'shield' : 'warning'),
      ` ${c.label}`,
    ),
    network,
    a.readOnly
      ? h(
          'span',
          {
            className: 'badge',
            attrs: { title: 'The server marks this tool read-only (a hint from the server, not a guarantee)', 'data-testid': 'mcp-read-only' },
          },
          icon('eye'),
          ' read-only hint',
        )
      : null,
  );
}

export function mcpCard(ctx: RenderContext, a: McpApproval): HTMLElement {
  const remember = h('vscode-checkbox', { attrs: { label: 'Always allow this tool in this mission', 'data-testid': 'remember' } }) as HTMLElement & {
    checked?: boolean;
  };
  const guarded = (action: () => void) => (event: Event) => {
    if (!settled(a.requestId, event)) return noteIgnoredClick(a.requestId, event);
    action();
  };
  const approve = (): void => {
    focusNextCard(ctx, a.requestId);
    ctx.post({ type: 'approveAction', requestId: a.requestId, remember: remember.checked === true });
  };
  const count = ignoredClicks(a.requestId);
  return h(
    'div',
    {
      className: `card card-mcp${a.verification ? ' card-verification' : ''}`,
      attrs: {
        'data-request-id': a.requestId,
        'data-testid': 'approval-mcp',
        'data-ignored-clicks': count !== undefined ? String(count) : undefined,
        role: 'group',
        'aria-label': `MCP tool call ${a.server}/${a.tool} waiting for approval${a.stepId ? `, step ${a.stepId}` : ''}`,
      },
    },
    a.verification
      ? h(
          'div',
          { className: 'card-label', attrs: { 'data-testid': 'verification-label' } },
          icon('beaker'),
          ' Verification: a read-only tool the verifier calls',
        )
      : null,
    h('div', { className: 'card-title', attrs: { 'data-testid': 'mcp-tool' } }, icon('plug'), ' MCP ', h('code', {}, `${a.server}/${a.tool}`)),
    confinementRow(a),
    h('div', { className: 'field-label' }, 'Arguments'),
    h('pre', { className: 'mcp-arguments', attrs: { 'data-testid': 'mcp-arguments' } }, a.arguments),
    a.stepId ? h('div', { className: 'card-step' }, icon('list-tree'), ` Step ${a.stepId}`, a.stepTitle ? h('span', {}, ` · ${a.stepTitle}`) : null) : null,
    a.stepWhy ? h('div', { className: 'muted step-why', attrs: { 'data-testid': 'step-why' } }, a.stepWhy) : null,
    a.why ? h('div', { className: 'why', attrs: { title: 'In the executor’s words' } }, `“${a.why}”`) : null,
    reasonBox(ctx, a.requestId),
    h(
      'div',
      { className: 'row' },
      button('Call', guarded(approve), { icon: 'play', testId: 'approve-action', focusKey: `approve:${a.requestId}` }),
      button(
        'Skip',
        guarded(() => reject(ctx, a.requestId)),
        { secondary: true, icon: 'debug-step-over', testId: 'reject-action' },
      ),
    ),
    h('div', { className: 'row card-footer' }, remember),
    count !== undefined ? ignoredNote() : null,
  );
}
