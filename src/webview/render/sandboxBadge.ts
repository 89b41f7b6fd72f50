/** The mark a step that runs commands carries on both plan trees: whether its commands run in the OS sandbox here. */
import { h, icon } from '../dom';
import type { SandboxStatusView } from '../protocol';

/** `labelled`: the short word beside the icon (the board); otherwise the icon alone, its words in the label (the sidebar). */
export function sandboxBadge(sandbox: SandboxStatusView, labelled: boolean): HTMLElement {
  const confined = sandbox.state === 'sandboxed';
  const short = confined ? 'sandboxed' : sandbox.state === 'refused' ? 'no sandbox' : sandbox.state === 'off' ? 'sandbox off' : 'unsandboxed';
  const words = confined
    ? 'its commands run in the OS sandbox'
    : sandbox.state === 'refused'
      ? 'its commands will not run: no OS sandbox here'
      : `its commands run UNSANDBOXED (${sandbox.state === 'off' ? 'the sandbox is off' : 'no OS sandbox here'})`;
  const label = sandbox.detail ? `${words} — ${sandbox.detail}` : words;
  return h(
    'span',
    {
      className: confined ? 'badge badge-sandboxed' : 'badge badge-unsandboxed',
      attrs: { title: label, 'aria-label': label, role: 'img', 'data-testid': 'sandbox-badge' },
    },
    icon(confined ? 'shield' : 'warning'),
    labelled ? ` ${short}` : null,
  );
}
