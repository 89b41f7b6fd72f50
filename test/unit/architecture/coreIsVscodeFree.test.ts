import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * src/core is the engine shared by the extension and the headless CLI: it must load in plain Node, so it
 * may never reach for `vscode`, statically or dynamically. esbuild refuses such a bundle too; this test
 * names the offending line before anything is built.
 */
const repoRoot = join(__dirname, '..', '..', '..');
const coreDir = join(repoRoot, 'src', 'core');

// `from 'vscode'`, `import 'vscode'`, `import('vscode')`, `require('vscode')`, `require.resolve('vscode')`,
// with any quote style and subpaths such as 'vscode/foo'.
const VSCODE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire(?:\.resolve)?\s*\(\s*)(['"`])vscode(?:\/[^'"`]*)?\1/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(?:[cm]?[jt]sx?)$/.test(name) ? [path] : [];
  });
}

function vscodeImports(source: string): number[] {
  return source.split('\n').flatMap((line, index) => (VSCODE_IMPORT.test(line) ? [index + 1] : []));
}

describe('architecture: src/core never imports vscode', () => {
  it('finds no static or dynamic import of vscode in any src/core file', () => {
    const files = sourceFiles(coreDir);
    assert.ok(files.length > 0, 'expected to scan at least one file under src/core');
    const offenders = files.flatMap((file) => vscodeImports(readFileSync(file, 'utf8')).map((line) => `${relative(repoRoot, file)}:${line}`));
    assert.deepEqual(offenders, [], `src/core must not import vscode:\n  ${offenders.join('\n  ')}`);
  });

  it('recognises every form of import it guards against', () => {
    const forms = [
      "import * as vscode from 'vscode';",
      'import { window } from "vscode";',
      "import type { Uri } from 'vscode';",
      "import 'vscode';",
      "const vscode = require('vscode');",
      'const v = require ( "vscode" );',
      "const v = await import('vscode');",
      'const v = require(`vscode`);',
      "require.resolve('vscode')",
      "import { x } from 'vscode/sub';",
    ];
    for (const form of forms) assert.deepEqual(vscodeImports(form), [1], `not detected: ${form}`);
    const innocent = ["import { z } from 'zod';", "const name = 'vscode';", "import { a } from './vscodeLike';"];
    for (const line of innocent) assert.deepEqual(vscodeImports(line), [], `false positive: ${line}`);
  });
});
