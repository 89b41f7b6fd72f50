/**
 * The verification gate: a step is `succeeded` only with a Verification whose `passed` is true. The
 * executor's claim is never enough. Deterministic checks run through the verifier's own StepTools
 * (role 'verifier': policy and approval apply, writes are refused); `review` checks go to
 * VerifierRole.review with a read-only view of those tools — the write methods are not even present.
 *
 * Check order follows the plan; every check runs (no short-circuit), so the record shows all that failed.
 */
import type { Handoff } from '../contracts/handoff';
import { describeCheck } from '../plan/describe';
import picomatch from 'picomatch';
import type { ConstraintCheck, EvidenceCheck } from '../contracts/plan';
import type { ReadOnlyTools, RoleContext, StepTools, VerifierRole, Workspace } from '../ports';
import type { CheckOutcome, StepResult, Verification } from '../contracts/results';
import { errorText } from '../primitives/errorText';

export interface GateInput {
  handoff: Handoff;
  result: StepResult;
  tools: StepTools;
  verifier: VerifierRole;
  workspace: Workspace;
  ctx: RoleContext;
  now: () => number;
  /** The plan's constraint checks that apply to this step (userSetup.ts: constraintChecksFor). */
  constraintChecks?: readonly ConstraintCheck[];
}

export async function verifyStep(input: GateInput): Promise<Verification> {
  const { handoff, result } = input;
  const checks: CheckOutcome[] = [];
  if (result.status !== 'succeeded') {
    checks.push({ check: 'executor result', passed: false, detail: `the executor reported ${result.status}` });
  }
  const planned = handoff.step.evidence.checks;
  if (planned.length === 0) checks.push({ check: 'evidence', passed: false, detail: 'the step has no evidence checks, so it cannot be proven done' });
  for (const check of planned) {
    if (input.ctx.signal.aborted) {
      checks.push({ check: describeCheck(check), passed: false, detail: 'cancelled before this check ran' });
      continue;
    }
    try {
      checks.push(await runCheck(check, input));
    } catch (error) {
      checks.push({ check: describeCheck(check), passed: false, detail: `the check could not run: ${errorText(error)}` });
    }
  }
  for (const c of input.constraintChecks ?? []) {
    if (input.ctx.signal.aborted) break;
    checks.push(await runConstraintCheck(c, input));
  }
  return { stepId: handoff.step.id, passed: checks.length > 0 && checks.every((c) => c.passed), checks, at: new Date(input.now()).toISOString() };
}

/** A mission constraint, checked in code: no change in forbidden paths; a command that must pass. */
async function runConstraintCheck(c: ConstraintCheck, input: GateInput): Promise<CheckOutcome> {
  const name = `constraint "${c.constraint}"${c.source ? ` (${c.source})` : ''}`;
  if (c.check.kind === 'forbid_paths') {
    const match = picomatch(c.check.globs, { dot: true });
    const touched = input.result.sideEffects.files.filter((f) => match(f.path)).map((f) => f.path);
    return {
      check: `${name}: nothing changed in ${c.check.globs.join(', ')}`,
      passed: touched.length === 0,
      detail: touched.length === 0 ? 'no change there' : `changed: ${touched.join(', ')}`,
    };
  }
  const outcome = await runCheck({ kind: 'command', command: c.check.command, expectExitCode: c.check.expectExitCode }, input).catch((error: unknown) => ({
    check: '',
    passed: false,
    detail: `the check could not run: ${errorText(error)}`,
  }));
  return { ...outcome, check: `${name}: ${describeCheck({ kind: 'command', command: c.check.command, expectExitCode: c.check.expectExitCode })}` };
}

async function runCheck(check: EvidenceCheck, input: GateInput): Promise<CheckOutcome> {
  const name = describeCheck(check);
  switch (check.kind) {
    case 'command': {
      const before = input.tools.sideEffects().commands.length;
      const outcome = await input.tools.bash(check.command);
      // The exit code comes from the sandbox's CommandRun record, not from the tool's prose output.
      const run = input.tools
        .sideEffects()
        .commands.slice(before)
        .find((c) => c.command === check.command);
      if (!outcome.ok && !run) return { check: name, passed: false, detail: `not run: ${outcome.failure.message}`, toolCallId: outcome.toolCallId };
      if (!run) return { check: name, passed: false, detail: 'the command ran but no exit code was recorded', toolCallId: outcome.toolCallId };
      const exitOk = run.exitCode === check.expectExitCode;
      const textOk = check.expectOutputIncludes === undefined || run.output.includes(check.expectOutputIncludes);
      const detail = !exitOk
        ? `exited ${run.exitCode ?? `by signal ${run.signal ?? '?'}`}, expected ${check.expectExitCode}`
        : textOk
          ? `exited ${run.exitCode}`
          : `output does not contain "${check.expectOutputIncludes}"`;
      return { check: name, passed: exitOk && textOk, detail, toolCallId: outcome.toolCallId };
    }
    case 'files_exist': {
      const missing: string[] = [];
      let lastId: string | undefined;
      for (const path of check.paths) {
        const seen = await input.tools.view(path);
        lastId = seen.toolCallId;
        if (!seen.ok || !(await input.workspace.stat(path))) missing.push(seen.ok ? path : `${path} (${seen.failure.message})`);
      }
      return { check: name, passed: missing.length === 0, detail: missing.length === 0 ? 'all present' : `missing: ${missing.join(', ')}`, toolCallId: lastId };
    }
    case 'file_contains': {
      const seen = await input.tools.view(check.path);
      if (!seen.ok) return { check: name, passed: false, detail: seen.failure.message, toolCallId: seen.toolCallId };
      // view() passed the read policy; the exact substring test reads the raw bytes (view adds line numbers).
      const text = new TextDecoder().decode(await input.workspace.readFile(check.path));
      const found = text.includes(check.text);
      return { check: name, passed: found, detail: found ? 'found' : 'text not found', toolCallId: seen.toolCallId };
    }
    case 'review': {
      const outcome = await input.verifier.review(input.handoff, input.result, check.criterion, readOnly(input.tools), input.ctx);
      return { ...outcome, check: name };
    }
  }
}

/** Only the read-only methods, bound: the reviewer cannot reach a write method even by casting. */
export function readOnly(tools: ReadOnlyTools): ReadOnlyTools {
  return {
    view: tools.view.bind(tools),
    list: tools.list.bind(tools),
    search: tools.search.bind(tools),
    fetchToolResult: tools.fetchToolResult.bind(tools),
    // The verifier's MCP tools are read-only by construction (mcpCall.ts offers it no other).
    ...(tools.mcp ? { mcp: tools.mcp } : {}),
  };
}
