/**
 * Synthetic sidebar states for the webview bench and UI tests: an N-step plan with dependencies,
 * authority and evidence, plus a few approvals and versions. Pure data; no DOM, no vscode.
 */
import type { MissionView, StepView, SurfaceState } from '../../src/webview/protocol';
import { missionStatus } from '../../src/vscode/view/missionStatus';

export function syntheticStep(i: number, overrides: Partial<StepView> = {}): StepView {
  const id = `s${i}`;
  return {
    id,
    title: `Step ${i}: update module ${i % 37} and its tests`,
    why: `Module ${i % 37} must expose the new API before its dependents can use it.`,
    required: i % 5 !== 0,
    dependsOn: i > 1 ? [`s${i - 1}`] : [],
    kind: i % 4 === 0 ? 'verify' : 'edit',
    instructions: `Edit src/module${i % 37}.ts: add the function, keep the old one as a wrapper.\nRun the unit tests.`,
    authority: {
      read: ['**'],
      edit: [`src/module${i % 37}.ts`, `test/module${i % 37}.test.ts`],
      commands: i % 3 === 0 ? ['npm test'] : [],
      network: false,
      mcp: [],
    },
    binding: { prerequisite: i > 1 ? `s${i - 1} done` : '', fallback: 'ask for a replan', consequence: `module${i % 37} exports foo()` },
    evidence: ['run `npm test` → exit 0'],
    risk: i % 7 === 0 ? 'high' : i % 3 === 0 ? 'medium' : 'low',
    effort: i % 2 === 0 ? 'small' : 'medium',
    status: 'pending',
    attempt: 0,
    files: [],
    inPlan: true,
    commands: [],
    verification: null,
    hooks: [],
    ...overrides,
  };
}

export function syntheticMission(steps: number, overrides: Partial<MissionView> = {}): MissionView {
  return {
    missionId: 'm-bench',
    task: 'Refactor every module to the new API',
    phase: 'running',
    goal: 'Every module exposes foo() and the tests pass',
    assumptions: ['tests run with npm test'],
    constraints: ['never touch package.json'],
    planVersion: 2,
    steps: Array.from({ length: steps }, (_, k) => syntheticStep(k + 1)),
    versions: [
      { version: 1, parentVersion: null, author: 'planner', reason: 'initial plan', diff: null, at: '2026-01-01T00:00:00.000Z', stepCount: steps, changes: [] },
      {
        version: 2,
        parentVersion: 1,
        author: 'user',
        reason: 'user edited the instructions of s3',
        diff: { added: [], removed: [], changed: [{ stepId: 's3', fields: ['instructions'] }] },
        at: '2026-01-01T00:01:00.000Z',
        stepCount: steps,
        changes: [
          {
            stepId: 's3',
            field: 'instructions',
            before: 'Edit src/module3.ts.',
            after: 'Edit src/module3.ts: add the function, keep the old one as a wrapper.',
          },
        ],
      },
    ],
    replans: [],
    phaseReason: null,
    phaseLabel: null,
    approvedVersion: 2,
    costUsd: 0.0123,
    outcome: null,
    summary: null,
    failure: null,
    actions: [],
    waits: [],
    live: true,
    ...overrides,
  };
}

/** The state with its status computed again from its parts (after a test changed the mission or the queue). */
export function restatus(state: Omit<SurfaceState, 'status'> & { status?: SurfaceState['status'] }, resuming = false): SurfaceState {
  const { mission, approvals, planAwaitingApproval, demo } = state;
  const status = missionStatus({ mission, busy: state.busy?.label ?? null, resuming, approvals, planAwaitingApproval, demo });
  return { ...state, status };
}

export function syntheticState(steps: number, rev = 1): SurfaceState {
  return restatus({
    rev,
    trusted: true,
    hasApiKey: true,
    busy: null,
    mission: syntheticMission(steps),
    approvals: [
      {
        kind: 'write',
        requestId: 'r1',
        stepId: 's1',
        stepTitle: 'Step 1: update module 1 and its tests',
        stepWhy: 'Module 1 must expose the new API.',
        why: 'add foo()',
        at: '2026-01-01T00:02:00.000Z',
        verification: false,
        path: 'src/module1.ts',
        change: 'modified',
        size: { added: 12, removed: 3 },
      },
      {
        kind: 'command',
        requestId: 'r2',
        stepId: 's3',
        stepTitle: 'Step 3: update module 3 and its tests',
        stepWhy: 'Module 3 must expose the new API.',
        why: 'run the tests',
        at: '2026-01-01T00:02:01.000Z',
        verification: true,
        command: 'npm test',
        cwd: '/work/app',
      },
    ],
    planAwaitingApproval: null,
    rules: [{ id: 'rule-1', kind: 'write', pattern: 'test/**' }],
    taskPrefill: null,
    taskDraft: null,
    demo: false,
    notices: [],
  });
}
