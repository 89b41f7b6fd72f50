/** The mission the GitHub system tests play: a two-step plan (write a module, run the tests) and its executors. */
import { strict as assert } from 'node:assert';
import { wirePlan, wireStep } from '../../support/fixtures';
import type { ScenarioInput } from '../../support/messages-server/scenario';
import { createFile, done, sh } from '../../support/messages-server/toolUses';
import { labeled, runGitHub, story, WRITER, type GitHubScene } from './githubScene';

export const plan = wirePlan(
  [
    wireStep('s1', {
      title: 'Write the greeting module',
      instructions: 'Create src/greet.js exporting greet(name).',
      authority: { read: ['**'], edit: ['src/**'], commands: [], network: false, mcp: [] },
      evidence: { checks: [{ kind: 'files_exist', paths: ['src/greet.js'] }], description: 'the module exists' },
    }),
    wireStep('s2', {
      title: 'Run the tests',
      kind: 'command',
      dependsOn: ['s1'],
      authority: { read: ['**'], edit: [], commands: ['npm test'], network: false, mcp: [] },
      evidence: { checks: [{ kind: 'command', command: 'npm test', expectExitCode: 0, expectOutputIncludes: null }], description: 'tests pass' },
    }),
  ],
  { goal: 'add a greeting module' },
);

export const planner: ScenarioInput['rules'][number] = { name: 'plan', match: { role: 'planner' }, replies: [{ structured: plan }] };

export const executors: ScenarioInput['rules'] = [
  {
    name: 's1',
    match: { role: 'executor', firstUserIncludes: '# Step s1:' },
    turns: [{ toolUse: [createFile('w', 'src/greet.js', 'exports.greet = (n) => `hello ${n}`;\n')] }, done('wrote src/greet.js')],
  },
  { name: 's2', match: { role: 'executor', firstUserIncludes: '# Step s2:' }, turns: [{ toolUse: [sh('t', 'npm test')] }, done('tests pass')] },
];

export const only = (rules: ScenarioInput['rules']): ScenarioInput => ({ name: 'github', rules });
export const postedComments = (s: GitHubScene): { path: string; body: string }[] =>
  s.github.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/comments')).map((r) => ({ path: r.path, body: (r.body as { body: string }).body }));
export const roles = (requests: { role: string | null }[]): string[] => requests.map((r) => r.role ?? '?');

/** A scene where the writer labeled the issue and the bot posted plan v1. */
export async function planned(s: GitHubScene): Promise<void> {
  const r = await runGitHub(s, labeled(s, WRITER), only([planner]));
  assert.equal(r.code, 0, `planning run${story(r)}`);
}
