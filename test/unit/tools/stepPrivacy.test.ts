/**
 * What a staged step keeps for itself, as a table: the user's ignore rules as the attempt began (with the
 * file and pattern named), tool caches — and never a path git tracks, nor a folder that holds one.
 */
import { strict as assert } from 'node:assert';
import { privacyFrom, type PrivacyFacts } from '../../../src/core/tools/stepPrivacy';
import { groupedList, namedList } from '../../../src/core/tools/pathSummary';

const facts: PrivacyFacts = {
  ignoreFiles: [
    { dir: '', text: 'node_modules/\ndist/\ntmp/\n*.log\nbuild/\n', name: '.gitignore' },
    { dir: 'packages/a', text: 'out/\n', name: 'packages/a/.gitignore' },
  ],
  excludes: [
    { dir: '', text: 'scratch/\n', name: '.git/info/exclude' },
    { dir: '', text: '.idea-local/\n', name: 'your global git excludes' },
  ],
  tracked: ['package.json', 'test/math.test.js', 'tmp/.keep', 'src/a.js', 'dist/keep-me.js'],
};

describe('step privacy', () => {
  const why = privacyFrom(facts);
  const table: [string, boolean, string | undefined][] = [
    ['dist', true, undefined], // holds a tracked file: never kept whole
    ['dist/main.js', false, 'in dist/, which .gitignore ignores (dist/)'],
    ['dist/keep-me.js', false, undefined], // tracked
    ['tmp', true, undefined], // tmp/.keep is tracked
    ['tmp/app.sock', false, 'in tmp/, which .gitignore ignores (tmp/)'],
    ['tmp/cache', true, 'in tmp/, which .gitignore ignores (tmp/)'],
    ['build', true, 'ignored by .gitignore (build/)'],
    ['debug.log', false, 'ignored by .gitignore (*.log)'],
    ['packages/a/out', true, 'ignored by packages/a/.gitignore (out/)'],
    ['scratch', true, 'ignored by .git/info/exclude (scratch/)'],
    ['.idea-local', true, 'ignored by your global git excludes (.idea-local/)'],
    ['node_modules/.cache', true, 'a tool cache or dependency folder'],
    ['pkg/__pycache__', true, 'a tool cache or dependency folder'],
    ['package.json', false, undefined],
    ['test', true, undefined],
    ['src/new.js', false, undefined],
  ];
  for (const [path, dir, expected] of table) {
    it(`${path}${dir ? '/' : ''} → ${expected ?? 'not private'}`, () => assert.equal(why(path, dir), expected));
  }

  it('a tracked file is never private, whatever ignores it (a .gitignore naming package.json and test/)', () => {
    const forged = privacyFrom({ ...facts, ignoreFiles: [{ dir: '', text: 'package.json\ntest/\n', name: '.gitignore' }] });
    assert.equal(forged('package.json', false), undefined);
    assert.equal(forged('test', true), undefined);
    assert.equal(forged('test/forged.test.js', false), 'in test/, which .gitignore ignores (test/)');
  });
});

describe('path summaries', () => {
  it('names a few dozen paths and counts the rest', () => {
    const many = Array.from({ length: 16_000 }, (_, i) => `empty/${i}`);
    const text = namedList(many);
    assert.match(text, /empty\/29, … and 15970 more \(16000 in all\)$/);
    assert.ok(text.length < 1_000);
  });

  it('groups by reason, each reason said once, within one budget', () => {
    const items = [
      { name: 'README.md (content)', why: 'outside the globs' },
      { name: 'docs/a.md (new)', why: 'outside the globs' },
      { name: 'big.bin (content)', why: "the checkpoint's limit" },
    ];
    assert.equal(groupedList(items), "README.md (content), docs/a.md (new): outside the globs; big.bin (content): the checkpoint's limit");
    assert.equal(groupedList(items, 1), 'README.md (content) … and 1 more: outside the globs; … and 1 more for other reasons (3 in all)');
  });
});
