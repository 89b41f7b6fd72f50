/**
 * `replay --trace FILE`: re-runs a recorded mission with every model answer and every approval decision
 * taken from the recording (no API call, nobody asked), including what the user did after it stopped —
 * Retry, Continue, Revert step — in the order it was done (the script: src/core/trace/replayScript.ts).
 *
 * Verdicts: a replay that asks something the recording did not ask, ends a run another way, or reverts
 * other files has DIVERGED (exit 3). A recording that reaches something a replay cannot reproduce (a
 * cancel, a window closed mid-mission, a hand edit of the plan, a correction) is replayed up to that point
 * and STOPS there with a message; that is not a divergence.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ModelSettingsInputSchema, type DeepPartialSettings } from '../core/model/modelSettings';
import { createReplayModelClient } from '../core/model/replayClient';
import { TraceEventSchema, type TraceEvent } from '../core/contracts/traceEvents';
import type { MissionReport } from '../core/mission/options';
import type { Plan } from '../core/contracts/plan';
import type { ApprovalDecision, Approver } from '../core/ports';
import { replayScriptOf, type RecordedApproval, type ReplayRevert, type ReplayRun } from '../core/trace/replayScript';
import { revertHeadless, runHeadless, type CliIO } from './cliMission';
import { createReplayMcpServers } from '../core/mcp/replayServers';
import { recordedSetup, type UserSetup } from '../core/mission/userSetup';
import { exitCodeFor, formatReport } from './cliReport';
import { terminalSafe } from './terminalText';
import { errorText } from '../core/primitives/errorText';
import { onlyTheUserDecides } from '../core/tools/consent';

const REPLAY_EXIT = { usage: 2, diverged: 3 } as const;

/** The recorded settings a replay honours; anything else in them is ignored (older or newer traces). */
const RecordedSettingsSchema = z.object({
  approve: z.enum(['ask', 'plan', 'all']).optional(),
  maxParallel: z.number().int().positive().optional(),
  retriesPerStep: z.number().int().nonnegative().optional(),
  maxPlanSteps: z.number().int().positive().nullable().optional(),
  budgets: z
    .object({
      maxReplans: z.number().nonnegative(),
      maxTokens: z.number().nonnegative(),
      maxCostUsd: z.number().nonnegative(),
      maxWallMs: z.number().nonnegative(),
      maxSteps: z.number().nonnegative(),
    })
    .partial()
    .optional(),
  models: z.unknown().optional(),
});

function readTrace(path: string): { ok: true; events: TraceEvent[] } | { ok: false; message: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return { ok: false, message: `cannot read ${path}: ${errorText(e)}` };
  }
  const events: TraceEvent[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      return { ok: false, message: `${path}:${i + 1} is not JSON` };
    }
    const parsed = TraceEventSchema.safeParse(raw);
    if (!parsed.success) return { ok: false, message: `${path}:${i + 1} is not a trace event: ${parsed.error.issues[0]?.message ?? ''}` };
    events.push(parsed.data);
  }
  return { ok: true, events };
}

/**
 * Answers each approval as the recording did (a rejection with the user's words, so the executor reads
 * the same reason). A request the recording does not have is approved by rule, unless the run stops
 * short (then it is the stop). A command that would run without the OS sandbox is never run: nobody is
 * there to say yes.
 */
function recordedApprover(recorded: readonly RecordedApproval[], onPastEnd?: () => void): Approver {
  const used = new Set<number>();
  return {
    request: async (request): Promise<ApprovalDecision> => {
      // UX only (a clearer reason): the gate would refuse the replay's rule for this one anyway.
      if (onlyTheUserDecides(request)) {
        return { decision: 'rejected', reason: 'cli:replay: a command that would run without the OS sandbox needs a person to approve it' };
      }
      const i = recorded.findIndex((a, n) => !used.has(n) && a.kind === request.kind && a.stepId === request.stepId && a.actionHash === request.actionHash);
      if (i < 0) {
        if (!onPastEnd) return { decision: 'approved', by: 'rule', rule: 'cli:replay' };
        onPastEnd();
        return { decision: 'rejected', reason: 'the recording stops before this approval' };
      }
      used.add(i);
      const d = recorded[i]!.decision;
      return d.decision === 'rejected' ? d : { decision: 'approved', by: 'rule', rule: 'cli:replay' };
    },
  };
}

type RunResult = { report: MissionReport; plan: Plan | undefined };
type ReplayBase = { workspace: string; task: string; constraints: string[]; events: readonly TraceEvent[] };
type Verdict = { diverged?: string; stopped?: string };

