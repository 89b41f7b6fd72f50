/**
 * What a replay must do to reproduce a recorded mission, read from its trace: the runs of the mission (the
 * first, then each time the user went on with it — Retry, Continue, Resume), each with the model calls and
 * approval decisions recorded during it, and the reverts the user made between runs. Pure: the CLI carries
 * it out (src/node/cliReplay.ts).
 *
 * Some things a user did cannot be replayed, because the trace does not say exactly when they landed: a
 * cancel (the kill switch), a window closed mid-mission, a correction sent while steps ran, a plan edited by
 * hand. The script ends at the first of them, with a `stop` saying what it was; the replay goes as far as
 * that point and says so, rather than reporting a divergence that is nobody's fault.
 */
import { err, ok, type Result } from '../contracts/result';
import type { TraceEvent } from '../contracts/traceEvents';

type Event<T extends TraceEvent['type']> = Extract<TraceEvent, { type: T }>;

/** A decision recorded for one approval request, keyed by what was asked. */
export interface RecordedApproval {
  kind: 'plan' | 'write' | 'command' | 'mcp';
  stepId: string | null;
  actionHash: string;
  decision: Event<'approval_decided'>['decision'];
}

/** Where the recording stops being replayable, and why, in words for the user. */
interface ReplayStop {
  seq: number;
  why: string;
}

export interface ReplayRun {
  kind: 'run';
  /** How this run began: the mission's start, or the user going on with it. */
  mode: 'start' | Event<'mission_continued'>['mode'];
  /** The settings the run ran with (mission_started's, or the latest mission_continued's). */
  settings: Record<string, unknown>;
  /** The run's model_call events, for the replay model client. */
  calls: Event<'model_call'>[];
  approvals: RecordedApproval[];
  /** How the recorded run ended (absent: it did not end before the stop). */
  outcome?: Event<'mission_finished'>['outcome'];
  /** The recording stops being replayable within this run (the last run of the script). */
  stop?: ReplayStop;
}

export interface ReplayRevert {
  kind: 'revert';
  seq: number;
  stepIds: string[];
  files: Event<'revert'>['files'];
  overwrote: string[];
}

type ReplayPart = ReplayRun | ReplayRevert;

export type ReplayScript = Result<{ task: string; workspaceRoot: string; constraints: string[]; parts: ReplayPart[] }, string>;

/** The script for a trace (events in recorded order). */
export function replayScriptOf(events: readonly TraceEvent[]): ReplayScript {
  const started = events.find((e): e is Event<'mission_started'> => e.type === 'mission_started');
  if (!started) return err('the trace has no mission_started event');
  const firstPlan = events.find((e): e is Event<'plan_version'> => e.type === 'plan_version');
  const parts: ReplayPart[] = [];
  let run: ReplayRun = { kind: 'run', mode: 'start', settings: started.settings, calls: [], approvals: [] };
  parts.push(run);
  const asked = new Map<string, Event<'approval_requested'>>();
  // Older traces do not record the user's constraints: the first plan repeats them (and may add its own).
  const constraints = started.constraints ?? firstPlan?.plan.constraints ?? [];
  const script = (): ReplayScript => ok({ task: started.task, workspaceRoot: started.workspaceRoot, constraints, parts });
  const stopAt = (e: TraceEvent, why: string): ReplayScript => {
    run.stop = { seq: e.seq, why };
    return script();
  };
  for (const e of events) {
    if (e.seq <= started.seq) continue;
    switch (e.type) {
      case 'model_call':
        run.calls.push(e);
        break;
      case 'approval_requested':
        asked.set(e.requestId, e);
        break;
      case 'approval_decided': {
        const request = asked.get(e.requestId);
        if (request) run.approvals.push({ kind: request.kind, stepId: request.stepId, actionHash: request.actionHash, decision: e.decision });
        break;
      }
      case 'plan_version':
        if (e.author === 'user')
          return stopAt(e, `the user edited the plan by hand (v${e.plan.version}); a replay cannot make that edit at the moment it was made`);
        break;
      case 'log':
        // handle.correct() logs the user's words when they arrive (start.ts); the replan follows later.
        if (/^user correction\b/.test(e.message))
          return stopAt(e, 'the user sent a correction while the mission ran; a replay cannot send it at the moment it arrived');
        break;
      case 'mission_finished':
        run.outcome = e.outcome;
        // A rejected plan also ends as cancelled, but its decision is recorded and replays.
        if (e.outcome === 'cancelled' && e.failure?.class !== 'rejected_by_user')
          return stopAt(e, 'the user cancelled the recorded mission; a replay cannot know where the cancel landed');
        break;
      case 'revert':
        parts.push({ kind: 'revert', seq: e.seq, stepIds: e.stepIds, files: e.files, overwrote: e.overwrote });
        break;
      case 'mission_continued':
        if (run.outcome === undefined)
          return stopAt(e, 'the recorded mission was cut off (VS Code closed or the process ended) and resumed later; a replay cannot know where it was cut');
        run = { kind: 'run', mode: e.mode, settings: e.settings ?? run.settings, calls: [], approvals: [] };
        parts.push(run);
        break;
      default:
        break;
    }
  }
  const last = events.at(-1);
  if (run.outcome === undefined && last) return stopAt(last, 'the recording ends before the mission did');
  return script();
}
