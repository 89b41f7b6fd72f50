/**
 * The scripted 10-step mission of the token bench. The executor "model" is a script that behaves like a
 * careful model: before acting it reads a file only when the handoff does not already carry what it needs
 * (each read names a marker string it needs to see). So a duplicate tool call shows up exactly when the
 * handoff failed to carry a dependency's raw result.
 */
import type { RecordedRequest, Reply, ScenarioInput } from '../../test/support/messages-server/scenario';
import { messageText } from '../../test/support/messages-server/scenario';

export const FILES: Record<string, string> = {
  'package.json': '{"name":"bench","scripts":{"start":"node src/index.js"}}\n',
  'src/config.js': "module.exports = { greeting: 'Hello', port: 8080 };\n",
  'src/index.js': "console.log('ready');\n",
};

interface Read {
  path: string;
  /** What the step needs to know; if the handoff shows it, no read is needed. */
  marker: string;
}
interface StepScript {
  reads: Read[];
  act: { name: string; input: Record<string, unknown> }[];
  output: string;
}

const mod = (k: number) => `const { greeting } = require('./config');\nexports.m${k} = () => \`\${greeting} ${k}\`;\n`;

const SCRIPTS: Record<string, StepScript> = {
  s1: { reads: [{ path: 'src/config.js', marker: "greeting: 'Hello'" }], act: [], output: "config greeting is 'Hello', port 8080" },
  ...Object.fromEntries(
    [2, 3, 4, 5].map((k) => [
      `s${k}`,
      {
        reads: [{ path: 'src/config.js', marker: "greeting: 'Hello'" }],
        act: [{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: `src/mod${k}.js`, file_text: mod(k) } }],
        output: `src/mod${k}.js created`,
      },
    ]),
  ),
  s6: {
    reads: [{ path: 'src/index.js', marker: "console.log('ready');" }],
    act: [
      {
        name: 'str_replace_based_edit_tool',
        input: {
          command: 'str_replace',
          path: 'src/index.js',
          old_str: "console.log('ready');",
          new_str: "const { m2 } = require('./mod2');\nconst { m3 } = require('./mod3');\nconsole.log(m2(), m3());",
        },
      },
    ],
    output: 'index.js uses mod2 and mod3',
  },
  s7: {
    reads: [{ path: 'src/index.js', marker: 'console.log(m2(), m3());' }],
    act: [
      {
        name: 'str_replace_based_edit_tool',
        input: {
          command: 'str_replace',
          path: 'src/index.js',
          old_str: 'console.log(m2(), m3());',
          new_str: "const { m4 } = require('./mod4');\nconst { m5 } = require('./mod5');\nconsole.log(m2(), m3(), m4(), m5());",
        },
      },
    ],
    output: 'index.js uses all four modules',
  },
  s8: { reads: [], act: [{ name: 'bash', input: { command: 'node src/index.js' } }], output: 'prints Hello 2 Hello 3 Hello 4 Hello 5' },
  s9: {
    reads: [{ path: 'src/index.js', marker: 'Hello 2 Hello 3 Hello 4 Hello 5' }],
    act: [
      {
        name: 'str_replace_based_edit_tool',
        input: { command: 'create', path: 'docs/usage.md', file_text: '# Usage\n\n`node src/index.js` prints:\n\n    Hello 2 Hello 3 Hello 4 Hello 5\n' },
      },
    ],
    output: 'docs/usage.md written',
  },
  s10: { reads: [{ path: 'docs/usage.md', marker: 'Hello 2 Hello 3 Hello 4 Hello 5' }], act: [], output: 'usage doc matches the program output' },
};

const step = (id: string, title: string, extra: Record<string, unknown>) => ({
  id,
  title,
  why: '',
  required: true,
  dependsOn: [] as string[],
  instructions: title,
  binding: { prerequisite: '', fallback: '', consequence: '' },
  expectedOutput: '',
  risk: 'low',
  effort: 'small',
  modelTier: 'light',
  kind: 'edit',
  authority: { read: ['**'], edit: [] as string[], commands: [] as string[] },
  evidence: { checks: [] as unknown[], description: '' },
  ...extra,
});

