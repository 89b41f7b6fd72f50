/**
 * How this window's commands run: the `planExecute.sandbox` setting against what the machine offers
 * (bubblewrap, Seatbelt, none). The sidebar shows it on the plan tree; the engine gets the same answer
 * from the Terminal port before each command.
 */
import type { SandboxMode } from '../core/contracts/sandbox';
import { detectSandbox } from '../node/sandbox/detect';
import type { SandboxStatusView } from '../webview/protocol';

export function sandboxStatus(mode: SandboxMode): SandboxStatusView {
  if (mode === 'off') return { mode, state: 'off', detail: 'The sandbox is off (planExecute.sandbox): commands run with everything you can do.' };
  const support = detectSandbox();
  if (support.available) return { mode, state: 'sandboxed', detail: `Commands run in ${support.detail}, cut to each step's authority.` };
  if (mode === 'prefer')
    return { mode, state: 'unsandboxed', detail: `No OS sandbox here (${support.reason}): every command asks before it runs unsandboxed. ${support.remedy}` };
  return { mode, state: 'refused', detail: `No OS sandbox here (${support.reason}): commands are refused. ${support.remedy}` };
}
