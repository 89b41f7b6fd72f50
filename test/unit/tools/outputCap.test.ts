import { strict as assert } from 'node:assert';
import { OutputCapture } from '../../../src/core/tools/outputCap';

describe('OutputCapture', () => {
  it('keeps everything under the cap', () => {
    const c = new OutputCapture(1000);
    c.push('hello ');
    c.push(Buffer.from('world'));
    assert.equal(c.text(), 'hello world');
    assert.equal(c.truncated, false);
  });
  it('keeps the head and the tail and says how much was dropped', () => {
    const c = new OutputCapture(200);
    c.push('HEAD-START ');
    for (let i = 0; i < 1000; i++) c.push(`line ${i}\n`);
    c.push('THE-END');
    const t = c.text();
    assert.equal(c.truncated, true);
    assert.ok(t.startsWith('HEAD-START '));
    assert.ok(t.endsWith('THE-END'));
    assert.match(t, /\[\d+ bytes of output omitted\]/);
    assert.ok(Buffer.byteLength(t) < 300);
  });
});
