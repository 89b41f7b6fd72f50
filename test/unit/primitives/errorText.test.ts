import { strict as assert } from 'node:assert';
import { asError, errorDetail, errorText } from '../../../src/core/primitives/errorText';

describe('primitives/errorText', () => {
  it("gives an Error's message, and a subclass's", () => {
    assert.equal(errorText(new Error('boom')), 'boom');
    assert.equal(errorText(new TypeError('bad type')), 'bad type');
    assert.equal(errorText(new AggregateError([new Error('a'), new Error('b')], 'several')), 'several');
  });

  it('shows anything else thrown as String does', () => {
    assert.equal(errorText('plain text'), 'plain text');
    assert.equal(errorText(undefined), 'undefined');
    assert.equal(errorText(null), 'null');
    assert.equal(errorText(42), '42');
    // An object with a message is not an Error: String shows it, the message is not taken on trust.
    assert.equal(errorText({ message: 'looks like one' }), '[object Object]');
  });

  it('gives the stack for logs, which starts with the message', () => {
    const e = new Error('boom');
    assert.equal(errorDetail(e), e.stack);
    assert.match(errorDetail(e), /^Error: boom\n/);
    const noStack = new Error('bare');
    noStack.stack = undefined;
    assert.equal(errorDetail(noStack), 'bare');
    assert.equal(errorDetail('text'), 'text');
  });

  it('wraps what is not an Error, and keeps what is', () => {
    const e = new RangeError('r');
    assert.equal(asError(e), e);
    const wrapped = asError('text');
    assert.ok(wrapped instanceof Error);
    assert.equal(wrapped.message, 'text');
  });
});
