import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build, type Metafile } from 'esbuild';

/**
 * src/core does no I/O and bundles no SDK (issue 19): it reaches the disk, the host and the model
 * providers only through its ports, which src/node and src/vscode implement. Two checks, in this order:
 *   1. no src/core file imports the file system, the OS, child processes or a model SDK — static, dynamic
 *      or `require`, with or without the `node:` prefix, subpaths included (`fs/promises`, `openai/...`);
 *   2. the library bundle (dist/core.js, built here from src/core/index.ts the way esbuild.mjs builds it)
 *      holds no module from either SDK's package, by esbuild's own record of its inputs.
 */
const repoRoot = join(__dirname, '..', '..', '..');
const coreDir = join(repoRoot, 'src', 'core');

const FORBIDDEN = ['fs', 'os', 'child_process', 'openai', '@anthropic-ai/sdk'];
const escaped = FORBIDDEN.map((m) => m.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
const FORBIDDEN_IMPORT = new RegExp(
  `(?:\\bfrom\\s*|\\bimport\\s*\\(?\\s*|\\brequire(?:\\.resolve)?\\s*\\(\\s*)(['"\`])(?:node:)?(?:${escaped})(?:\\/[^'"\`]*)?\\1`,
);

/** A module of either SDK's package, wherever node_modules is (the worktree may link it from elsewhere). */
const SDK_INPUT = /(?:^|\/)node_modules\/(?:openai|@anthropic-ai\/sdk)\//;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(?:[cm]?[jt]sx?)$/.test(name) ? [path] : [];
  });
}

function forbiddenImports(source: string): number[] {
  return source.split('\n').flatMap((line, index) => (FORBIDDEN_IMPORT.test(line) ? [index + 1] : []));
}

/** Bundles like esbuild.mjs's dist/core.js target, in memory, and returns esbuild's metafile. */
async function bundleInputs(entry: { file: string } | { contents: string }): Promise<Metafile> {
  const result = await build({
    ...('file' in entry ? { entryPoints: [entry.file] } : { stdin: { contents: entry.contents, resolveDir: repoRoot, loader: 'ts' } }),
    absWorkingDir: repoRoot,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return result.metafile;
}

const sdkInputs = (metafile: Metafile): string[] => Object.keys(metafile.inputs).filter((input) => SDK_INPUT.test(input));

describe('architecture: src/core does no I/O and bundles no SDK', () => {
  it('finds no import of fs, os, child_process, openai or @anthropic-ai/sdk in any src/core file', () => {
    const files = sourceFiles(coreDir);
    assert.ok(files.length > 0, 'expected to scan at least one file under src/core');
    const offenders = files.flatMap((file) => forbiddenImports(readFileSync(file, 'utf8')).map((line) => `${relative(repoRoot, file)}:${line}`));
    assert.deepEqual(offenders, [], `src/core must reach these through its ports (src/node implements them):\n  ${offenders.join('\n  ')}`);
  });

  it('recognises every form of import it guards against', () => {
    const forms = [
      "import * as fs from 'node:fs';",
      "import { readFile } from 'fs/promises';",
      "import { promises } from 'node:fs/promises';",
      'import * as os from "os";',
      "import { spawn } from 'node:child_process';",
      "const cp = require('child_process');",
      "import Anthropic from '@anthropic-ai/sdk';",
      "import type { MessageParam } from '@anthropic-ai/sdk/resources/messages/messages';",
      "import OpenAI from 'openai';",
      "const m = await import('openai/resources/chat');",
      "require.resolve('node:os')",
    ];
    for (const form of forms) assert.deepEqual(forbiddenImports(form), [1], `not detected: ${form}`);
    const innocent = [
      "import * as path from 'node:path';",
      "import { createHash } from 'node:crypto';",
      "import { a } from './fsLike';",
      "import { b } from '../policy/osFacts';",
      "const name = 'openai';",
      "import { c } from 'openai-compatible';",
    ];
    for (const line of innocent) assert.deepEqual(forbiddenImports(line), [], `false positive: ${line}`);
  });

  it('builds dist/core.js from src/core/index.ts with no module of either SDK in it', async function () {
    this.timeout(60_000);
    const metafile = await bundleInputs({ file: 'src/core/index.ts' });
    assert.ok(
      Object.keys(metafile.inputs).some((input) => input.endsWith('src/core/index.ts')),
      'the bundle was built from the core entry',
    );
    assert.deepEqual(sdkInputs(metafile), [], 'dist/core.js must not bundle a model SDK');
  });

  it('would see an SDK that reached the bundle', async function () {
    this.timeout(60_000);
    const metafile = await bundleInputs({ contents: "export { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';" });
    assert.ok(sdkInputs(metafile).length > 0, 'the check found no SDK module in a bundle that imports one');
  });
});
