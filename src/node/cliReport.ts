/**
 * What the CLI prints: one progress line per meaningful trace event (stderr) and the final report
 * (stdout). The exit code is 0 only if every required step of the final plan succeeded.
 */
import type { MissionReport } from '../core/mission/options';
import { describeHookRun } from '../core/hooks/describe';
import type { Plan } from '../core/contracts/plan';
import type { TraceEvent } from '../core/contracts/traceEvents';
import { grantLines } from './cliSetupReport';
import { describeCost, describeCostSummary } from '../core/plan/describe';
import { namedList } from '../core/tools/pathSummary';

export function progressLine(event: TraceEvent): string | undefined {
  switch (event.type) {
    case 'mission_phase':
      return `· ${event.phase}${event.reason ? ` — ${event.reason}` : ''}`;
    case 'plan_version':
      return `· plan v${event.plan.version} by ${event.author}: ${event.plan.steps.length} step(s) — ${event.plan.reason}`;
    case 'plan_approved':
      return `· plan v${event.version} approved by ${event.by}`;
    case 'plan_estimate':
      return `· plan v${event.version} estimate: ${describeCost(event.estimate)} (executor and verifier calls)`;
    case 'step_status':
      return `  ${event.stepId}: ${event.status}${event.attempt > 1 ? ` (attempt ${event.attempt})` : ''}${event.reason ? ` — ${event.reason}` : ''}`;
    case 'tool_call':
      return `    ${event.record.stepId} ${event.record.tool}${event.record.ok ? '' : ' (failed)'}`;
    case 'policy_denied':
      return `    denied: ${event.action} (${event.rule}) — ${event.reason}`;
    case 'command_sandbox': {
      const how =
        event.confinement === 'sandboxed'
          ? `sandboxed (${event.sandbox})`
          : `${event.confinement === 'unsandboxed' ? 'UNSANDBOXED' : 'unsandboxed (sandbox off)'}${event.reason ? ` — ${event.reason}` : ''}`;
      const undone = event.rolledBack.length ? `; rolled back (what the step may not change): ${namedList(event.rolledBack)}` : '';
      const kept = event.unrestored.length ? `; NOT restored: ${namedList(event.unrestored)}` : '';
      const staging =
        event.staging === 'staged'
          ? `, writes staged${event.applied.length ? `; applied: ${namedList(event.applied)}` : ''}${event.kept.length ? `; kept for the step: ${namedList(event.kept)}` : ''}${event.refused.length ? `; NOT applied: ${namedList(event.refused, undefined, '; ')}` : ''}`
          : event.staging === 'direct' && event.confinement === 'sandboxed'
            ? ', writes the workspace directly (no staging here)'
            : '';
      return `    ${event.stepId ?? ''} ran \`${event.command}\`${event.program ? ` (program ${event.program})` : ''} ${how}, network ${event.network ? `granted${event.hostLoopback ? " (the host's: its loopback services too)" : ' (its own)'}` : 'off'}${staging}${undone}${kept}`;
    }
    case 'hook_run':
      return `    ${describeHookRun(event.run)}`;
    case 'mcp_call': {
      const o = event.outcome;
      return `    ${event.stepId} MCP ${event.server}/${event.tool}${event.role === 'verifier' ? ' (verifier)' : ''}: ${o.ok ? (o.isError ? 'the tool reported an error' : 'ok') : `FAILED (${o.fault}): ${o.message}`}`;
    }
    case 'model_call':
      return event.failure ? `    model ${event.role} failed: ${event.failure.message}` : undefined;
    case 'model_wait':
      return `    waiting for the model, ${Math.round(event.waitMs / 1000)} s (${event.reason.replace('_', ' ')})`;
    case 'verification':
      return `  ${event.verification.stepId}: verification ${event.verification.passed ? 'passed' : 'FAILED'}${
        event.verification.passed
          ? ''
          : ` — ${event.verification.checks
              .filter((c) => !c.passed)
              .map((c) => `${c.check}: ${c.detail}`)
              .join('; ')}`
      }`;
    case 'replan':
      return `· replan (${event.mode}) after ${event.trigger}${event.stepId ? ` at ${event.stepId}` : ''}${event.refusedBecause?.length ? ` — refused: ${event.refusedBecause.join('; ')}` : ''}`;
    case 'budget':
      return event.exceeded ? `· budget exceeded: ${event.kind} ${event.used} / ${event.limit}` : undefined;
    case 'log':
      return event.level === 'warn' || event.level === 'error' ? `  ${event.level}: ${event.message}` : undefined;
    case 'tracked_secrets':
      return `· tracked secrets: ${event.message} ${event.allowed ? '— going on: allowed by --allow-tracked-secrets' : '— refused'}`;
    default:
      return undefined;
  }
}

