/**
 * One wording for an evidence check, wherever a person or a model reads it: the executor's handoff, the
 * verifier's prompt, the names of verification results in the trace, and the sidebar's step cards.
 */
import type { Authority, ConstraintCheck, EvidenceCheck } from '../contracts/plan';
import type { CostSummary, PlanEstimate } from '../contracts/estimate';

export function describeCheck(check: EvidenceCheck): string {
  switch (check.kind) {
    case 'command':
      return `command \`${check.command}\` exits ${check.expectExitCode}${check.expectOutputIncludes ? ` and prints "${check.expectOutputIncludes}"` : ''}`;
    case 'files_exist':
      return `files exist: ${check.paths.join(', ')}`;
    case 'file_contains':
      return `${check.path} contains "${check.text}"`;
    case 'review':
      return `review: ${check.criterion}`;
  }
}

/** A step's MCP grants in words ("may call MCP tools db/query, docs/* (each call asks)"), or '' for none. */
export function describeGrants(authority: Pick<Authority, 'mcp'>): string {
  return authority.mcp.length > 0 ? `may call MCP tools ${authority.mcp.join(', ')} (each call asks)` : '';
}

/** How a constraint is checked in code, in words. */
export function describeConstraintCheck(c: ConstraintCheck): string {
  const how =
    c.check.kind === 'forbid_paths'
      ? `no step writes ${c.check.globs.join(', ')}`
      : `\`${c.check.command}\` exits ${c.check.expectExitCode}${c.steps.length > 0 ? ` after ${c.steps.join(', ')}` : ' after every step that changes files'}`;
  return `${how} (${c.constraint}${c.source ? `; from ${c.source}` : ''})`;
}

/**
 * Tokens and money in words, the same in the plan document, the CLI and the board: `12,400 tokens, $0.0496`,
 * `no cost (local)` for models on this machine, `unknown price` when a model has no price (never a guess).
 */
export function describeCost(e: Pick<PlanEstimate, 'tokens' | 'costUsd' | 'pricing'>): string {
  const money = e.pricing === 'local' ? 'no cost (local)' : e.pricing === 'unknown' || e.costUsd === null ? 'unknown price' : `$${e.costUsd.toFixed(4)}`;
  return `${e.tokens.toLocaleString('en-US')} tokens, ${money}`;
}

export function describeCostSummary(cost: CostSummary): string[] {
  const e = cost.estimate;
  const priced = cost.actual.unpricedCalls === 0;
  // Models on this machine cost nothing: what was spent there is said so, never as $0.0000.
  const spent = (tokens: number, usd: number): string =>
    describeCost({ tokens, costUsd: priced ? usd : null, pricing: e.pricing === 'local' ? 'local' : priced ? 'priced' : 'unknown' });
  const ratio =
    e.tokens > 0
      ? ` (actual ÷ estimate: ${(cost.actual.tokens / e.tokens).toFixed(2)} in tokens${e.costUsd && priced ? `, ${(cost.actual.costUsd / e.costUsd).toFixed(2)} in money` : ''})`
      : '';
  const unpriced = priced ? '' : `; ${cost.actual.unpricedCalls} call(s) at an unknown price`;
  return [
    `Estimate → actual (executor and verifier calls, plan v${cost.version}): ${describeCost(e)} → ${spent(cost.actual.tokens, cost.actual.costUsd)}${ratio}${unpriced}`,
    ...cost.steps.map(
      (s) =>
        `  ${s.stepId}: ${s.estimatedTokens === null ? 'not estimated' : describeCost({ tokens: s.estimatedTokens, costUsd: s.estimatedUsd, pricing: e.pricing })} → ${spent(s.actualTokens, s.actualUsd)}`,
    ),
    `  planning (not in the estimate): ${spent(cost.planning.tokens, cost.planning.costUsd)}`,
  ];
}
