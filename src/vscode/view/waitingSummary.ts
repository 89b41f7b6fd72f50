/** What waits for the user in a snapshot, counted and said in words. Pure (no vscode). */
import type { SurfaceState } from '../../webview/protocol';

export interface Waiting {
  count: number;
  /** One sentence: what waits ("2 edits and 1 command wait for your approval"). */
  summary: string;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** What waits for the user in a snapshot. Pure. */
export function waitingIn(state: { approvals: readonly SurfaceState['approvals'][number][]; planAwaitingApproval: number | null }): Waiting {
  const edits = state.approvals.filter((a) => a.kind === 'write').length;
  const commands = state.approvals.length - edits;
  const parts: string[] = [];
  if (state.planAwaitingApproval !== null) parts.push(`plan v${state.planAwaitingApproval}`);
  if (edits > 0) parts.push(plural(edits, 'edit', 'edits'));
  if (commands > 0) parts.push(plural(commands, 'command', 'commands'));
  const count = state.approvals.length + (state.planAwaitingApproval !== null ? 1 : 0);
  if (count === 0) return { count, summary: 'Nothing waits for you.' };
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0];
  return { count, summary: `${list} ${count === 1 ? 'waits' : 'wait'} for your approval` };
}
