/**
 * Generated plans for the plan document's property tests: every plan here passes validatePlan (the
 * generator is held to that), and its text fields are drawn from awkward text — Markdown, `##` lines,
 * code fences, list-looking lines, field-looking lines, unicode (emoji, combining marks, right-to-left),
 * invisible and control characters, carriage returns, unpaired surrogates, leading and trailing blanks,
 * empty strings — as well as ordinary words.
 */
import fc from 'fast-check';
import type { PlanInput, StepInput } from '../../../src/core/contracts/plan';
import type { PlanEstimate, StepEstimate } from '../../../src/core/contracts/estimate';
import { commandAllowedBy } from '../../../src/core/plan/commandPattern';

const AWKWARD_LINES = [
  '## s2 · Write the parser',
  '# Goal',
  '\\## escaped already',
  '\\\\# two backslashes',
  '##',
  '#',
  '### a level-3 heading',
  '```',
  '````ts',
  '~~~',
  '- after: s9',
  '- kind: edit',
  '  - command `npm test` exits 0',
  '* a list item',
  '1. numbered',
  '---',
  '> quoted',
  '| a | b |',
  '**bold** and _it_',
  'echo `date` | tee out.txt && cat <<EOF',
  '<!-- hidden -->',
  'none',
  '"starts with a quote',
  '   indented',
  'trailing spaces   ',
  '\ttab',
  '',
  ' ',
  'emoji 👩‍💻 and é and ü and 中文',
  'right-to-left ‮evil‬',
  'zero width ​ joiner',
  'carriage\rreturn',
  'bell \u0007',
  'unpaired \ud800 surrogate',
  'line\u2028separator',
  '**Estimate before it runs:** 1 tokens',
];

/** One line: ordinary text, a generated string, or an awkward sample. */
const line = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...AWKWARD_LINES) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 2, arbitrary: fc.lorem({ maxCount: 6 }) },
);

/** Any text, one line or several. */
export const text = fc.oneof(
  line,
  // Whole texts that once broke a YAML writer: blank first lines, trailing line breaks.
  fc.constantFrom(' \n', '  \n', '\n', '\n\n', ' \nx', 'a\n', '\n ', '\t\n\t'),
  fc.array(line, { minLength: 0, maxLength: 8 }).map((lines) => lines.join('\n')),
);

/** Non-empty text (fields the schema requires to have content). */
const someText = text.filter((t) => t.length > 0);

const stepId = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,7}$/);

/** Workspace globs that validatePlan accepts: relative, no "..", no backslash. */
const glob = fc.oneof(
  fc.constantFrom('**', 'src/**', 'src/**/*.ts', 'test/*', '*.md', 'docs/{a,b}.md', 'a b/c d.txt', 'lib/[ab]*.js', 'src/`odd`/**', 'ünï/cödé/**', 'x/**/?.ts'),
  fc.stringMatching(/^[a-z][a-z0-9_*]{0,6}(\/[a-z*][a-z0-9_.*]{0,6}){0,3}$/),
);
const literalPath = fc.oneof(
  fc.constantFrom('src/a.ts', 'README.md', 'docs/plan one.md', 'out/ü.txt'),
  fc.stringMatching(/^[a-z][a-z0-9_]{0,6}(\/[a-z][a-z0-9_.]{0,6}){0,2}$/),
);
const command = fc.oneof(
  fc.constantFrom('npm test', 'npm test *', 'npx tsc --noEmit', 'echo `date` | wc -l', 'grep -r "a|b" src', 'make ``x``', ' padded ', 'multi\nline'),
  someText,
);
const grant = fc.constantFrom('db/query', 'docs/*', 'a.b/c-d', 'files/read_file');

interface StepShape {
  id: string;
  kind: 'edit' | 'command' | 'research' | 'verify';
}

