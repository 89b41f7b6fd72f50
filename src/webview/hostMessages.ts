/**
 * The webview's check of what the host posts. The host is the extension itself and validates everything
 * it receives with the zod schemas in ./protocol.ts; in this direction the check only keeps a stale or
 * malformed message from breaking the render. It is structural and hand-written so zod stays out of the
 * webview bundle (with zod: ~570 KB; without: ~120 KB). The Record types below make the compiler flag a
 * status or message type added to the protocol but not here.
 */
import type { StepRunStatus } from '../core/contracts/traceEvents';
import type { SurfaceState, ToWebview } from './protocol';

const STATUSES: Record<StepRunStatus, true> = {
  pending: true,
  ready: true,
  running: true,
  verifying: true,
  succeeded: true,
  failed: true,
  blocked: true,
  skipped: true,
  interrupted: true,
  cancelled: true,
  replaced: true,
  reverted: true,
};
const TYPES: Record<ToWebview['type'], true> = {
  state: true,
  didChangeStepStatus: true,
  didRequestTaskFocus: true,
  didNotify: true,
  didSelectStep: true,
  didRequestQueueFocus: true,
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const arrayOf = (v: unknown, item: (x: unknown) => boolean): boolean => Array.isArray(v) && v.every(item);
const isRunStatus = (v: unknown): v is StepRunStatus => isStr(v) && Object.hasOwn(STATUSES, v);

function isStep(v: unknown): boolean {
  return (
    isObj(v) &&
    isStr(v.id) &&
    isStr(v.title) &&
    isStr(v.why) &&
    isStr(v.instructions) &&
    isBool(v.required) &&
    isRunStatus(v.status) &&
    arrayOf(v.dependsOn, isStr) &&
    arrayOf(v.evidence, isStr) &&
    isObj(v.authority) &&
    arrayOf(v.authority.edit, isStr) &&
    arrayOf(v.authority.commands, isStr) &&
    (v.authority.mcp === undefined || arrayOf(v.authority.mcp, isStr)) &&
    isObj(v.binding) &&
    arrayOf(v.files, (f) => isObj(f) && isStr(f.path)) &&
    isBool(v.inPlan) &&
    arrayOf(v.commands, (c) => isObj(c) && isStr(c.command)) &&
    (v.verification === null || (isObj(v.verification) && arrayOf(v.verification.checks, (c) => isObj(c) && isStr(c.check)))) &&
    (v.hooks === undefined || arrayOf(v.hooks, (r) => isObj(r) && isStr(r.event) && isStr(r.command) && isStr(r.decision) && arrayOf(r.writes, isStr)))
  );
}

/** The hooks card: absent, or files each with a source and its commands. */
const isHooks = (v: unknown): boolean =>
  v === undefined ||
  (isObj(v) &&
    isStr(v.fingerprint) &&
    isBool(v.canTrust) &&
    arrayOf(
      v.files,
      (f) => isObj(f) && isStr(f.source) && isBool(f.trusted) && arrayOf(f.notes, isStr) && arrayOf(f.hooks, (x) => isObj(x) && isStr(x.command)),
    ));

function isMission(v: unknown): boolean {
  return (
    isObj(v) &&
    isStr(v.missionId) &&
    isStr(v.task) &&
    isStr(v.phase) &&
    isStr(v.goal) &&
    arrayOf(v.constraints, isStr) &&
    (v.planVersion === null || isNum(v.planVersion)) &&
    arrayOf(v.steps, isStep) &&
    isNum(v.costUsd) &&
    isBool(v.live) &&
    arrayOf(
      v.versions,
      (x) =>
        isObj(x) &&
        isNum(x.version) &&
        isStr(x.reason) &&
        isStr(x.author) &&
        arrayOf(x.changes, (c) => isObj(c) && isStr(c.stepId) && isStr(c.before) && isStr(c.after)),
    ) &&
    arrayOf(v.replans, (r) => isObj(r) && isStr(r.trigger) && isStr(r.detail) && isNum(r.fromVersion) && arrayOf(r.refusedBecause, isStr)) &&
    (v.failure === null || (isObj(v.failure) && isStr(v.failure.message))) &&
    arrayOf(v.actions, (a) => isObj(a) && isStr(a.kind)) &&
    arrayOf(v.waits, (w) => isObj(w) && isStr(w.until) && isStr(w.reason)) &&
    (v.phaseLabel === null || isStr(v.phaseLabel)) &&
    isInstructions(v.instructions) &&
    (v.mcpServers === undefined ||
      arrayOf(v.mcpServers, (m) => isObj(m) && isStr(m.name) && isStr(m.status) && arrayOf(m.tools, (t) => isObj(t) && isStr(t.name))))
  );
}

function isApproval(a: unknown): boolean {
  if (!isObj(a) || !isStr(a.requestId) || !isStr(a.at) || !isBool(a.verification) || !isStr(a.why)) return false;
  if (a.answers !== undefined && !isStr(a.answers)) return false;
  if (a.kind === 'write') return isStr(a.path) && (a.size === null || (isObj(a.size) && isNum(a.size.added) && isNum(a.size.removed)));
  if (a.kind === 'mcp') return isStr(a.server) && isStr(a.tool) && isStr(a.arguments) && isBool(a.readOnly) && isStr(a.confinement);
  return a.kind === 'command' && isStr(a.command) && isStr(a.cwd);
}

/** An instructions list: absent (older host), or files with a path, a size and a state. */
const isInstructions = (v: unknown): boolean =>
  v === undefined ||
  (isObj(v) &&
    isStr(v.source) &&
    arrayOf(v.notes, isStr) &&
    arrayOf(v.files, (f) => isObj(f) && isStr(f.path) && isNum(f.size) && isStr(f.scope) && isStr(f.state) && arrayOf(f.notes, isStr)));

const isNullableStr = (v: unknown): boolean => v === null || isStr(v);

function isStatus(v: unknown): boolean {
  return (
    isObj(v) &&
    isStr(v.kind) &&
    isStr(v.label) &&
    isNullableStr(v.detail) &&
    isBool(v.active) &&
    isObj(v.waiting) &&
    isNum(v.waiting.count) &&
    isStr(v.waiting.summary) &&
    (v.steps === null || (isObj(v.steps) && isNum(v.steps.done) && isNum(v.steps.total))) &&
    (v.costUsd === null || isNum(v.costUsd))
  );
}

function isState(v: unknown): v is SurfaceState {
  return (
    isObj(v) &&
    isNum(v.rev) &&
    isBool(v.trusted) &&
    isBool(v.hasApiKey) &&
    (v.busy === null || (isObj(v.busy) && isStr(v.busy.label))) &&
    (v.mission === null || isMission(v.mission)) &&
    arrayOf(v.approvals, isApproval) &&
    arrayOf(v.rules, (r) => isObj(r) && isStr(r.id) && isStr(r.pattern) && isStr(r.kind)) &&
    (v.planAwaitingApproval === null || isNum(v.planAwaitingApproval)) &&
    isNullableStr(v.taskPrefill) &&
    isNullableStr(v.taskDraft) &&
    isBool(v.demo) &&
    arrayOf(v.notices, (n) => isObj(n) && isStr(n.id) && isStr(n.message) && arrayOf(n.actions, isStr)) &&
    isStatus(v.status) &&
    isInstructions(v.instructions) &&
    isHooks(v.hooks)
  );
}

/** The message, or undefined when it does not have the shape the protocol promises. */
export function parseHostMessage(data: unknown): ToWebview | undefined {
  if (!isObj(data) || !isStr(data.type) || !Object.hasOwn(TYPES, data.type)) return undefined;
  switch (data.type as ToWebview['type']) {
    case 'state':
      return isState(data.state) ? (data as ToWebview) : undefined;
    case 'didChangeStepStatus':
      return isNum(data.rev) && isStr(data.stepId) && isRunStatus(data.status) && (data.reason === undefined || isStr(data.reason))
        ? (data as ToWebview)
        : undefined;
    case 'didRequestTaskFocus':
      return data as ToWebview;
    case 'didNotify':
      return (data.level === 'info' || data.level === 'warning' || data.level === 'error') && isStr(data.message) ? (data as ToWebview) : undefined;
    case 'didSelectStep':
      return isStr(data.stepId) ? (data as ToWebview) : undefined;
    case 'didRequestQueueFocus':
      return data as ToWebview;
  }
}
