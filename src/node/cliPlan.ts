/**
 * `plan`: plan a task and write its plan document (docs/plans.md), then exit — approve without running.
 * The mission runs as `run` would, up to its plan approval: the planner plans with the project's
 * instructions and MCP catalogue, the engine validates and estimates the plan, and the approval request
 * hands over the plan and its estimate. That request is answered "not now", so no step starts and no
 * executor is ever called; the document goes to --out (or stdout), with the workspace's base commit.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Plan } from '../core/contracts/plan';
import type { PlanEstimate } from '../core/contracts/estimate';
import type { Approver } from '../core/ports';
import { writePlanDocument } from '../core/plan/document/write';
import { workspaceCommit } from './baseCommit';
import { runHeadless, type CliIO, type HeadlessMission } from './cliMission';
import { formatReport } from './cliReport';
import { terminalSafe } from './terminalText';

export interface PlanCommand {
  workspace: string;
  task: string;
  constraints: string[];
  out?: string;
  json: boolean;
}

/** The plan and estimate the engine asks approval for; every request is answered "not now". */
function planOnlyApprover(): Approver & { captured(): { plan: Plan; estimate?: PlanEstimate } | undefined } {
  let captured: { plan: Plan; estimate?: PlanEstimate } | undefined;
  return {
    request: async (request) => {
      if (request.kind === 'plan') captured = { plan: request.plan, ...(request.estimate ? { estimate: request.estimate } : {}) };
      return { decision: 'rejected', reason: 'planned only: plan writes the plan document and runs nothing' };
    },
    captured: () => captured,
  };
}

export async function planCommand(cmd: PlanCommand, base: Omit<HeadlessMission, 'task' | 'constraints'>, io: CliIO): Promise<number> {
  const approver = planOnlyApprover();
  const { report, plan, byRole } = await runHeadless({ ...base, task: cmd.task, constraints: cmd.constraints, approver }, io);
  const captured = approver.captured();
  if (!captured) {
    io.stdout.write(`${terminalSafe(formatReport(report, plan, byRole))}\n`);
    return 1;
  }
  const baseCommit = workspaceCommit(resolve(cmd.workspace));
  const meta = { task: cmd.task, ...(baseCommit ? { baseCommit } : {}), ...(captured.estimate ? { estimate: captured.estimate } : {}) };
  const document = writePlanDocument(captured.plan, meta);
  const text = cmd.json ? `${JSON.stringify({ plan: captured.plan, meta }, null, 2)}\n` : document;
  if (cmd.out === undefined) {
    io.stdout.write(text);
    return 0;
  }
  const out = resolve(cmd.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  const steps = captured.plan.steps.map((s) => s.id).join(', ');
  io.stderr.write(
    `${terminalSafe(`· plan v${captured.plan.version} (${steps}) written to ${out}; run it with: run --workspace ${cmd.workspace} --plan ${cmd.out}`)}\n`,
  );
  return 0;
}