function stepFor(shape: StepShape, earlier: readonly string[]): fc.Arbitrary<StepInput> {
  const edits: fc.Arbitrary<string[]> =
    shape.kind === 'edit' ? fc.array(glob, { minLength: 1, maxLength: 3 }) : shape.kind === 'command' ? fc.array(glob, { maxLength: 2 }) : fc.constant([]);
  const commands = fc.array(command, { minLength: shape.kind === 'command' ? 1 : 0, maxLength: 3 });
  return fc
    .record({
      title: someText.filter((t) => t.length <= 200),
      why: text,
      required: fc.boolean(),
      dependsOn: earlier.length === 0 ? fc.constant<string[]>([]) : fc.subarray([...earlier]),
      instructions: text,
      read: fc.array(glob, { minLength: 0, maxLength: 3 }),
      edit: edits,
      commands,
      network: fc.boolean(),
      mcp: fc.array(grant, { maxLength: 2 }),
      binding: fc.record({ prerequisite: text, fallback: text, consequence: text }),
      expectedOutput: text,
      description: text,
      risk: fc.constantFrom('low', 'medium', 'high'),
      effort: fc.constantFrom('small', 'medium', 'large'),
      modelTier: fc.constantFrom('light', 'standard', 'heavy'),
      checkKinds: fc.array(fc.constantFrom('command', 'files_exist', 'file_contains', 'review'), { minLength: 1, maxLength: 3 }),
      paths: fc.array(literalPath, { minLength: 1, maxLength: 2 }),
      contains: someText,
      prints: fc.option(text, { nil: undefined }),
      exit: fc.integer({ min: -2, max: 3 }),
      criterion: someText,
    })
    .map((r) => ({
      id: shape.id,
      kind: shape.kind,
      title: r.title,
      why: r.why,
      required: r.required,
      dependsOn: r.dependsOn,
      instructions: r.instructions,
      authority: { read: r.read, edit: r.edit, commands: r.commands, network: r.network, mcp: [...new Set(r.mcp)] },
      binding: r.binding,
      expectedOutput: r.expectedOutput,
      risk: r.risk,
      effort: r.effort,
      modelTier: r.modelTier,
      evidence: {
        description: r.description,
        checks: r.checkKinds.map((kind) => {
          // A command check must be in the step's allowlist; without commands, it becomes a review.
          if (kind === 'command' && r.commands.length > 0 && commandAllowedBy(r.commands[0]!, r.commands)) {
            const c = r.commands[0]!;
            return { kind: 'command' as const, command: c, expectExitCode: r.exit, ...(r.prints !== undefined ? { expectOutputIncludes: r.prints } : {}) };
          }
          if (kind === 'files_exist') return { kind: 'files_exist' as const, paths: r.paths };
          if (kind === 'file_contains') return { kind: 'file_contains' as const, path: r.paths[0]!, text: r.contains };
          return { kind: 'review' as const, criterion: r.criterion };
        }),
      },
    }));
}

/** A plan the engine accepts, with awkward text everywhere text may go. */
export const validPlanInput: fc.Arbitrary<PlanInput> = fc
  .uniqueArray(fc.record({ id: stepId, kind: fc.constantFrom('edit', 'command', 'research', 'verify') }), {
    minLength: 1,
    maxLength: 5,
    selector: (s) => s.id,
  })
  .chain((shapes) => {
    const steps = fc.tuple(
      ...shapes.map((shape, i) =>
        stepFor(
          shape,
          shapes.slice(0, i).map((s) => s.id),
        ),
      ),
    );
    return fc.record({
      steps,
      goal: someText,
      assumptions: fc.array(text, { maxLength: 3 }),
      constraints: fc.array(text, { maxLength: 3 }),
      version: fc.integer({ min: 1, max: 9 }),
      parentOffset: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
      reason: text,
      direct: fc.boolean(),
      invalidated: fc.option(fc.array(fc.record({ stepId: fc.constantFrom(...shapes.map((s) => s.id)), reason: someText }), { maxLength: 2 }), {
        nil: undefined,
      }),
      checkSteps: fc.option(fc.subarray(shapes.map((s) => s.id)), { nil: undefined }),
      checkSource: text,
    });
  })
  .map((r) => {
    const parentVersion = r.parentOffset !== undefined && r.version - r.parentOffset >= 1 ? r.version - r.parentOffset : null;
    const constraints = r.checkSteps !== undefined ? [...r.constraints, 'keep it green'] : r.constraints;
    return {
      goal: r.goal,
      assumptions: r.assumptions,
      constraints,
      steps: r.steps,
      version: r.version,
      parentVersion,
      reason: r.reason,
      direct: r.direct,
      ...(r.invalidated !== undefined ? { invalidated: r.invalidated } : {}),
      ...(r.checkSteps !== undefined
        ? {
            constraintChecks: [
              {
                constraint: 'keep it green',
                source: r.checkSource,
                check: { kind: 'command' as const, command: 'npm test', expectExitCode: 0 },
                steps: r.checkSteps,
              },
              { constraint: 'keep it green', source: '', check: { kind: 'forbid_paths' as const, globs: ['VENDOR/**'] }, steps: [] },
            ],
          }
        : {}),
    };
  });

const stepEstimate = (id: string): fc.Arbitrary<StepEstimate> =>
  fc
    .record({
      tokens: fc.integer({ min: 0, max: 5_000_000 }),
      cents: fc.integer({ min: 0, max: 10_000_000 }),
      pricing: fc.constantFrom('priced' as const, 'local' as const, 'unknown' as const),
      models: fc.array(fc.constantFrom('claude-sonnet-5-5', 'openai:gpt-4.1', 'qwen2.5-coder:7b', 'odd `model`, name'), { maxLength: 2 }),
    })
    .map((r) => ({
      stepId: id,
      tokens: r.tokens,
      // Four decimals: what the document states.
      costUsd: r.pricing === 'unknown' ? null : r.pricing === 'local' ? 0 : r.cents / 10_000,
      pricing: r.pricing,
      models: r.models,
    }));

/** An estimate for some of the plan's steps (or none). */
export function estimateFor(ids: readonly string[]): fc.Arbitrary<PlanEstimate | undefined> {
  return fc.option(
    fc.subarray([...ids]).chain((some) => fc.tuple(...some.map(stepEstimate)).map((steps) => ({ tokens: 0, costUsd: 0, pricing: 'priced' as const, steps }))),
    { nil: undefined },
  );
}
