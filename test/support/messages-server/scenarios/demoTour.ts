/**
 * The guided demo behind `npm start -- --demo`, on the bundled demo/ workspace (a tiny task-list library).
 * A scripted model — this project's Messages-API server on loopback — plays every role, and the script
 * leads through what matters:
 *   planner      plans only the demo's task (src/vscode/demoScript.ts: any other wording is refused in
 *                words, never answered with this plan); grants s1 the sample MCP server's find_todos when
 *                the catalogue it was sent offers it; ignores the project's instruction files (a script
 *                cannot follow them — the UI says so);
 *   s1 (edit)    looks up the TODOs with the sample MCP server (an MCP card), then adds removeTask, first
 *                with a debug log line: reject it with a reason and the executor proposes a clean version
 *                (approve it and the log stays; both paths go on);
 *   s2 (edit)    adds a test for removeTask — with a wrong expectation;
 *   s3 (command) runs `npm test`, which really fails; the executor says a retry cannot fix it;
 *   replan       the replanner's first answer rewrites finished step s2 without saying why and is refused
 *                (shown in words); its second answer adds s4 (fix the expectation) and s5 (run the tests);
 *   s5's evidence `npm test` is the verifier's own run (its card is labelled "Verification run").
 * Afterwards, revert a step (or the mission) from the board. Planned again in the same session, the tour
 * starts over: `reset` (the demo host's) puts the demo's files back first, and the plan's goal says so.
 * Any request the script has no answer for gets a 400 from the server, said in words.
 */
import type { ScenarioInput, RecordedRequest, Reply } from '../scenario';
import { messageText } from '../scenario';
import { wirePlan, wireStep as step, type WirePlan, type WireStep } from '../../fixtures';
import { offScriptMessage, sameTask } from '../../../../src/vscode/demoScript';

export const DEMO_TASK = 'Add removeTask(list, id) to src/tasks.js, with a test, and make npm test pass';

/** The sample MCP server's tool s1 is granted when the catalogue offers it (demo/.vscode/mcp.json names the server "sample"). */
const DEMO_MCP_TOOL = 'sample/find_todos';
const DEMO_MCP_TOOL_NAME = 'mcp__sample__find_todos';

/** What the CLI and other clients are told to do instead of an off-script task. */
const REAL_MODEL_ANYWHERE = 'To plan a task of your own, use a real model: an API key, or a local model (docs/providers.md).';

const TODO_LINE = '// TODO: removeTask(list, id), so a task can be taken off the list.\n\n';
const ANCHOR = '/** One line per task:';
const REMOVE_WITH_LOG =
  "/** Returns a new list without the task with this id. */\nfunction removeTask(list, id) {\n  console.log('removeTask', id);\n  return list.filter((task) => task.id !== id);\n}\n\n";
const REMOVE_CLEAN =
  '/** Returns a new list without the task with this id. */\nfunction removeTask(list, id) {\n  return list.filter((task) => task.id !== id);\n}\n\n';
const WRONG_EXPECTATION = '[1]);';
const TEST = `
test('removeTask drops only the given task', () => {
  const list = removeTask(addTask(addTask(addTask([], 'a'), 'b'), 'c'), 2);
  assert.deepEqual(list.map((task) => task.id), ${WRONG_EXPECTATION}
});
`;

const s1 = step('s1', {
  title: 'Add removeTask to src/tasks.js',
  why: 'The library can add and complete tasks but not remove them.',
  instructions: 'Add removeTask(list, id) returning a new list without that task, and export it.',
  authority: { read: ['**'], edit: ['src/tasks.js'], commands: [] },
  binding: { prerequisite: '', fallback: '', consequence: 'src/tasks.js exports removeTask' },
  evidence: { checks: [{ kind: 'file_contains', path: 'src/tasks.js', text: 'function removeTask' }], description: '' },
});
const s2 = step('s2', {
  title: 'Test removeTask',
  why: 'A new function needs a test that would catch it removing the wrong task.',
  instructions: 'Add a test for removeTask to test/tasks.test.js.',
  authority: { read: ['**'], edit: ['test/tasks.test.js'], commands: [] },
  evidence: { checks: [{ kind: 'file_contains', path: 'test/tasks.test.js', text: 'removeTask drops only the given task' }], description: '' },
});
const runTests = (id: string, dependsOn: string[]) =>
  step(id, {
    title: 'Run the tests',
    why: 'The change is done only when the whole suite passes.',
    kind: 'command',
    dependsOn,
    instructions: 'Run npm test; it must pass.',
    authority: { read: ['**'], edit: [], commands: ['npm test'] },
    evidence: { checks: [{ kind: 'command', command: 'npm test', expectExitCode: 0, expectOutputIncludes: null }], description: '' },
  });
