/**
 * Red team, a misbehaving executor model: no tool call, unknown tools, malformed tool input, a malformed
 * report, a claim of success without the work, an endless tool loop, an ambiguous edit, binary and huge
 * files. Each must end in a structured outcome — an is_error tool_result the model can act on, or a failed
 * step with a failure class — never a hang, a crash, a wrong edit or an unverified success.
 */
import { strict as assert } from 'node:assert';
import type { WireCheck, WireStep } from '../../support/fixtures';
import { cleanup, edit, ofType, plan, read, report, runAdversarialMission, step, tree, write, type MissionRun, describeEachProvider } from './harness';

const A_JS = "console.log('ok');\n";
const id = <T extends { name: string; input: unknown }>(toolId: string, use: T): T & { id: string } => ({ ...use, id: toolId });

const editStep = (checks: WireCheck[] = [{ kind: 'file_contains', path: 'src/a.js', text: 'patched' }]): WireStep =>
  step('s1', { authority: { read: ['**'], edit: ['src/**'], commands: [] }, evidence: { checks, description: '' } });

function errorResult(run: MissionRun, toolId: string): string {
  const r = run.toolResults.get(toolId);
  assert.ok(r, `the model got a tool_result for ${toolId}`);
  assert.equal(r.isError, true, `${toolId} is an error result: ${r.content}`);
  return r.content;
}

