/**
 * Scripted models for eval runs: one scenario that plays, for every task of a suite, the planned mission
 * (planner → executors → verifier reviews) and the direct baseline (one executor), keyed by what each
 * conversation's first message holds — the task for the planner, the step header for an executor or a
 * review — so tasks can run side by side. And the one way these tests run `cli eval`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath, spawnCli, type CliExit } from '../../support/cliBinary';
import type { Reply, ScenarioInput } from '../../support/messages-server/scenario';
import { done, type ToolUse } from '../../support/messages-server/toolUses';
import { wirePlan, wireStep, type WirePlan } from '../../support/fixtures';
import type { ScriptedModel } from '../../support/scriptedModel';

type Check = { kind: 'command'; command: string; expectExitCode?: number } | { kind: 'review'; criterion: string } | { kind: 'files_exist'; paths: string[] };

interface ScriptedStep {
  /** Unique across the suite: executors and reviews are matched by it. */
  id: string;
  edit: string[];
  commands: string[];
  evidence: Check[];
  /** One entry per executor turn: its tool calls. The final report follows. */
  turns: ToolUse[][];
  report?: Reply;
  /** The verifier's verdict on this step's review checks (default: passed). */
  reviewPasses?: boolean;
}

export interface TaskScript {
  /** The task's text as in its task.md (its first line names the direct baseline's one step). */
  task: string;
  planned: ScriptedStep[];
  direct: { turns: ToolUse[][]; report?: Reply };
}

/** Tool calls without ids (the servers number them, unique per response). */
export const view = (path: string): ToolUse => ({ name: 'str_replace_based_edit_tool', input: { command: 'view', path } });
export const edit = (path: string, oldText: string, newText: string): ToolUse => ({
  name: 'str_replace_based_edit_tool',
  input: { command: 'str_replace', path, old_str: oldText, new_str: newText },
});
export const run = (command: string): ToolUse => ({ name: 'bash', input: { command } });

function plan(script: TaskScript): WirePlan {
  return wirePlan(
    script.planned.map((s) =>
      wireStep(s.id, {
        kind: s.edit.length > 0 ? 'edit' : 'command',
        authority: { read: ['**'], edit: s.edit, commands: s.commands, network: false },
        evidence: {
          checks: s.evidence.map((c) => (c.kind === 'command' ? { expectExitCode: 0, expectOutputIncludes: '', ...c } : c)),
          description: 'as scripted',
        },
      }),
    ),
    { goal: script.task },
  );
}

export function evalScenario(scripts: readonly TaskScript[]): ScenarioInput {
  return {
    name: 'eval',
    rules: scripts.flatMap((script) => [
      {
        name: `plan ${script.planned[0]?.id ?? ''}`,
        match: { role: 'planner' as const, firstUserIncludes: script.task },
        turns: [{ structured: plan(script) }],
      },
      ...script.planned.flatMap((s) => [
        {
          name: s.id,
          match: { role: 'executor' as const, firstUserIncludes: `# Step ${s.id}:` },
          turns: [...s.turns.map((t) => ({ toolUse: t })), s.report ?? done(`${s.id} done`)],
        },
        {
          name: `review ${s.id}`,
          match: { role: 'verifier' as const, firstUserIncludes: `# Review of step ${s.id}:` },
          turns: [{ toolUse: [{ name: 'report_verdict', input: { passed: s.reviewPasses ?? true, detail: 'scripted verdict' } }] }],
        },
      ]),
      {
        name: `direct ${script.planned[0]?.id ?? ''}`,
        match: { role: 'executor' as const, firstUserIncludes: `# Step task: ${script.task.split('\n')[0]!.trim()}` },
        turns: [...script.direct.turns.map((t) => ({ toolUse: t })), script.direct.report ?? done('task done')],
      },
    ]),
  };
}

/** `cli eval ARGS…` against a scripted model, with a private HOME; 10 minutes at most. */
export async function runEval(model: ScriptedModel | null, args: readonly string[], timeoutMs = 600_000): Promise<CliExit> {
  const home = mkdtempSync(join(tmpdir(), 'pe-eval-home-'));
  const env = { PATH: process.env.PATH ?? '', HOME: home, LANG: 'C.UTF-8', ...(model?.env ?? {}) };
  return spawnCli(await cliPath(), ['eval', ...args, ...(model?.args ?? [])], env, { timeoutMs });
}
