/**
 * The webview's check of what the host posts. The host is the extension itself and validates everything
 * it receives with the zod schemas in ./protocol.ts; in this direction the check only keeps a stale or
 * malformed message from breaking the render. It is structural and hand-written so zod stays out of the
 * webview bundle (with zod: ~570 KB; without: ~120 KB). The Record types below make the compiler flag a
 * status or message type added to the protocol but not here.
 */
import type { StepRunStatus } from '../core/contracts/traceEvents';
import type { SidebarState, ToWebview } from './protocol';

const STATUSES: Record<StepRunStatus, true> = {
  pending: true, ready: true, running: true, verifying: true, succeeded: true, failed: true,
  blocked: true, skipped: true, interrupted: true, cancelled: true, replaced: true, reverted: true,
};
const TYPES: Record<ToWebview['type'], true> = { state: true, didChangeStepStatus: true, didRequestTaskFocus: true, didNotify: true };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const arrayOf = (v: unknown, item: (x: unknown) => boolean): boolean => Array.isArray(v) && v.every(item);
const isStatus = (v: unknown): v is StepRunStatus => isStr(v) && Object.hasOwn(STATUSES, v);

function isStep(v: unknown): boolean {
  return (
    isObj(v) && isStr(v.id) && isStr(v.title) && isStr(v.why) && isStr(v.instructions) && isBool(v.required) && isStatus(v.status) &&
    arrayOf(v.dependsOn, isStr) && arrayOf(v.evidence, isStr) && isObj(v.authority) && arrayOf(v.authority.edit, isStr) &&
    arrayOf(v.authority.commands, isStr) && isObj(v.binding) && arrayOf(v.files, (f) => isObj(f) && isStr(f.path))
  );
}

function isMission(v: unknown): boolean {
  return (
    isObj(v) && isStr(v.missionId) && isStr(v.task) && isStr(v.phase) && isStr(v.goal) && arrayOf(v.constraints, isStr) &&
    (v.planVersion === null || isNum(v.planVersion)) && arrayOf(v.steps, isStep) && isNum(v.costUsd) && isBool(v.live) &&
    arrayOf(v.versions, (x) => isObj(x) && isNum(x.version) && isStr(x.reason) && isStr(x.author)) &&
    (v.failure === null || (isObj(v.failure) && isStr(v.failure.message))) && arrayOf(v.actions, (a) => isObj(a) && isStr(a.kind)) &&
    arrayOf(v.replans, (r) => isObj(r) && isStr(r.trigger) && arrayOf(r.refusedBecause, isStr)) && arrayOf(v.waits, (w) => isObj(w) && isStr(w.until) && isStr(w.reason))
  );
}

function isState(v: unknown): v is SidebarState {
  return (
    isObj(v) && isNum(v.rev) && isBool(v.trusted) && isBool(v.hasApiKey) && (v.busy === null || (isObj(v.busy) && isStr(v.busy.label))) &&
    (v.mission === null || isMission(v.mission)) &&
    arrayOf(v.approvals, (a) => isObj(a) && isStr(a.requestId) && (a.kind === 'write' || a.kind === 'command')) &&
    arrayOf(v.rules, (r) => isObj(r) && isStr(r.id) && isStr(r.pattern)) &&
    (v.planAwaitingApproval === null || isNum(v.planAwaitingApproval)) && (v.taskPrefill === null || isStr(v.taskPrefill))
  );
}

/** The message, or undefined when it does not have the shape the protocol promises. */
export function parseHostMessage(data: unknown): ToWebview | undefined {
  if (!isObj(data) || !isStr(data.type) || !Object.hasOwn(TYPES, data.type)) return undefined;
  switch (data.type as ToWebview['type']) {
    case 'state':
      return isState(data.state) ? (data as ToWebview) : undefined;
    case 'didChangeStepStatus':
      return isNum(data.rev) && isStr(data.stepId) && isStatus(data.status) && (data.reason === undefined || isStr(data.reason)) ? (data as ToWebview) : undefined;
    case 'didRequestTaskFocus':
      return data as ToWebview;
    case 'didNotify':
      return (data.level === 'info' || data.level === 'warning' || data.level === 'error') && isStr(data.message) ? (data as ToWebview) : undefined;
  }
}
