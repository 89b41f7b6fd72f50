/**
 * The hooks that run before any step, when a mission starts: SessionStart (matcher `startup`), then
 * UserPromptSubmit with the task as the prompt. Before any model call: a UserPromptSubmit block (exit 2, or
 * `decision: "block"`) means the mission does not start, and the user reads the hook's reason; what the
 * hooks print (plain stdout, or `additionalContext`) joins the planner's context.
 *
 * Where they run: a project hook in a read-only OS sandbox of the workspace (nothing in it writable, the
 * home and secrets hidden, no network — the sandbox MCP servers are listed in), never unconfined unless the
 * user turned the sandbox off; with no sandbox here it does not run, and that failure names it. A user
 * hook unconfined, as the user.
 */
import type { HookEvent } from '../contracts/hooks';
import { err, ok, type Result } from '../contracts/result';
import { hooksFor } from '../hooks/matching';
import { notRun, placed, runEventHooks, unconfinedLauncher, type EventRun, type HookEnv, type HookLauncher } from '../hooks/run';
import { serverSandboxSpec } from '../mcp/serverSandbox';
import { unattendedConfinementFor } from '../policy/confinement';
import type { SandboxSpecResult } from '../policy/sandboxSpec';
import type { MissionContext } from './missionContext';
import { permissionModeOf, type HookContext } from './userSetup';

/** A read-only sandbox of the workspace for project hooks, or unconfined for the user's. */
function startLauncher(run: MissionContext, env: HookEnv): HookLauncher {
  const { options } = run;
  const unconfined = unconfinedLauncher(env);
  let spec: Promise<SandboxSpecResult> | undefined;
  return async (hook, request) => {
    if (hook.origin === 'user') return unconfined(hook, request);
    const how = unattendedConfinementFor(options.toolSettings?.sandbox ?? 'required', await options.terminal.confinement());
    if (!how.ok) return notRun(`project hooks run only inside the OS sandbox, and there is none here: ${how.error.missing}`);
    if (how.value === 'unsandboxed') return unconfined(hook, request);
    spec ??= serverSandboxSpec(options.workspace, env.env, false, options.terminal.hostFacts(env.env), options.toolSettings?.allowSensitive ?? []);
    const built = await spec;
    if (!built.ok) return notRun(`its sandbox could not be prepared: ${built.error}`);
    return { run: await env.runner.run(placed(request, built.value), env.signal), accepted: [], refused: [] };
  };
}

function contextOf(event: HookEvent, run: EventRun): HookContext {
  return run.verdicts
    .filter((v) => v.answer.context !== '')
    .map((v) => ({ source: `${event} hook \`${v.hook.command}\` (${v.hook.source})`, text: v.answer.context }));
}

/** Runs the start hooks: the planner's extra context, or why the mission must not start. */
export async function runStartHooks(run: MissionContext): Promise<Result<HookContext, string>> {
  const setup = run.options.hooks;
  if (!setup || setup.set.hooks.length === 0) return ok([]);
  const env: HookEnv = {
    missionId: run.missionId,
    root: run.options.workspace.root,
    ...(setup.transcriptPath ? { transcriptPath: setup.transcriptPath(run.missionId) } : {}),
    permissionMode: permissionModeOf(run.options.approve),
    env: run.options.env ?? {},
    runner: setup.runner,
    record: (e) => run.record(e),
    signal: run.abort.signal,
  };
  const launch = startLauncher(run, env);
  const session = await runEventHooks(env, 'SessionStart', hooksFor(setup.set.hooks, 'SessionStart', 'startup'), { source: 'startup' }, launch, {
    stepId: null,
  });
  const prompt = await runEventHooks(env, 'UserPromptSubmit', hooksFor(setup.set.hooks, 'UserPromptSubmit'), { prompt: run.options.task }, launch, {
    stepId: null,
  });
  if (prompt.combined.decision === 'block') {
    return err(`a UserPromptSubmit hook blocked the task: ${prompt.combined.reason} (${prompt.combined.by.join('; ')})`);
  }
  return ok([...contextOf('SessionStart', session), ...contextOf('UserPromptSubmit', prompt)]);
}
