/**
 * The stable prefix of every request: tools, then the system prompt, then the mission block (goal,
 * constraints, workspace summary). All three are built from mission-level data only — never from the step
 * — so the prefix is byte-identical across a mission's calls of the same role, and a `cache_control`
 * breakpoint after the tools and after the mission block lets every call after the first read it.
 */
import type { TextBlockParam, ToolUnion } from '../model/messages';

export function cachedTools(tools: readonly ToolUnion[]): ToolUnion[] {
  if (tools.length === 0) return [];
  const out = tools.map((t) => ({ ...t }));
  const last = out.length - 1;
  out[last] = { ...out[last]!, cache_control: { type: 'ephemeral' } } as ToolUnion;
  return out;
}

export function cachedSystem(prompt: string, mission: string): TextBlockParam[] {
  return [
    { type: 'text', text: prompt },
    { type: 'text', text: mission, cache_control: { type: 'ephemeral' } },
  ];
}

/** The mission block shared by executors and the verifier: nothing step-specific may go in here. */
export function missionBlock(goal: string, constraints: readonly string[], workspaceSummary?: string): string {
  const lines = [`# Mission`, `Goal: ${goal}`, '', `## User constraints (binding on every step)`];
  lines.push(...(constraints.length ? constraints.map((c) => `- ${c}`) : ['- (none)']));
  if (workspaceSummary !== undefined) lines.push('', '## Workspace', workspaceSummary);
  return lines.join('\n');
}
