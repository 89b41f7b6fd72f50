/**
 * What the mission tells GitHub: the pull request's body (each step's outcome and verification, the cost,
 * the run) and the comment on a mission that did not succeed (the failing step, the structured failure,
 * what to do). Step outcomes come from the run's own trace file, read back through the trace schema.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Plan } from '../../core/contracts/plan';
import { TraceEventSchema } from '../../core/contracts/traceEvents';
import type { MissionReport } from '../../core/mission/options';
import { literal } from './planComment';

export interface StepOutcome {
  status: string;
  reason?: string;
  verification?: { passed: boolean; checks: { check: string; passed: boolean; detail: string }[] };
}

/** The last status and verification of each step, from the trace (events that do not parse are skipped). */
export function stepOutcomes(tracePath: string): Map<string, StepOutcome> {
  const out = new Map<string, StepOutcome>();
  if (!existsSync(tracePath)) return out;
  for (const line of readFileSync(tracePath, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      // A torn last line (the process was killed mid-write) holds no outcome worth showing.
      continue;
    }
    const parsed = TraceEventSchema.safeParse(json);
    if (!parsed.success) continue;
    const e = parsed.data;
    if (e.type === 'step_status')
      out.set(e.stepId, { ...out.get(e.stepId), status: e.status, ...(e.reason ? { reason: e.reason } : { reason: undefined }) } as StepOutcome);
    if (e.type === 'verification') {
      const v = e.verification;
      out.set(v.stepId, { status: out.get(v.stepId)?.status ?? 'verifying', ...out.get(v.stepId), verification: { passed: v.passed, checks: v.checks } });
    }
  }
  return out;
}

function verificationText(o: StepOutcome | undefined): string {
  const v = o?.verification;
  if (!v) return 'not verified';
  const checks = v.checks.map((c) => `${c.passed ? '✓' : '✗'} ${c.check}${c.detail ? `: ${c.detail}` : ''}`);
  return `${v.passed ? 'passed' : 'FAILED'}${checks.length ? ` — ${checks.join('; ')}` : ''}`;
}

function stepRows(plan: Plan, outcomes: Map<string, StepOutcome>): string[] {
  return [
    '| Step | Outcome | Verification |',
    '| --- | --- | --- |',
    ...plan.steps.map((s) => {
      const o = outcomes.get(s.id);
      return `| ${literal(`${s.id} · ${s.title}`)} | ${literal(o?.status ?? 'not started')} | ${literal(verificationText(o))} |`;
    }),
  ];
}

export interface RunFacts {
  issue: number;
  plan: Plan;
  version: number;
  hash: string;
  approver: string;
  approveUrl?: string;
  runUrl: string;
  artifact: string;
  /** The commit the plan was made on and the one it ran on, when they differ. */
  baseNote?: string;
}

function costLine(report: MissionReport): string {
  return `**Cost:** $${report.usage.costUsd.toFixed(4)} (${report.usage.inputTokens} input / ${report.usage.outputTokens} output tokens).`;
}

function runLine(f: RunFacts): string {
  return f.runUrl
    ? `**Run:** ${f.runUrl} — the mission's trace is the run's artifact \`${f.artifact}\`.`
    : `The mission's trace is the run's artifact \`${f.artifact}\`.`;
}

export function pullRequestBody(f: RunFacts, report: MissionReport, outcomes: Map<string, StepOutcome>): string {
  return [
    `Closes #${f.issue}`,
    '',
    `Plan v${f.version} (hash \`${f.hash}\`), approved by @${f.approver}${f.approveUrl ? ` in ${f.approveUrl}` : ''}: ${literal(f.plan.goal)}`,
    '',
    ...stepRows(f.plan, outcomes),
    '',
    costLine(report),
    ...(f.baseNote ? ['', f.baseNote] : []),
    '',
    runLine(f),
  ].join('\n');
}

/** The comment on a mission that did not succeed: which step failed, why, what to do. Nothing was pushed. */
export function failureComment(f: RunFacts, report: MissionReport, outcomes: Map<string, StepOutcome>): string {
  const failing = report.failed.length ? report.failed : [...outcomes].filter(([, o]) => o.status === 'failed').map(([id]) => id);
  const failure = report.failure;
  const stepLines = failing.map((id) => {
    const step = f.plan.steps.find((s) => s.id === id);
    const o = outcomes.get(id);
    return `- **${literal(id)}**${step ? ` · ${literal(step.title)}` : ''}: ${literal(o?.reason ?? 'failed')}${o?.verification ? ` (verification ${literal(verificationText(o))})` : ''}`;
  });
  return [
    `**The mission for plan v${f.version} did not succeed (${literal(report.outcome)}): no branch was pushed and no pull request opened.**`,
    '',
    ...(stepLines.length ? ['Failing step:', ...stepLines, ''] : []),
    ...(failure
      ? [
          `Failure (\`${failure.class}\`): ${literal(failure.message)}${failure.detail ? ` — ${literal(failure.detail)}` : ''}`,
          ...(failure.suggestion ? [`What to do: ${literal(failure.suggestion)}`] : []),
          '',
        ]
      : [`${literal(report.summary)}`, '']),
    'To try again, comment `/approve` (the same plan) or `/plan-execute <more>` for a new plan.',
    '',
    ...stepRows(f.plan, outcomes),
    '',
    costLine(report),
    '',
    runLine(f),
  ].join('\n');
}
