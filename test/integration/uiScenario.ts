/**
 * The scripted mission behind the UI tests (integration and E2E), run against the fixture workspace
 * (test/support/host/fixtureWorkspace: src/greet.js, package.json):
 *   s1 (edit)    creates src/farewell.js            → a write approval: review the diff, approve
 *   s2 (command) runs `node src/farewell.js`        → a command approval: the user skips it with a reason
 *   replan       replaces s2 by s2b (a file check)  → visible as a new version in the timeline
 *   s3 (verify, optional) checks greet.js, in parallel with s2 (three steps: not a "direct" job)
 *   s2b (verify) reports success; the mission ends
 * `titleOfS1` lets a test give s1 a hostile title (the XSS check).
 */
import type { ScenarioInput } from '../support/messages-server/scenario';
import { wirePlan, wireStep as step, type WirePlan } from '../support/fixtures';

export const FAREWELL_JS = 'exports.farewell = (name) => `Goodbye, ${name}!`;\n';
export const XSS_TITLE = '<img src=x onerror=alert(1)>';

function s1(title: string) {
  return step('s1', {
    title,
    why: 'The greeting needs a matching farewell.',
    kind: 'edit',
    instructions: 'Create src/farewell.js exporting farewell(name).',
    authority: { read: ['**'], edit: ['src/farewell.js'], commands: [] },
    binding: { prerequisite: '', fallback: '', consequence: 'src/farewell.js exports farewell()' },
    evidence: { checks: [{ kind: 'files_exist', paths: ['src/farewell.js'] }], description: 'the module exists' },
  });
}

/**
 * A third step, so the plan is not a "direct" one- or two-step job (those end on failure, without
 * replanning). The honest-state scenario uses it too.
 */
export const s3 = step('s3', {
  title: 'Confirm greet.js is untouched',
  why: 'The farewell must not change the greeting.',
  kind: 'verify',
  required: false,
  dependsOn: ['s1'],
  instructions: 'Check src/greet.js still says Hello.',
  authority: { read: ['**'], edit: [], commands: [] },
  evidence: { checks: [{ kind: 'file_contains', path: 'src/greet.js', text: 'Hello' }], description: '' },
});

export function uiPlan(titleOfS1: string): WirePlan {
  return wirePlan(
    [
      s1(titleOfS1),
      step('s2', {
        title: 'Run the farewell module',
        why: 'Smoke-test that it loads.',
        kind: 'command',
        dependsOn: ['s1'],
        required: true,
        instructions: 'Run node src/farewell.js.',
        authority: { read: ['**'], edit: [], commands: ['node src/farewell.js'] },
        evidence: { checks: [{ kind: 'files_exist', paths: ['src/farewell.js'] }], description: '' },
      }),
      s3,
    ],
    { goal: 'Add a farewell module next to greet.js', assumptions: ['node is installed'] },
  );
}

export function uiReplan(titleOfS1: string): WirePlan {
  return wirePlan(
    [
      s1(titleOfS1),
      step('s2b', {
        title: 'Check the farewell module without running it',
        why: 'The user does not want the module run.',
        kind: 'verify',
        dependsOn: ['s1'],
        instructions: 'Confirm src/farewell.js defines farewell.',
        authority: { read: ['**'], edit: [], commands: [] },
        evidence: { checks: [{ kind: 'file_contains', path: 'src/farewell.js', text: 'farewell' }], description: '' },
      }),
      s3,
    ],
    {
      goal: 'Add a farewell module next to greet.js',
      assumptions: ['node is installed'],
      reason: 'the user skipped running the module: check its content instead',
    },
  );
}

const report = (output: string) => ({ toolUse: [{ name: 'report_result', input: { status: 'succeeded', output, evidence: [{ description: output }] } }] });

export function uiScenario(titleOfS1 = 'Create the farewell module', options: { s1LatencyMs?: number } = {}): ScenarioInput {
  return {
    name: 'ui mission',
    rules: [
      { name: 'plan', match: { role: 'planner' }, turns: [{ structured: uiPlan(titleOfS1) }] },
      { name: 'replan', match: { role: 'replanner' }, turns: [{ structured: uiReplan(titleOfS1) }] },
      {
        name: 's1',
        match: { role: 'executor', firstUserIncludes: '# Step s1:' },
        turns: [
          {
            latencyMs: options.s1LatencyMs ?? 0,
            toolUse: [{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'src/farewell.js', file_text: FAREWELL_JS } }],
          },
          report('src/farewell.js created'),
        ],
      },
      {
        name: 's2',
        match: { role: 'executor', firstUserIncludes: '# Step s2:' },
        turns: [
          { toolUse: [{ name: 'bash', input: { command: 'node src/farewell.js' } }] },
          {
            toolUse: [
              {
                name: 'report_result',
                input: {
                  status: 'failed',
                  output: 'the user skipped the command',
                  evidence: [],
                  failure: {
                    class: 'rejected_by_user',
                    message: 'the user skipped `node src/farewell.js`',
                    recoverable: true,
                    suggestion: 'check the file instead',
                  },
                },
              },
            ],
          },
        ],
      },
      { name: 's3', match: { role: 'executor', firstUserIncludes: '# Step s3:' }, turns: [report('src/greet.js still says Hello')] },
      { name: 's2b', match: { role: 'executor', firstUserIncludes: '# Step s2b:' }, turns: [report('src/farewell.js defines farewell')] },
    ],
  };
}
