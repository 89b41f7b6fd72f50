import { strict as assert } from 'node:assert';
import { applyEdit } from '../../../src/core/edits/applyEdit';

function ok(r: ReturnType<typeof applyEdit>): { text: string; strategy: string } {
  if (!r.ok) assert.fail(`expected success, got ${r.reason}: ${r.message}`);
  return r;
}

describe('applyEdit', () => {
  const ts = 'export function greet(name: string) {\n  if (!name) {\n    return "nobody";\n  }\n  return `hi ${name}`;\n}\n';

  describe('exact matching', () => {
    it('replaces a unique exact match', () => {
      const r = ok(applyEdit(ts, { oldText: 'return "nobody";', newText: 'return "anonymous";' }));
      assert.equal(r.strategy, 'exact');
      assert.equal(r.text, ts.replace('"nobody"', '"anonymous"'));
    });
    it('refuses an exact match that occurs twice as ambiguous, naming the lines', () => {
      const r = applyEdit(ts, { oldText: '  return', newText: '  yield' });
      assert.equal(r.ok, false);
      if (!r.ok) {
        assert.equal(r.reason, 'ambiguous');
        assert.match(r.message, /matches 2 places/);
        assert.deepEqual(r.matchLines, [3, 5]);
      }
    });
    it("converts newText to the file's CRLF line endings", () => {
      const crlf = ts.replace(/\n/g, '\r\n');
      const r = ok(applyEdit(crlf, { oldText: '    return "nobody";', newText: '    log("x");\n    return "nobody";' }));
      assert.ok(r.text.includes('log("x");\r\n'));
      assert.ok(!/[^\r]\n/.test(r.text));
    });
  });

  describe('tolerant fallbacks', () => {
    it('matches an LF edit in a CRLF file (line_endings) and keeps CRLF', () => {
      const crlf = ts.replace(/\n/g, '\r\n');
      const r = ok(applyEdit(crlf, { oldText: '  if (!name) {\n    return "nobody";\n  }', newText: '  if (!name) {\n    return "none";\n  }' }));
      assert.equal(r.strategy, 'line_endings');
      assert.equal(r.text, crlf.replace('"nobody"', '"none"'));
    });
    it('matches a CRLF edit in an LF file and writes LF', () => {
      const r = ok(applyEdit(ts, { oldText: '  if (!name) {\r\n    return "nobody";', newText: '  if (!name) {\r\n    return "none";' }));
      assert.equal(r.text, ts.replace('"nobody"', '"none"'));
    });
    it('ignores trailing whitespace the file has and the edit lacks, and writes none onto replaced lines', () => {
      const file = 'a = 1;   \nb = 2;\t\nc = 3;\n';
      const r = ok(applyEdit(file, { oldText: 'a = 1;\nb = 2;', newText: 'a = 10;\nb = 20;' }));
      assert.equal(r.strategy, 'trailing_whitespace');
      assert.equal(r.text, 'a = 10;\nb = 20;\nc = 3;\n');
    });
    it('ignores trailing whitespace the edit adds and strips it from newText', () => {
      const file = 'a = 1;\nb = 2;\nc = 3;\n';
      const r = ok(applyEdit(file, { oldText: 'a = 1;  \nb = 2;  ', newText: 'a = 10;  \nb = 20;  ' }));
      assert.equal(r.text, 'a = 10;\nb = 20;\nc = 3;\n');
    });
    it('reads typographic quotes as ASCII quotes and writes ASCII quotes', () => {
      const r = ok(applyEdit(ts, { oldText: 'return \u201Cnobody\u201D;', newText: 'return \u2018nobody at all\u2019;' }));
      assert.equal(r.strategy, 'typographic_quotes');
      assert.equal(r.text, ts.replace('"nobody"', "'nobody at all'"));
    });
    it('re-indents newText when the snippet was sent dedented (indentation)', () => {
      const r = ok(applyEdit(ts, { oldText: 'if (!name) {\n  return "nobody";\n}', newText: 'if (!name) {\n  log();\n  return "nobody";\n}' }));
      assert.equal(r.strategy, 'indentation');
      assert.equal(r.text, ts.replace('    return "nobody";', '    log();\n    return "nobody";'));
    });
    it('re-indents newText when the snippet was sent over-indented', () => {
      const r = ok(
        applyEdit(ts, {
          oldText: '      if (!name) {\n        return "nobody";\n      }',
          newText: '      if (name === "") {\n        return "nobody";\n      }',
        }),
      );
      assert.equal(r.text, ts.replace('if (!name)', 'if (name === "")'));
    });
    it('matches a space-indented edit in a tab-indented file and writes tabs (tabs_spaces)', () => {
      const file = 'function f() {\n\tif (x) {\n\t\tgo();\n\t}\n}\n';
      const r = ok(applyEdit(file, { oldText: '    if (x) {\n        go();\n    }', newText: '    if (x) {\n        go();\n        stop();\n    }' }));
      assert.equal(r.strategy, 'tabs_spaces');
      assert.equal(r.text, 'function f() {\n\tif (x) {\n\t\tgo();\n\t\tstop();\n\t}\n}\n');
    });
    it('matches a tab-indented edit in a space-indented file and writes spaces', () => {
      const r = ok(applyEdit(ts, { oldText: '\tif (!name) {\n\t\treturn "nobody";\n\t}', newText: '\tif (!name) {\n\t\treturn "?";\n\t}' }));
      assert.equal(r.text, ts.replace('"nobody"', '"?"'));
    });
  });

  describe('edge cases from the edit bench', () => {
    it('does not leave a stray CR when oldText starts at the LF of a CRLF', () => {
      const r = ok(applyEdit('a\r\n\r\nb\r\n', { oldText: '\nb', newText: '\nx\nb' }));
      assert.equal(r.text, 'a\r\n\r\nx\r\nb\r\n');
    });
    it('refuses lines added left of a one-line match sent without its indentation (as written, or relative to it?)', () => {
      const r = applyEdit('f() {\n    let a = 1\n}\n', { oldText: 'let a = 1', newText: 'let a = 1\nlet b = 2' });
      assert.equal(r.ok, false);
      if (!r.ok) {
        assert.equal(r.reason, 'ambiguous');
        assert.match(r.message, /starts after that line's indentation \(4 spaces\), and newText adds lines indented less than that/);
        assert.match(r.message, /\s1\tf\(\) \{\n\s+2\t    let a = 1\n\s+3\t\}/);
      }
    });
    it('leaves added lines alone when they already carry the indentation', () => {
      const r = ok(applyEdit('f() {\n    let a = 1\n}\n', { oldText: 'let a = 1', newText: 'let a = 1\n    let b = 2' }));
      assert.equal(r.text, 'f() {\n    let a = 1\n    let b = 2\n}\n');
    });
    it('finds a tab-indented region when the edit uses a different space unit than it implies', () => {
      const file = 'x\n\t\tlet next\n\t\twhile (a &&\n\t\t\t\t(b))\n';
      const r = ok(applyEdit(file, { oldText: '    let next\n    while (a &&\n        (b))', newText: '    let next\n    while (c &&\n        (b))' }));
      assert.equal(r.text, file.replace('(a &&', '(c &&'));
    });
  });

  describe('refusals', () => {
    it('fails not_found with the closest candidate region and its similarity', () => {
      const r = applyEdit(ts, { oldText: 'return "somebody";', newText: 'x' });
      assert.equal(r.ok, false);
      if (!r.ok) {
        assert.equal(r.reason, 'not_found');
        assert.equal(r.candidates?.[0]?.startLine, 3);
        assert.ok((r.candidates?.[0]?.similarity ?? 0) > 0.5);
        assert.match(r.message, /lines 3–3/);
      }
    });
    it('refuses a near-miss (one token different) instead of applying it fuzzily', () => {
      const r = applyEdit(ts, { oldText: '  if (!nam) {\n    return "nobody";', newText: '  if (!nam) {\n    return "x";' });
      assert.equal(r.ok, false);
    });
    it('refuses an indentation shift that is not uniform', () => {
      const r = applyEdit(ts, { oldText: 'if (!name) {\n      return "nobody";\n}', newText: 'y' });
      assert.equal(r.ok, false);
      if (!r.ok) assert.equal(r.reason, 'not_found');
    });
    it('refuses a fallback match that is not unique as ambiguous', () => {
      const file = 'a() {\n  x = 1;\n}\nb() {\n    x = 1;\n}\n';
      const r = applyEdit(file, { oldText: 'x = 1;\n}', newText: 'x = 2;\n}' });
      assert.equal(r.ok, false);
      if (!r.ok) assert.equal(r.reason, 'ambiguous');
    });
    it('does not treat whitespace that ends oldText mid-line as trailing whitespace', () => {
      const r = applyEdit('let foobar = 1;\n', { oldText: 'foo ', newText: 'bar ' });
      assert.equal(r.ok, false);
    });
    it('still forgives trailing whitespace before a line break in oldText', () => {
      const r = ok(applyEdit('a = 1;\nb = 2;\n', { oldText: 'a = 1;  \n', newText: 'a = 3;\n' }));
      assert.equal(r.text, 'a = 3;\nb = 2;\n');
    });
    it('refuses a trailing-whitespace fallback that matches twice', () => {
      const r = applyEdit('x = 1; \ny\nx = 1;\t\n', { oldText: 'x = 1;\n', newText: 'x = 2;\n' });
      assert.equal(r.ok, false);
      if (!r.ok) assert.equal(r.reason, 'ambiguous');
    });
    it('reports no_op when oldText equals newText', () => {
      const r = applyEdit(ts, { oldText: 'return "nobody";', newText: 'return "nobody";' });
      assert.equal(!r.ok && r.reason, 'no_op');
    });
    it('reports no_op when the edit would leave the file unchanged after normalisation', () => {
      const r = applyEdit('a;  \nb;\n', { oldText: 'a;\nb;', newText: 'a;  \nb;' });
      assert.equal(!r.ok && r.reason, 'no_op');
    });
    it('refuses an empty oldText as invalid', () => {
      const r = applyEdit(ts, { oldText: '', newText: 'x' });
      assert.equal(!r.ok && r.reason, 'invalid');
    });
    it('refuses binary content (NUL bytes) as invalid', () => {
      const r = applyEdit('ab\0cd', { oldText: 'ab', newText: 'x' });
      assert.equal(!r.ok && r.reason, 'invalid');
    });
  });

  describe('file facts', () => {
    it('keeps a BOM at the start of the text', () => {
      const r = ok(applyEdit('\uFEFFa = 1;\n', { oldText: 'a = 1;', newText: 'a = 2;' }));
      assert.equal(r.text, '\uFEFFa = 2;\n');
    });
    it('keeps a missing final newline missing under a whole-line fallback', () => {
      const r = ok(applyEdit('  x {\n    y();\n  }', { oldText: 'x {\n  y();\n}', newText: 'x {\n  z();\n}' }));
      assert.equal(r.text, '  x {\n    z();\n  }');
    });
    it('keeps the final newline under a whole-line fallback', () => {
      const r = ok(applyEdit('x {\n  y();\n}\n', { oldText: 'y();\n', newText: 'z();\n' }));
      assert.equal(r.text, 'x {\n  z();\n}\n');
    });
  });
});
