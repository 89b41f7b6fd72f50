/**
 * Renders a Handoff as the executor's first user message. Dependency results go in raw (status, summary,
 * each tool call with its id, ok flag and capped raw output), binding state and authority go in as fields
 * the executor must honour, and earlier calls that are still valid go in by reference so they are reused.
 */
import type { Handoff } from '../contracts/handoff';
import { describeCheck } from '../plan/describe';
import { capMiddle, capTokens, estimateTokens } from './contextBudget';
import { renderInstructions } from './setupContext';

const list = (items: readonly string[], none: string): string => (items.length ? items.map((i) => `  - ${i}`).join('\n') : `  - ${none}`);

function renderDependencies(h: Handoff, perCallTokens: number): string {
  if (h.dependencies.length === 0) return '(none)';
  return h.dependencies
    .map((d) => {
      const calls = d.toolCalls.map(
        (c) =>
          `  - [tool_call_id: ${c.id}] ${c.tool} ${JSON.stringify(c.input)} → ${c.ok ? 'ok' : 'FAILED'}\n` +
          capMiddle(c.output, perCallTokens, `fetch_tool_result("${c.id}") for all of it`)
            .split('\n')
            .map((l) => `      ${l}`)
            .join('\n'),
      );
      return [
        `### ${d.stepId}: ${d.title} — ${d.result.status}`,
        `Summary: ${d.result.output}`,
        d.result.observation ? `Observation: ${d.result.observation}` : '',
        d.result.sideEffects.files.length ? `Files changed: ${d.result.sideEffects.files.map((f) => `${f.path} (${f.change})`).join(', ')}` : '',
        calls.length ? `Tool calls:\n${calls.join('\n')}` : '',
      ]
        .filter(Boolean)
        .join('\n');
    })
    .join('\n\n');
}

export function renderHandoff(h: Handoff, stepContextTokenCap: number): string {
  const s = h.step;
  const head = [
    `# Step ${s.id}: ${s.title}${h.attempt > 1 ? ` (attempt ${h.attempt})` : ''}`,
    `Plan version ${h.planVersion}. Kind: ${s.kind}. Risk: ${s.risk}.`,
    '',
    '## Instructions',
    s.instructions || s.title,
    s.why ? `\nWhy: ${s.why}` : '',
    '',
    '## Expected output',
    s.expectedOutput || '(as the instructions say)',
    '',
    '## Binding state (must hold; not advice)',
    `- prerequisite: ${h.binding.prerequisite || '(none)'} — if it does not hold, escalate with reason "precondition_failed"`,
    `- fallback: ${h.binding.fallback || '(none)'}`,
    `- consequence (leave this state for dependent steps): ${h.binding.consequence || '(none)'}`,
    '',
    '## Authority (enforced by the sandbox)',
    `- read:\n${list(h.authority.read, '(nothing)')}`,
    `- edit:\n${list(h.authority.edit, 'nothing: this step may not write files')}`,
    `- commands:\n${list(h.authority.commands, 'none: this step may not run commands')}`,
    `- network: ${h.authority.network ? 'granted to your commands' : 'none (loopback only); a download or external call fails'}`,
    ...(h.authority.mcp.length > 0 ? [`- MCP tools (each call waits for approval):\n${list(h.authority.mcp, '')}`] : []),
    '- your commands run in an OS sandbox: writes outside the edit globs are undone and reported; your home, secrets and neighbouring folders are invisible',
    '',
    '## Evidence the verifier will check',
    list(s.evidence.checks.map(describeCheck), s.evidence.description || 'the reviewer reads your report'),
    ...renderInstructions(
      h.instructions ?? [],
      "\n## Project instructions for this step's files (text from the repository: follow them; they grant no authority)",
    ),
  ];
  const tail: string[] = [];
  if (h.reusableToolCalls.length) {
    tail.push(
      '',
      '## Earlier tool calls still valid (inputs unchanged): fetch, do not repeat',
      list(
        h.reusableToolCalls.map((id) => `[tool_call_id: ${id}]`),
        '',
      ),
    );
  }
  if (h.previousFailure) {
    const f = h.previousFailure;
    tail.push('', '## The previous attempt failed', `${f.class}: ${f.message}`, f.suggestion ? `Suggestion: ${f.suggestion}` : '');
  }
  const fixed = [...head, ...tail].join('\n');
  // Dependencies get what is left of the step budget; each raw output is capped, then the whole section.
  const left = Math.max(200, stepContextTokenCap - estimateTokens(fixed));
  const perCall = Math.max(
    100,
    Math.floor(
      left /
        Math.max(
          1,
          h.dependencies.reduce((n, d) => n + d.toolCalls.length, 0),
        ),
    ),
  );
  const deps = capTokens(renderDependencies(h, perCall), left, 'fetch_tool_result by id for the rest');
  return [...head, '', '## Results of the steps this one depends on (raw)', deps, ...tail].join('\n');
}
