/**
 * Before a mission's first command: if git tracks secrets (policy/trackedSecrets.ts), the mission says so,
 * names the files and asks once — the front end decides how (VS Code: a confirmation remembered for the
 * mission; the CLI: refused unless `--allow-tracked-secrets`). The decision is a trace event, so a resumed
 * mission does not ask again. Not asked when the plan runs no command, when the sandbox is off (then no
 * secret is hidden from commands at all, as the setting says), or when git tracks none.
 */
import type { Plan } from '../contracts/plan';
import type { TraceEventBody } from '../contracts/traceEvents';
import { trackedSecretFiles, trackedSecretsMessage } from '../policy/trackedSecrets';
import { PEEK_BYTES } from '../policy/secrets';
import { globMatcher } from '../policy/globMatcher';
import type { MissionOptions, TrackedSecretsDecision } from './options';

/** What of the mission run this needs (engine.ts's MissionRun). */
interface TrackedSecretsRun {
  readonly options: MissionOptions;
  readonly plan: Plan;
  readonly abort: AbortController;
  trackedSecretsSettled: boolean;
  record(body: TraceEventBody): Promise<void>;
  fail(message: string): void;
}

/** Whether any step of the plan runs a command (its own, its evidence, or a constraint's check). */
function runsCommands(plan: Plan): boolean {
  return (
    plan.steps.some((s) => s.authority.commands.length > 0 || s.evidence.checks.some((c) => c.kind === 'command')) ||
    (plan.constraintChecks ?? []).some((c) => c.check.kind === 'command')
  );
}

/**
 * Settles the question once per mission; true when commands may run. On a refusal the mission is failed
 * (run.fail) with the message and what would allow it.
 */
export async function settleTrackedSecrets(run: TrackedSecretsRun): Promise<boolean> {
  if (run.trackedSecretsSettled) return true;
  const { options } = run;
  if ((options.toolSettings?.sandbox ?? 'required') === 'off' || !runsCommands(run.plan) || !options.workspace.gitTrackedFiles) return true;
  const tracked = (await options.workspace.gitTrackedFiles()) ?? [];
  const fs = options.workspace.policyFs;
  const granted = globMatcher(options.toolSettings?.allowSensitive ?? [], { dot: true, nocase: true });
  const files = trackedSecretFiles(tracked, (rel) => fs.readTextSync(`${options.workspace.root}/${rel}`, PEEK_BYTES), granted);
  run.trackedSecretsSettled = true;
  if (files.length === 0) return true;
  const message = trackedSecretsMessage(files);
  const decision: TrackedSecretsDecision = options.trackedSecrets
    ? await options.trackedSecrets.confirm(files, message, run.abort.signal)
    : { allowed: false, by: 'flag', howToAllow: 'the front end gave no way to allow it (MissionOptions.trackedSecrets)' };
  await run.record({ type: 'tracked_secrets', files, message, allowed: decision.allowed, by: decision.by });
  if (decision.allowed) return true;
  run.fail(`${message} No command was run. To go on anyway: ${decision.howToAllow}; or remove them from git's history first.`);
  return false;
}
