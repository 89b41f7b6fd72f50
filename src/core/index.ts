/**
 * The public library API, bundled to dist/core.js (CommonJS, no vscode). DESIGN.md ("Contracts") lists
 * what other tools rely on: validatePlan, applyEdit, checkAction, policyFor, runMission.
 * Each area's owner appends its exports below; keep one line per source file.
 */
export * from './plan/schema';
export * from './mission/results';
export * from './handoff/schema';
export * from './trace/events';
export type * from './ports';
export * from './plan/validate';
export * from './plan/graph';
export * from './plan/diff';
export * from './plan/history';
export * from './plan/edits';
export * from './plan/globs';
export * from './mission/scheduler';
export * from './handoff/toolCallStore';
export * from './handoff/contextBudget';
export * from './handoff/builder';
export * from './trace/recorder';
export * from './trace/jsonl';
export * from './trace/analytics';
export * from './tools/applyEdit';
export * from './tools/policy';
export * from './tools/commandParse';
export * from './tools/commandPolicy';
export * from './tools/workspacePath';
export * from './tools/textFile';
export * from './tools/hash';
export * from './model/modelClient';
export * from './model/anthropicClient';
export * from './model/faults';
export * from './model/pricing';
export * from './model/modelSettings';
export * from './model/requestHash';
export * from './model/replayClient';
export * from './roles/createRoles';
export * from './roles/planner';
export * from './roles/executor';
export * from './roles/verifier';
export * from './roles/planDraft';
export * from './roles/toolDefs';
export * from './roles/workspaceSummary';
export * from './mission/options';
export * from './mission/start';
export * from './mission/view';
export * from './mission/state';
export * from './mission/replan';
export * from './mission/gate';
export * from './mission/budgets';
export * from './mission/direct';
export * from './tools/stepTools';
export * from './tools/approvalGate';
export * from './tools/actionHash';
export * from './tools/checkpoints';
export * from './tools/env';
export * from './tools/outputCap';
export * from './tools/lineDiff';
