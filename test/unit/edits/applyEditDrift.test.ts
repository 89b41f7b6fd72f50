import { strict as assert } from 'node:assert';
import { applyEdit, type ApplyEditResult } from '../../../src/core/edits/applyEdit';

function ok(r: ApplyEditResult): { text: string; strategy: string } {
  if (!r.ok) assert.fail(`expected success, got ${r.reason}: ${r.message}`);
  return r;
}

function refused(r: ApplyEditResult, reason: string): string {
  if (r.ok) assert.fail(`expected a refusal (${reason}), got:\n${r.text}`);
  assert.equal(r.reason, reason, r.message);
  return r.message;
}

describe('applyEdit writes the match back line by line', () => {
  describe('nothing of a replaced line is carried onto new text', () => {
    it('does not leave the trailing tab of a replaced last line after the new line (exact match)', () => {
      const file = 'function sum(xs) {\n  let total = 0;\n  return total;\t\n}\n';
      const r = ok(applyEdit(file, { oldText: '  return total;', newText: '  return total + 1;' }));
      assert.equal(r.text, 'function sum(xs) {\n  let total = 0;\n  return total + 1;\n}\n');
    });
    it('writes changed lines as newText has them and keeps the trailing whitespace of kept lines', () => {
      const file = 'a() {\n  let total = 0;   \n  total += x;\t\n  return total;\t\n}\n';
      const r = ok(
        applyEdit(file, { oldText: '  let total = 0;\n  total += x;\n  return total;', newText: '  let total = 0;\n  total += 2 * x;\n  return total;' }),
      );
      assert.equal(r.strategy, 'trailing_whitespace');
      assert.equal(r.text, 'a() {\n  let total = 0;   \n  total += 2 * x;\n  return total;\t\n}\n');
    });
    it('keeps kept lines byte-identical under an indentation shift (their own indentation and trailing spaces)', () => {
      const file = 'class A {\n\tf() {  \n\t\tgo();\n\t}\n}\n';
      const r = ok(applyEdit(file, { oldText: 'f() {\n    go();\n}', newText: 'f() {\n    go();\n    stop();\n}' }));
      assert.equal(r.text, 'class A {\n\tf() {  \n\t\tgo();\n\t\tstop();\n\t}\n}\n');
    });
    it('keeps text after a snippet that ends mid-line', () => {
      const r = ok(applyEdit('  x = compute(1); // why\n', { oldText: 'compute(1)', newText: 'compute(2)' }));
      assert.equal(r.text, '  x = compute(2); // why\n');
    });
  });

  describe('blank-line drift (blank_lines)', () => {
    it("matches a snippet with one blank line fewer and keeps the file's blank line", () => {
      const file = 'a();\n\nb();\nc();\n';
      const r = ok(applyEdit(file, { oldText: 'a();\nb();\nc();', newText: 'a();\nb();\nc2();' }));
      assert.equal(r.strategy, 'blank_lines');
      assert.equal(r.text, 'a();\n\nb();\nc2();\n');
    });
    it('matches a snippet with one blank line more and does not add it to the file', () => {
      const file = 'a();\nb();\nc();\n';
      const r = ok(applyEdit(file, { oldText: 'a();\n\nb();', newText: 'a();\n\nB();' }));
      assert.equal(r.text, 'a();\nB();\nc();\n');
    });
    it("matches several blank lines missing and extra, keeping the file's own", () => {
      const file = 'a\n\n\nb\nc\nd\n';
      const r = ok(applyEdit(file, { oldText: 'a\nb\n\nc', newText: 'a\nb\n\nC' }));
      assert.equal(r.text, 'a\n\n\nb\nC\nd\n');
    });
    it("refuses to guess whether the file's blank line between a kept line and a replaced one stays", () => {
      const file = '  foo();\n\n  return x;\n}\n';
      refused(applyEdit(file, { oldText: '  foo();\n  return x;', newText: '  foo();\n  return y;' }), 'ambiguous');
      const r = ok(applyEdit(file, { oldText: '  foo();\n  return x;', newText: '  foo();\n\n  return y;' }));
      assert.equal(r.text, '  foo();\n\n  return y;\n}\n');
    });
    it('tolerates an extra blank line at the edge of the snippet', () => {
      const r = ok(applyEdit('a\nb\nc\n', { oldText: 'a\nb\n\n', newText: 'a\nB\n\n' }));
      assert.equal(r.strategy, 'blank_lines');
      assert.equal(r.text, 'a\nB\nc\n');
    });
    it('refuses newText removing blank lines where the file has more than oldText (all of them, or the one shown?)', () => {
      const message = refused(applyEdit('a\n\n\nb\nc\n', { oldText: 'a\n\nb', newText: 'a\nb' }), 'ambiguous');
      assert.match(message, /the file has 2 blank lines, oldText 1 blank line and newText 0 blank lines/);
    });
    it('refuses newText adding blank lines where oldText has one the file lacks (as written, or one more than the file?)', () => {
      const message = refused(applyEdit('a\nb\nc\n', { oldText: 'a\n\nb', newText: 'a\n\n\nb' }), 'ambiguous');
      assert.match(message, /the file has 0 blank lines, oldText 1 blank line and newText 2 blank lines/);
    });
    it('refuses when the snippet fits two places once blank lines are ignored', () => {
      const file = 'x\n\ny\nz\n---\nx\ny\n\nz\n';
      const message = refused(applyEdit(file, { oldText: 'x\ny\nz', newText: 'x\ny\nZ' }), 'ambiguous');
      assert.match(message, /2 places/);
      assert.match(message, /lines 1, 6/);
    });
    it("refuses when the file's blank line could go before or after the inserted text, showing the real lines", () => {
      const message = refused(applyEdit('a\n\nc\n', { oldText: 'a\nc', newText: 'a\nb\nc' }), 'ambiguous');
      assert.match(message, /blank lines exactly as the file has them/);
      assert.match(message, /\s1\ta\n\s+2\t\n\s+3\tc/);
    });
    it('keeps CRLF in a CRLF file, for the new lines too', () => {
      const file = 'a();\r\n\r\nb();\r\nc();\r\n';
      const r = ok(applyEdit(file, { oldText: 'a();\nb();\nc();', newText: 'a();\nb();\nb3();\nc();' }));
      assert.equal(r.text, 'a();\r\n\r\nb();\r\nb3();\r\nc();\r\n');
    });
    it('combines with tabs written as spaces', () => {
      const file = 'f() {\n\tif (x) {\n\n\t\tgo();\n\t}\n}\n';
      const r = ok(applyEdit(file, { oldText: '    if (x) {\n        go();\n    }', newText: '    if (x) {\n        go();\n    } // x' }));
      assert.equal(r.text, 'f() {\n\tif (x) {\n\n\t\tgo();\n\t} // x\n}\n');
    });
  });

  describe('line endings, BOM and the final newline', () => {
    it('writes new lines in the line-ending style of the region they land in (mixed file)', () => {
      const file = 'a\r\nb\r\nc\nd\ne\nf\n';
      assert.equal(ok(applyEdit(file, { oldText: 'a\nb', newText: 'a\nx\nb' })).text, 'a\r\nx\r\nb\r\nc\nd\ne\nf\n');
      assert.equal(ok(applyEdit(file, { oldText: 'd\ne', newText: 'd\ny\ne' })).text, 'a\r\nb\r\nc\nd\ny\ne\nf\n');
    });
    it('keeps one BOM in front and matches text that starts the file', () => {
      const r = ok(applyEdit('\uFEFFfirst();\n\nsecond();\n', { oldText: 'first();\nsecond();', newText: 'first();\n\nthird();' }));
      assert.equal(r.text, '\uFEFFfirst();\n\nthird();\n');
    });
    it('adds no final newline to a file without one when oldText and newText end with one', () => {
      const r = ok(applyEdit('a\nb', { oldText: 'b\n', newText: 'c\n' }));
      assert.equal(r.text, 'a\nc');
    });
    it('keeps a file without final newline without one when lines are added at its end', () => {
      const r = ok(applyEdit('a\nb', { oldText: 'b', newText: 'b\nc' }));
      assert.equal(r.text, 'a\nb\nc');
    });
  });

  describe('a newText that repeats the line next to the match', () => {
    it('refuses a newText that starts with the line above the match', () => {
      const message = refused(applyEdit('one();\ntwo();\nthree();\n', { oldText: 'two();', newText: 'one();\nTWO();' }), 'ambiguous');
      assert.match(message, /line 1 of the file/);
      assert.match(message, /twice/);
    });
    it('refuses a newText that ends with the line below the match, blank lines between', () => {
      const message = refused(applyEdit('  a();\n}\n\nnext();\n', { oldText: '  a();\n}\n', newText: '  b();\n}\n\nnext();' }), 'ambiguous');
      assert.match(message, /line 4 of the file/);
    });
    it('applies a newText whose last line equals the next line at another indentation', () => {
      const r = ok(applyEdit('  if (x) {\n    go();\n  }\n', { oldText: '    go();', newText: '    if (y) {\n      go();\n    }' }));
      assert.equal(r.text, '  if (x) {\n    if (y) {\n      go();\n    }\n  }\n');
    });
  });

  describe('what a refusal tells the model', () => {
    it('shows the closest region with line numbers and the lines that differ', () => {
      const file = 'const price = 2;\nconst total = price * qty;\nlog(total);\n';
      const message = refused(applyEdit(file, { oldText: 'const total = price * quantity;\nlog(total);', newText: 'x' }), 'not_found');
      assert.match(message, /lines 2–3/);
      assert.match(message, /What differs/);
      assert.match(message, /-\s+2\tconst total = price \* qty;/);
      assert.match(message, /\+\s+\tconst total = price \* quantity;/);
      assert.doesNotMatch(message, /-\s+3\tlog/);
    });
    it('shows where an ambiguous snippet matches, with line numbers', () => {
      const message = refused(applyEdit('x = 1;\ny();\nx = 1;\nz();\n', { oldText: 'x = 1;', newText: 'x = 2;' }), 'ambiguous');
      assert.match(message, /\s1\tx = 1;\n\s+2\ty\(\);/);
      assert.match(message, /\s3\tx = 1;\n\s+4\tz\(\);/);
    });
  });
});
