/**
 * The headless CLI (bundled to dist/cli.js):
 *   node dist/cli.js run --workspace DIR --task TEXT [--approve ask|plan|all] [--trace FILE] [--max-cost USD]
 *                        [--provider anthropic|openai] [--base-url URL] [--model NAME] [--<role>-model NAME]
 *   node dist/cli.js replay --trace FILE [--workspace DIR]
 * Progress on stderr, the final report on stdout, exit 0 only if every required step succeeded
 * (1: the mission did not succeed; 2: bad command line or setup; 3: a replay diverged from its recording).
 *
 * Replay answers every model call from the recording and approves by rule; run it on a copy of the
 * workspace as it was before the recorded mission, or the planner's workspace summary differs and the
 * replay (rightly) reports a divergence.
 */
import { readFileSync } from 'node:fs';
import { ModelSettingsInputSchema, type DeepPartialSettings } from '../core/model/modelSettings';
import { createReplayModelClient } from '../core/model/replayClient';
import { TraceEventSchema, type TraceEvent } from '../core/contracts/traceEvents';
import { parseArgs, USAGE } from './cliArgs';
import { runHeadless, type CliIO } from './cliMission';
import { cliModelSetup } from './cliModels';
import { exitCodeFor, formatReport } from './cliReport';
import { terminalSafe } from './terminalText';

export const EXIT = { ok: 0, failed: 1, usage: 2, diverged: 3 } as const;

function readTrace(path: string): { ok: true; events: TraceEvent[] } | { ok: false; message: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return { ok: false, message: `cannot read ${path}: ${e instanceof Error ? e.message : String(e)}` };
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

export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  const parsed = parseArgs(argv);
  if (!parsed.ok) {
    io.stderr.write(`error: ${parsed.message}\n${USAGE}\n`);
    return EXIT.usage;
  }
  const cmd = parsed.command;
  if (cmd.kind === 'help') {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  try {
    if (cmd.kind === 'run') {
      const setup = cliModelSetup(cmd.models, io.env);
      if (!setup.ok) {
        io.stderr.write(`error: ${setup.message}\n`);
        return EXIT.usage;
      }
      const { report, plan, byRole } = await runHeadless(
        { workspace: cmd.workspace, task: cmd.task, constraints: cmd.constraints, approve: cmd.approve, ...(cmd.sandbox ? { sandbox: cmd.sandbox } : {}), client: setup.client, models: setup.models, ...(cmd.trace ? { trace: cmd.trace } : {}), ...(cmd.maxCostUsd !== undefined ? { maxCostUsd: cmd.maxCostUsd } : {}) },
        io,
      );
      io.stdout.write(`${cmd.json ? JSON.stringify({ report, plan, byRole }, null, 2) : terminalSafe(formatReport(report, plan, byRole))}\n`);
      return exitCodeFor(report, plan);
    }
    const trace = readTrace(cmd.trace);
    if (!trace.ok) {
      io.stderr.write(`error: ${trace.message}\n`);
      return EXIT.usage;
    }
    const started = trace.events.find((e): e is Extract<TraceEvent, { type: 'mission_started' }> => e.type === 'mission_started');
    const firstPlan = trace.events.find((e): e is Extract<TraceEvent, { type: 'plan_version' }> => e.type === 'plan_version');
    if (!started) {
      io.stderr.write(`error: ${cmd.trace} has no mission_started event\n`);
      return EXIT.usage;
    }
    const client = createReplayModelClient(trace.events);
    // The roles must ask what the recording asked: rebuild them with the recorded providers and models.
    const recorded = ModelSettingsInputSchema.safeParse(started.settings.models ?? {});
    if (!recorded.success) {
      io.stderr.write(`error: ${cmd.trace} records model settings this version cannot read: ${recorded.error.issues[0]?.message ?? ''}\n`);
      return EXIT.usage;
    }
    const models = recorded.data as DeepPartialSettings;
    const { report, plan } = await runHeadless(
      { workspace: cmd.workspace ?? started.workspaceRoot, task: started.task, constraints: firstPlan?.plan.constraints ?? [], approve: 'all', approveByRule: 'cli:replay', client, models },
      io,
    );
    const diverged = client.divergence();
    io.stdout.write(`${cmd.json ? JSON.stringify({ report, plan, diverged: diverged ?? null }, null, 2) : terminalSafe(formatReport(report, plan))}\n`);
    if (diverged || client.remaining() > 0) {
      io.stderr.write(`REPLAY DIVERGED: ${diverged ?? `the recording has ${client.remaining()} model call(s) the replay never made`}\n`);
      return EXIT.diverged;
    }
    return exitCodeFor(report, plan);
  } catch (error) {
    io.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failed;
  }
}

if (require.main === module) {
  void main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env }).then((code) => {
    process.exitCode = code;
    // A terminal approver may have started reading stdin; do not let it keep the process alive.
    process.stdin.pause();
    (process.stdin as { unref?: () => void }).unref?.();
  });
}
