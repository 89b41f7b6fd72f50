/**
 * What each kind of approval card shows and offers, one entry per kind of request (a proposed edit, a
 * command). The card itself — its step line, the executor's words, the reason box, the decision buttons,
 * the focus model — is the same for every kind (./approvals.ts); a new kind of request (an MCP tool call)
 * adds one entry here, and the compiler insists on it: `CARD_KINDS` is keyed by every `ApprovalView` kind.
 */
import { button, h, icon } from '../dom';
import type { RenderContext } from '../context';
import type { ApprovalView } from '../protocol';
import { MCP_CARD } from './mcpCard';

export interface CardKind<A extends ApprovalView> {
  /** The title line: what is asked (the edit and its size, the command line). */
  heading(a: A): HTMLElement;
  /** Rows under the title that belong to this kind (where a command runs, its sandbox and network). */
  details(a: A): (HTMLElement | null)[];
  /** The request in a few words, for the card's label and what the focus model announces. */
  describe(a: A): string;
  /** "Approve" / "Run", and "Reject" / "Skip" with their codicons. */
  approve: { label: string; icon: string };
  reject: { label: string; icon: string };
  /** The "always allow" checkbox's label, or null when this request can never become a rule. */
  remember(a: A): string | null;
  /** A button that shows the change before deciding (Review diff), if the kind has one. */
  review?(ctx: RenderContext, a: A): HTMLElement;
}

type Kinds = { [K in ApprovalView['kind']]: CardKind<Extract<ApprovalView, { kind: K }>> };

function sizeLabel(size: { added: number; removed: number }): HTMLElement {
  return h(
    'span',
    { className: 'change-size', attrs: { 'aria-label': `${size.added} lines added, ${size.removed} removed`, 'data-testid': 'change-size' } },
    h('span', { className: 'added' }, `+${size.added}`),
    ' ',
    h('span', { className: 'removed' }, `−${size.removed}`),
  );
}

const editVerb = (a: Extract<ApprovalView, { kind: 'write' }>): string => (a.change === 'created' ? 'Create' : a.change === 'deleted' ? 'Delete' : 'Edit');

/** How a command will run — sandboxed, or not and why — and whether it may use the network. */
function confinementRow(a: Extract<ApprovalView, { kind: 'command' }>): HTMLElement | null {
  if (!a.confinement) return null;
  const confined = a.confinement === 'sandboxed';
  const title = confined
    ? "Runs in the OS sandbox, cut to the step's authority"
    : a.confinement === 'unsandboxed'
      ? 'There is no OS sandbox here: this command can do anything you can'
      : 'The sandbox is off (planExecute.sandbox)';
  return h(
    'div',
    { className: 'row', attrs: { 'data-testid': 'command-confinement' } },
    h(
      'span',
      { className: confined ? 'badge badge-sandboxed' : 'badge badge-unsandboxed', attrs: { title } },
      icon(confined ? 'shield' : 'warning'),
      confined ? ' sandboxed' : a.confinement === 'unsandboxed' ? ' UNSANDBOXED' : ' sandbox off',
    ),
    networkBadge(a),
    stagingBadge(a),
  );
}

/** Where the command's writes go: a staging layer judged before anything reaches the workspace, or the workspace. */
function stagingBadge(a: Extract<ApprovalView, { kind: 'command' }>): HTMLElement | null {
  if (a.staged === undefined || a.confinement !== 'sandboxed') return null;
  const title = a.staged
    ? "Its writes go to a private layer; only changes within the step's edit globs reach the workspace, after the command ends"
    : "No staging layer here: it writes the workspace, and what lies outside the step's globs is undone afterwards";
  return h(
    'span',
    { className: 'badge', attrs: { title, 'data-testid': 'command-staging' } },
    icon(a.staged ? 'layers' : 'history'),
    a.staged ? ' writes staged' : ' writes direct',
  );
}

/** The network grant, and plainly whether it also reaches this machine's own services on loopback. */
function networkBadge(a: Extract<ApprovalView, { kind: 'command' }>): HTMLElement {
  if (!a.network) {
    return h('span', { className: 'badge', attrs: { title: 'No network beyond loopback inside the sandbox' } }, icon('circle-slash'), ' no network');
  }
  const title = a.hostLoopback
    ? "The step may use the network — the host's own, so also this machine's services on 127.0.0.1 (debugger ports, databases, code-server). " +
      'Install slirp4netns to keep those closed.'
    : "The step may use the network — a network of its own: this machine's loopback services stay closed";
  const words = a.hostLoopback ? ' network, host loopback included' : ' network';
  return h('span', { className: 'badge badge-network', attrs: { title, 'data-testid': 'command-network' } }, icon('globe'), words);
}

const CARD_KINDS: Kinds = {
  write: {
    heading: (a) =>
      h(
        'div',
        { className: 'card-title' },
        icon(a.change === 'deleted' ? 'trash' : 'edit'),
        ` ${editVerb(a)} `,
        h('code', { className: 'path' }, a.path),
        a.size ? ' ' : null,
        a.size ? sizeLabel(a.size) : null,
      ),
    details: () => [],
    describe: (a) => `${editVerb(a)} ${a.path}${a.size ? ` (+${a.size.added} −${a.size.removed})` : ''}${a.stepId ? `, step ${a.stepId}` : ''}`,
    approve: { label: 'Approve', icon: 'check' },
    reject: { label: 'Reject', icon: 'close' },
    remember: () => 'Always allow edits to this file (this mission)',
    review: (ctx, a) =>
      button('Review diff', () => ctx.post({ type: 'openDiff', target: { kind: 'approval', requestId: a.requestId }, focus: false }), {
        secondary: true,
        icon: 'diff',
        testId: 'review-diff',
        title: 'Open the proposed change in the diff editor, at its first change',
      }),
  },
  command: {
    heading: (a) => h('div', { className: 'card-title' }, icon('terminal'), ' ', h('code', { className: 'command-line' }, a.command)),
    details: (a) => [
      h(
        'div',
        { className: 'muted cwd', attrs: { 'data-testid': 'command-cwd', title: a.cwd } },
        icon('folder'),
        ' in ',
        h('span', { className: 'path' }, a.cwd),
      ),
      a.program
        ? h(
            'div',
            { className: 'muted program', attrs: { 'data-testid': 'command-program', title: 'The program that runs (found on PATH outside the workspace)' } },
            icon('run'),
            ' runs ',
            h('span', { className: 'path' }, a.program),
          )
        : null,
      confinementRow(a),
    ],
    describe: (a) => `${a.verification ? 'Verification run' : 'Command'} ${a.command}${a.stepId ? `, step ${a.stepId}` : ''}`,
    approve: { label: 'Run', icon: 'play' },
    reject: { label: 'Skip', icon: 'debug-step-over' },
    // An unsandboxed run is never remembered as a rule: it asks every time.
    remember: (a) => (a.confinement === 'unsandboxed' ? null : 'Always allow this command (this mission)'),
  },
  mcp: MCP_CARD,
};

export function cardKind<A extends ApprovalView>(a: A): CardKind<A> {
  return CARD_KINDS[a.kind] as unknown as CardKind<A>;
}