const s4 = step('s4', {
  title: 'Fix the expectation of the removeTask test',
  why: 'Removing task 2 of three leaves tasks 1 and 3; the test expected only task 1.',
  dependsOn: ['s2'],
  instructions: 'In test/tasks.test.js, expect [1, 3] after removing task 2.',
  authority: { read: ['**'], edit: ['test/tasks.test.js'], commands: [] },
  evidence: { checks: [{ kind: 'file_contains', path: 'test/tasks.test.js', text: '[1, 3]' }], description: '' },
});

const GOAL = 'Add removeTask(list, id) with a test, and make npm test pass';
const plan = (reason: string, steps: WireStep[], goal = GOAL): WirePlan => wirePlan(steps, { goal, assumptions: ['tests run with node --test'], reason });

const edit = (input: Record<string, unknown>): Reply => ({ toolUse: [{ name: 'str_replace_based_edit_tool', input }] });
const report = (output: string): Reply => ({
  toolUse: [{ name: 'report_result', input: { status: 'succeeded', output, evidence: [{ description: output }] } }],
});
const failed = (output: string, message: string, suggestion: string): Reply => ({
  toolUse: [
    { name: 'report_result', input: { status: 'failed', output, evidence: [], failure: { class: 'tool_error', message, recoverable: false, suggestion } } },
  ],
});

/** The text of the last user message (the results of the tools called last). */
const lastResult = (r: RecordedRequest): string => messageText([...(r.body.messages ?? [])].reverse().find((m) => m.role === 'user'));
/** What the assistant asked for so far, as JSON text. */
const askedSoFar = (r: RecordedRequest): string =>
  (r.body.messages ?? [])
    .filter((m) => m.role === 'assistant')
    .map((m) => messageText(m))
    .join('\n');

/** Whether the assistant called the tool `name` earlier in this conversation. */
const called = (r: RecordedRequest, name: string): boolean =>
  (r.body.messages ?? []).some(
    (m) => m.role === 'assistant' && typeof m.content !== 'string' && m.content.some((b) => b.type === 'tool_use' && b.name === name),
  );

/** The JSON text of `value` as it appears inside a recorded tool call's input. */
const inJson = (value: string): string => JSON.stringify(value).slice(1, -1);

/**
 * s1: the TODOs from the sample MCP server (when granted), then the debug-log version; after its rejection
 * the clean one; then the export; then done. Each turn is chosen from what was asked so far, so a skipped
 * MCP call or an approved log line go on the same way.
 */
function s1Executor(r: RecordedRequest): Reply {
  const asked = askedSoFar(r);
  const offered = (r.body.tools ?? []).some((t) => t.name === DEMO_MCP_TOOL_NAME);
  if (offered && !called(r, DEMO_MCP_TOOL_NAME)) return { toolUse: [{ name: DEMO_MCP_TOOL_NAME, input: { folder: 'src' } }] };
  const first = { command: 'str_replace', path: 'src/tasks.js', old_str: `${TODO_LINE}${ANCHOR}` };
  if (!asked.includes(inJson(REMOVE_WITH_LOG))) return edit({ ...first, new_str: `${REMOVE_WITH_LOG}${ANCHOR}` });
  if (/rejected this action/.test(lastResult(r)) && !asked.includes(inJson(REMOVE_CLEAN)) && !asked.includes('removeTask, formatList'))
    return edit({ ...first, new_str: `${REMOVE_CLEAN}${ANCHOR}` });
  if (!asked.includes('removeTask, formatList')) {
    return edit({
      command: 'str_replace',
      path: 'src/tasks.js',
      old_str: 'module.exports = { addTask, completeTask, formatList };',
      new_str: 'module.exports = { addTask, completeTask, removeTask, formatList };',
    });
  }
  return report('removeTask added and exported; the TODO is done');
}

/** s2: import removeTask, append the (wrong) test, done. */
function s2Executor(r: RecordedRequest): Reply {
  if (r.turn === 1)
    return edit({
      command: 'str_replace',
      path: 'test/tasks.test.js',
      old_str: "const { addTask, completeTask, formatList } = require('../src/tasks');",
      new_str: "const { addTask, completeTask, removeTask, formatList } = require('../src/tasks');",
    });
  if (r.turn === 2) return edit({ command: 'insert', path: 'test/tasks.test.js', insert_line: 23, insert_text: TEST });
  return report('test added: removeTask drops only the given task');
}

