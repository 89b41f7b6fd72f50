import { strict as assert } from 'node:assert';
import { applyEdit, type ApplyEditResult } from '../../../src/core/edits/applyEdit';

function ok(r: ApplyEditResult): { text: string; strategy: string } {
  if (!r.ok) assert.fail(`expected success, got ${r.reason}: ${r.message}`);
  return r;
}

function refused(r: ApplyEditResult): { message: string; matchLines?: number[] } {
  if (r.ok) assert.fail(`expected a refusal, got:\n${r.text}`);
  assert.equal(r.reason, 'ambiguous', r.message);
  return r;
}

// Shapes from real code (bench/edits --git) where a substring match was applied at the wrong place or with
// the wrong indentation: the same texts read another way, so the edit is refused with the places it fits.
describe('applyEdit applies a substring match only when no other reading of the texts writes another file', () => {
  describe('the snippet also fits elsewhere with its indentation shifted', () => {
    // The same two lines at two depths (a shell template in Go, a doc comment repeated in a macro).
    const file = [
      'case x in',
      '    a)',
      '        for c in $l; do',
      '            fi',
      '        done',
      '        ;;',
      'esac',
      'for c in $l; do',
      '        fi',
      '    done',
      '',
      'end',
      '',
    ].join('\n');
    it('refuses the exact match, naming both places and quoting their lines', () => {
      const r = refused(applyEdit(file, { oldText: '            fi\n        done\n', newText: '            fi\n        done # all\n' }));
      assert.deepEqual(r.matchLines, [4, 9]);
      assert.match(r.message, /oldText matches line 4 exactly, and line 9 with the indentation of every line shifted by the same amount/);
      assert.match(r.message, /\s4\t            fi\n\s+5\t        done/);
      assert.match(r.message, /\s9\t        fi\n\s+10\t    done/);
    });
    it('refuses it where typographic quotes were forgiven too', () => {
      const doc = '/// It\'s "one".\n/// Two.\nfn a() {\n    /// It\'s "one".\n    /// Two.\n    fn b() {}\n}\n';
      const r = refused(applyEdit(doc, { oldText: '/// It\u2019s \u201Cone\u201D.\n/// Two.', newText: '/// It\u2019s \u201Cone\u201D.\n/// Three.' }));
      assert.deepEqual(r.matchLines, [1, 4]);
    });
    it('refuses a leading line break matched as the end of a line of text where a blank line stands before the shifted place', () => {
      const py = 'def f():\n    if x:\n        y = 1\n\n    c = run(\n        1)\n    if z:\n        c = run(\n            2)\n';
      // Literally the break ends line 7 (`if z:`); read as a blank line, it is line 4, before `c = run(` shifted.
      const r = refused(applyEdit(py, { oldText: '\n        c = run(', newText: '\n        if y:\n            y = 2\n\n        c = run(' }));
      assert.deepEqual(r.matchLines, [7, 4]);
    });
    it('still applies the exact match when the other place differs in more than indentation', () => {
      const other = file.replace('\n    done\n', '\n    done2\n');
      const r = ok(applyEdit(other, { oldText: '            fi\n        done\n', newText: '            fi\n        done # all\n' }));
      assert.equal(r.strategy, 'exact');
      assert.equal(r.text, other.replace('            fi\n        done\n', '            fi\n        done # all\n'));
    });
  });

  describe("a one-line oldText sent without its line's indentation, newText adding lines", () => {
    const py = 'def f(kw):\n    ctx = kw.get("ctx")\n\n    return ctx\n';
    it('refuses added lines of which some are left of the line (as written, or relative to it?)', () => {
      const r = refused(applyEdit(py, { oldText: 'ctx = kw.get("ctx")\n', newText: 'ctx = kw.get("ctx")\nuse = (\n    ctx is not None\n)\n' }));
      assert.deepEqual(r.matchLines, [2]);
      assert.match(r.message, /oldText matches line 2 exactly but starts after that line's indentation \(4 spaces\)/);
      assert.match(r.message, /\s1\tdef f\(kw\):\n\s+2\t    ctx = kw.get\("ctx"\)/);
    });
    it('refuses them where typographic quotes were forgiven too, the file having CRLF', () => {
      const crlf = py.replace(/\n/g, '\r\n');
      refused(applyEdit(crlf, { oldText: 'ctx = kw.get(\u201Cctx\u201D)\n', newText: 'ctx = kw.get(\u201Cctx\u201D)\nlog(ctx)\n' }));
    });
    it('applies the literal replacement when every added line stands at or right of the line', () => {
      const r = ok(applyEdit(py, { oldText: 'ctx = kw.get("ctx")\n', newText: 'ctx = kw.get("ctx")\n    log(ctx)\n' }));
      assert.equal(r.text, py.replace('    ctx = kw.get("ctx")\n', '    ctx = kw.get("ctx")\n    log(ctx)\n'));
    });
  });

  describe('an empty newText for whole lines whose last line break oldText leaves out', () => {
    const file = '#!/usr/bin/env python  \nimport os\t\nimport sys\n';
    it('refuses: taken literally one empty line stays, deleting the lines would leave none', () => {
      const r = refused(applyEdit(file, { oldText: '#!/usr/bin/env python\nimport os', newText: '' }));
      assert.deepEqual(r.matchLines, [1]);
      assert.match(r.message, /newText is empty and oldText is the whole of lines 1–2 without the line break that ends line 2/);
    });
    it('deletes the lines when oldText ends with that line break', () => {
      assert.equal(ok(applyEdit(file, { oldText: '#!/usr/bin/env python\nimport os\n', newText: '' })).text, 'import sys\n');
    });
  });
});
