import { strict as assert } from 'node:assert';
import { applyEdit, type ApplyEditResult } from '../../../src/core/edits/applyEdit';

function ok(r: ApplyEditResult): { text: string; strategy: string } {
  if (!r.ok) assert.fail(`expected success, got ${r.reason}: ${r.message}`);
  return r;
}

function refused(r: ApplyEditResult): string {
  if (r.ok) assert.fail(`expected a refusal, got:\n${r.text}`);
  assert.equal(r.reason, 'ambiguous', r.message);
  return r.message;
}

describe('applyEdit places every blank line with certainty, or refuses', () => {
  describe('oldText lacks a blank line the file has', () => {
    it("writes it once when newText has it at that place (newText written with the file's blank lines)", () => {
      const r = ok(applyEdit('a();\n\nb();\nc();\n', { oldText: 'a();\nb();', newText: 'a();\n\nb2();' }));
      assert.equal(r.strategy, 'blank_lines');
      assert.equal(r.text, 'a();\n\nb2();\nc();\n');
    });
    it('keeps it when newText lacks it too and keeps the lines on both sides of it (newText copied from the same view)', () => {
      const r = ok(applyEdit('a();\n\nb();\nc();\n', { oldText: 'a();\nb();\nc();', newText: 'a();\nb();\nc2();' }));
      assert.equal(r.text, 'a();\n\nb();\nc2();\n');
    });
    it('refuses when newText lacks it and changes a line beside it: kept, or removed with that line?', () => {
      const message = refused(applyEdit('a();\n\nb();\nc();\n', { oldText: 'a();\nb();', newText: 'a();\nb2();' }));
      assert.match(message, /between lines 1 and 3 the file has 1 blank line and oldText 0 blank lines, and newText changes a line beside them/);
      assert.match(message, /\s1\ta\(\);\n\s+2\t\n\s+3\tb\(\);/);
    });
    it('reads newText lacking it beside a changed line the way another drifted gap of the same edit shows', () => {
      const file = 'a();\n\nb();\nc();\n\nd();\n';
      // Between a and b (both kept) newText lacks the file's blank line too: copied, so c's neighbour keeps its own.
      assert.equal(ok(applyEdit(file, { oldText: 'a();\nb();\nc();\nd();', newText: 'a();\nb();\nc();\nd2();' })).text, 'a();\n\nb();\nc();\n\nd2();\n');
      // There newText has the file's blank line: written with the file's, so the one beside d2 is removed.
      assert.equal(ok(applyEdit(file, { oldText: 'a();\nb();\nc();\nd();', newText: 'a();\n\nb();\nc();\nd2();' })).text, 'a();\n\nb();\nc();\nd2();\n');
    });
    it('refuses when newText has more blank lines there than the file and oldText, naming the counts and lines', () => {
      const message = refused(applyEdit('a();\n\nb();\nc();\n', { oldText: 'a();\nb();', newText: 'a();\n\n\nb2();' }));
      assert.match(message, /between lines 1 and 3 the file has 1 blank line, oldText 0 blank lines and newText 2 blank lines/);
      assert.match(message, /\s1\ta\(\);\n\s+2\t\n\s+3\tb\(\);/);
    });
    it("refuses a removal beside the file's blank line newText never saw: kept, or removed with the lines?", () => {
      const message = refused(applyEdit('c();\n\nx();\n\nd();\n', { oldText: 'c();\nx();\n\nd();', newText: 'c();\nd();' }));
      assert.match(message, /newText removes lines between lines 1 and 5, where the file has 2 blank lines and oldText 1 blank line/);
    });
    it('refuses a removal whose newText has the blank lines the file has there (written, or a removed line turned blank?)', () => {
      const message = refused(applyEdit('s\n\nm\np\n', { oldText: 's\nm\np', newText: 's\n\np' }));
      assert.match(message, /newText removes lines between lines 1 and 4, where the file has 1 blank line and oldText 0 blank lines/);
    });
    it("refuses a removal where newText's blank line may be oldText's kept or the file's, and nothing else tells which", () => {
      const message = refused(applyEdit('c();\n\nx();\n\nd();\n', { oldText: 'c();\nx();\n\nd();', newText: 'c();\n\nd();' }));
      assert.match(message, /newText removes lines between lines 1 and 5, where the file has 2 blank lines and oldText 1 blank line/);
    });
    it("reads such a removal the way another drifted gap of the same edit shows: written with the file's blank lines", () => {
      const file = 'a();\n\nb();\nc();\n\nx();\n\nd();\n';
      const r = ok(applyEdit(file, { oldText: 'a();\nb();\nc();\nx();\n\nd();', newText: 'a();\n\nb();\nc();\n\nd();' }));
      assert.equal(r.text, 'a();\n\nb();\nc();\n\nd();\n');
    });
    it('reads such a removal the way another drifted gap of the same edit shows: copied from oldText', () => {
      const file = 'a();\n\nb();\nc();\n\nx();\n\nd();\n';
      const r = ok(applyEdit(file, { oldText: 'a();\nb();\nc();\nx();\n\nd();', newText: 'a();\nb();\nc();\n\nd();' }));
      assert.equal(r.text, 'a();\n\nb();\nc();\n\n\nd();\n');
    });
    it("refuses lines inserted where the file's blank line could belong before or after them", () => {
      const message = refused(applyEdit('a();\n\nc();\n', { oldText: 'a();\nc();', newText: 'a();\n\nb();\nc();' }));
      assert.match(message, /newText inserts lines between lines 1 and 3, where the file has 1 blank line and oldText 0 blank lines/);
    });
  });

  describe('oldText has a blank line the file lacks', () => {
    it("drops it when newText drops it, without losing one of the file's own", () => {
      const r = ok(applyEdit('a();\nb();\n\nc();\n', { oldText: 'a();\n\nb();\n\nc();', newText: 'a();\nb2();\n\nc();' }));
      assert.equal(r.text, 'a();\nb2();\n\nc();\n');
    });
    it('writes nothing for it when newText keeps it', () => {
      assert.equal(ok(applyEdit('a();\nb();\nc();\n', { oldText: 'a();\n\nb();', newText: 'a();\n\nB();' })).text, 'a();\nB();\nc();\n');
    });
    it('refuses when newText has no blank line where the file has one and oldText two', () => {
      const message = refused(applyEdit('a();\n\nb();\nc();\n', { oldText: 'a();\n\n\nb();\nc();', newText: 'a();\nb();\nc2();' }));
      assert.match(message, /the file has 1 blank line, oldText 2 blank lines and newText 0 blank lines/);
    });
  });

  describe('at the edges of oldText (every tier)', () => {
    it("does not write the file's blank line above the match twice when newText starts with it", () => {
      const r = ok(applyEdit('a();\n\nb();\nc();\n', { oldText: 'b();\nc();', newText: '\nb();\nC();' }));
      assert.equal(r.strategy, 'exact');
      assert.equal(r.text, 'a();\n\nb();\nC();\n');
    });
    it("does not write the file's blank line below the match twice when newText ends with it", () => {
      const r = ok(applyEdit('a();\nb();\n\nc();\n', { oldText: 'a();\nb();', newText: 'A();\nb();\n' }));
      assert.equal(r.text, 'A();\nb();\n\nc();\n');
    });
    it('refuses a newText repeating the blank lines above when oldText starts with one of them (repeated, or its own added?)', () => {
      const file = 'import x\n\n\nclass T:\n    pass\n';
      const message = refused(applyEdit(file, { oldText: '\nclass T:', newText: '\n\ndef f():\n    pass\n\n\nclass T:' }));
      assert.match(message, /the file has 2 blank lines, 1 blank line of them outside oldText \(which has 1\); newText has 2 there/);
      assert.equal(applyEdit(file, { oldText: '\n\nclass T:', newText: '\n\ndef f():\n    pass\n\n\nclass T:' }).ok, true);
    });
    it('refuses a newText that starts with more blank lines than the file has above the match', () => {
      const message = refused(applyEdit('a();\n\nb();\nc();\n', { oldText: 'b();\nc();', newText: '\n\nb();\nC();' }));
      assert.match(message, /the file has 1 blank line, 1 blank line of them outside oldText \(which has 0\); newText has 2 there/);
    });
    it('keeps the line break ending the line above when oldText begins with it and newText does not', () => {
      const r = ok(applyEdit('prev();\nx();\ny();\nnext();\n', { oldText: '\nx();\ny();', newText: 'x();\ny2();' }));
      assert.equal(r.text, 'prev();\nx();\ny2();\nnext();\n');
    });
    it('keeps the line break after the match when oldText ends with one and newText does not', () => {
      const r = ok(applyEdit('prev();\nx();\ny();\nnext();\n', { oldText: 'x();\ny();\n', newText: 'x();\ny2();' }));
      assert.equal(r.text, 'prev();\nx();\ny2();\nnext();\n');
    });
    it('applies an exact match literally when oldText ends with a line break before a blank line and newText does not', () => {
      // The line break ending oldText is the one before the file's blank line: sent without it, newText's
      // last line takes the blank line's break and the blank line goes, as the literal replacement has it.
      for (const blank of ['', '  ', '\t']) {
        const file = `prev();\nx();\ny();\n${blank}\nnext();\n`;
        const edit = { oldText: 'x();\ny();\n', newText: 'x();\ny2();' };
        const r = ok(applyEdit(file, edit));
        assert.equal(r.strategy, 'exact');
        assert.equal(r.text, file.replace(edit.oldText, edit.newText), JSON.stringify(blank));
        assert.equal(r.text, `prev();\nx();\ny2();${blank}\nnext();\n`);
      }
      // The same with CRLF: the file's blank line's break ends the new line.
      const crlf = ok(applyEdit('x();\r\ny();\r\n\r\nnext();\r\n', { oldText: 'x();\r\ny();\r\n', newText: 'x();\r\ny2();' }));
      assert.equal(crlf.text, 'x();\r\ny2();\r\nnext();\r\n');
    });
    it("keeps a file's blank line below when oldText ends with a blank line the file lacks and newText with none", () => {
      const r = ok(applyEdit('prev();\nx();\ny();\nnext();\n', { oldText: 'x();\ny();\n\n', newText: 'x();\ny2();' }));
      assert.equal(r.text, 'prev();\nx();\ny2();\nnext();\n');
    });
    it('ends the file with one line break when newText adds the one oldText stops before', () => {
      const r = ok(applyEdit('a();\nlast();\n', { oldText: 'last();', newText: 'final();\n' }));
      assert.equal(r.text, 'a();\nfinal();\n');
    });
    it('still deletes a blank line oldText includes exactly and newText leaves out', () => {
      const r = ok(applyEdit('prev();\n\nx();\nnext();\n', { oldText: '\nx();', newText: 'x2();' }));
      assert.equal(r.text, 'prev();\nx2();\nnext();\n');
    });
  });

  describe('what a refusal shows', () => {
    it('numbers every file line the match covers, so oldText can be sent again as the file has it', () => {
      const file = 'head();\nc();\n\nx();\n\nd();\ne();\nf();\ntail();\n';
      const message = refused(applyEdit(file, { oldText: 'c();\nx();\n\nd();\ne();\nf();', newText: 'c();\n\nd();\ne();\nf();' }));
      for (const [n, line] of [
        [2, 'c();'],
        [3, ''],
        [4, 'x();'],
        [7, 'e();'],
        [8, 'f();'],
      ] as const)
        assert.ok(message.includes(`${String(n).padStart(6)}\t${line}\n`), `line ${n}`);
    });
  });

  describe('repeated lines', () => {
    it('pairs the lines oldText and newText share at their start and end first', () => {
      const r = ok(applyEdit('A();\nX();\n}\n\nY();\n', { oldText: 'A();\nX();\n}\nY();', newText: 'A();\n}\nZ();\n}\nY();' }));
      assert.equal(r.text, 'A();\n}\nZ();\n}\n\nY();\n');
    });
    it("refuses when a repeated line pairs two ways and the file's blank line would land in different places", () => {
      // K and L show newText copied from a view without the file's blank lines: the one after } is kept, after either }.
      const file = 'K();\n\nL();\nA();\nX();\n}\n\nW();\nY();\n';
      const message = refused(applyEdit(file, { oldText: 'K();\nL();\nA();\nX();\n}\nW();\nY();', newText: 'K();\nL();\nA();\n}\nZ();\n}\nQ();\nY();' }));
      assert.match(message, /pair with oldText's in two ways/);
    });
  });
});