/** s3 and s5: run the tests; report what the exit code says. */
function testRunner(r: RecordedRequest): Reply {
  if (r.turn === 1) return { toolUse: [{ name: 'bash', input: { command: 'npm test' } }] };
  const last = lastResult(r);
  if (/exit code: 0\b/.test(last)) return report('npm test passes');
  if (/rejected this action/.test(last))
    return failed('the user skipped npm test', 'the tests were not run: the user skipped npm test', 'ask the user, or check the code without running it');
  return failed(
    'npm test fails',
    'npm test fails: the removeTask test expects [1] after removing task 2 of three, which leaves [1, 3]',
    'fix the expectation in test/tasks.test.js; running the tests again cannot help',
  );
}

/** The task the planner was sent (the first user message opens with "# Task" and the user's words). */
function taskOf(r: RecordedRequest): string {
  const first = messageText((r.body.messages ?? []).find((m) => m.role === 'user'));
  const m = /^# Task\n([\s\S]*?)\nWrite the plan for this task\./.exec(first);
  return m?.[1] ?? '';
}

interface DemoTourOptions {
  /**
   * Puts the demo's files back as they are in demo/ before the tour's plan is made (the demo host's; absent:
   * nothing is put back) and returns the files it put back, so planning the task again plays the tour again.
   */
  reset?: () => string[];
}

export function demoTourScenario(options: DemoTourOptions = {}): ScenarioInput {
  /** Replans answered in the current mission: the first is refused, the next is the fix. */
  let replans = 0;
  /** s1 as the mission's plan has it (with or without the MCP grant): a replan keeps finished steps as they were. */
  let first: WireStep = s1;
  /** The mission's goal (saying so when the demo's files were put back first): every version keeps it. */
  let goal = GOAL;
  const planner = (r: RecordedRequest): Reply => {
    const task = taskOf(r);
    if (!sameTask(task, DEMO_TASK)) return { refusal: `scripted demo model: ${offScriptMessage(task, DEMO_TASK, REAL_MODEL_ANYWHERE)}` };
    replans = 0;
    const restored = r.turn === 1 ? (options.reset?.() ?? []) : [];
    const granted = messageText((r.body.messages ?? []).find((m) => m.role === 'user')).includes(`- ${DEMO_MCP_TOOL} `);
    first = granted
      ? {
          ...s1,
          instructions: `Find the TODO about removing a task (${DEMO_MCP_TOOL}), add removeTask(list, id) there, returning a new list without that task, and export it.`,
          authority: { ...s1.authority, mcp: [DEMO_MCP_TOOL] },
        }
      : s1;
    goal = restored.length > 0 ? `${GOAL} — played again: the demo first put back ${restored.join(', ')} as they are in demo/` : GOAL;
    return { structured: plan('initial plan', [first, s2, runTests('s3', ['s1', 's2'])], goal) };
  };
  const replanner = (): Reply => {
    replans += 1;
    // The first answer is refused: it rewrites finished step s2 without naming it in `invalidated`.
    if (replans === 1) {
      return {
        structured: plan(
          'fix the failing test',
          [first, { ...s2, instructions: 'Add a test for removeTask that expects [1, 3].' }, runTests('s3', ['s1', 's2'])],
          goal,
        ),
      };
    }
    return { structured: plan('fix the test expectation, then run the tests again', [first, s2, s4, runTests('s5', ['s1', 's4'])], goal) };
  };
  return {
    name: 'demo tour: an MCP call, a rejection, a refused replan, a replan, a revert',
    rules: [
      { name: 'plan', match: { role: 'planner' }, respond: planner },
      { name: 'replan', match: { role: 'replanner' }, respond: replanner },
      { name: 's1', match: { role: 'executor', firstUserIncludes: '# Step s1:' }, respond: s1Executor },
      { name: 's2', match: { role: 'executor', firstUserIncludes: '# Step s2:' }, respond: s2Executor },
      { name: 's3', match: { role: 'executor', firstUserIncludes: '# Step s3:' }, respond: testRunner },
      {
        name: 's4',
        match: { role: 'executor', firstUserIncludes: '# Step s4:' },
        turns: [
          edit({
            command: 'str_replace',
            path: 'test/tasks.test.js',
            old_str: `map((task) => task.id), ${WRONG_EXPECTATION}`,
            new_str: 'map((task) => task.id), [1, 3]);',
          }),
          report('the test now expects [1, 3]'),
        ],
      },
      { name: 's5', match: { role: 'executor', firstUserIncludes: '# Step s5:' }, respond: testRunner },
    ],
  };
}
