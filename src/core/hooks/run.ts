/**
 * Runs the hooks of one event, one after another in the order they are declared (Claude Code starts them
 * side by side; a hook must not rely on either), and records each run as a `hook_run` trace event: its
 * event, source file, command, exit, duration, decision, whether it timed out, and what it said. Where a
 * hook runs — the step's sandbox, a read-only sandbox of the workspace, or unconfined as the user — is the
 * caller's `launch` (src/core/tools/stepHooks.ts, src/core/mission/promptHooks.ts): this module never
 * decides confinement.
 *
 * Every hook gets Claude Code's input on stdin — `session_id` (the mission), `transcript_path` (the
 * trace), `cwd` (the workspace root), `hook_event_name`, `permission_mode`, plus the event's own fields —
 * and `CLAUDE_PROJECT_DIR` (the workspace root) in its environment.
 */
import type { FileChange } from '../contracts/results';
import type { Hook, HookEvent, HookRunRecord } from '../contracts/hooks';
import type { TraceEventBody } from '../contracts/traceEvents';
import type { HookProcessRequest, HookProcessRun, HookRunner } from '../ports';
import type { SandboxSpec } from '../contracts/sandbox';
import type { StagingRequest } from '../contracts/staging';
import { answerOf, combine, type Combined, type HookVerdict } from './answer';

/** Bytes of stdout and of stderr kept per hook run. */
const HOOK_OUTPUT_BYTES = 64 * 1024;

/** What every hook run of a mission shares. */
export interface HookEnv {
  missionId: string;
  /** Absolute, real: the workspace root. */
  root: string;
  /** The mission's trace file, when the front end knows where it is. */
  transcriptPath?: string;
  /** Claude Code's name for the approval mode: `default`, `acceptEdits` or `bypassPermissions`. */
  permissionMode: string;
  /** The scrubbed environment commands get. */
  env: Record<string, string>;
  runner: HookRunner;
  record(event: TraceEventBody): Promise<void>;
  signal: AbortSignal;
}

/** A hook's run as its launcher reports it: the process, and what became of its writes. */
export interface HookLaunch {
  run: HookProcessRun;
  /** Its writes refused (outside what the step may change) or never applied, each with why. */
  refused: string[];
  /** Its writes that reached the workspace (checkpointed: a block takes them back). */
  accepted: FileChange[];
}

/** What a launcher gets: the request without its place, and the variables the hook adds to any environment. */
export type HookRequest = Omit<HookProcessRequest, 'sandbox' | 'staging'> & { hookEnv: Record<string, string> };

/** Runs one hook where the caller confines it (the request says what to run, with what input and environment). */
export type HookLauncher = (hook: Hook, request: HookRequest) => Promise<HookLaunch>;

/**
 * The request as the runner takes it, in its place: a confined process gets the spec's environment (the
 * sandbox's own, scrubbed), so the hook's variables — CLAUDE_PROJECT_DIR, the entry's `env` — go on top of it.
 */
export function placed(request: HookRequest, sandbox: SandboxSpec | null, staging?: StagingRequest): HookProcessRequest {
  const { hookEnv, ...rest } = request;
  return { ...rest, sandbox: sandbox ? { ...sandbox, env: { ...sandbox.env, ...hookEnv } } : null, ...(staging ? { staging } : {}) };
}

export interface EventRun {
  verdicts: HookVerdict[];
  combined: Combined;
  /** Every hook's writes that reached the workspace. */
  accepted: FileChange[];
  /** Every hook's writes that were refused, each naming its hook. */
  refused: string[];
  /** Warnings worth telling the model or the user (crashes, timeouts, malformed output), each naming its hook. */
  warnings: string[];
}

/** The stdin every hook gets, then the event's own fields. */
function hookInput(env: HookEnv, event: HookEvent, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    session_id: env.missionId,
    transcript_path: env.transcriptPath ?? '',
    cwd: env.root,
    hook_event_name: event,
    permission_mode: env.permissionMode,
    ...fields,
  };
}

export async function runEventHooks(
  env: HookEnv,
  event: HookEvent,
  hooks: readonly Hook[],
  fields: Record<string, unknown>,
  launch: HookLauncher,
  about: { stepId: string | null; tool?: string },
): Promise<EventRun> {
  const stdin = JSON.stringify(hookInput(env, event, fields));
  const out: EventRun = { verdicts: [], combined: combine([]), accepted: [], refused: [], warnings: [] };
  for (const hook of hooks) {
    if (env.signal.aborted) break;
    const hookEnv = { ...hook.env, CLAUDE_PROJECT_DIR: env.root };
    const request: HookRequest = {
      command: hook.command,
      stdin,
      cwd: env.root,
      env: { ...env.env, ...hookEnv },
      hookEnv,
      origin: hook.origin,
      timeoutMs: Math.round(hook.timeoutSec * 1000),
      maxOutputBytes: HOOK_OUTPUT_BYTES,
    };
    const launched = await launch(hook, request);
    const answer = answerOf(hook, launched.run);
    out.verdicts.push({ hook, answer });
    out.accepted.push(...launched.accepted);
    out.refused.push(...launched.refused.map((r) => `${r} — written by \`${hook.command}\` (${hook.source})`));
    if (answer.warning) out.warnings.push(answer.warning);
    const record: HookRunRecord = {
      stepId: about.stepId,
      event,
      source: hook.source,
      origin: hook.origin,
      command: hook.command,
      ...(about.tool !== undefined ? { tool: about.tool } : {}),
      exit: launched.run.exitCode,
      durationMs: Math.max(0, Math.round(launched.run.durationMs)),
      decision: answer.decision,
      timedOut: launched.run.timedOut,
      ...(answer.reason ? { reason: answer.reason } : {}),
      ...(answer.context ? { context: answer.context } : {}),
      ...(answer.warning ? { warning: answer.warning } : {}),
      writes: launched.refused,
    };
    await env.record({ type: 'hook_run', run: record });
  }
  out.combined = combine(out.verdicts);
  return out;
}

/** A run that never started, for a hook the caller could not place (no sandbox where one is required). */
export function notRun(why: string): HookLaunch {
  return { run: { exitCode: null, signal: null, timedOut: false, durationMs: 0, stdout: '', stderr: '', startError: why }, refused: [], accepted: [] };
}

/** A user hook: unconfined, as the user, writing what it writes (nothing of it is judged or taken back). */
export function unconfinedLauncher(env: HookEnv): HookLauncher {
  return async (_hook, request) => ({ run: await env.runner.run(placed(request, null), env.signal), refused: [], accepted: [] });
}
