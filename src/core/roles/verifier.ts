/**
 * The verifier's model review: one criterion, read-only tools, a structured `report_verdict`. It is never
 * given the text editor or bash, so it has no way to "fix" what it reviews; deterministic evidence checks
 * never reach it (the engine runs those). Any failure to reach a verdict is a failed check, never a pass.
 */
import type { MessageParam, ToolResultBlockParam, ToolUseBlock } from '../model/messages';
import type { Handoff } from '../contracts/handoff';
import { modelFor } from '../model/modelSettings';
import type { CheckOutcome, StepResult } from '../contracts/results';
import type { ReadOnlyTools, RoleContext, VerifierRole } from '../ports';
import { cachedSystem, cachedTools, missionBlock } from './cachePrefix';
import { capTokens } from './contextBudget';
import { assistantParams } from './conversation';
import { describeCheck } from '../plan/describe';
import { callModel } from './modelCall';
import { promptFor } from './prompts/registry';
import type { RoleDeps } from './roleDeps';
import { ReportVerdictInput, VERIFIER_TOOLS } from './toolDefs';
import { dispatchReadOnly, errorResult } from './toolDispatch';
import { dispatchMcp, isMcpName, mcpToolDefs } from './mcpTools';

export function renderReview(handoff: Handoff, result: StepResult, criterion: string, tokenCap: number): string {
  const s = handoff.step;
  return [
    `# Review of step ${s.id}: ${s.title}`,
    '',
    '## Criterion',
    criterion,
    '',
    '## What the step had to do',
    capTokens(s.instructions || s.title, Math.floor(tokenCap / 4)),
    `Expected output: ${s.expectedOutput || '(unspecified)'}`,
    `Other checks (run separately, deterministically): ${
      s.evidence.checks
        .filter((c) => c.kind !== 'review')
        .map(describeCheck)
        .join('; ') || 'none'
    }`,
    '',
    `## The executor's report (a claim, not evidence): ${result.status}`,
    capTokens(result.output, Math.floor(tokenCap / 4)),
    result.observation ? `Observation: ${result.observation}` : '',
    '',
    '## Evidence offered',
    ...(result.evidence.length ? result.evidence.map((e) => `- ${e.description}${e.toolCallId ? ` [tool_call_id: ${e.toolCallId}]` : ''}`) : ['- (none)']),
    '',
    '## Files changed',
    ...(result.sideEffects.files.length ? result.sideEffects.files.map((f) => `- ${f.path} (${f.change})`) : ['- (none)']),
    '',
    `All tool calls of the step: ${result.toolCallIds.map((id) => `[tool_call_id: ${id}]`).join(' ') || '(none)'}`,
  ]
    .filter((l) => l !== '')
    .join('\n');
}

export function createVerifier(deps: RoleDeps): VerifierRole {
  return {
    async review(handoff, result, criterion, tools: ReadOnlyTools, ctx: RoleContext): Promise<CheckOutcome> {
      const check = `review: ${criterion}`;
      const prompt = promptFor('verifier', deps.settings.verifier.promptVersion);
      if (!prompt.ok) return { check, passed: false, detail: `review could not run: ${prompt.error}` };
      const m = modelFor(deps.settings, 'verifier');
      const base = {
        role: 'verifier' as const,
        provider: m.provider,
        model: m.model,
        system: cachedSystem(prompt.value.text, missionBlock(handoff.goal, handoff.constraints)),
        // Only read-only MCP tools the step was granted (mcpCall.ts offers the verifier no other).
        tools: cachedTools([...VERIFIER_TOOLS, ...mcpToolDefs(tools.mcp)]),
        maxTokens: m.maxTokens,
        ...(m.temperature !== undefined ? { temperature: m.temperature } : {}),
        ...(m.effort ? { effort: m.effort } : {}),
      };
      const messages: MessageParam[] = [
        { role: 'user', content: [{ type: 'text', text: renderReview(handoff, result, criterion, deps.settings.stepContextTokenCap) }] },
      ];
      let nudged = false;
      const maxTurns = deps.settings.maxLookupTurns + 2;
      for (let turn = 1; turn <= maxTurns; turn++) {
        const out = await callModel({
          client: deps.client,
          request: { ...base, messages },
          ctx,
          promptVersion: `verifier.${prompt.value.version}`,
          prices: deps.settings.prices,
        });
        if (!out.ok) return { check, passed: false, detail: `review could not run: ${out.error.message}`, ...(out.error.cause ? { failure: out.error } : {}) };
        messages.push({ role: 'assistant', content: assistantParams(out.value.content) });
        const uses = out.value.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
        const verdict = uses.find((u) => u.name === 'report_verdict');
        if (verdict) {
          const v = ReportVerdictInput.safeParse(verdict.input);
          if (v.success) return { check, passed: v.data.passed, detail: v.data.detail, ...(v.data.tool_call_id ? { toolCallId: v.data.tool_call_id } : {}) };
        }
        if (uses.length === 0) {
          if (nudged && turn === 2 && m.provider !== 'anthropic') {
            const message = `The reviewer model ${m.model} (${m.provider}) answered in prose twice instead of calling report_verdict; it does not seem to support tool calling.`;
            return {
              check,
              passed: false,
              detail: `review could not run: ${message}`,
              failure: {
                class: 'invalid_output',
                message,
                recoverable: false,
                suggestion: 'Choose a model with tool (function) calling for the verifier.',
                detail: 'no_tool_calls',
                cause: 'no_tool_support',
                provider: m.provider,
                partialSideEffects: { files: [], commands: [] },
              },
            };
          }
          if (nudged) break;
          nudged = true;
          messages.push({ role: 'user', content: [{ type: 'text', text: 'Give your verdict now with report_verdict.' }] });
          continue;
        }
        const results: ToolResultBlockParam[] = [];
        for (const use of uses) {
          if (use.name === 'report_verdict') {
            const v = ReportVerdictInput.safeParse(use.input);
            results.push(
              errorResult(use.id, `invalid report_verdict input: ${v.success ? '' : v.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
                .block,
            );
            continue;
          }
          if (isMcpName(use.name)) {
            results.push((await dispatchMcp(use, tools.mcp)).block);
            continue;
          }
          results.push(((await dispatchReadOnly(use, tools)) ?? errorResult(use.id, `unknown tool "${use.name}": the verifier can only read`)).block);
        }
        messages.push({ role: 'user', content: results });
      }
      return { check, passed: false, detail: 'The reviewer gave no verdict; a review without a verdict does not pass.' };
    },
  };
}
