import assert from 'node:assert/strict';
import { createProgress, describeRun } from '../../../src/node/eval/progress';
import { result } from './builders';

function stream(tty: boolean): { text: () => string; write: (t: string) => boolean; isTTY: boolean; columns: number } {
  let out = '';
  return { text: () => out, write: (t) => ((out += t), true), isTTY: tty, columns: 100 };
}

describe('eval progress', () => {
  const resolved = result({
    task: 'a',
    mode: 'planned',
    resolved: true,
    check: { passed: true, exitCode: 0, signal: null, timedOut: false, durationMs: 1, outputTail: '' },
  });
  const saidDone = result({ task: 'b', mode: 'direct', falseDone: true, mission: { id: 'm', outcome: 'succeeded', summary: '' } });

  it('writes one plain line per finished run where there is no terminal', () => {
    const out = stream(false);
    const p = createProgress(out, 2);
    p.started('a.planned.1');
    p.finished('a.planned.1', resolved);
    p.finished('b.direct.1', saidDone);
    p.close();
    assert.equal(
      out.text(),
      '[1/2] a.planned.1: resolved, mission failed — 1.0 s, $0.0100, 3 model call(s)\n' +
        '[2/2] b.direct.1: not resolved (check exit 1), mission said done — 1.0 s, $0.0100, 3 model call(s)\n',
    );
  });

  it('redraws one bar in place on a terminal, with what runs now, and keeps each finished run as a line', () => {
    const out = stream(true);
    const p = createProgress(out, 4);
    p.started('a.planned.1');
    p.started('b.direct.1');
    assert.match(out.text(), /\r\x1b\[Keval \[\.{20}\] 0\/4, 0 resolved, 0 s · a\.planned\.1, b\.direct\.1$/);
    p.finished('a.planned.1', resolved);
    assert.match(out.text(), /\r\x1b\[Ka\.planned\.1: resolved.*\n\r\x1b\[Keval \[#{5}\.{15}\] 1\/4, 1 resolved, 0 s · b\.direct\.1$/);
    p.close();
    assert.ok(out.text().endsWith('\r\x1b[K'), 'the bar is cleared at the end');
  });

  it('names why a run was not resolved: the check, or an untouched file', () => {
    assert.match(
      describeRun(
        'x',
        result({
          task: 'x',
          mode: 'direct',
          untouchedChanged: ['test/a.js'],
          check: { passed: true, exitCode: 0, signal: null, timedOut: false, durationMs: 1, outputTail: '' },
        }),
      ),
      /untouched changed: test\/a\.js/,
    );
    assert.match(
      describeRun('x', result({ task: 'x', mode: 'direct', status: 'error', error: 'malformed task: no check' })),
      /x: ERROR — malformed task: no check/,
    );
  });
});