describeEachProvider('adversarial: misbehaving executor model', function () {
  this.timeout(30_000);
  let run: MissionRun | undefined;
  afterEach(async () => {
    await cleanup(run);
    run = undefined;
  });

  it("plain text and no tool call from the very first answer: a model without tool calling is named at once (no retry, the mission ends); on Anthropic it is the step's failure", async () => {
    run = await runAdversarialMission({
      plan: plan([editStep()], { direct: true }),
      setup: (ws) => write(ws, 'src/a.js', A_JS),
      rules: [{ name: 'chatty', match: { role: 'executor' }, respond: () => ({ text: 'I think the change is done. Let me know!' }) }],
    });
    assert.equal(run.report.outcome, 'failed');
    assert.deepEqual(run.report.failed, ['s1']);
    const executorCalls = run.requests.filter((r) => r.role === 'executor').length;
    if (run.provider === 'anthropic') {
      assert.equal(run.report.failure?.class, 'invalid_output', JSON.stringify(run.report.failure));
      assert.equal(run.report.failure?.cause, undefined, 'every Claude model calls tools: not a provider failure');
      assert.equal(ofType(run.events, 'step_result').length, 2, 'the first attempt and one retry');
      assert.equal(executorCalls, 4, 'two turns (one nudge) per attempt');
    } else {
      assert.equal(run.report.failure?.cause, 'no_tool_support', JSON.stringify(run.report.failure));
      assert.match(run.report.failure?.message ?? '', /does not seem to support tool calling/);
      assert.equal(ofType(run.events, 'step_result').length, 1, 'no retry: another attempt would meet the same model');
      assert.equal(executorCalls, 2, 'the answer and one nudge');
    }
    assert.equal(read(run.ws, 'src/a.js'), A_JS);
  });

  it('a model that called tools, then stops without a result twice, fails the step as invalid_output (after one nudge and one retry)', async () => {
    run = await runAdversarialMission({
      plan: plan([editStep()], { direct: true }),
      setup: (ws) => write(ws, 'src/a.js', A_JS),
      rules: [
        {
          name: 'chatty',
          match: { role: 'executor' },
          turns: [{ toolUse: [edit('src/a.js', { command: 'view' })] }, { text: 'I think the change is done.' }, { text: 'Really, it is done.' }],
        },
      ],
    });
    assert.equal(run.report.outcome, 'failed');
    assert.deepEqual(run.report.failed, ['s1']);
    assert.equal(run.report.failure?.class, 'invalid_output', JSON.stringify(run.report.failure));
    assert.equal(run.report.failure?.cause, undefined);
    const results = ofType(run.events, 'step_result');
    assert.equal(results.length, 2, 'the first attempt and one retry');
    assert.ok(results.every((r) => r.result.failure?.class === 'invalid_output'));
    assert.equal(run.requests.filter((r) => r.role === 'executor').length, 6, 'three turns (one nudge) per attempt');
    assert.equal(read(run.ws, 'src/a.js'), A_JS);
  });

  it('unknown tools and malformed tool input come back as is_error results; the model recovers and the step succeeds', async () => {
    run = await runAdversarialMission({
      plan: plan([editStep()], { direct: true }),
      setup: (ws) => write(ws, 'src/a.js', A_JS),
      rules: [
        {
          name: 's1',
          match: { role: 'executor' },
          turns: [
            {
              toolUse: [
                id('u_unknown', { name: 'delete_everything', input: { path: '.' } }),
                id('u_verifier_tool', { name: 'report_verdict', input: { passed: true, detail: 'self-approved' } }),
                id('u_no_old', edit('src/a.js', { command: 'str_replace', new_str: 'x' })),
                id('u_range_str', edit('src/a.js', { command: 'view', view_range: '1-2' })),
                id('u_path_num', { name: 'str_replace_based_edit_tool', input: { command: 'view', path: 42 } }),
                id('u_bad_cmd', edit('src/a.js', { command: 'rm' })),
                id('u_insert_neg', edit('src/a.js', { command: 'insert', insert_line: -1, insert_text: 'x' })),
                id('u_insert_far', edit('src/a.js', { command: 'insert', insert_line: 99, insert_text: 'x' })),
                id('u_bash_num', { name: 'bash', input: { command: 7 } }),
                id('u_input_null', { name: 'bash', input: null }),
                id('u_undo', edit('src/a.js', { command: 'undo_edit' })),
              ],
            },
            { toolUse: [edit('src/a.js', { command: 'str_replace', old_str: "'ok'", new_str: "'patched'" })] },
            report('patched'),
          ],
        },
      ],
    });
    assert.match(errorResult(run, 'u_unknown'), /unknown tool "delete_everything"/);
    assert.match(errorResult(run, 'u_verifier_tool'), /unknown tool "report_verdict"/);
    assert.match(errorResult(run, 'u_no_old'), /str_replace needs old_str/);
    assert.match(errorResult(run, 'u_range_str'), /view_range/);
    assert.match(errorResult(run, 'u_path_num'), /path/);
    assert.match(errorResult(run, 'u_bad_cmd'), /command/);
    assert.match(errorResult(run, 'u_insert_neg'), /insert_line/);
    assert.match(errorResult(run, 'u_insert_far'), /out of range/);
    assert.match(errorResult(run, 'u_bash_num'), /command/);
    assert.match(errorResult(run, 'u_input_null'), /bash needs a command/);
    assert.match(errorResult(run, 'u_undo'), /not supported/);
    assert.equal(read(run.ws, 'src/a.js'), "console.log('patched');\n");
    assert.equal(run.report.outcome, 'succeeded', JSON.stringify(run.report));
  });

  it('a schema-invalid report_result is refused back to the model; a valid one then ends the step', async () => {
    run = await runAdversarialMission({
      plan: plan([editStep()], { direct: true }),
      setup: (ws) => write(ws, 'src/a.js', A_JS),
      rules: [
        {
          name: 's1',
          match: { role: 'executor' },
          turns: [
            { toolUse: [edit('src/a.js', { command: 'str_replace', old_str: "'ok'", new_str: "'patched'" })] },
            { toolUse: [id('r_bad', { name: 'report_result', input: { status: 'done!', output: 42, evidence: 'trust me' } })] },
            { toolUse: [id('r_bad2', { name: 'report_result', input: { status: 'succeeded' } })] },
            report('patched'),
          ],
        },
      ],
    });
    assert.match(errorResult(run, 'r_bad'), /invalid report_result input/);
    assert.match(errorResult(run, 'r_bad2'), /invalid report_result input/);
    assert.equal(run.report.outcome, 'succeeded', JSON.stringify(run.report));
  });

  it('a claimed success without the work never becomes succeeded: verification fails it', async () => {
    run = await runAdversarialMission({
      plan: plan(
        [
          editStep([
            { kind: 'file_contains', path: 'src/a.js', text: 'patched' },
            { kind: 'files_exist', paths: ['src/new.js'] },
          ]),
        ],
        { direct: true },
      ),
      setup: (ws) => write(ws, 'src/a.js', A_JS),
      rules: [{ name: 'liar', match: { role: 'executor' }, turns: [report('patched src/a.js and created src/new.js (trust me)')] }],
    });
    assert.equal(run.report.outcome, 'failed');
    assert.deepEqual(run.report.succeeded, []);
    const verifications = ofType(run.events, 'verification');
    assert.equal(verifications.length, 2, 'each attempt was verified');
    assert.ok(verifications.every((v) => !v.verification.passed));
    assert.equal(run.report.failure?.class, 'verification_failed', JSON.stringify(run.report.failure));
    assert.ok(!ofType(run.events, 'step_status').some((e) => e.status === 'succeeded'), 'no succeeded status was ever recorded');
    assert.deepEqual(tree(run.ws), ['src/a.js']);
  });

  it('an endless tool loop is cut by the turn limit with a structured budget failure', async () => {
    run = await runAdversarialMission({
      plan: plan([editStep()], { direct: true }),
      setup: (ws) => write(ws, 'src/a.js', A_JS),
      settings: { maxExecutorTurns: 4 },
      rules: [{ name: 'loop', match: { role: 'executor' }, respond: () => ({ toolUse: [edit('src/a.js', { command: 'view' })] }) }],
    });
    assert.equal(run.report.outcome, 'failed');
    assert.equal(run.report.failure?.class, 'budget_exceeded', JSON.stringify(run.report.failure));
    assert.match(run.report.failure?.message ?? '', /4 model turns/);
    assert.equal(ofType(run.events, 'step_result').length, 1, 'a turn-limit failure is not retried blindly');
    assert.equal(run.requests.filter((r) => r.role === 'executor').length, 4);
  });

  it('an ambiguous str_replace (old_str matches twice) is refused back to the model and the file is unchanged', async () => {
    const twice = 'let x = 1;\nlet y = 2;\nlet x = 1;\n';
    run = await runAdversarialMission({
      plan: plan([editStep([{ kind: 'file_contains', path: 'src/a.js', text: 'let x = 3;' }])], { direct: true }),
      setup: (ws) => write(ws, 'src/a.js', twice),
      rules: [
        {
          name: 's1',
          match: { role: 'executor' },
          turns: [
            { toolUse: [id('amb', edit('src/a.js', { command: 'str_replace', old_str: 'let x = 1;', new_str: 'let x = 3;' }))] },
            { toolUse: [id('amb_ws', edit('src/a.js', { command: 'str_replace', old_str: '  let x = 1;  ', new_str: 'let x = 3;' }))] },
            { toolUse: [{ name: 'escalate', input: { reason: 'ambiguity', message: 'two identical lines; which one?' } }] },
          ],
        },
      ],
    });
    assert.match(errorResult(run, 'amb'), /ambiguous/);
    assert.match(errorResult(run, 'amb_ws'), /ambiguous|not_found/);
    assert.equal(read(run.ws, 'src/a.js'), twice);
    assert.notEqual(run.report.outcome, 'succeeded');
  });

  it('binary and oversized files are refused clearly by the editor; nothing is rewritten', async () => {
    const binary = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, 0x6f, 0x6b, 0x0a]);
    const huge = `// ${'x'.repeat(5000)}\nconsole.log('ok');\n`;
    run = await runAdversarialMission({
      plan: plan([editStep([{ kind: 'file_contains', path: 'src/a.js', text: 'patched' }])], { direct: true }),
      mission: { toolSettings: { maxFileBytes: 2000 } },
      setup: (ws) => {
        write(ws, 'src/a.js', A_JS);
        write(ws, 'src/tool.bin', binary);
        write(ws, 'src/huge.js', huge);
      },
      rules: [
        {
          name: 's1',
          match: { role: 'executor' },
          turns: [
            {
              toolUse: [
                id('b_view', edit('src/tool.bin', { command: 'view' })),
                id('b_edit', edit('src/tool.bin', { command: 'str_replace', old_str: 'ok', new_str: 'no' })),
                id('b_insert', edit('src/tool.bin', { command: 'insert', insert_line: 0, insert_text: 'x' })),
                id('h_view', edit('src/huge.js', { command: 'view' })),
                id('h_edit', edit('src/huge.js', { command: 'str_replace', old_str: "'ok'", new_str: "'no'" })),
                id('h_create', edit('src/bigger.js', { command: 'create', file_text: huge })),
              ],
            },
            { toolUse: [edit('src/a.js', { command: 'str_replace', old_str: "'ok'", new_str: "'patched'" })] },
            report('patched'),
          ],
        },
      ],
    });
    assert.match(errorResult(run, 'b_view'), /binary|NUL/);
    assert.match(errorResult(run, 'b_edit'), /binary|NUL/);
    assert.match(errorResult(run, 'b_insert'), /binary|NUL/);
    assert.match(errorResult(run, 'h_view'), /limit is 2000/);
    assert.match(errorResult(run, 'h_edit'), /limit is 2000/);
    assert.match(errorResult(run, 'h_create'), /limit is 2000/);
    assert.deepEqual(Buffer.from(read(run.ws, 'src/tool.bin'), 'latin1').length, binary.length);
    assert.equal(read(run.ws, 'src/huge.js'), huge);
    assert.deepEqual(tree(run.ws), ['src/a.js', 'src/huge.js', 'src/tool.bin']);
    assert.equal(run.report.outcome, 'succeeded', JSON.stringify(run.report));
  });

  it('a catastrophic regex in search_files is stopped with a clear error instead of freezing the host; the mission goes on', async () => {
    const started = Date.now();
    run = await runAdversarialMission({
      plan: plan([editStep()], { direct: true }),
      setup: (ws) => {
        write(ws, 'src/a.js', A_JS);
        write(ws, 'src/data.txt', `${'a'.repeat(60)}\n`);
      },
      rules: [
        {
          name: 's1',
          match: { role: 'executor' },
          turns: [
            {
              toolUse: [
                id('redos_alt', { name: 'search_files', input: { pattern: '(a|a?)+b' } }),
                id('redos_overlap', { name: 'search_files', input: { pattern: '(a|aa)+$b' } }),
              ],
            },
            {
              toolUse: [
                id('plain', { name: 'search_files', input: { pattern: "console\\.log\\('ok'\\)" } }),
                edit('src/a.js', { command: 'str_replace', old_str: "'ok'", new_str: "'patched'" }),
              ],
            },
            report('patched'),
          ],
        },
      ],
    });
    assert.match(errorResult(run, 'redos_alt'), /ran longer than \d+ ms and was stopped/);
    assert.match(errorResult(run, 'redos_overlap'), /ran longer than \d+ ms and was stopped/);
    const plain = run.toolResults.get('plain');
    assert.equal(plain?.isError, false, plain?.content);
    assert.match(plain?.content ?? '', /src\/a\.js:1: console\.log\('ok'\)/);
    assert.ok(Date.now() - started < 15_000, `bounded: ${Date.now() - started} ms`);
    assert.equal(run.report.outcome, 'succeeded', JSON.stringify(run.report));
  });
});
