import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * The arrows between the top folders of src (docs/architecture.md, "Which way imports run"), read from
 * every import and export of every file with the TypeScript parser, so `import type` is told apart from a
 * value import:
 *   - src/core imports nothing above it (node, vscode, webview);
 *   - src/node never imports src/vscode or src/webview;
 *   - src/webview takes only types from outside itself, and only from src/core/contracts; inside it, only
 *     types from protocol.ts (the zod schemas, read by the host) — protocol.ts itself sees only zod and the
 *     contracts.
 * Inside src/core, layers.test.ts and noCircles.test.ts hold the finer order.
 */
const srcDir = join(__dirname, '..', '..', '..', 'src');
const protocolFile = join(srcDir, 'webview', 'protocol.ts');

interface Import {
  /** The importing file, relative to src. */
  file: string;
  /** The specifier as written. */
  specifier: string;
  /** The target file without extension, for a relative specifier. */
  target: string | undefined;
  typeOnly: boolean;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : /\.ts$/.test(e.name) && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

/** Whether an import or export declaration brings in types only (`import type`, or every named binding `type`). */
function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node))
    return node.isTypeOnly || (!!node.exportClause && ts.isNamedExports(node.exportClause) && node.exportClause.elements.every((e) => e.isTypeOnly));
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

function importsOf(file: string, text = readFileSync(file, 'utf8')): Import[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean): void => {
    const target = specifier.startsWith('.') ? resolve(dirname(file), specifier).replace(/\.ts$/, '') : undefined;
    found.push({ file: relative(srcDir, file), specifier, target, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, isTypeOnly(node));
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0]!)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require'))
        add((node.arguments[0] as ts.StringLiteral).text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const allImports = filesUnder(srcDir).flatMap((file) => importsOf(file));
const folderOf = (target: string | undefined): string | undefined => (target ? relative(srcDir, target).split(sep)[0] : undefined);
const describeImport = (i: Import): string => `${i.file} → ${i.specifier}${i.typeOnly ? ' (type)' : ''}`;
const from = (folder: string): Import[] => allImports.filter((i) => i.file.startsWith(`${folder}${sep}`));

describe('architecture: imports between the top folders of src point down', () => {
  it('finds imports into every top folder', () => {
    const folders = new Set(allImports.map((i) => folderOf(i.target)));
    for (const folder of ['core', 'node', 'vscode', 'webview']) assert.ok(folders.has(folder), `found imports of ${folder}`);
  });

  it('tells a type-only import from a value import, in every form', () => {
    const forms: [string, boolean][] = [
      ["import type { A } from './protocol';", true],
      ["import { type A, type B } from './protocol';", true],
      ["export type { A } from './protocol';", true],
      ["type T = import('./protocol').A;", true],
      ["import { A, type B } from './protocol';", false],
      ["import * as p from './protocol';", false],
      ["import './protocol';", false],
      ["export { A } from './protocol';", false],
      ["const p = await import('./protocol');", false],
      ["const p = require('./protocol');", false],
    ];
    for (const [text, typeOnly] of forms) {
      assert.deepEqual(
        importsOf(protocolFile, text).map((i) => [i.target, i.typeOnly]),
        [[protocolFile.replace(/\.ts$/, ''), typeOnly]],
        text,
      );
    }
  });

  it('keeps src/core below everything: no import of node, vscode or webview', () => {
    const offenders = from('core').filter((i) => ['node', 'vscode', 'webview'].includes(folderOf(i.target) ?? '') || i.specifier === 'vscode');
    assert.deepEqual(offenders.map(describeImport), []);
  });

  it('keeps src/node away from vscode: no import of src/vscode, src/webview or the vscode API', () => {
    const offenders = from('node').filter((i) => ['vscode', 'webview'].includes(folderOf(i.target) ?? '') || i.specifier === 'vscode');
    assert.deepEqual(offenders.map(describeImport), []);
  });

  it('lets src/webview take only types from the core contracts and the protocol module', () => {
    const offenders = from('webview')
      .filter((i) => i.target !== undefined || i.specifier === 'zod' || i.specifier === 'vscode')
      .filter((i) => i.file !== relative(srcDir, protocolFile))
      .filter((i) => {
        if (i.specifier === 'zod' || i.specifier === 'vscode') return true;
        const folder = folderOf(i.target);
        if (folder === 'webview') return i.target === protocolFile.replace(/\.ts$/, '') && !i.typeOnly;
        return !i.typeOnly || !relative(srcDir, i.target!).startsWith(`core${sep}contracts${sep}`);
      });
    assert.deepEqual(offenders.map(describeImport), []);
  });

  it('lets protocol.ts see only zod and the core contracts', () => {
    const offenders = allImports
      .filter((i) => i.file === relative(srcDir, protocolFile))
      .filter((i) => i.specifier !== 'zod' && !(i.target && relative(srcDir, i.target).startsWith(`core${sep}contracts${sep}`)));
    assert.deepEqual(offenders.map(describeImport), []);
  });
});
