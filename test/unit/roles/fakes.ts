/** Small fakes of our own ports for role tests: an in-memory StepTools and a recording RoleContext. */
import type { Handoff } from '../../../src/core/contracts/handoff';
import type { Failure, SideEffects } from '../../../src/core/contracts/results';
import { StepSchema, type StepInput } from '../../../src/core/contracts/plan';
import type { RoleContext, StepTools, ToolOutcome } from '../../../src/core/ports';
import type { TraceEventBody } from '../../../src/core/contracts/traceEvents';
import { wirePlan, wireStep } from '../../support/fixtures';

export function fakeContext(stepId: string | null = null, signal = new AbortController().signal): RoleContext & { events: TraceEventBody[] } {
  const events: TraceEventBody[] = [];
  return {
    missionId: 'm1',
    stepId,
    signal,
    events,
    async record(event) {
      events.push(event);
    },
  };
}

export interface FakeTools extends StepTools {
  files: Map<string, string>;
  calls: { tool: string; args: unknown[] }[];
}

export function fakeTools(initial: Record<string, string> = {}, options: { editable?: (path: string) => boolean } = {}): FakeTools {
  const files = new Map(Object.entries(initial));
  const calls: { tool: string; args: unknown[] }[] = [];
  const effects: SideEffects = { files: [], commands: [] };
  let n = 0;
  const ok = (output: string): ToolOutcome => ({ ok: true, output, toolCallId: `tc${++n}` });
  const bad = (cls: Failure['class'], message: string): ToolOutcome => ({
    ok: false,
    output: '',
    toolCallId: `tc${++n}`,
    failure: {
      class: cls,
      message,
      recoverable: true,
      suggestion: 'view the file and retry with an exact old_str',
      partialSideEffects: { files: [], commands: [] },
    },
  });
  const editable = options.editable ?? (() => true);
  return {
    files,
    calls,
    async view(path, range) {
      calls.push({ tool: 'view', args: [path, range] });
      const text = files.get(path);
      return text === undefined
        ? bad('tool_error', `${path} does not exist`)
        : ok(
            text
              .split('\n')
              .map((l, i) => `${i + 1}\t${l}`)
              .join('\n'),
          );
    },
    async list(path) {
      calls.push({ tool: 'list', args: [path] });
      return ok([...files.keys()].join('\n'));
    },
    async search(pattern) {
      calls.push({ tool: 'search', args: [pattern] });
      return ok(
        [...files.entries()]
          .filter(([, t]) => t.includes(pattern))
          .map(([p]) => p)
          .join('\n'),
      );
    },
    async fetchToolResult(id) {
      calls.push({ tool: 'fetch', args: [id] });
      return ok(`raw output of ${id}`);
    },
    async create(path, text) {
      calls.push({ tool: 'create', args: [path, text] });
      if (!editable(path)) return bad('permission_denied', `${path} is outside the step's edit globs`);
      files.set(path, text);
      effects.files.push({ path, change: 'created', beforeHash: null, afterHash: 'h' });
      return ok(`created ${path}`);
    },
    async strReplace(path, oldText, newText) {
      calls.push({ tool: 'strReplace', args: [path, oldText, newText] });
      const text = files.get(path);
      if (text === undefined) return bad('tool_error', `${path} does not exist`);
      if (text.split(oldText).length !== 2) return bad('tool_error', `old_str not found exactly once in ${path}`);
      files.set(path, text.replace(oldText, newText));
      effects.files.push({ path, change: 'modified', beforeHash: 'a', afterHash: 'b' });
      return ok(`edited ${path}`);
    },
    async insert(path, afterLine, text) {
      calls.push({ tool: 'insert', args: [path, afterLine, text] });
      const lines = (files.get(path) ?? '').split('\n');
      lines.splice(afterLine, 0, text);
      files.set(path, lines.join('\n'));
      return ok(`inserted into ${path}`);
    },
    async bash(command) {
      calls.push({ tool: 'bash', args: [command] });
      effects.commands.push({ command, cwd: '/ws', exitCode: 0, signal: null, durationMs: 1, output: 'ok', truncated: false });
      return ok(`$ ${command}\nexit 0\nok`);
    },
    sideEffects: () => structuredClone(effects),
  };
}

export function handoffFor(step: StepInput, extra: Partial<Handoff> = {}): Handoff {
  const s = StepSchema.parse(step);
  return {
    missionId: 'm1',
    planVersion: 1,
    goal: 'Add a greeting module',
    constraints: ['Do not touch package.json'],
    step: s,
    dependencies: [],
    binding: s.binding,
    authority: s.authority,
    reusableToolCalls: [],
    attempt: 1,
    previousFailure: undefined,
    ...extra,
  };
}

export const VALID_DRAFT = wirePlan(
  [
    wireStep('s1', {
      title: 'Create greet.js',
      why: 'the module',
      instructions: 'Create src/greet.js exporting greet(name).',
      authority: { read: ['**'], edit: ['src/greet.js'], commands: [] },
      binding: { prerequisite: '', fallback: '', consequence: 'src/greet.js exists' },
      expectedOutput: 'src/greet.js',
      evidence: { checks: [{ kind: 'files_exist', paths: ['src/greet.js'] }], description: '' },
    }),
  ],
  { goal: 'Add a greeting module', constraints: ['Do not touch package.json'] },
);
