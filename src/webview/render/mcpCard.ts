/**
 * The approval card of an MCP tool call: which server and tool, the arguments it will get (as sent), the
 * server's read-only hint, and what confines the server — its step's OS sandbox (with or without network)
 * or, said plainly, nothing of ours: a remote server, one VS Code runs, or a stdio server with the sandbox
 * off. "Always allow this tool in this mission" remembers `server/tool` as a rule (listed, revocable).
 */
import { h, icon } from '../dom';
import type { ApprovalView } from '../protocol';
import type { CardKind } from './approvalCards';

type McpApproval = Extract<ApprovalView, { kind: 'mcp' }>;

const CONFINEMENT: Record<McpApproval['confinement'], { label: string; title: string; confined: boolean }> = {
  sandboxed: {
    label: "server in the step's sandbox",
    title:
      "The server runs inside this step's OS sandbox: it writes nothing in the workspace and cannot see your home; secret files are hidden from it, but not what git tracks (git's history holds those)",
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

/** The MCP tool call's entry in the card kinds (./approvalCards.ts): the card itself is the shared one. */
export const MCP_CARD: CardKind<McpApproval> = {
  heading: (a) => h('div', { className: 'card-title', attrs: { 'data-testid': 'mcp-tool' } }, icon('plug'), ' MCP ', h('code', {}, `${a.server}/${a.tool}`)),
  details: (a) => [
    confinementRow(a),
    h('div', { className: 'field-label' }, 'Arguments'),
    h('pre', { className: 'mcp-arguments', attrs: { 'data-testid': 'mcp-arguments' } }, a.arguments),
  ],
  describe: (a) => `MCP tool call ${a.server}/${a.tool}${a.stepId ? `, step ${a.stepId}` : ''}`,
  approve: { label: 'Call', icon: 'play' },
  reject: { label: 'Skip', icon: 'debug-step-over' },
  remember: () => 'Always allow this tool in this mission',
};
