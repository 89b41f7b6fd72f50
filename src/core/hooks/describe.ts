/** One line per hook run and per hook set, for the CLI's progress, the log and the board (pure). */
import type { HookRunRecord, HookSet } from '../contracts/hooks';

const clip = (text: string, max = 300): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

const DECISION: Record<HookRunRecord['decision'], string> = {
  none: 'ok',
  allow: 'allowed',
  ask: 'asks the user',
  deny: 'DENIED',
  block: 'BLOCKED',
};

export function describeHookRun(run: Omit<HookRunRecord, 'stepId'> & { stepId?: string | null }): string {
  const where = run.stepId ? ` [${run.stepId}]` : '';
  const about = run.tool ? ` on ${run.tool}` : '';
  const exit = run.timedOut ? 'timed out' : run.exit === null ? 'did not run' : `exit ${run.exit}`;
  const parts = [
    `hook ${run.event}${where}${about}: \`${clip(run.command, 120)}\` (${run.source}) ${DECISION[run.decision]} — ${exit}, ${run.durationMs} ms`,
    run.reason ? `: ${clip(run.reason)}` : '',
    run.warning && run.warning !== run.reason ? ` [warning: ${clip(run.warning)}]` : '',
    run.writes.length > 0 ? ` [its writes refused: ${clip(run.writes.join(', '))}]` : '',
  ];
  return parts.join('');
}

/** The hooks a mission runs and the project hooks it skipped, one line each. */
export function describeHookSet(set: HookSet): string[] {
  return [
    ...set.hooks.map(
      (h) =>
        `${h.event}${h.matcher && h.matcher !== '*' ? ` (${h.matcher})` : ''}: \`${h.command}\` — ${h.source}${h.origin === 'user' ? ', yours, unconfined' : ', in the sandbox'}`,
    ),
    ...set.skipped.map((h) => `SKIPPED ${h.event}: \`${h.command}\` — ${h.source} (a project hook nobody trusted)`),
    ...set.notes.map((n) => `note: ${n}`),
  ];
}
