/**
 * The cross-field rules of the user's setup, beside validatePlan's own: MCP grants must name tools the
 * mission's servers offer, and constraint checks must enforce a constraint of the plan, with paths inside
 * the workspace and steps that exist. A step whose edit globs lie wholly inside a forbidden path could never
 * do its work, so that is an error too (the planner must pick one: the rule or the step).
 */
import type { Plan, Step } from '../contracts/plan';
import { parseGrant, type McpToolRef } from '../mcp/grants';
import { globSetCovers } from './globs';
import { workspacePathProblem } from './paths';
import type { PlanError } from './validate';

export function checkGrants(index: number, step: Step, tools: readonly McpToolRef[], errors: PlanError[]): void {
  const servers = new Set(tools.map((t) => t.server));
  step.authority.mcp.forEach((grant, i) => {
    const p = parseGrant(grant);
    if (!p) return; // the shape error is already reported
    const path = `steps[${index}].authority.mcp[${i}]`;
    if (!servers.has(p.server)) {
      const known = [...servers].join(', ') || 'none is configured';
      errors.push({ path, message: `step "${step.id}" grants "${grant}", but there is no MCP server "${p.server}" (servers: ${known})` });
    } else if (p.tool !== '*' && !tools.some((t) => t.server === p.server && t.tool === p.tool)) {
      const offered =
        tools
          .filter((t) => t.server === p.server)
          .map((t) => t.tool)
          .join(', ') || 'no tools';
      errors.push({ path, message: `step "${step.id}" grants "${grant}", but server "${p.server}" offers no tool "${p.tool}" (it offers: ${offered})` });
    }
  });
}

export function checkConstraintChecks(plan: Plan, errors: PlanError[]): void {
  const ids = new Set(plan.steps.map((s) => s.id));
  (plan.constraintChecks ?? []).forEach((c, i) => {
    const at = `constraintChecks[${i}]`;
    if (!plan.constraints.includes(c.constraint)) {
      errors.push({
        path: `${at}.constraint`,
        message: `constraint check ${i} enforces "${c.constraint}", which is not one of the plan's constraints; copy the constraint verbatim into "constraints"`,
      });
    }
    c.steps.forEach((id, j) => {
      if (!ids.has(id)) errors.push({ path: `${at}.steps[${j}]`, message: `constraint check ${i} names step "${id}", which is not in the plan` });
    });
    if (c.check.kind !== 'forbid_paths') return;
    const globs = c.check.globs;
    globs.forEach((g, j) => {
      const problem = workspacePathProblem(g, 'glob');
      if (problem) errors.push({ path: `${at}.check.globs[${j}]`, message: `constraint check ${i}: ${problem}` });
    });
    plan.steps.forEach((step, s) => {
      const inside = step.authority.edit.filter((g) => globSetCovers(globs, [g]));
      if (inside.length > 0) {
        errors.push({
          path: `steps[${s}].authority.edit`,
          message: `step "${step.id}" may edit ${inside.map((g) => `"${g}"`).join(', ')}, which the constraint "${c.constraint}" forbids (${globs.join(', ')}); remove those globs or drop the rule`,
        });
      }
    });
  });
}
