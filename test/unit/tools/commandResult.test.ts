/**
 * What a command's result tells the model: its own exit and output first, always; then each product note
 * with its real reason; lists capped. The text here is what the executor model reads.
 */
import { strict as assert } from 'node:assert';
import type { CommandRun } from '../../../src/core/contracts/results';
import { commandResult, type CommandOutcome } from '../../../src/core/tools/commandResult';
import type { StagedOutcome } from '../../../src/core/tools/stagedRun';
import type { ToolEnv } from '../../../src/core/tools/readTools';

const env = (edit: string[] = ['src/**']): ToolEnv =>
  ({
    ctx: { signal: new AbortController().signal, settings: { commandTimeoutMs: 60_000 } },
    policy: { authority: { edit, network: false } },
  }) as unknown as ToolEnv;

const run: CommandRun = { command: 'npm test', cwd: '/ws', exitCode: 0, signal: null, durationMs: 812, output: '# pass 1\n# fail 0\n', truncated: false };
const staged = (over: Partial<StagedOutcome> = {}): StagedOutcome => ({
  accepted: [],
  uncovered: [],
  refused: [],
  unjudgeable: [],
  kept: [],
  gitTaken: 0,
  notes: [],
  ...over,
});
const outcome = (over: Partial<CommandOutcome> = {}): CommandOutcome => ({
  run,
  confinement: 'sandboxed',
  staged: staged(),
  reconciled: { accepted: [], rolledBack: [], unrestored: [], uncovered: [] },
  ...over,
});

describe('a command result', () => {
  it('keeps the exit and the output when a change was refused, and names the refusal with its reason after them', () => {
    const r = commandResult(
      env(),
      outcome({
        staged: staged({ refused: [{ path: 'README.md', what: 'content', why: "outside the step's edit globs (src/**)", rule: 'outside_edit_scope' }] }),
      }),
    );
    assert.equal(r.ok, false);
    assert.equal(r.failure?.class, 'permission_denied');
    assert.equal(r.failure?.detail, 'sandbox.outside_edit_scope');
    assert.match(r.failure?.message ?? '', /ran to its end \(exit code: 0\)[^]*README\.md \(content\)/);
    assert.match(
      r.output,
      /^exit code: 0, 812 ms\n# pass 1\n# fail 0\n\n\[NOT applied to the workspace[^\n]*README\.md \(content\): outside the step's edit globs \(src\/\*\*\)\]$/,
    );
  });

  it('says what is kept for the step and why, and fails with the rule that really refused (the checkpoint limit)', () => {
    const r = commandResult(
      env(),
      outcome({
        staged: staged({
          kept: [{ path: 'dist', why: 'ignored by .gitignore (dist/)' }],
          refused: [{ path: 'src/big.bin', what: 'new', why: "the checkpoint's limit of 256 MB per command was reached", rule: 'checkpoint_limit' }],
        }),
      }),
    );
    assert.equal(r.failure?.detail, 'sandbox.checkpoint_limit');
    assert.match(r.output, /\[kept for this step only[^\n]*dist: ignored by \.gitignore \(dist\/\)\]/);
    assert.doesNotMatch(r.output, /outside the step's edit globs/);
  });

  it('names a few dozen of 16,000 refused folders and counts the rest, the output still whole', () => {
    const refused = Array.from({ length: 16_000 }, (_, i) => ({
      path: `gen/d${i}`,
      what: 'new folder',
      why: "outside the step's edit globs (src/**)",
      rule: 'outside_edit_scope' as const,
    }));
    const r = commandResult(env(), outcome({ staged: staged({ refused }) }));
    assert.ok(r.output.length < 3_000, `${r.output.length} characters`);
    assert.ok((r.failure?.message.length ?? 0) < 1_000);
    assert.match(r.output, /# pass 1/);
    assert.match(r.output, /… and 15970 more/);
  });

  it('writing directly, names the ignored folders this command wrote a private, thrown-away copy of', () => {
    const r = commandResult(env(), outcome({ staged: undefined, privateOutputs: ['dist', 'coverage'] }));
    assert.equal(r.ok, true);
    assert.match(r.output, /\[sandbox: private to this command[^\n]*thrown away[^\n]*: dist, coverage\]/);
  });

  it('says which program ran when a workspace one on PATH was passed over', () => {
    const r = commandResult(env(), outcome({ program: { name: 'git', path: '/usr/bin/git', passedOver: '/ws/bin/git' } }));
    assert.equal(r.ok, true);
    assert.match(r.output, /\[sandbox: `git` ran as \/usr\/bin\/git; \/ws\/bin\/git \(in the workspace, earlier on PATH\) was passed over\]/);
  });

  it('rolled back (direct writes): the exit and output stay, the paths follow', () => {
    const r = commandResult(
      env(),
      outcome({
        staged: undefined,
        reconciled: { accepted: [], rolledBack: ['src/notes.txt (a link leading outside the workspace)'], unrestored: [], uncovered: [] },
      }),
    );
    assert.equal(r.failure?.class, 'permission_denied');
    assert.match(r.output, /^exit code: 0[^]*# pass 1[^]*\[rolled back: src\/notes\.txt \(a link leading outside the workspace\)\]/);
  });
});
