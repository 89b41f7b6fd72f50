/**
 * The user's auto-approve rules for one mission. Pure (no vscode).
 *
 * Evaluation order: (1) plan approvals are never auto-approved here; (2) a step rule ("Approve all for this
 * step") matches every write and command of that step; (3) otherwise a request matches a rule only of its
 * own kind; (4) write rules match the workspace-relative path against the glob (picomatch, dotfiles
 * included only when the glob names them); (5) command rules match the exact command line, or, for a
 * pattern ending in ` *`, the words before it as a prefix followed by a space; (6) mcp rules ("always allow this
 * tool in this mission") match the exact `server/tool`. The first match wins.
 * The policy has already allowed the action before any rule is consulted: a rule can only spare a click,
 * never widen a step's authority.
 */
import picomatch from 'picomatch';
import type { ApprovalRequest } from '../../core/ports';
import type { ApprovalRule } from '../../webview/protocol';

function commandMatches(pattern: string, command: string): boolean {
  const normalized = command.trim().replace(/\s+/g, ' ');
  const p = pattern.trim().replace(/\s+/g, ' ');
  if (p.endsWith(' *')) {
    const prefix = p.slice(0, -2);
    return normalized === prefix || normalized.startsWith(`${prefix} `);
  }
  return normalized === p;
}

export function matchingRule(rules: readonly ApprovalRule[], request: ApprovalRequest): ApprovalRule | undefined {
  if (request.kind === 'plan') return undefined;
  for (const rule of rules) {
    if (rule.kind === 'step' && request.stepId === rule.pattern) return rule;
    if (rule.kind !== request.kind) continue;
    if (request.kind === 'write' && picomatch.isMatch(request.path, rule.pattern)) return rule;
    if (request.kind === 'command' && commandMatches(rule.pattern, request.command)) return rule;
    if (request.kind === 'mcp' && rule.pattern === `${request.server}/${request.tool}`) return rule;
  }
  return undefined;
}

/** The rule "Approve & remember" creates: this exact file, this exact command, or this MCP tool. */
export function ruleFor(request: ApprovalRequest): Pick<ApprovalRule, 'kind' | 'pattern'> | undefined {
  if (request.kind === 'write')
    return { kind: 'write', pattern: picomatch.scan(request.path).isGlob ? request.path.replace(/[*?[\]{}()!]/g, '\\$&') : request.path };
  if (request.kind === 'command') return { kind: 'command', pattern: request.command };
  if (request.kind === 'mcp') return { kind: 'mcp', pattern: `${request.server}/${request.tool}` };
  return undefined;
}