export const PLAN10 = {
  goal: 'Four greeting modules wired into index.js, run, and documented',
  assumptions: [],
  constraints: ['Do not touch package.json'],
  direct: false,
  reason: 'initial plan',
  steps: [
    step('s1', 'Read the configuration', {
      kind: 'research',
      evidence: { checks: [{ kind: 'review', criterion: 'the report names the greeting from src/config.js' }], description: '' },
    }),
    ...[2, 3, 4, 5].map((k) =>
      step(`s${k}`, `Create module mod${k}`, {
        dependsOn: ['s1'],
        authority: { read: ['**'], edit: [`src/mod${k}.js`], commands: [] },
        evidence: { checks: [{ kind: 'files_exist', paths: [`src/mod${k}.js`] }], description: '' },
      }),
    ),
    step('s6', 'Use mod2 and mod3 in index.js', {
      dependsOn: ['s2', 's3'],
      authority: { read: ['**'], edit: ['src/index.js'], commands: [] },
      evidence: { checks: [{ kind: 'file_contains', path: 'src/index.js', text: "require('./mod3')" }], description: '' },
    }),
    step('s7', 'Use mod4 and mod5 in index.js', {
      dependsOn: ['s4', 's5', 's6'],
      authority: { read: ['**'], edit: ['src/index.js'], commands: [] },
      evidence: { checks: [{ kind: 'file_contains', path: 'src/index.js', text: "require('./mod5')" }], description: '' },
    }),
    step('s8', 'Run the program', {
      kind: 'command',
      dependsOn: ['s7'],
      authority: { read: ['**'], edit: [], commands: ['node src/index.js'] },
      evidence: { checks: [{ kind: 'command', command: 'node src/index.js', expectExitCode: 0, expectOutputIncludes: 'Hello 5' }], description: '' },
    }),
    step('s9', 'Document the output', {
      dependsOn: ['s8'],
      authority: { read: ['**'], edit: ['docs/usage.md'], commands: [] },
      evidence: { checks: [{ kind: 'files_exist', paths: ['docs/usage.md'] }], description: '' },
    }),
    step('s10', 'Check the documentation', {
      kind: 'research',
      dependsOn: ['s9'],
      evidence: { checks: [{ kind: 'review', criterion: 'docs/usage.md shows the program output' }], description: '' },
    }),
  ],
};

/**
 * The scripted executor: reads what the handoff lacks, acts, reports — one phase per turn. `naive` reads
 * every file it needs regardless of the handoff (the control run: shows what the duplicate count catches).
 */
export function executorReply(request: RecordedRequest, naive = false): Reply {
  const messages = request.body.messages ?? [];
  const handoff = messageText(messages.find((m) => m.role === 'user'));
  const id = /# Step (s\d+):/.exec(handoff)?.[1] ?? '';
  const script = SCRIPTS[id];
  if (!script) return { text: `no script for step "${id}"` };
  const reads = script.reads.filter((r) => naive || !handoff.includes(r.marker));
  const phases: Reply[] = [];
  if (reads.length) phases.push({ toolUse: reads.map((r) => ({ name: 'str_replace_based_edit_tool', input: { command: 'view', path: r.path } })) });
  for (const a of script.act) phases.push({ toolUse: [a] });
  phases.push({ toolUse: [{ name: 'report_result', input: { status: 'succeeded', output: script.output, evidence: [{ description: script.output }] } }] });
  return phases[Math.min(request.turn - 1, phases.length - 1)]!;
}

export function scenario10(naive = false): ScenarioInput {
  return {
    name: 'bench: 10-step mission',
    rules: [
      { match: { role: 'planner' }, turns: [{ structured: PLAN10 }] },
      { match: { role: 'executor' }, respond: (r) => executorReply(r, naive) },
      {
        match: { role: 'verifier' },
        respond: () => ({ toolUse: [{ name: 'report_verdict', input: { passed: true, detail: 'checked against the raw outputs' } }] }),
      },
    ],
  };
}
