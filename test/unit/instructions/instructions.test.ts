import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseFrontMatter } from '../../../src/core/instructions/frontMatter';
import { readConvention } from '../../../src/core/instructions/conventions';
import { discoverInstructions } from '../../../src/core/instructions/discover';
import { globsMayApply, instructionsForPaths } from '../../../src/core/instructions/applies';
import type { InstructionFile } from '../../../src/core/contracts/instructions';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';

const file = (path: string, scope: InstructionFile['scope'], kind: InstructionFile['kind'] = 'agents'): InstructionFile => ({
  path,
  kind,
  scope,
  size: 1,
  hash: 'h',
  text: path,
  truncated: false,
  notes: [],
  excluded: false,
  unusable: false,
});

describe('project instructions', () => {
  describe('front matter', () => {
    it('reads scalars, quoted strings, flow and block lists, and booleans', () => {
      const fm = parseFrontMatter(
        '---\napplyTo: "**/*.ts, **/*.tsx"\nglobs:\n  - src/**\n  - "lib/*.js" # a comment\nalwaysApply: false\ndescription: A rule\n---\nBody text\n',
      );
      assert.ok(fm.ok);
      assert.deepEqual(fm.value.data, { applyTo: '**/*.ts, **/*.tsx', globs: ['src/**', 'lib/*.js'], alwaysApply: false, description: 'A rule' });
      assert.equal(fm.value.body, 'Body text\n');
    });

    it('reports what is malformed instead of throwing', () => {
      for (const text of ['---\nglobs: [a, b\n---\nx', '---\nno closing line\n', '---\n  indented: x\n---\n', '---\nkey: {a: 1}\n---\n']) {
        const fm = parseFrontMatter(text);
        assert.equal(fm.ok, false, text);
      }
      assert.deepEqual(parseFrontMatter('# no front matter').ok, true);
    });
  });

  describe('conventions', () => {
    it('takes Copilot applyTo and Cursor globs/alwaysApply; a file without a scope is for the planner only', () => {
      const copilot = readConvention('.github/instructions/ts.instructions.md', 'copilot-scoped', '---\napplyTo: "**/*.ts,src/**"\n---\nUse strict.');
      assert.deepEqual(copilot.ok && copilot.value.scope, { kind: 'globs', globs: ['**/*.ts', 'src/**'] });
      const everywhere = readConvention('.github/instructions/all.instructions.md', 'copilot-scoped', '---\napplyTo: "**"\n---\nAll.');
      assert.deepEqual(everywhere.ok && everywhere.value.scope, { kind: 'always' });
      const always = readConvention('.cursor/rules/a.mdc', 'cursor', '---\nalwaysApply: true\nglobs: src/**\n---\nA');
      assert.deepEqual(always.ok && always.value.scope, { kind: 'always' });
      const globs = readConvention('.cursor/rules/b.mdc', 'cursor', '---\nglobs: src/**/*.ts, test/**\nalwaysApply: false\n---\nB');
      assert.deepEqual(globs.ok && globs.value.scope, { kind: 'globs', globs: ['src/**/*.ts', 'test/**'] });
      const manual = readConvention('.cursor/rules/c.mdc', 'cursor', '---\ndescription: when writing SQL\n---\nC');
      assert.deepEqual(manual.ok && manual.value.scope, { kind: 'manual', description: 'when writing SQL' });
      const wrongType = readConvention('.cursor/rules/d.mdc', 'cursor', '---\nalwaysApply: maybe\n---\nD');
      assert.equal(wrongType.ok, false);
      assert.match(!wrongType.ok ? wrongType.error.note : '', /malformed front matter \(alwaysApply/);
    });
  });

  describe("which files apply to a step's paths", () => {
    const files = [
      file('AGENTS.md', { kind: 'folder', folder: '' }),
      file('packages/api/AGENTS.md', { kind: 'folder', folder: 'packages/api' }),
      file('packages/api/v2/AGENTS.md', { kind: 'folder', folder: 'packages/api/v2' }),
      file('CLAUDE.md', { kind: 'folder', folder: '' }, 'claude'),
      file('.github/copilot-instructions.md', { kind: 'always' }, 'copilot'),
      file('.github/instructions/ts.instructions.md', { kind: 'globs', globs: ['**/*.ts'] }, 'copilot-scoped'),
      file('.cursor/rules/sql.mdc', { kind: 'manual', description: '' }, 'cursor'),
    ];
    const paths = (p: string[]) =>
      instructionsForPaths(files, p)
        .map((f) => f.path)
        .sort();

    it('uses the nearest AGENTS.md up from a path, per convention, plus what applies always or by glob', () => {
      assert.deepEqual(paths(['packages/api/src/a.ts']), [
        '.github/copilot-instructions.md',
        '.github/instructions/ts.instructions.md',
        'CLAUDE.md',
        'packages/api/AGENTS.md',
      ]);
      assert.deepEqual(paths(['docs/readme.md']), ['.github/copilot-instructions.md', 'AGENTS.md', 'CLAUDE.md']);
      assert.deepEqual(paths([]), ['.github/copilot-instructions.md', 'AGENTS.md', 'CLAUDE.md'], 'a step with no file works at the root');
    });

    it('lets a glob reach the deeper files below it, and applyTo match a glob of the step', () => {
      assert.deepEqual(paths(['packages/api/**']), [
        '.github/copilot-instructions.md',
        '.github/instructions/ts.instructions.md',
        'CLAUDE.md',
        'packages/api/AGENTS.md',
        'packages/api/v2/AGENTS.md',
      ]);
      assert.equal(globsMayApply('src/**/*.ts', ['**/*.ts']), true);
      assert.equal(globsMayApply('src/**/*.py', ['**/*.ts']), false);
      assert.equal(globsMayApply('docs/guide.md', ['**/*.ts']), false);
      assert.equal(globsMayApply('src/**', ['src/lib/*.js']), true);
    });
  });

  describe('discovery through the Workspace port', () => {
    let dir = '';
    const put = (rel: string, text: string): void => {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), text);
    };
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'pe-instr-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('finds every convention, nested files too, hashes them, and leaves out what the user excluded or cannot be read', async () => {
      put('AGENTS.md', 'root');
      put('a/b/AGENTS.md', 'nested');
      put('node_modules/x/AGENTS.md', "a dependency's own");
      put('CLAUDE.md', 'claude');
      put('.github/copilot-instructions.md', 'copilot');
      put('.github/instructions/py.instructions.md', '---\napplyTo: "**/*.py"\n---\npython');
      put('.cursor/rules/r.mdc', '---\nalwaysApply: true\n---\ncursor');
      put('.clinerules/one.md', 'cline one');
      put('.clinerules/two.txt', 'cline two');
      const set = await discoverInstructions(await NodeWorkspace.open(dir), { exclude: ['CLAUDE.md'] });
      assert.deepEqual(
        set.files.map((f) => f.path),
        [
          'AGENTS.md',
          'CLAUDE.md',
          '.clinerules/one.md',
          '.clinerules/two.txt',
          '.github/copilot-instructions.md',
          '.cursor/rules/r.mdc',
          '.github/instructions/py.instructions.md',
          'a/b/AGENTS.md',
        ],
      );
      assert.equal(set.files.find((f) => f.path === 'CLAUDE.md')?.excluded, true);
      assert.match(set.files[0]!.hash, /^[0-9a-f]{64}$/);
    });

    it('cuts a file over either cap and says which; a .clinerules file counts too', async () => {
      put('.clinerules', 'y'.repeat(50));
      put('AGENTS.md', 'x'.repeat(200));
      put('CLAUDE.md', 'z'.repeat(150));
      const set = await discoverInstructions(await NodeWorkspace.open(dir), { limits: { maxFileChars: 100, maxTotalChars: 220 } });
      const byPath = new Map(set.files.map((f) => [f.path, f]));
      assert.equal(byPath.get('.clinerules')!.text.length, 50);
      assert.equal(byPath.get('AGENTS.md')!.text.length, 100);
      assert.match(byPath.get('AGENTS.md')!.notes.join(), /cut to 100 of 200 characters \(the per-file cap\)/);
      assert.equal(byPath.get('CLAUDE.md')!.text.length, 70);
      assert.match(byPath.get('CLAUDE.md')!.notes.join(), /cut to 70 of 150 characters \(the instructions' total cap\)/);
      assert.equal(byPath.get('CLAUDE.md')!.truncated, true);
    });
  });
});
