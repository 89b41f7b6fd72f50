/**
 * Plan documents through the real CLI with a scripted model: `plan` writes a document naming every step and
 * calls no executor; `run --plan` runs the document as edited — an edited instruction reaches its executor,
 * a deleted optional step does not run, a narrowed glob refuses a write — and a broken document exits
 * non-zero naming its line with no model call at all.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath, spawnCli, type CliExit } from '../../support/cliBinary';
import { startMessagesServer, type MessagesServer } from '../../support/messages-server/server';
import type { ScenarioInput } from '../../support/messages-server/scenario';
import { createFile, done } from '../../support/messages-server/toolUses';
import { wirePlan, wireStep } from '../../support/fixtures';
import { readPlanDocument } from '../../../src/core/plan/document/read';
import { writePlanDocument } from '../../../src/core/plan/document/write';
import { TraceEventSchema, type TraceEvent } from '../../../src/core/contracts/traceEvents';

const PLAN = wirePlan(
  [
    wireStep('s1', {
      title: 'Write the first file',
      instructions: 'Create src/one.txt holding "one".',
      authority: { read: ['**'], edit: ['src/**'], commands: [], network: false, mcp: [] },
      evidence: { checks: [{ kind: 'files_exist', paths: ['src/one.txt'] }], description: '' },
    }),
    wireStep('s2', {
      title: 'Write the optional notes',
      required: false,
      dependsOn: ['s1'],
      instructions: 'Create docs/two.txt.',
      authority: { read: ['**'], edit: ['docs/**'], commands: [], network: false, mcp: [] },
      evidence: { checks: [{ kind: 'files_exist', paths: ['docs/two.txt'] }], description: '' },
    }),
    wireStep('s3', {
      title: 'Write the output',
      effort: 'medium',
      instructions: 'Create out/three.txt.',
      authority: { read: ['**'], edit: ['out/**'], commands: [], network: false, mcp: [] },
      evidence: { checks: [{ kind: 'files_exist', paths: ['out/three.txt'] }], description: '' },
    }),
  ],
  { goal: 'Write three files', constraints: ['Leave package.json alone'] },
);

const scenario: ScenarioInput = {
  name: 'plan documents',
  rules: [
    { name: 'plan', match: { role: 'planner' }, turns: [{ structured: PLAN }] },
    {
      name: 's1',
      match: { role: 'executor', firstUserIncludes: '# Step s1:' },
      turns: [{ toolUse: [createFile('t1', 'src/one.txt', 'one\n')] }, done('wrote src/one.txt')],
    },
    {
      name: 's2',
      match: { role: 'executor', firstUserIncludes: '# Step s2:' },
      turns: [{ toolUse: [createFile('t2', 'docs/two.txt', 'two\n')] }, done('wrote docs/two.txt')],
    },
    {
      name: 's3',
      match: { role: 'executor', firstUserIncludes: '# Step s3:' },
      turns: [{ toolUse: [createFile('t3', 'out/three.txt', 'three\n')] }, done('wrote out/three.txt')],
    },
  ],
};

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' }).trim();

describe('plan documents through the CLI', function () {
  this.timeout(180_000);
  let dir = '';
  let cli = '';
  let server: MessagesServer;
  let env: Record<string, string> = {};
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pe-plan-doc-'));
    cli = await cliPath();
    server = await startMessagesServer({ scenario });
    env = { PATH: process.env.PATH ?? '', HOME: dir, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.url };
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A fresh git workspace with one commit. */
  function workspace(name: string): string {
    const ws = join(dir, name);
    mkdirSync(join(ws, 'src'), { recursive: true });
    writeFileSync(join(ws, 'package.json'), '{"name":"demo"}\n');
    git(ws, 'init', '-q');
    git(ws, 'add', '-A');
    git(ws, 'commit', '-q', '-m', 'start');
    return ws;
  }
  const cliRun = (args: string[], stdin = ''): Promise<CliExit> => spawnCli(cli, args, env, { stdin });
  const requestsSince = (n: number) => server.requests.slice(n);
  const trace = (file: string): TraceEvent[] =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => TraceEventSchema.parse(JSON.parse(l)));

  /** `plan` into a document; returns its path. */
  async function planInto(ws: string, name: string): Promise<string> {
    const out = join(dir, name);
    const before = server.requests.length;
    const r = await cliRun(['plan', '--workspace', ws, '--task', 'Write three files', '--out', out]);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.deepEqual(
      requestsSince(before).map((q) => q.role),
      ['planner'],
      'plan asked the planner only: no executor, no verifier',
    );
    return out;
  }

  it('plan writes a document naming every step, with its base commit and estimate, and runs nothing', async () => {
    const ws = workspace('plan');
    const out = await planInto(ws, 'plan.md');
    const doc = readFileSync(out, 'utf8');
    for (const [id, title] of [
      ['s1', 'Write the first file'],
      ['s2', 'Write the optional notes'],
      ['s3', 'Write the output'],
    ])
      assert.match(doc, new RegExp(`^## ${id} · ${title}$`, 'm'));
    assert.match(doc, new RegExp(`^baseCommit: ${git(ws, 'rev-parse', 'HEAD')}$`, 'm'));
    assert.match(doc, /^- estimate: [\d,]+ tokens, \$\d+\.\d{4} on `claude-haiku-5-5`$/m);
    assert.match(doc, /^\*\*Estimate before it runs:\*\* [\d,]+ tokens, \$\d+\.\d{4} for 3 step\(s\)/m);
    assert.equal(existsSync(join(ws, 'src', 'one.txt')), false, 'nothing ran');
    // Byte-stable: the document read and written again is the same text.
    const read = readPlanDocument(doc);
    assert.ok(read.ok, JSON.stringify(!read.ok && read.error));
    assert.equal(writePlanDocument(read.value.plan, read.value.meta), doc);
  });

  it('plan --help says what plan does', async () => {
    const r = await cliRun(['plan', '--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Plans the task and writes the plan document/);
  });

  it('run --plan runs the edited document: an edited instruction reaches its executor, a deleted optional step does not run', async () => {
    const ws = workspace('edited');
    const doc = readFileSync(await planInto(ws, 'edited.md'), 'utf8');
    const start = doc.indexOf('## s2 · ');
    const edited = (doc.slice(0, start) + doc.slice(doc.indexOf('## s3 · '))).replace(
      'Create src/one.txt holding "one".',
      'EDITED-MARKER: write it in capitals.',
    );
    const file = join(dir, 'edited-by-hand.md');
    writeFileSync(file, edited);
    const before = server.requests.length;
    const traceFile = join(dir, 'edited.jsonl');
    const r = await cliRun(['run', '--workspace', ws, '--plan', file, '--approve', 'all', '--trace', traceFile]);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stderr, /was edited since it was written/);
    const sent = requestsSince(before);
    assert.equal(sent.filter((q) => q.role === 'planner').length, 0, 'no planner call for the first version');
    const s1 = sent.find((q) => q.role === 'executor' && JSON.stringify(q.body.messages?.[0]).includes('# Step s1:'));
    assert.ok(s1 && JSON.stringify(s1.body).includes('EDITED-MARKER: write it in capitals.'), "the edited instruction reached s1's executor");
    assert.equal(JSON.stringify(sent).includes('# Step s2:'), false, 'the deleted step never reached an executor');
    assert.equal(existsSync(join(ws, 'docs', 'two.txt')), false);
    assert.equal(readFileSync(join(ws, 'src', 'one.txt'), 'utf8'), 'one\n');
    assert.equal(readFileSync(join(ws, 'out', 'three.txt'), 'utf8'), 'three\n');
    // The report and the trace hold the estimate beside what was spent.
    assert.match(r.stdout, /Estimate → actual \(executor and verifier calls, plan v1\): [\d,]+ tokens, \$[\d.]+ → [\d,]+ tokens, \$[\d.]+/);
    assert.match(r.stdout, /^ {2}s1: [\d,]+ tokens, \$[\d.]+ → [\d,]+ tokens/m);
    const events = trace(traceFile);
    const summary = events.find((e) => e.type === 'cost_summary');
    assert.ok(summary?.type === 'cost_summary');
    assert.deepEqual(
      summary.summary.steps.map((s) => s.stepId),
      ['s1', 's3'],
    );
    assert.ok(summary.summary.steps.every((s) => s.actualTokens > 0 && (s.estimatedTokens ?? 0) > 0));
  });

  it('a narrowed edit glob narrows what the step may write', async () => {
    const ws = workspace('narrow');
    const doc = readFileSync(await planInto(ws, 'narrow.md'), 'utf8');
    const file = join(dir, 'narrowed.md');
    writeFileSync(file, doc.replace('- edit: `out/**`', '- edit: `out/allowed.txt`'));
    const traceFile = join(dir, 'narrow.jsonl');
    const r = await cliRun([
      'run',
      '--workspace',
      ws,
      '--plan',
      file,
      '--approve',
      'all',
      '--trace',
      traceFile,
      '--max-replans',
      '1',
      '--max-step-attempts',
      '4',
    ]);
    assert.notEqual(r.code, 0, 'the step could not do what it planned');
    assert.equal(existsSync(join(ws, 'out', 'three.txt')), false, 'the write outside the narrowed glob was refused');
    const denied = trace(traceFile).filter((e) => e.type === 'policy_denied' && e.stepId === 's3');
    assert.ok(denied.length > 0 && denied.every((e) => e.type === 'policy_denied' && /out\/three\.txt/.test(e.action)), JSON.stringify(denied));
    assert.equal(readFileSync(join(ws, 'src', 'one.txt'), 'utf8'), 'one\n', 'the other steps kept their authority');
  });

  it('a broken document exits non-zero naming the line, with no model call', async () => {
    const ws = workspace('broken');
    const doc = readFileSync(await planInto(ws, 'broken.md'), 'utf8');
    const cases: [string, string, RegExp][] = [
      ['duplicate.md', doc.replace('## s3 · ', '## s1 · '), /duplicate step id "s1"/],
      ['missing-dep.md', doc.replace('- after: s1', '- after: s9'), /depends on "s9", which is not a step/],
      ['bad-field.md', doc.replace('- risk: low', '- risk: low\n- colour: red'), /unknown field "colour"/],
    ];
    for (const [name, text, message] of cases) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const lines = text.split('\n');
      const before = server.requests.length;
      const r = await cliRun(['run', '--workspace', ws, '--plan', file, '--approve', 'all']);
      assert.equal(r.code, 2, `${name}: ${r.stderr}`);
      const m = new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+): (.*)`).exec(r.stderr);
      assert.ok(m, r.stderr);
      assert.match(m[2]!, message);
      const line = lines[Number(m[1]) - 1]!;
      assert.ok(/^## s1 · |^- after: s9$|^- colour: red$/.test(line), `line ${m[1]} is the one at fault: ${line}`);
      assert.equal(server.requests.length, before, `${name}: no model call`);
      assert.equal(existsSync(join(ws, 'src', 'one.txt')), false);
    }
  });

  it('a document planned on another commit is refused without a terminal, unless --allow-other-base', async () => {
    const ws = workspace('base');
    const file = await planInto(ws, 'base.md');
    writeFileSync(join(ws, 'later.txt'), 'later\n');
    git(ws, 'add', '-A');
    git(ws, 'commit', '-q', '-m', 'later');
    const before = server.requests.length;
    const refused = await cliRun(['run', '--workspace', ws, '--plan', file, '--approve', 'all']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /the plan was made on commit [0-9a-f]{12}, and the workspace is at [0-9a-f]{12}.*--allow-other-base/);
    assert.equal(server.requests.length, before, 'no model call');
    const allowed = await cliRun(['run', '--workspace', ws, '--plan', file, '--approve', 'all', '--allow-other-base']);
    assert.equal(allowed.code, 0, allowed.stderr + allowed.stdout);
    assert.match(allowed.stderr, /--allow-other-base: running it anyway/);
  });

  it('the approval prompt shows the estimate of each step and the plan', async () => {
    const ws = workspace('prompt');
    const file = await planInto(ws, 'prompt.md');
    const r = await cliRun(['run', '--workspace', ws, '--plan', file, '--approve', 'ask'], 'n\n');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /s1 \[edit\] Write the first file[\s\S]*?estimate: [\d,]+ tokens, \$\d+\.\d{4} on claude-haiku-5-5/);
    assert.match(r.stderr, /Estimated cost before it runs: [\d,]+ tokens, \$\d+\.\d{4}[\s\S]*Approve this plan\?/);
  });
});
