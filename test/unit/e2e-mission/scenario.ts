/**
 * The end-to-end scenario: a 4-step plan where s1 and s2 are independent (they run in parallel),
 * s3 edits a file both feed, and s4 runs a real command through bash. Every model answer is scripted;
 * every tool call runs for real in a temp workspace through the sandboxed step tools.
 */
import type { ScenarioInput } from '../../support/messages-server/scenario';
import { wirePlan, wireStep as step } from '../../support/fixtures';

export const E2E_PLAN = wirePlan(
  [
    step('s1', {
      title: 'Create the greeting module',
      kind: 'edit',
      instructions: 'Create src/greet.js exporting greet(name).',
      authority: { read: ['**'], edit: ['src/greet.js'], commands: [] },
      evidence: { checks: [{ kind: 'files_exist', paths: ['src/greet.js'] }], description: '' },
    }),
    step('s2', {
      title: 'Create the farewell module',
      kind: 'edit',
      instructions: 'Create src/farewell.js exporting farewell(name).',
      authority: { read: ['**'], edit: ['src/farewell.js'], commands: [] },
      evidence: { checks: [{ kind: 'file_contains', path: 'src/farewell.js', text: 'Goodbye' }], description: '' },
    }),
    step('s3', {
      title: 'Use both modules in index.js',
      kind: 'edit',
      dependsOn: ['s1', 's2'],
      instructions: 'Make src/index.js print greet("world") and farewell("world").',
      authority: { read: ['**'], edit: ['src/index.js'], commands: [] },
      evidence: {
        checks: [
          { kind: 'file_contains', path: 'src/index.js', text: "require('./greet')" },
          { kind: 'review', criterion: 'src/index.js uses both modules' },
        ],
        description: '',
      },
    }),
    step('s4', {
      title: 'Run the program',
      kind: 'command',
      dependsOn: ['s3'],
      instructions: 'Run node src/index.js and confirm the greeting.',
      authority: { read: ['**'], edit: [], commands: ['node src/index.js'] },
      evidence: { checks: [{ kind: 'command', command: 'node src/index.js', expectExitCode: 0, expectOutputIncludes: 'Hello, world' }], description: '' },
    }),
  ],
  { goal: 'Greet and say goodbye from src/index.js', assumptions: ['node is installed'], constraints: ['Do not touch package.json'] },
);

const report = (output: string) => ({ toolUse: [{ name: 'report_result', input: { status: 'succeeded', output, evidence: [{ description: output }] } }] });

export const GREET = 'exports.greet = (name) => `Hello, ${name}`;\n';
export const FAREWELL = 'exports.farewell = (name) => `Goodbye, ${name}`;\n';

export function e2eScenario(options: { parallelLatencyMs?: number } = {}): ScenarioInput {
  const latency = options.parallelLatencyMs ?? 150;
  return {
    name: 'issue-4 e2e',
    rules: [
      { name: 'plan', match: { role: 'planner' }, turns: [{ structured: E2E_PLAN }] },
      {
        name: 's1',
        match: { role: 'executor', firstUserIncludes: '# Step s1:' },
        turns: [
          { latencyMs: latency, toolUse: [{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'src/greet.js', file_text: GREET } }] },
          report('src/greet.js created'),
        ],
      },
      {
        name: 's2',
        match: { role: 'executor', firstUserIncludes: '# Step s2:' },
        turns: [
          {
            latencyMs: latency,
            toolUse: [{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'src/farewell.js', file_text: FAREWELL } }],
          },
          report('src/farewell.js created'),
        ],
      },
      {
        name: 's3',
        match: { role: 'executor', firstUserIncludes: '# Step s3:' },
        turns: [
          {
            toolUse: [
              {
                name: 'str_replace_based_edit_tool',
                input: {
                  command: 'str_replace',
                  path: 'src/index.js',
                  old_str: "console.log('start');",
                  new_str:
                    "const { greet } = require('./greet');\nconst { farewell } = require('./farewell');\nconsole.log(greet('world'));\nconsole.log(farewell('world'));",
                },
              },
            ],
          },
          report('index.js uses greet and farewell'),
        ],
      },
      {
        name: 's4',
        match: { role: 'executor', firstUserIncludes: '# Step s4:' },
        turns: [{ toolUse: [{ name: 'bash', input: { command: 'node src/index.js' } }] }, report('prints Hello, world and Goodbye, world')],
      },
      {
        name: 'review',
        match: { role: 'verifier' },
        turns: [
          { toolUse: [{ name: 'view_file', input: { path: 'src/index.js' } }] },
          { toolUse: [{ name: 'report_verdict', input: { passed: true, detail: 'src/index.js requires ./greet and ./farewell and calls both' } }] },
        ],
      },
    ],
  };
}

/**
 * The same mission with a replan: s4's executor escalates (the command is ambiguous), the replanner keeps
 * s1–s3 as they finished and replaces s4 with s4b, which runs the program and succeeds.
 */
const REPLANNED_PLAN = {
  ...E2E_PLAN,
  reason: 's4 escalated: run the program through its own step',
  steps: [
    ...E2E_PLAN.steps.slice(0, 3),
    step('s4b', {
      title: 'Run the program (again)',
      kind: 'command',
      dependsOn: ['s3'],
      instructions: 'Run node src/index.js.',
      authority: { read: ['**'], edit: [], commands: ['node src/index.js'] },
      evidence: { checks: [{ kind: 'command', command: 'node src/index.js', expectExitCode: 0, expectOutputIncludes: 'Goodbye, world' }], description: '' },
    }),
  ],
};

export function e2eReplanScenario(options: { parallelLatencyMs?: number } = {}): ScenarioInput {
  const base = e2eScenario(options).rules.filter((r) => r.name !== 's4');
  return {
    name: 'issue-4 e2e with a replan',
    rules: [
      ...base,
      {
        name: 's4',
        match: { role: 'executor', firstUserIncludes: '# Step s4:' },
        turns: [{ toolUse: [{ name: 'escalate', input: { reason: 'ambiguity', message: 'Which greeting should the program print first?' } }] }],
      },
      { name: 'replan', match: { role: 'replanner' }, turns: [{ structured: REPLANNED_PLAN }] },
      {
        name: 's4b',
        match: { role: 'executor', firstUserIncludes: '# Step s4b:' },
        turns: [{ toolUse: [{ name: 'bash', input: { command: 'node src/index.js' } }] }, report('prints both lines')],
      },
    ],
  };
}
