/**
 * The scripted mission behind the honest-state tests (integration and E2E), on the fixture workspace
 * (src/greet.js, package.json):
 *   s1 (edit)     creates src/farewell.js
 *   s2 (edit)     creates src/wave.js — fails while `broken` is set (the test fixes it before Continue/Retry)
 *   s3 (verify, optional) checks greet.js, beside s2
 *   replanner     proposes a plan that rewrites finished s1's instructions without saying why: refused
 * With `planExecute.limits.maxReplans` = 1 the refused replan uses up the budget: the mission stops with
 * the refusal in the timeline, and Continue (after the fix) finishes it.
 * A task that says DIRECT_TASK gets the two-step plan (s1, s2): direct mode never replans, so a failing s2
 * fails the mission (Retry's case). `directScenario` answers every task that way.
 */
import { messageText, type Reply, type ScenarioInput } from '../support/messages-server/scenario';
import { wirePlan, wireStep as step, type WirePlan, type WireStep } from '../support/fixtures';
import { FAREWELL_JS, s3 } from './uiScenario';

export { FAREWELL_JS };

export const WAVE_JS = 'exports.wave = () => "o/";\n';

const s1 = step('s1', {
  title: 'Create the farewell module',
  why: 'The greeting needs a matching farewell.',
  kind: 'edit',
  instructions: 'Create src/farewell.js exporting farewell(name).',
  authority: { read: ['**'], edit: ['src/farewell.js'], commands: [] },
  evidence: { checks: [{ kind: 'files_exist', paths: ['src/farewell.js'] }], description: 'the module exists' },
});

const s2 = step('s2', {
  title: 'Add a wave helper',
  why: 'Waving goes with greeting.',
  kind: 'edit',
  dependsOn: ['s1'],
  instructions: 'Create src/wave.js exporting wave().',
  authority: { read: ['**'], edit: ['src/wave.js'], commands: [] },
  evidence: { checks: [{ kind: 'file_contains', path: 'src/wave.js', text: 'wave' }], description: '' },
});

const planOf = (steps: WireStep[], reason = 'initial plan'): WirePlan => wirePlan(steps, { goal: 'Add farewell and wave helpers next to greet.js', reason });

/** A replan that quietly rewrites finished s1: the engine refuses it. */
const sneakyReplan = planOf([{ ...s1, instructions: 'Create src/farewell.js again, differently.' }, s2, s3], 'try again');

const report = (output: string): Reply => ({
  toolUse: [{ name: 'report_result', input: { status: 'succeeded', output, evidence: [{ description: output }] } }],
});
const gaveUp: Reply = {
  toolUse: [
    {
      name: 'report_result',
      input: {
        status: 'failed',
        output: 'could not write the helper',
        evidence: [],
        failure: { class: 'tool_error', message: 'the module layout is unknown', recoverable: true, suggestion: '' },
      },
    },
  ],
};

export const DIRECT_TASK = 'Add the farewell and wave helpers, nothing else';
/** A task whose one step's first model call is rate limited: the call waits `WAIT_MS` and goes on. */
export const WAIT_TASK = 'Add a patience helper';
export const WAIT_MS = 6_000;
export const PATIENCE_JS = 'exports.patience = () => "…";\n';

const w1 = step('w1', {
  title: 'Create the patience helper',
  why: 'Some things take time.',
  kind: 'edit',
  instructions: 'Create src/patience.js exporting patience().',
  authority: { read: ['**'], edit: ['src/patience.js'], commands: [] },
  evidence: { checks: [{ kind: 'files_exist', paths: ['src/patience.js'] }], description: '' },
});

export interface StateScenario {
  scenario: ScenarioInput;
  /** s2 succeeds from now on. */
  fix(): void;
  /** s2 fails again from now on. */
  breakAgain(): void;
  /** The planner's key is refused (401) while set; `acceptKey` ends it. */
  refuseKey(): void;
  acceptKey(): void;
}

function scenarioWith(steps: WireStep[], name: string): StateScenario {
  let broken = true;
  let keyRefused = false;
  return {
    refuseKey: () => {
      keyRefused = true;
    },
    acceptKey: () => {
      keyRefused = false;
    },
    fix: () => {
      broken = false;
    },
    breakAgain: () => {
      broken = true;
    },
    scenario: {
      name,
      rules: [
        {
          name: 'w1',
          match: { role: 'executor', firstUserIncludes: '# Step w1:' },
          turns: [
            [
              { fault: 'rate_limit', retryAfterMs: WAIT_MS },
              { toolUse: [{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'src/patience.js', file_text: PATIENCE_JS } }] },
            ],
            report('src/patience.js created'),
          ],
        },
        {
          // Every planner turn (the repair turn of a plan over the size cap too) gets the plan for its task.
          name: 'plan',
          match: { role: 'planner' },
          respond: (request) => {
            if (keyRefused) return { fault: 'auth' };
            const task = messageText(request.body.messages?.find((m) => m.role === 'user'));
            if (task.includes(WAIT_TASK)) return { structured: { ...planOf([w1]), direct: true } };
            if (task.includes(DIRECT_TASK)) return { structured: planOf([s1, s2]) };
            return { structured: planOf(steps) };
          },
        },
        { name: 'replan', match: { role: 'replanner' }, turns: [{ structured: sneakyReplan }] },
        {
          name: 's1',
          match: { role: 'executor', firstUserIncludes: '# Step s1:' },
          turns: [
            { toolUse: [{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'src/farewell.js', file_text: FAREWELL_JS } }] },
            report('src/farewell.js created'),
          ],
        },
        {
          name: 's2',
          match: { role: 'executor', firstUserIncludes: '# Step s2:' },
          respond: (request) => {
            if (broken) return gaveUp;
            return request.turn === 1
              ? { toolUse: [{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'src/wave.js', file_text: WAVE_JS } }] }
              : report('src/wave.js created');
          },
        },
        { name: 's3', match: { role: 'executor', firstUserIncludes: '# Step s3:' }, turns: [report('src/greet.js still says Hello')] },
      ],
    },
  };
}

export function stateScenario(): StateScenario {
  return scenarioWith([s1, s2, s3], 'honest state');
}

/**
 * s1's executor first writes a farewell with a debug line; once that edit comes back rejected (the user's
 * reason in the tool result), it writes the clean one and reports success. The replanner must never be asked.
 */
export function rejectionScenario(): ScenarioInput {
  const noisy = "console.log('debug');\n" + FAREWELL_JS;
  const working = stateScenario();
  working.fix();
  const base = working.scenario;
  return {
    name: 'a rejection the executor fixes',
    rules: [
      {
        name: 's1',
        match: { role: 'executor', firstUserIncludes: '# Step s1:' },
        respond: (request) => {
          const last = JSON.stringify(request.body.messages?.at(-1) ?? '');
          if (request.turn === 1)
            return { toolUse: [{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'src/farewell.js', file_text: noisy } }] };
          if (last.includes('rejected_by_user'))
            return { toolUse: [{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'src/farewell.js', file_text: FAREWELL_JS } }] };
          return report('src/farewell.js created without the debug line');
        },
      },
      ...base.rules.filter((r) => r.name !== 's1'),
    ],
  };
}

export function directScenario(): StateScenario {
  return scenarioWith([s1, s2], 'honest state (direct)');
}
