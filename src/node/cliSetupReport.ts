/**
 * What the CLI says about the user's setup: before the mission, which instruction files it reads (size,
 * where each applies, what was cut or not used) and which MCP servers offer which tools (how each is
 * confined, or why it cannot be used); after it, the grants each step had, in the report.
 */
import type { InstructionSet } from '../core/contracts/instructions';
import type { McpCatalogue } from '../core/contracts/mcp';
import type { Plan } from '../core/contracts/plan';
import { describeScope } from '../core/instructions/applies';
import { describeConstraintCheck } from '../core/plan/describe';
import type { HookSet } from '../core/contracts/hooks';

const CONFINED: Record<string, string> = {
  sandboxed: "in each step's OS sandbox",
  unsandboxed: 'UNSANDBOXED (sandbox off)',
  remote: 'remote: not confined by Plan & Execute',
  vscode: 'run by VS Code: not confined by Plan & Execute',
};

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

function instructionLines(set: InstructionSet | undefined): string[] {
  if (!set) return ['· instructions: not read (--no-instructions)'];
  if (set.files.length === 0) return ['· instructions: none found (AGENTS.md, CLAUDE.md, Copilot, Cursor or Cline rules)'];
  const lines = ['· instructions:'];
  for (const f of set.files) {
    const state = f.excluded ? 'left out of this mission' : f.unusable ? 'not used' : describeScope(f.scope);
    lines.push(`    ${f.path} (${size(f.size)}, sha256 ${f.hash.slice(0, 12) || '-'}) — ${state}`);
    for (const n of f.notes) lines.push(`      note: ${n}`);
  }
  for (const n of set.notes) lines.push(`    note: ${n}`);
  return lines;
}

function mcpLines(catalogue: McpCatalogue | undefined): string[] {
  if (!catalogue) return [];
  const lines = ['· MCP servers:'];
  for (const s of catalogue.servers) {
    lines.push(
      s.status === 'ok'
        ? `    ${s.name} (${s.transport}, ${s.source}; ${CONFINED[s.confinement]}): ${s.tools.map((t) => `${t.name}${t.readOnly ? ' (read-only)' : ''}`).join(', ') || 'no tools'}`
        : `    ${s.name} (${s.transport}, ${s.source}): NOT USABLE — ${s.reason ?? 'its tools could not be listed'}`,
    );
  }
  for (const n of catalogue.notes) lines.push(`    note: ${n}`);
  if (catalogue.servers.length === 0) lines.push('    none usable');
  return lines;
}

export function setupLines(setup: { instructions?: InstructionSet; mcp?: { catalogue: McpCatalogue } }): string[] {
  return [...instructionLines(setup.instructions), ...mcpLines(setup.mcp?.catalogue)];
}

/** The hooks the mission runs, and each project hook skipped for want of --trust-hooks (its file and command). */
export function hookLines(set: HookSet): string[] {
  if (set.hooks.length === 0 && set.skipped.length === 0 && set.notes.length === 0) return [];
  return [
    ...(set.hooks.length > 0
      ? [
          '· hooks:',
          ...set.hooks.map(
            (h) =>
              `    ${h.event}${h.matcher && h.matcher !== '*' ? ` (${h.matcher})` : ''}: ${h.command} — ${h.source}${h.origin === 'user' ? ' (yours: unconfined)' : " (in the step's sandbox)"}`,
          ),
        ]
      : []),
    ...set.skipped.map((h) => `· hook skipped (a project hook; --trust-hooks runs it): ${h.source}: ${h.event} ${h.command}`),
    ...set.notes.map((n) => `· hooks note: ${n}`),
  ];
}

/** The report's lines on grants: each step's MCP tools, and the constraint checks that bound it. */
export function grantLines(plan: Plan | undefined): string[] {
  if (!plan) return [];
  const granted = plan.steps.filter((s) => s.authority.mcp.length > 0);
  const lines = granted.length > 0 ? ['MCP grants:', ...granted.map((s) => `  ${s.id}: ${s.authority.mcp.join(', ')}`)] : [];
  const checks = plan.constraintChecks ?? [];
  if (checks.length > 0) {
    lines.push('Constraint checks:', ...checks.map((c) => `  ${describeConstraintCheck(c)}`));
  }
  return lines;
}
