/**
 * The headless CLI (bundled to dist/cli.js):
 *   node dist/cli.js run --workspace DIR --task TEXT [--approve ask|plan|all] [--trace FILE] [--max-cost USD]
 *                        [--no-instructions] [--skip-instruction PATH] [--mcp-config FILE]
 *                        [--provider anthropic|openai] [--base-url URL] [--model NAME] [--<role>-model NAME]
 *   node dist/cli.js run --workspace DIR --plan FILE [--allow-other-base] [same options]   (cliRunPlan.ts)
 *   node dist/cli.js plan --workspace DIR --task TEXT [--out FILE] [same options]          (cliPlan.ts)
 *   node dist/cli.js continue --workspace DIR [--mission ID] [same options]
 *   node dist/cli.js replay --trace FILE [--workspace DIR]
 *   node dist/cli.js eval [options] | eval merge FILE… | eval validate   (see eval/evalCommand.ts)
 *   node dist/cli.js github [options]   on a GitHub Actions runner (see github/githubCommand.ts)
 * Progress on stderr, the final report on stdout, exit 0 only if every required step succeeded
 * (1: the mission did not succeed; 2: bad command line or setup; 3: a replay diverged from its recording).
 *
 * Replay answers every model call and approval from the recording and redoes what the user did after the
 * mission stopped (Retry, Continue, Revert step) — see cliReplay.ts; run it on a copy of the workspace as
 * it was before the recorded mission, or the planner's workspace summary differs and the replay (rightly)
 * reports a divergence.
 */
import { parseArgs, usageHint } from './cliArgs';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { chooseContinuation } from './cliContinue';
import { runHeadless, type CliIO, type HeadlessMission } from './cliMission';
import { FileStore } from './fileStore';
import { NodeWorkspace } from './nodeWorkspace';
import { cliModelSetup } from './cliModels';
import { exitCodeFor, formatReport } from './cliReport';
import { replayCommand } from './cliReplay';
import { terminalSafe } from './terminalText';
import { evalMain } from './eval/evalCommand';
import { githubMain } from './github/githubCommand';
import { errorText } from '../core/primitives/errorText';
import { planCommand } from './cliPlan';
import { planForRun } from './cliRunPlan';

export const EXIT = { ok: 0, failed: 1, usage: 2, diverged: 3 } as const;

export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  if (argv[0] === 'eval') return evalMain(argv.slice(1), io);
  if (argv[0] === 'github') return githubMain(argv.slice(1), io);
  const parsed = parseArgs(argv);
  if (!parsed.ok) {
    io.stderr.write(`error: ${parsed.error}\n${usageHint(argv[0])}\n`);
    return EXIT.usage;
  }
  const cmd = parsed.value;
  if (cmd.kind === 'help') {
    io.stdout.write(`${cmd.text}\n`);
    return EXIT.ok;
  }
  try {
    if (cmd.kind === 'replay') return await replayCommand(cmd, io);
    // In the order a user fixes them: the command line (parsed above), the workspace, then the model.
    const folder = workspaceProblem(cmd.workspace);
    if (folder) {
      io.stderr.write(`error: ${folder}\n`);
      return EXIT.usage;
    }
    // A plan document is read and checked before anything else: one that does not read costs no model call.
    const document =
      cmd.kind === 'run' && cmd.planFile !== undefined
        ? await planForRun(
            {
              workspace: cmd.workspace,
              planFile: cmd.planFile,
              allowOtherBase: cmd.allowOtherBase === true,
              ...(cmd.limits.maxPlanSteps ? { maxPlanSteps: cmd.limits.maxPlanSteps } : {}),
            },
            io,
          )
        : undefined;
    if (document && !document.ok) return document.error;
    const setup = cliModelSetup(cmd.models, io.env);
    if (!setup.ok) {
      io.stderr.write(`error: ${setup.error}\n`);
      return EXIT.usage;
    }
    const base = {
      workspace: cmd.workspace,
      approve: cmd.approve,
      client: setup.value.client,
      models: setup.value.models,
      localProviders: setup.value.localProviders,
      limits: cmd.limits,
      instructions: cmd.instructions,
      skipInstructions: cmd.skipInstructions,
      mcpConfigs: cmd.mcpConfigs,
      trustHooks: cmd.trustHooks,
      ...(cmd.sandbox ? { sandbox: cmd.sandbox } : {}),
      ...(cmd.trace ? { trace: cmd.trace } : {}),
      allowTrackedSecrets: cmd.allowTrackedSecrets,
    };
    if (cmd.kind === 'plan') return await planCommand(cmd, base, io);
    let mission: HeadlessMission;
    if (cmd.kind === 'run') {
      mission = document?.ok
        ? { ...base, task: document.value.task, constraints: [], plan: document.value.plan }
        : { ...base, task: cmd.task, constraints: cmd.constraints };
    } else {
      const choice = await chooseContinuation(FileStore.forWorkspace((await NodeWorkspace.open(resolve(cmd.workspace))).root), cmd.mission);
      if (!choice.ok) {
        io.stderr.write(`error: ${choice.error}\n`);
        return EXIT.usage;
      }
      mission = { ...base, task: choice.value.task, constraints: [], goOn: { missionId: choice.value.missionId, mode: choice.value.mode } };
    }
    const { report, plan, byRole } = await runHeadless(mission, io);
    io.stdout.write(`${cmd.json ? JSON.stringify({ report, plan, byRole }, null, 2) : terminalSafe(formatReport(report, plan, byRole))}\n`);
    return exitCodeFor(report, plan);
  } catch (error) {
    io.stderr.write(`error: ${errorText(error)}\n`);
    return EXIT.failed;
  }
}

/** Why `--workspace` cannot be worked in (undefined: it is a folder). */
function workspaceProblem(path: string): string | undefined {
  try {
    if (statSync(resolve(path)).isDirectory()) return undefined;
    return `--workspace ${path} is not a folder`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `--workspace ${path} does not exist` : `--workspace ${path} cannot be read (${code ?? 'unknown error'})`;
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