async function replayRun(part: ReplayRun, base: ReplayBase, missionId: string | undefined, io: CliIO): Promise<{ result: RunResult } & Verdict> {
  const settings = RecordedSettingsSchema.safeParse(part.settings);
  if (!settings.success) throw new Error(`the trace records settings this version cannot read: ${settings.error.issues[0]?.message ?? ''}`);
  const models = ModelSettingsInputSchema.safeParse(settings.data.models ?? {});
  if (!models.success) throw new Error(`the trace records model settings this version cannot read: ${models.error.issues[0]?.message ?? ''}`);
  const { approve, maxParallel, retriesPerStep, maxPlanSteps, budgets } = settings.data;
  const stop = new AbortController();
  let pastEnd = false;
  const onPastEnd = part.stop ? () => ((pastEnd = true), stop.abort()) : undefined;
  const client = createReplayModelClient(part.calls, onPastEnd ? { onPastEnd } : {});
  // The recorded instruction text and MCP catalogue; every MCP call answered from the recording.
  const servers = createReplayMcpServers(base.events);
  const recorded = recordedSetup(base.events);
  const setup: UserSetup = {
    ...(recorded.instructions ? { instructions: recorded.instructions } : {}),
    ...(recorded.catalogue ? { mcp: { servers, catalogue: recorded.catalogue } } : {}),
  };
  const result = await runHeadless(
    {
      workspace: base.workspace,
      task: base.task,
      constraints: base.constraints,
      approve: approve ?? 'ask',
      client,
      // The roles must ask what the recording asked: rebuild them with the recorded providers and models.
      models: models.data as DeepPartialSettings,
      approver: recordedApprover(part.approvals, onPastEnd),
      settings: {
        ...(maxParallel !== undefined ? { maxParallel } : {}),
        ...(retriesPerStep !== undefined ? { retriesPerStep } : {}),
        ...(typeof maxPlanSteps === 'number' ? { maxPlanSteps } : {}),
        ...(budgets ? { budgets } : {}),
      },
      ...(missionId && part.mode !== 'start' ? { goOn: { missionId, mode: part.mode } } : {}),
      signal: stop.signal,
      setup,
    },
    io,
  );
  const when = part.mode === 'start' ? 'the recorded mission' : `the recorded ${part.mode}`;
  const diverged = client.divergence() ?? servers.divergence();
  if (diverged) return { result, diverged };
  if (part.stop) {
    const unreached = client.remaining();
    const ranOn = pastEnd ? '' : ` The replay ran on to the end (${result.report.outcome}).`;
    return {
      result,
      stopped: `${part.stop.why} (recorded event ${part.stop.seq}). Up to there the replay matched the recording: ${client.replayed()} model call(s).${ranOn}${unreached ? ` ${unreached} recorded call(s) before that point were not reached (steps side by side reach a stop at different places).` : ''}`,
    };
  }
  if (client.remaining() > 0) return { result, diverged: `${when} has ${client.remaining()} model call(s) the replay never made` };
  if (part.outcome && result.report.outcome !== part.outcome)
    return { result, diverged: `${when} ended ${part.outcome}; the replay ended ${result.report.outcome}` };
  return { result };
}

async function replayRevert(part: ReplayRevert, workspace: string, missionId: string, io: CliIO): Promise<Verdict> {
  io.stderr.write(`· revert ${part.stepIds.join(', ')} (as recorded)\n`);
  const out = await revertHeadless({ workspace }, io, missionId, { steps: part.stepIds }, { stepIds: part.stepIds, changedSince: part.overwrote });
  if (!out.ok) return { diverged: `the recorded revert of ${part.stepIds.join(', ')} could not be replayed: ${out.error.message}` };
  const key = (f: { stepId: string; path: string; action: string }) => `${f.action} ${f.path} (${f.stepId})`;
  const want = part.files.map(key).sort();
  const got = out.value.plan.files.map(key).sort();
  if (want.join('\n') !== got.join('\n'))
    return { diverged: `the recorded revert did ${want.join(', ') || 'nothing'}; the replay's did ${got.join(', ') || 'nothing'}` };
  return {};
}

export async function replayCommand(cmd: { trace: string; workspace?: string; json: boolean }, io: CliIO): Promise<number> {
  const trace = readTrace(cmd.trace);
  if (!trace.ok) {
    io.stderr.write(`error: ${trace.message}\n`);
    return REPLAY_EXIT.usage;
  }
  const script = replayScriptOf(trace.events);
  if (!script.ok) {
    io.stderr.write(`error: ${cmd.trace}: ${script.error}\n`);
    return REPLAY_EXIT.usage;
  }
  const base: ReplayBase = {
    workspace: cmd.workspace ?? script.value.workspaceRoot,
    task: script.value.task,
    constraints: script.value.constraints,
    events: trace.events,
  };
  let last: RunResult | undefined;
  let verdict: Verdict = {};
  for (const part of script.value.parts) {
    if (part.kind === 'run') {
      const out = await replayRun(part, base, last?.report.missionId, io);
      last = out.result;
      verdict = out;
    } else {
      verdict = await replayRevert(part, base.workspace, last!.report.missionId, io);
    }
    if (verdict.diverged || verdict.stopped) break;
  }
  const { report, plan } = last!;
  io.stdout.write(
    `${cmd.json ? JSON.stringify({ report, plan, diverged: verdict.diverged ?? null, stopped: verdict.stopped ?? null }, null, 2) : terminalSafe(formatReport(report, plan))}\n`,
  );
  if (verdict.diverged) {
    io.stderr.write(`REPLAY DIVERGED: ${verdict.diverged}\n`);
    return REPLAY_EXIT.diverged;
  }
  if (verdict.stopped) io.stderr.write(`REPLAY STOPPED: ${verdict.stopped}\n`);
  return exitCodeFor(report, plan);
}
