/**
 * Mirrors trace events into the "Plan & Execute" LogOutputChannel, one line each, with the API key
 * redacted in case any text ever carried it. Tool outputs are summarised, not dumped.
 */
import type { Log } from './log';
import type { TraceEvent } from '../core/contracts/traceEvents';
import { describeFiles } from '../core/mission/revert';
import { describeHookRun, describeHookSet } from '../core/hooks/describe';
import { describeCost, describeCostSummary } from '../core/plan/describe';

const clip = (text: string, max = 300): string => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);

/** A call's cost only when it is a real figure: a model on this machine or one with no known price has none to show. */
function costWords(e: Extract<TraceEvent, { type: 'model_call' }>): string {
  if (e.pricing === 'local') return 'local, no cost';
  if (e.pricing === 'unknown' || (e.pricing === undefined && e.costUsd === 0)) return 'price unknown';
  return `$${e.costUsd.toFixed(4)}`;
}

export function describeEvent(e: TraceEvent): string {
  switch (e.type) {
    case 'mission_started':
      return `mission started: ${clip(e.task)}`;
    case 'plan_version':
      return `plan v${e.plan.version} by ${e.author} (${e.plan.steps.length} steps): ${e.plan.reason}`;
    case 'plan_approved':
      return `plan v${e.version} approved by ${e.by}`;
    case 'plan_estimate':
      return `plan v${e.version} estimate: ${describeCost(e.estimate)}`;
    case 'cost_summary':
      // The same words as the report's: local models and unknown prices are never shown as dollars.
      return describeCostSummary(e.summary)
        .map((line) => line.trim())
        .join('; ');
    case 'step_status':
      return `step ${e.stepId} → ${e.status} (attempt ${e.attempt})${e.reason ? `: ${clip(e.reason)}` : ''}`;
    case 'instructions':
      return `instructions: ${e.set.files.map((f) => `${f.path} (${f.size} B${f.excluded ? ', left out' : f.unusable ? ', not used' : ''})`).join(', ') || 'none found'}`;
    case 'mcp_catalogue':
      return `MCP servers: ${e.catalogue.servers.map((s) => (s.status === 'ok' ? `${s.name} (${s.confinement}, ${s.tools.length} tools)` : `${s.name} NOT USABLE: ${clip(s.reason ?? '')}`)).join('; ') || 'none'}`;
    case 'hooks':
      return `hooks: ${describeHookSet(e.set).join('; ') || 'none'}`;
    case 'hook_run':
      return describeHookRun(e.run);
    case 'tracked_secrets':
      return `tracked secrets ${e.allowed ? `allowed by the ${e.by}` : 'refused'}: ${e.message}`;
    case 'mcp_call':
      return `MCP ${e.stepId} ${e.server}/${e.tool} (${e.confinement}): ${e.outcome.ok ? (e.outcome.isError ? 'the tool reported an error' : 'ok') : `${e.outcome.fault}: ${clip(e.outcome.message)}`}, ${e.durationMs} ms`;
    case 'handoff':
      return `handoff to ${e.handoff.step.id} (attempt ${e.handoff.attempt}, ${e.handoff.dependencies.length} dependencies)`;
    case 'model_call':
      return (
        `model ${e.role}${e.stepId ? ` ${e.stepId}` : ''}: ${e.model}, ${e.usage.inputTokens} in / ${e.usage.outputTokens} out, ${costWords(e)}, ` +
        `${e.durationMs} ms`
      );
    case 'model_wait':
      return `model ${e.role}${e.stepId ? ` ${e.stepId}` : ''} waiting ${Math.round(e.waitMs / 1000)} s (${e.reason}, attempt ${e.attempt}): ${clip(e.message)}`;
    case 'tool_call':
      return `tool ${e.record.tool} (${e.record.stepId}) ${e.record.ok ? 'ok' : 'failed'}: ${clip(e.record.output, 160)}`;
    case 'policy_denied':
      return `policy denied ${e.action} (${e.rule}): ${e.reason}`;
    case 'command_sandbox':
      return `command ${e.stepId ?? ''} \`${clip(e.command, 120)}\`${e.program ? ` (program ${e.program})` : ''}: ${e.confinement === 'sandboxed' ? `sandboxed (${e.sandbox})` : `${e.confinement.toUpperCase()}${e.reason ? ` — ${e.reason}` : ''}`}, network ${e.network ? `granted${e.hostLoopback ? " (the host's, loopback services included)" : ''}` : 'off'}${e.rolledBack.length ? `; rolled back ${e.rolledBack.join(', ')}` : ''}${e.unrestored.length ? `; NOT restored ${e.unrestored.join(', ')}` : ''}`;
    case 'approval_requested':
      return `approval requested (${e.kind}) ${e.requestId}: ${clip(e.summary)}`;
    case 'approval_decided':
      return `approval ${e.requestId}: ${e.decision.decision}${e.decision.decision === 'rejected' ? ` (${e.decision.reason})` : ` by ${e.decision.by}`}`;
    case 'step_result':
      return `result ${e.result.stepId}: ${e.result.status}: ${clip(e.result.output)}`;
    case 'verification':
      return `verification ${e.verification.stepId}: ${e.verification.passed ? 'passed' : 'failed'} (${e.verification.checks.length} checks)`;
    case 'replan':
      return `replan (${e.mode}) from v${e.fromVersion} → ${e.toVersion ?? 'none'}: ${clip(e.trigger)}${e.refusedBecause?.length ? `; refused: ${clip(e.refusedBecause.join('; '))}` : ''}`;
    case 'revert':
      return `reverted ${e.stepIds.join(', ')}: ${describeFiles(e.files) || 'no file needed restoring'}${e.overwrote.length ? `; overwrote later changes to ${e.overwrote.join(', ')}` : ''}`;
    case 'mission_continued':
      return `mission continued (${e.mode}); re-opened: ${e.reopened.join(', ') || 'none'}${e.reset.length ? `; budgets reset: ${e.reset.join(', ')}` : ''}`;
    case 'budget':
      return `budget ${e.kind}: ${e.used}/${e.limit}${e.exceeded ? ' EXCEEDED' : ''}`;
    case 'mission_phase':
      return `phase → ${e.phase}${e.reason ? `: ${e.reason}` : ''}`;
    case 'mission_finished':
      return `mission ${e.outcome}: ${clip(e.summary)}`;
    case 'log':
      return e.message;
  }
}

export function mirrorToLog(log: Log, event: TraceEvent, redact: (text: string) => string): void {
  const line = redact(`[${event.missionId}#${event.seq}] ${describeEvent(event)}`);
  if (event.type === 'log') {
    log[event.level](line);
  } else if (
    event.type === 'policy_denied' ||
    (event.type === 'command_sandbox' && (event.confinement !== 'sandboxed' || event.rolledBack.length > 0 || event.unrestored.length > 0)) ||
    (event.type === 'mission_finished' && event.outcome !== 'succeeded')
  ) {
    log.warn(line);
  } else if (event.type === 'tool_call' || event.type === 'handoff') {
    log.debug(line);
  } else {
    log.info(line);
  }
}
