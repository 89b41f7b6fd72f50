/**
 * The mission the provider tests run through the extension, on any provider: s1 and s2 create two notes
 * side by side, s3 edits both notes' summary (with a reviewer check), s4 escalates (ambiguous), the
 * replanner replaces it by s4b, which checks the result. Plan, parallel steps, a replan and a review.
 * Files live under notes/ in the fixture workspace; `removeNotes` puts the workspace back.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ScenarioInput } from '../support/messages-server/scenario';
import { wirePlan, wireStep as step, type WirePlan, type WireStep } from '../support/fixtures';

export const NOTE_ONE = 'one\n';
export const NOTE_TWO = 'two\n';

const s1 = step('s1', {
  title: 'Write note one',
  instructions: 'Create notes/one.txt.',
  authority: { read: ['**'], edit: ['notes/one.txt'], commands: [] },
  evidence: { checks: [{ kind: 'files_exist', paths: ['notes/one.txt'] }], description: '' },
});
const s2 = step('s2', {
  title: 'Write note two',
  instructions: 'Create notes/two.txt.',
  authority: { read: ['**'], edit: ['notes/two.txt'], commands: [] },
  evidence: { checks: [{ kind: 'files_exist', paths: ['notes/two.txt'] }], description: '' },
});
const s3 = step('s3', {
  title: 'Summarise both notes',
  dependsOn: ['s1', 's2'],
  instructions: 'Create notes/summary.txt naming both notes.',
  authority: { read: ['**'], edit: ['notes/summary.txt'], commands: [] },
  evidence: {
    checks: [
      { kind: 'file_contains', path: 'notes/summary.txt', text: 'one, two' },
      { kind: 'review', criterion: 'the summary names both notes' },
    ],
    description: '',
  },
});
const s4 = step('s4', {
  title: 'Decide the order',
  kind: 'research',
  dependsOn: ['s3'],
  instructions: 'Decide which note comes first.',
  authority: { read: ['**'], edit: [], commands: [] },
  evidence: { checks: [{ kind: 'files_exist', paths: ['notes/summary.txt'] }], description: '' },
});
const s4b = step('s4b', {
  title: 'Check the summary',
  kind: 'verify',
  dependsOn: ['s3'],
  instructions: 'Check notes/summary.txt.',
  authority: { read: ['**'], edit: [], commands: [] },
  evidence: { checks: [{ kind: 'file_contains', path: 'notes/summary.txt', text: 'two' }], description: '' },
});

const plan = (steps: WireStep[], reason: string): WirePlan => wirePlan(steps, { goal: 'Write two notes and a summary', reason });

const create = (path: string, text: string) => ({ toolUse: [{ name: 'str_replace_based_edit_tool', input: { command: 'create', path, file_text: text } }] });
const report = (output: string) => ({ toolUse: [{ name: 'report_result', input: { status: 'succeeded', output, evidence: [{ description: output }] } }] });

export function providerScenario(): ScenarioInput {
  return {
    name: 'provider mission',
    rules: [
      { name: 'plan', match: { role: 'planner' }, turns: [{ structured: plan([s1, s2, s3, s4], 'initial plan') }] },
      {
        name: 'replan',
        match: { role: 'replanner' },
        turns: [{ structured: plan([s1, s2, s3, s4b], 's4 asked which note comes first: check the summary instead') }],
      },
      {
        name: 's1',
        match: { role: 'executor', firstUserIncludes: '# Step s1:' },
        turns: [{ latencyMs: 150, ...create('notes/one.txt', NOTE_ONE) }, report('note one written')],
      },
      {
        name: 's2',
        match: { role: 'executor', firstUserIncludes: '# Step s2:' },
        turns: [{ latencyMs: 150, ...create('notes/two.txt', NOTE_TWO) }, report('note two written')],
      },
      {
        name: 's3',
        match: { role: 'executor', firstUserIncludes: '# Step s3:' },
        turns: [create('notes/summary.txt', 'notes: one, two\n'), report('summary written')],
      },
      {
        name: 's4',
        match: { role: 'executor', firstUserIncludes: '# Step s4:' },
        turns: [{ toolUse: [{ name: 'escalate', input: { reason: 'ambiguity', message: 'Which note comes first?' } }] }],
      },
      { name: 's4b', match: { role: 'executor', firstUserIncludes: '# Step s4b:' }, turns: [report('the summary names both notes')] },
      {
        name: 'review',
        match: { role: 'verifier' },
        turns: [
          { toolUse: [{ name: 'view_file', input: { path: 'notes/summary.txt' } }] },
          { toolUse: [{ name: 'report_verdict', input: { passed: true, detail: 'notes/summary.txt names one and two' } }] },
        ],
      },
    ],
  };
}

export function removeNotes(root: string): void {
  rmSync(join(root, 'notes'), { recursive: true, force: true });
}
