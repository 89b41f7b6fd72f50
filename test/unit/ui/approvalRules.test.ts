import { strict as assert } from 'node:assert';
import type { ApprovalRequest } from '../../../src/core/ports';
import { matchingRule, ruleFor } from '../../../src/vscode/approvals/rules';
import type { ApprovalRule } from '../../../src/webview/protocol';
import { parsedPlan } from '../../support/fixtures';

const base = { id: 'r', missionId: 'm', stepId: 's1', actionHash: 'h', why: '' };
const write = (path: string): ApprovalRequest => ({ ...base, kind: 'write', path, change: 'modified', beforeHash: null, afterHash: null });
const command = (line: string): ApprovalRequest => ({
  ...base,
  kind: 'command',
  command: line,
  argv: line.split(' '),
  cwd: '/w',
  confinement: 'sandboxed',
  network: false,
});
const rule = (kind: ApprovalRule['kind'], pattern: string): ApprovalRule => ({ id: `${kind}:${pattern}`, kind, pattern });

describe('auto-approve rules', () => {
  it('approves a write whose path matches the glob, and no other path', () => {
    const rules = [rule('write', 'src/**')];
    assert.equal(matchingRule(rules, write('src/a/b.ts'))?.pattern, 'src/**');
    assert.equal(matchingRule(rules, write('test/a.ts')), undefined);
    assert.equal(matchingRule(rules, write('srcx/a.ts')), undefined);
  });

  it('never lets a write rule approve a command, or a command rule a write', () => {
    assert.equal(matchingRule([rule('write', '**')], command('npm test')), undefined);
    assert.equal(matchingRule([rule('command', 'src/a.ts')], write('src/a.ts')), undefined);
  });

  it('matches a command exactly, or by prefix only when the pattern ends in " *"', () => {
    assert.ok(matchingRule([rule('command', 'npm test')], command('npm  test')));
    assert.equal(matchingRule([rule('command', 'npm test')], command('npm test -- --grep x')), undefined);
    assert.ok(matchingRule([rule('command', 'npm test *')], command('npm test -- --grep x')));
    assert.equal(matchingRule([rule('command', 'npm test *')], command('npm testing')), undefined, 'a prefix is a whole word');
  });

  it('never auto-approves a plan', () => {
    const plan = {
      ...base,
      kind: 'plan',
      plan: parsedPlan([], { goal: 'g', reason: '' }),
    } as ApprovalRequest;
    assert.equal(matchingRule([rule('write', '**'), rule('command', '* *')], plan), undefined);
  });

  it('remembers exactly the approved file or command, escaping glob characters in a path', () => {
    assert.deepEqual(ruleFor(write('src/a.ts')), { kind: 'write', pattern: 'src/a.ts' });
    const odd = ruleFor(write('src/[id].ts'));
    assert.ok(odd && matchingRule([rule('write', odd.pattern)], write('src/[id].ts')), 'the remembered rule matches its own file');
    assert.equal(matchingRule([rule('write', odd.pattern)], write('src/i.ts')), undefined, 'and not what the brackets would match as a glob');
    assert.deepEqual(ruleFor(command('npm test')), { kind: 'command', pattern: 'npm test' });
  });

  it('lets a step rule approve every write and command of that step only, never a plan', () => {
    const rules = [rule('step', 's1')];
    assert.equal(matchingRule(rules, write('anything/at/all.ts'))?.kind, 'step');
    assert.equal(matchingRule(rules, command('npm test'))?.kind, 'step');
    assert.equal(matchingRule(rules, { ...command('npm test'), stepId: 's2' }), undefined);
    assert.equal(matchingRule(rules, { ...command('npm test'), stepId: null }), undefined);
  });
});
