/**
 * What the planner and replanner read, under a context budget: prior step summaries capped (default 200
 * tokens each), the trigger's evidence capped, raw results only by tool_call_id reference.
 */
import type { ModelSettings } from '../model/modelSettings';
import type { PlanRequest, ReplanRequest } from '../ports';
import { capMiddle, capTokens } from './contextBudget';
import { renderSetup } from './setupContext';

export function renderPlanTask(request: PlanRequest): string {
  const head = [
    '# Task',
    request.task,
    '',
    "Write the plan for this task. The workspace summary and the user's constraints are in the system prompt.",
    request.tools ? 'You may look things up with the read-only tools first; keep lookups few.' : '',
  ].filter(Boolean);
  return [...head, ...withGap(renderSetup(request))].join('\n');
}

/** A section after a blank line, or nothing. */
function withGap(lines: string[]): string[] {
  return lines.length > 0 ? ['', ...lines] : [];
}

export function renderReplanRequest(r: ReplanRequest, settings: ModelSettings): string {
  const finished = r.finished.length
    ? r.finished
        .map(
          (f) =>
            `- ${f.stepId} (${f.title}): ${capTokens(f.summary, settings.summaryTokenCap)}${f.toolCallIds.length ? ` [tool_call_ids: ${f.toolCallIds.join(', ')}]` : ''}`,
        )
        .join('\n')
    : '- (none)';
  return [
    `# Replan (${r.mode === 'step' ? 'step mode: change only the failed step and its dependents' : 'rest mode: rewrite every unfinished step'})`,
    '',
    '## Task',
    r.task,
    '',
    `## Trigger: ${r.trigger.kind}${r.trigger.stepId ? ` at step ${r.trigger.stepId}` : ''}`,
    r.trigger.message,
    'Evidence:',
    capMiddle(r.trigger.evidence, settings.stepContextTokenCap, 'fetch_tool_result by id for the rest'),
    '',
    '## Finished steps (keep them unchanged, same ids)',
    finished,
    '',
    '## History',
    ...r.history.map((h) => `- v${h.version}: ${h.reason}`),
    ...withGap(renderSetup(r)),
    '',
    `## Current plan (version ${r.current.version})`,
    JSON.stringify(r.current),
  ].join('\n');
}
