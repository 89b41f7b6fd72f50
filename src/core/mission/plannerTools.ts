/**
 * The replanner's lookups: read-only tools over the workspace and the mission's tool-call store, so a
 * replan can read a failed step's raw output by tool-call id (results travel by reference, the request
 * carries only capped summaries). Built with the mission's own step-tools factory — same policy, same
 * recording — for role 'verifier' (the policy refuses every write) with no commands, then cut down to the
 * four read-only methods: the replanner never holds a write method, not even by casting, and its model
 * request offers only the lookup tools (see roles/planner.ts).
 *
 * The calls are recorded like any tool call, under the pseudo step id `_replanner` (a leading "_" is not a
 * valid plan step id, so it never collides with a step) and with role 'replanner', which is who made them.
 */
import type { ToolCallRecord } from '../contracts/handoff';
import type { Step } from '../contracts/plan';
import type { ReadOnlyTools, StepToolsContext, ToolCallLog } from '../ports';
import type { TraceEventBody } from '../contracts/traceEvents';
import { createStepTools } from '../tools/stepTools';
import { readOnly } from './gate';
import { DEFAULT_TOOL_SETTINGS } from './options';
import type { MissionContext } from './missionContext';

const REPLANNER_STEP_ID = '_replanner';

const LOOKUP_STEP: Step = {
  id: REPLANNER_STEP_ID,
  title: 'replanner lookups',
  why: 'read-only lookups while replanning',
  required: false,
  dependsOn: [],
  kind: 'research',
  instructions: '',
  authority: { read: ['**'], edit: [], commands: [], network: false, mcp: [] },
  binding: { prerequisite: '', fallback: '', consequence: '' },
  expectedOutput: '',
  evidence: { checks: [], description: '' },
  risk: 'low',
  effort: 'small',
  modelTier: 'standard',
};

export function replannerLookups(run: MissionContext): ReadOnlyTools {
  const asReplanner = (r: ToolCallRecord): ToolCallRecord => ({ ...r, role: 'replanner' });
  const toolCalls: ToolCallLog = {
    add: (record) => run.toolCalls.add(asReplanner(record)),
    get: (id) => run.toolCalls.get(id),
    all: () => run.toolCalls.all(),
    findReusable: (tool, input, hashOf) => run.toolCalls.findReusable(tool, input, hashOf),
  };
  const record = (body: TraceEventBody): Promise<void> => run.record(body.type === 'tool_call' ? { ...body, record: asReplanner(body.record) } : body);
  const ctx: StepToolsContext = {
    missionId: run.missionId,
    step: LOOKUP_STEP,
    role: 'verifier',
    workspace: run.options.workspace,
    terminal: run.options.terminal,
    approver: run.stepApprover,
    store: run.options.store,
    clock: run.options.clock,
    toolCalls,
    record,
    settings: { ...DEFAULT_TOOL_SETTINGS, ...run.options.toolSettings },
    env: {},
    signal: run.abort.signal,
  };
  const factory = run.options.createStepTools ?? ((c: StepToolsContext) => createStepTools(c));
  return readOnly(factory(ctx));
}