/** Required steps of the final plan that did not succeed (empty means exit 0, given a succeeded outcome). */
function unmetRequired(report: MissionReport, finalPlan: Plan | undefined): string[] {
  if (!finalPlan) return ['(no plan)'];
  const ok = new Set(report.succeeded);
  return finalPlan.steps.filter((s) => s.required && !ok.has(s.id)).map((s) => s.id);
}

export function exitCodeFor(report: MissionReport, finalPlan: Plan | undefined): number {
  return report.outcome === 'succeeded' && unmetRequired(report, finalPlan).length === 0 ? 0 : 1;
}

type RoleCost = { calls: number; costUsd: number; cacheReadTokens: number; inputTokens: number; local?: number; unpriced?: number };

/**
 * The cost of some calls, in words that never borrow another model's price: "$0.0123"; "local — no cost"
 * when every call ran on this machine; "unknown" when no call had a price (a model the price table does not
 * know, such as the demo's scripted one); unpriced calls beside priced ones are named.
 */
function costText(rows: RoleCost[], totalUsd?: number): string {
  const calls = rows.reduce((n, r) => n + r.calls, 0);
  const local = rows.reduce((n, r) => n + (r.local ?? 0), 0);
  const unpriced = rows.reduce((n, r) => n + (r.unpriced ?? 0), 0);
  const usd = `$${(totalUsd ?? rows.reduce((n, r) => n + r.costUsd, 0)).toFixed(4)}`;
  if (calls > 0 && local === calls) return `${usd} (local — no cost)`;
  if (calls > 0 && unpriced + local === calls) return `unknown (${unpriced} call(s) at an unknown price)`;
  return unpriced > 0 ? `${usd} (+ ${unpriced} call(s) at unknown price)` : usd;
}

export function formatReport(report: MissionReport, finalPlan: Plan | undefined, byRole: Record<string, RoleCost> = {}): string {
  const unmet = unmetRequired(report, finalPlan);
  const roles = Object.values(byRole);
  // Without per-role figures (a replayed report), the mission's own total is all there is.
  const cost = roles.length > 0 ? costText(roles, report.usage.costUsd) : `$${report.usage.costUsd.toFixed(4)}`;
  const lines = [
    `Mission ${report.missionId}: ${report.outcome}`,
    report.summary,
    report.failure
      ? `Failure (${report.failure.class}): ${report.failure.message}${report.failure.suggestion ? `\n  → ${report.failure.suggestion}` : ''}`
      : '',
    `Plan version: ${report.planVersion ?? '-'}${report.replans ? `, replans: ${report.replans}` : ''}${report.direct ? ' (direct mode)' : ''}`,
    `Succeeded: ${report.succeeded.join(', ') || '-'}`,
    report.failed.length ? `Failed: ${report.failed.join(', ')}` : '',
    report.interrupted.length ? `Interrupted: ${report.interrupted.join(', ')}` : '',
    report.neverStarted.length ? `Never started: ${report.neverStarted.join(', ')}` : '',
    unmet.length ? `Required steps not done: ${unmet.join(', ')}` : 'Every required step succeeded.',
    ...grantLines(finalPlan),
    `Tokens: ${report.usage.inputTokens} in / ${report.usage.outputTokens} out — cost ${cost}`,
    ...Object.entries(byRole).map(
      ([role, r]) =>
        `  ${role}: ${r.calls} call(s), ${costText([r])}, ${r.inputTokens ? Math.round((100 * r.cacheReadTokens) / r.inputTokens) : 0}% of input read from cache`,
    ),
    ...(report.cost ? describeCostSummary(report.cost) : []),
  ];
  return lines.filter(Boolean).join('\n');
}
